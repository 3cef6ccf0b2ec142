// Package hashing exports its hash functions as variables of function type:
// the hashesArg fact of each says what it holds, when the package never
// writes it.
package hashing

import "crypto/sha256"

// Hash is a literal that returns the sum of its argument.
var Hash = func(b []byte) [32]byte { return sha256.Sum256(b) } // want Hash:"hashes parameter 0"

// Sum holds sha256.Sum256 itself.
var Sum = sha256.Sum256 // want Sum:"hashes parameter 0"

// Leaf returns the sum as a slice.
var Leaf = func(b []byte) []byte { // want Leaf:"hashes parameter 0"
	s := sha256.Sum256(b)
	return s[:]
}

// Digest writes its argument into a hasher and returns its Sum(nil).
var Digest = func(b []byte) []byte { // want Digest:"hashes parameter 0"
	h := sha256.New()
	h.Write(b)
	return h.Sum(nil)
}

// Swappable is written by SetSwappable: what it holds is not known.
var Swappable = sha256.Sum256

// SetSwappable replaces Swappable.
func SetSwappable(f func([]byte) [32]byte) { Swappable = f }

// Counted counts its calls: it hashes its argument, and does more.
var Counted = func(b []byte) [32]byte { // want Counted:"hashes parameter 0"
	calls++
	return sha256.Sum256(b)
}

var calls int
