// Package chainhash is btcd's chainhash: helpers that return the SHA-256 of
// the SHA-256 of their argument, as a named array and as a slice.
package chainhash

import (
	"crypto/sha256"
	"encoding/hex"
)

// Hash is a double SHA-256.
type Hash [32]byte

// String returns the hash in hex, as btcd's does (byte-reversed there).
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// DoubleHashB calculates hash(hash(b)) and returns the resulting bytes.
func DoubleHashB(b []byte) []byte { // want DoubleHashB:"hashes parameter 0"
	first := sha256.Sum256(b)
	second := sha256.Sum256(first[:])
	return second[:]
}

// DoubleHashH calculates hash(hash(b)) and returns the resulting bytes as a
// Hash.
func DoubleHashH(b []byte) Hash { // want DoubleHashH:"hashes parameter 0"
	first := sha256.Sum256(b)
	return Hash(sha256.Sum256(first[:]))
}

// TruncatedDoubleHashH hashes only half of the first sum: not the sum of a
// sum.
func TruncatedDoubleHashH(b []byte) Hash { // want TruncatedDoubleHashH:"hashes parameter 0"
	first := sha256.Sum256(b)
	return Hash(sha256.Sum256(first[:16]))
}
