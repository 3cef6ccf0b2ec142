// Package keptimport is a Merkle tree whose hashing helper stays for the
// callers that hash one buffer, while the fix gives the caller that builds a
// concatenation a variadic form: the helper's import must stay (go-square's
// merkle package, where the fix once removed it: "undefined: sha256").
package keptimport

import "crypto/sha256"

var leafPrefix = []byte{0}

// emptyHash keeps calling hash with one buffer.
func emptyHash() []byte { return hash([]byte{}) }

func leafHash(leaf []byte) []byte {
	return hash(append(leafPrefix, leaf...)) // want `concat-hash: append\(leafPrefix, leaf...\) builds a buffer only to hash it with hash; automatic fix: hash the parts with a variadic form of hash, declared next to it`
}

func hash(b []byte) []byte {
	h := sha256.Sum256(b)
	return h[:]
}

// CaseLeaves hashes the leaves of a tree.
func CaseLeaves() {
	for _, leaf := range [][]byte{{1}, {2}, {3}} {
		_ = leafHash(leaf)
	}
	_ = emptyHash()
}
