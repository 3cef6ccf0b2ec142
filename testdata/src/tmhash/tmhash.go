// Package tmhash is cometbft's tmhash of v0.38: a helper that returns the
// SHA-256 of its argument as a slice, and its variadic form.
package tmhash

import "crypto/sha256"

// Sum returns the SHA-256 of bz.
func Sum(bz []byte) []byte { // want Sum:"hashes parameter 0"
	h := sha256.Sum256(bz)
	return h[:]
}

// SumMany returns the SHA-256 of the concatenation of data and rest.
func SumMany(data []byte, rest ...[]byte) []byte { // want SumMany:"sums its parts with crypto/sha256.New"
	h := sha256.New()
	h.Write(data)
	for _, data := range rest {
		h.Write(data)
	}
	return h.Sum(nil)
}
