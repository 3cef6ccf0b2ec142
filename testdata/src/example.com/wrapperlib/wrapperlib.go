// Package wrapperlib exports constructor wrappers: their returnsHasher facts
// make their calls constructor sites in the packages that import it.
package wrapperlib

import (
	"crypto/sha256"
	"hash"

	"golang.org/x/crypto/blake2b"
)

// NewBranchHasher returns a hasher that always allocates.
func NewBranchHasher() hash.Hash { // want NewBranchHasher:"returns a blake2b.New256 hasher \\(allocates always\\)"
	h, _ := blake2b.New256(nil)
	return h
}

// NewSHA returns a hasher that stays on the stack where NewSHA is inlined.
func NewSHA() hash.Hash { return sha256.New() } // want NewSHA:"returns a sha256.New hasher \\(allocates on escape\\)"

// NewKeyed panics on the constructor's error.
func NewKeyed(key []byte) hash.Hash { // want NewKeyed:"returns a blake2b.New256 hasher \\(allocates always\\)"
	h, err := blake2b.New256(key)
	if err != nil {
		panic(err)
	}
	return h
}

// Prefixed writes into its hasher: no wrapper, no fact.
func Prefixed() hash.Hash {
	h := sha256.New()
	h.Write([]byte("prefix"))
	return h
}
