package concathash

import "crypto/sha256"

// sumOtherFile returns the SHA-256 of b: its callers in another file hash
// their concatenations with it.
func sumOtherFile(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

// saltedOtherFile hashes b after a salt: not a standard sum of b.
func saltedOtherFile(b []byte) []byte {
	h := sha256.New()
	h.Write(leafPrefix)
	h.Write(b)
	return h.Sum(nil)
}
