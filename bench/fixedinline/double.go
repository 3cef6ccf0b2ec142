package fixedinline

import "crypto/sha256"

// doubleSum returns the SHA-256 of the SHA-256 of b, as btcd's
// chainhash.DoubleHashH does. It is declared apart from naive.go, as such a
// helper is in another file or package of real code: the fix of its callers
// stays in their file.
func doubleSum(b []byte) [sha256.Size]byte {
	first := sha256.Sum256(b)
	return sha256.Sum256(first[:])
}

// DoubleSum returns the SHA-256 of the SHA-256 of b: the floor of the double
// sum of parts, the whole message built once.
func DoubleSum(b []byte) [sha256.Size]byte {
	return doubleSum(b)
}
