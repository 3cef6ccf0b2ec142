package concathashinline

import "crypto/sha256"

// hashFn returns the SHA-256 of data.
func hashFn(data []byte) []byte {
	res := sha256.Sum256(data)
	return res[:]
}

// salted hashes b after a prefix: not a standard sum of b.
func salted(b []byte) []byte {
	h := sha256.New()
	h.Write(prefix)
	h.Write(b)
	return h.Sum(nil)
}

// hashFnArray returns the SHA-256 of data as an array.
func hashFnArray(data []byte) [32]byte { return sha256.Sum256(data) }
