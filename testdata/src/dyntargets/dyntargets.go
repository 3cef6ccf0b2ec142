// Package dyntargets makes a hasher per node in a tree hasher's method and
// in a hashing function that the package reaches only through an interface
// or a function value whose targets it knows, and the same code reached
// once per call, beside them. Every exported func CaseX() is measured by the
// oracle test: a crypto.Hash's New is not devirtualized, so each of its
// hashers allocates, reported or not. The oracle follows static calls only,
// so each case calls a target itself; each ResultX() runs the dynamic
// calls, before and after the fixes.
package dyntargets

import (
	"bytes"
	"crypto"
	_ "crypto/sha256"
)

var (
	leaves = [][]byte{bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32), bytes.Repeat([]byte{3}, 32), bytes.Repeat([]byte{4}, 32)}
	sum    [32]byte
)

// TreeHasher hashes the nodes of a tree.
type TreeHasher interface {
	HashChildren(dst *[32]byte, l, r []byte)
}

// prefixed is the package's TreeHasher: a hasher per node.
type prefixed struct{}

func (prefixed) HashChildren(dst *[32]byte, l, r []byte) {
	h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher once per call of HashChildren, which Root calls through the interface TreeHasher once per element of next \(the loop at dyntargets.go:\d+\); automatic fix: call sha256.New directly`
	h.Write([]byte{1})
	h.Write(l)
	h.Write(r)
	h.Sum(dst[:0])
}

// Root hashes each level's pairs through th, until one node is left.
func Root(th TreeHasher, level [][]byte) [32]byte {
	for len(level) > 1 {
		next := make([][]byte, len(level)/2)
		for i := range next {
			var d [32]byte
			th.HashChildren(&d, level[2*i], level[2*i+1])
			next[i] = d[:]
		}
		level = next
	}
	var root [32]byte
	copy(root[:], level[0])
	return root
}

func CaseHashChildren() { prefixed{}.HashChildren(&sum, leaves[0], leaves[1]) }

func ResultRoot() string { r := Root(prefixed{}, leaves); return string(r[:]) }

// pairHash hashes a pair; the package takes it as a value, and Pairs calls
// a function value of its signature once per pair.
func pairHash(dst *[32]byte, l, r []byte) {
	h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher once per call of pairHash, which Pairs calls through the function value hf once per element of level \(the loop at dyntargets.go:\d+\); automatic fix: call sha256.New directly`
	h.Write(l)
	h.Write(r)
	h.Sum(dst[:0])
}

var hashPair = pairHash

// Pairs hashes every pair of level with hf.
func Pairs(hf func(*[32]byte, []byte, []byte), level [][]byte) {
	for i := 0; i+1 < len(level); i += 2 {
		hf(&sum, level[i], level[i+1])
	}
}

func CasePairHash() { pairHash(&sum, leaves[0], leaves[1]) }

func ResultPairs() string { Pairs(hashPair, leaves); return string(sum[:]) }

// A checker of another interface, called once per call of Check: not
// reported, beside the cases above.
type checker interface {
	Check(dst *[32]byte, b []byte)
}

type once struct{}

func (once) Check(dst *[32]byte, b []byte) {
	h := crypto.SHA256.New()
	h.Write(b)
	h.Sum(dst[:0])
}

func check(c checker) { c.Check(&sum, leaves[0]) }

func CaseCheck() { once{}.Check(&sum, leaves[0]) }

func ResultCheck() string { check(once{}); return string(sum[:]) }
