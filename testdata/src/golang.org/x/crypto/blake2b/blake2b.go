// Package blake2b stands in for golang.org/x/crypto/blake2b in hashalloc's
// tests: like the real one, its constructors always heap allocate.
package blake2b

import (
	"crypto/sha256"
	"crypto/sha512"
	"hash"
)

type digest struct{ hash.Hash }

// New256 returns a hasher, and an error that is always nil here.
//
//go:noinline
func New256(key []byte) (hash.Hash, error) { return &digest{sha256.New()}, nil }

// Sum256 returns the checksum of data (a stand-in: SHA-256).
func Sum256(data []byte) [32]byte { return sha256.Sum256(data) }

// New512 returns a hasher, and an error that is always nil here.
//
//go:noinline
func New512(key []byte) (hash.Hash, error) { return &digest{sha512.New()}, nil }

// Sum512 returns the checksum of data (a stand-in: SHA-512).
func Sum512(data []byte) [64]byte { return sha512.Sum512(data) }
