// Package murmur3 stands in for github.com/spaolacci/murmur3 in the testdata:
// the same API, computed here by hash/fnv.
package murmur3

import (
	"hash"
	"hash/fnv"
)

// Hash64 is murmur3's 64-bit hasher.
type Hash64 interface {
	hash.Hash64
}

// New64 returns a 64-bit hasher. Like the real one, whose digest points to
// itself, it always allocates.
//
//go:noinline
func New64() Hash64 { return fnv.New64a() }

// Sum64 returns the 64-bit hash of data.
func Sum64(data []byte) uint64 { // want Sum64:"hashes parameter 0"
	h := fnv.New64a()
	h.Write(data)
	return h.Sum64()
}
