// Package hashutil has a helper that only hashes its argument, as tmhash.Sum
// does: callers in other packages learn it from a fact.
package hashutil

import "crypto/sha256"

// Sum returns the SHA-256 of b.
func Sum(b []byte) [32]byte { return sha256.Sum256(b) } // want Sum:"hashes parameter 0"

// SumSlice returns the SHA-256 of b as a slice, as cometbft's tmhash.Sum
// does before v0.38.
func SumSlice(b []byte) []byte { // want SumSlice:"hashes parameter 0"
	h := sha256.Sum256(b)
	return h[:]
}

// Hash is a SHA-256 digest, as sigsum's crypto.Hash is.
type Hash [32]byte

// HashBytes returns the SHA-256 of b as a Hash, as sigsum's crypto.HashBytes
// does.
func HashBytes(b []byte) Hash { return sha256.Sum256(b) } // want HashBytes:"hashes parameter 0"
