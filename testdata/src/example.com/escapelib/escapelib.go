// Package escapelib exports helpers that take a hasher: their parameter
// facts say what they do with it.
package escapelib

import (
	"crypto/sha3"
	"hash"
)

// Digest calls its hasher through hash.Hash and is never inlined.
func Digest(h hash.Hash, b []byte) []byte { // want Digest:"params: transient unknown" Digest:"hashes parameter 1"
	h.Reset()
	h.Write(b)
	return h.Sum(nil)
}

// Feed uses the concrete *sha3.SHA3: the hasher stays.
func Feed(h *sha3.SHA3, b []byte) { // want Feed:"params: stays unknown"
	h.Write(b)
	h.Write(b)
	h.Write(b)
}
