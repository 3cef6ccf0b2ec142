// Package wrapperuser calls another package's constructor wrappers, known
// from their facts. Every exported func CaseX() is measured by the oracle
// test.
package wrapperuser

import (
	"bytes"
	"encoding/hex"
	"hash"
	"io"

	"example.com/wrapperlib"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	out   [64]byte
	src   = bytes.NewReader(nil)
	kept  []hash.Hash
	key   = []byte("a fixed key")
)

func CaseBranch() {
	for _, it := range items {
		h := wrapperlib.NewBranchHasher() // want `hasher-alloc: wrapperlib.NewBranchHasher\(\) returns the hasher of blake2b.New256, which always allocates once per .* \(the loop at wrapperuser.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(it)
		h.Sum(out[:0])
	}
}

func ResultBranch() string {
	CaseBranch()
	return hex.EncodeToString(out[:32])
}

func CaseSHACopy() {
	for _, it := range items {
		h := wrapperlib.NewSHA() // want `hasher-alloc: wrapperlib.NewSHA\(\) returns the hasher of sha256.New, which escapes to the heap \(passed to io.Copy\) once per .* \(the loop at wrapperuser.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		src.Reset(it)
		io.Copy(h, src)
		h.Sum(out[:0])
	}
}

// The pool of sha256.New serves a wrapper of another package too.
//
//hashalloc:hot
func digestOf(b []byte) {
	h := wrapperlib.NewSHA() // want `hasher-alloc: wrapperlib.NewSHA\(\) returns the hasher of sha256.New, which escapes to the heap \(passed to io.Copy\) once per call of digestOf \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of sha256\.New hashers`
	src.Reset(b)
	io.Copy(h, src)
	h.Sum(out[:0])
}

func CaseSHAPool() { digestOf(items[0]) } // want CaseSHAPool:"allocates 1 time per call"

func ResultSHAPool() string { // want ResultSHAPool:"allocates 1 time per call"
	digestOf(items[1])
	return hex.EncodeToString(out[:32])
}

func CasePanics() {
	for _, it := range items {
		h := wrapperlib.NewKeyed(key) // want `hasher-alloc: wrapperlib.NewKeyed\(key\) returns the hasher of blake2b.New256, which always allocates once per .* \(the loop at wrapperuser.go:\d+\); reuse one hasher across iterations \(no automatic fix: wrapperlib.NewKeyed may panic, and hoisted it would run even when the loop does not\)`
		h.Write(it)
		h.Sum(out[:0])
	}
}

// ---- Negative cases. ----

// Inlined across packages, NewSHA's hasher stays on the stack.
func CaseSHAStays() {
	for _, it := range items {
		h := wrapperlib.NewSHA()
		h.Write(it)
		h.Sum(out[:0])
	}
}

// Kept: meant to outlive the iteration.
func CaseKept() {
	kept = kept[:0]
	for range items {
		kept = append(kept, wrapperlib.NewBranchHasher())
	}
}

// Prefixed is no wrapper: not a constructor site. (Not a case: the oracle
// does not see the hasher that another package's function allocates.)
func PrefixedHashers() {
	for _, it := range items {
		h := wrapperlib.Prefixed()
		src.Reset(it)
		io.Copy(h, src)
		h.Sum(out[:0])
	}
}
