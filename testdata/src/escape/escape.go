// Package escape holds hashers passed to functions of the package: the
// allocation model follows what each function does with its parameters.
// Every exported func CaseX() is measured by the oracle test.
package escape

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/hex"
	"hash"
	"hash/crc32"
	"io"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	out   [64]byte
	sums  [][]byte
	src   = bytes.NewReader(nil)
	tab   = crc32.MakeTable(crc32.Castagnoli)
	total uint32
)

// makeHash calls its hasher's methods through hash.Hash and is too costly
// to be inlined (three interface calls): its parameter escapes.
func makeHash(h hash.Hash, b []byte) []byte {
	h.Reset()
	h.Write(b)
	return h.Sum(nil)
}

// A hasher passed to makeHash escapes on every iteration.
func CaseLoopMakeHash() {
	sums = sums[:0]
	for _, it := range items {
		h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to escape.makeHash, which lets it escape: calls Reset through an interface\) on every iteration of the loop at escape.go:\d+; automatic fix: hoist h out of the loop and Reset it per iteration`
		sums = append(sums, makeHash(h, it))
	}
}

// signHot is hot by its directive: the pool serves every call.
//
//hashalloc:hot
func signHot(b []byte) []byte {
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to escape.makeHash, which lets it escape: calls Reset through an interface\) on every call of signHot, which is hot \(marked //hashalloc:hot\); automatic fix: take h from a pool of sha256\.New hashers`
	return makeHash(h, b)
}

func CaseHotMakeHash() { signHot(items[0]) }

func ResultHotMakeHash() string { return hex.EncodeToString(signHot(items[1])) }

// feed uses its hasher as the concrete *sha3.SHA3: the calls are static and
// the hasher stays where its caller put it.
func feed(h *sha3.SHA3, b []byte) {
	h.Write(b)
	h.Write(b)
	h.Write(b)
}

func CaseConcreteHelper() {
	for _, it := range items {
		h := sha3.New256()
		feed(h, it)
		h.Sum(out[:0])
	}
}

// write1 is small enough to be inlined: where it is, the interface call is
// devirtualized. The model does not decide, and says nothing.
func write1(h hash.Hash, b []byte) { h.Write(b) }

func InlinableHelper() {
	for _, it := range items {
		h := sha256.New()
		write1(h, it)
		h.Sum(out[:0])
	}
}

// same returns its parameter: what the caller does with the result decides.
func same(h hash.Hash) hash.Hash { return h }

func CaseReturnedStays() {
	for _, it := range items {
		h := same(sha256.New())
		h.Write(it)
		h.Sum(out[:0])
	}
}

// A crc32 hasher written by an io.TeeReader in a loop (minio's select
// stream): the reader writes to it through an interface.
func CaseTeeReader() {
	for _, it := range items {
		crc := crc32.New(tab) // want `hasher-alloc: crc32.New\(tab\) escapes to the heap \(written by io.TeeReader\) on every iteration of the loop at escape.go:\d+; automatic fix: hoist crc out of the loop and Reset it per iteration`
		src.Reset(it)
		r := io.TeeReader(src, crc)
		io.Copy(io.Discard, r)
		total += crc.Sum32()
	}
}

func ResultTeeReader() string {
	total = 0
	CaseTeeReader()
	return hex.EncodeToString([]byte{byte(total), byte(total >> 8), byte(total >> 16), byte(total >> 24)})
}

type node struct {
	v    []byte
	l, r *node
}

var tree = &node{v: []byte("root"), l: &node{v: []byte("left")}, r: &node{v: []byte("right")}}

// walk is recursive: never inlined, so its hasher escapes.
func walk(h hash.Hash, n *node) {
	if n == nil {
		return
	}
	h.Write(n.v)
	walk(h, n.l)
	walk(h, n.r)
}

func CaseRecursive() {
	for range items {
		h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to escape.walk, which lets it escape: calls Write through an interface\) on every iteration of the loop at escape.go:\d+; automatic fix: hoist h out of the loop and Reset it per iteration`
		walk(h, tree)
		h.Sum(out[:0])
	}
}

func ResultRecursive() string {
	CaseRecursive()
	return hex.EncodeToString(out[:32])
}

// keep stores its hasher: meant to outlive the call, never reported.
var kept []hash.Hash

func keep(h hash.Hash) { kept = append(kept[:0], h) }

func CaseKept() {
	for range items {
		keep(sha256.New())
	}
}
