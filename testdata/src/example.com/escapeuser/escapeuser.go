// Package escapeuser passes hashers to another package's helpers.
package escapeuser

import (
	"crypto/sha256"
	"crypto/sha3"

	"example.com/escapelib"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta")}
	sums  [][]byte
	out   [64]byte
)

func Sums() {
	for _, it := range items {
		h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to escapelib.Digest, which lets it escape\) on every iteration of the loop at escapeuser.go:\d+; automatic fix: hoist h out of the loop and Reset it per iteration`
		sums = append(sums, escapelib.Digest(h, it))
	}
}

func Feeds() {
	for _, it := range items {
		h := sha3.New256()
		escapelib.Feed(h, it)
		h.Sum(out[:0])
	}
}
