// Package hasheralloc holds the hasher-alloc cases. Every exported func CaseX()
// is measured by the oracle test: it must allocate exactly when the allocation
// model says that a constructor it reaches puts its hasher on the heap.
package hasheralloc

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/fnv"
	"io"
	"sync"

	"golang.org/x/crypto/blake2b"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	out   [64]byte
	src   = bytes.NewReader(nil)
	sink  hash.Hash
	sinks = make([]hash.Hash, 0, 8)
)

// A hasher passed to io.Copy escapes: one allocation per iteration.
func CaseLoopCopy() {
	for _, it := range items {
		h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) once per .* \(the loop at hasheralloc.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		src.Reset(it)
		io.Copy(h, src)
		h.Sum(out[:0])
	}
}

// fmt.Fprintf makes it escape too, in a three-clause loop.
func CaseLoopFprintf() {
	for i := 0; i < len(items); i++ {
		h := sha512.New() // want `hasher-alloc: sha512.New\(\) escapes to the heap \(passed to fmt.Fprintf\) once per`
		fmt.Fprintf(h, "%d", i)
		h.Sum(out[:0])
	}
}

// A hasher built through a crypto.Hash is never devirtualized.
func CaseLoopCryptoHash() {
	for _, it := range items {
		h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher once per .* \(the loop at hasheralloc.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(it)
		h.Sum(out[:0])
	}
}

// A hasher per signature verified: beside ed25519.Verify (tens of
// microseconds) its allocation is noise (x509's checkSignature in
// certificate-transparency-go), so nothing is reported.
func CaseBesideSignature() { // want CaseBesideSignature:`costs: heavy \(ed25519.Verify \(an Ed25519 operation\)\)`
	pub := make(ed25519.PublicKey, ed25519.PublicKeySize)
	for _, it := range items {
		h := crypto.SHA512.New()
		h.Write(it)
		_ = ed25519.Verify(pub, h.Sum(out[:0]), it)
	}
}

// Hoisted out of both loops: nothing it depends on changes in either.
func CaseNestedLoops() {
	for range 2 {
		for _, it := range items {
			h := md5.New() // want `hasher-alloc: md5.New\(\) escapes to the heap \(passed to io.Copy\) once per .* \(the loop at hasheralloc.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
			src.Reset(it)
			io.Copy(h, src)
			h.Sum(out[:0])
		}
	}
}

// A labeled loop: the hasher goes before the label.
func CaseLabeledLoop() {
outer:
	for _, it := range items {
		h := fnv.New64a() // want `hasher-alloc: fnv.New64a\(\) escapes to the heap \(passed to io.Copy\)`
		src.Reset(it)
		io.Copy(h, src)
		if h.Sum64() == 0 {
			break outer
		}
	}
}

// The name h is taken outside the loop: no fix, but still a finding.
func CaseNameTaken() {
	h := 0
	for _, it := range items {
		h := sha1.New() // want `hasher-alloc: sha1.New\(\) escapes to the heap \(passed to io.Copy\) once per .* \(the loop at hasheralloc.go:\d+\); reuse one hasher across iterations \(no automatic fix: h is already declared outside the definition\)`
		src.Reset(it)
		io.Copy(h, src)
		h.Sum(out[:0])
	}
	_ = h
}

// A two-result constructor of a third-party hasher that always allocates.
func CaseBlake2b() {
	for _, it := range items {
		h, _ := blake2b.New256(nil) // want `hasher-alloc: blake2b.New256\(nil\) always allocates its hasher once per .* \(the loop at hasheralloc.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(it)
		h.Sum(out[:0])
	}
}

type node struct {
	left, right *node
	data        []byte
}

var tree = &node{left: &node{data: []byte("left")}, right: &node{data: []byte("right")}, data: []byte("root")}

// A recursive function is hot: a pooled hasher serves every level.
func hashTree(n *node) {
	if n == nil {
		return
	}
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) once per call of hashTree \(it recurses: hashTree → hashTree, once per node it walks\); automatic fix: take h from a pool of sha256\.New hashers`
	src.Reset(n.data)
	io.Copy(h, src)
	h.Sum(out[:0])
	hashTree(n.left)
	hashTree(n.right)
}

func CaseRecursive() { hashTree(tree) }

// Mutual recursion; the crypto.Hash hasher stays local once built by the
// standard constructor.
func even(n *node) {
	if n == nil {
		return
	}
	h := crypto.SHA512.New() // want `hasher-alloc: crypto.SHA512.New\(\) always allocates its hasher once per call of even \(it recurses: even → odd → even, once per node it walks\); automatic fix: call sha512\.New directly`
	h.Write(n.data)
	h.Sum(out[:0])
	odd(n.left)
}

func odd(n *node) {
	if n != nil {
		even(n.right)
	}
}

func CaseMutualRecursion() { even(tree) }

// Called in a loop that does nothing else: once per item, the seeds' own
// shape (a per-item helper called from a loop of its package).
func digestOne(b []byte) {
	h := sha1.New() // want `hasher-alloc: sha1.New\(\) escapes to the heap \(passed to io.Copy\) once per call of digestOne, which CaseCalledInLoop calls once per element of items \(the loop at hasheralloc.go:\d+\); automatic fix: take h from a pool of sha1.New hashers`
	src.Reset(b)
	io.Copy(h, src)
	h.Sum(out[:0])
}

func CaseCalledInLoop() {
	for _, it := range items {
		digestOne(it)
	}
}

// Called by a hot function: hot, transitively. The pooled hasher is asserted
// back to hash.Hash32.
func leaf(b []byte) {
	h := fnv.New32a() // want `hasher-alloc: fnv.New32a\(\) escapes to the heap \(passed to io.Copy\) once per call of leaf, which visit calls \(visit is marked //hashalloc:hot\); automatic fix: take h from a pool of fnv\.New32a hashers`
	src.Reset(b)
	io.Copy(h, src)
	out[0] = byte(h.Sum32())
}

// visit is marked hot.
//
//hashalloc:hot
func visit(b []byte) { leaf(b) }

func CaseTransitive() {
	for _, it := range items {
		visit(it)
	}
}

// Marked hot by its doc comment.
//
//hashalloc:hot
func annotated() {
	h := sha256.New224() // want `hasher-alloc: sha256.New224\(\) escapes to the heap \(passed to io.Copy\) once per call of annotated \(it is marked //hashalloc:hot\)`
	src.Reset(items[0])
	io.Copy(h, src)
	h.Sum(out[:0])
}

func CaseAnnotated() { annotated() }

// A pooled hasher is an interface value: the stack buffer written to it
// would escape in its place, so no fix is offered.
//
//hashalloc:hot
func prefixed(b []byte) {
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) once per call of prefixed \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: a pooled hasher would make \[\]byte\{…\} escape\)`
	h.Write([]byte{0})
	src.Reset(b)
	io.Copy(h, src)
	h.Sum(out[:0])
}

func CasePrefixed() {
	for _, it := range items {
		prefixed(it)
	}
}

// ---- Negative cases: correct code, never reported. ----

// Only Write and Sum: inlined, devirtualized, on the stack.
func CaseLocalOnly() {
	for _, it := range items {
		h := sha256.New()
		h.Write(it)
		h.Sum(out[:0])
	}
}

// Every standard constructor stays on the stack when only its methods are called.
func CaseEveryLocal() {
	for _, it := range items {
		a := sha512.New384()
		a.Write(it)
		a.Sum(out[:0])
		b := fnv.New128a()
		b.Write(it)
		b.Sum(out[:0])
		c := md5.New()
		c.Write(it)
		c.Sum(out[:0])
	}
}

// Created once, Reset per iteration: the floor.
func CaseHoisted() {
	h := sha256.New()
	for _, it := range items {
		h.Reset()
		src.Reset(it)
		io.Copy(h, src)
		h.Sum(out[:0])
	}
}

// Used through a closure that is only called, and a deferred call.
func CaseClosure() {
	for _, it := range items {
		h := sha256.New()
		write := func(b []byte) { h.Write(b) }
		write(it)
		func() { defer h.Reset() }()
		h.Sum(out[:0])
	}
}

// Copied to a local io.Writer: still devirtualized.
func CaseLocalWriter() {
	for _, it := range items {
		h := sha256.New()
		var w io.Writer = h
		w.Write(it)
		h.Sum(out[:0])
	}
}

// Kept: appended to a collection, stored in a global, returned. Meant to
// outlive the call, so not per-call waste, even in hot code.
func CaseKept() {
	sinks = sinks[:0]
	for range items {
		sinks = append(sinks, sha256.New())
		sink = newHasher()
	}
}

func newHasher() hash.Hash { return sha512.New() }

// A sync.Pool's New function runs only when the pool is empty.
var pool = sync.Pool{New: func() any { return sha256.New() }}

func CaseSyncPool() {
	for _, it := range items {
		h := pool.Get().(hash.Hash)
		h.Reset()
		h.Write(it)
		h.Sum(out[:0])
		pool.Put(h)
	}
}

// Cold: one allocation per call of a function nobody calls in a loop.
func CaseCold() {
	h := sha256.New()
	src.Reset(items[0])
	io.Copy(h, src)
	h.Sum(out[:0])
}

// Marked by the user.
func CaseIgnored() {
	for _, it := range items {
		h := sha256.New() //hashalloc:ignore -- measured, not worth it here
		src.Reset(it)
		io.Copy(h, src)
		h.Sum(out[:0])
		//nolint:hashalloc
		g := sha256.New()
		io.Copy(g, src)
		g.Sum(out[:0])
	}
}

// Passed to a function that the compiler may or may not inline: the model
// does not decide, so it does not report (no Case: no measurement either).
func toHelper() {
	for _, it := range items {
		h := sha256.New()
		helper(h, it)
	}
}

func helper(h hash.Hash, b []byte) { h.Write(b) }

// init runs once.
func init() {
	for _, it := range items {
		h := sha256.New()
		src.Reset(it)
		io.Copy(h, src)
	}
}

// A table of the standard library does not change in the loop: the hasher
// is hoisted.
func CaseCRCTable() {
	for _, it := range items {
		h := crc32.New(crc32.IEEETable) // want `hasher-alloc: crc32.New\(crc32.IEEETable\) escapes to the heap \(passed to io.Copy\) once per .* \(the loop at hasheralloc.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		src.Reset(it)
		io.Copy(h, src)
		out[0] = byte(h.Sum32())
	}
}
