package keptimport

import (
	"crypto/sha512"
)

var innerPrefix = []byte{1}

// innerHash keeps its helper for emptyInner, as leafHash does in single.go.
func innerHash(left, right []byte) []byte {
	return sum512(append(append(innerPrefix, left...), right...)) // want `concat-hash: append\(append\(innerPrefix, left...\), right...\) builds a buffer only to hash it with sum512; automatic fix: hash the parts with a variadic form of sum512, declared next to it`
}

func emptyInner() []byte { return sum512(nil) }

func sum512(b []byte) []byte {
	h := sha512.Sum512(b)
	return h[:]
}

// CaseInner hashes the inner nodes of a tree.
func CaseInner() {
	l, r := []byte{1}, []byte{2}
	for range 3 {
		_ = innerHash(l, r)
	}
	_ = emptyInner()
}
