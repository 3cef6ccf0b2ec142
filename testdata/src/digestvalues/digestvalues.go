// Package digestvalues hashes through function values of a hash's shape
// (func([]byte) [N]byte, whatever the caller chose) and appends to full
// slices of arrays, whose length is their capacity. Every exported func
// CaseX() is measured by the oracle test, and every func ResultX() string
// returns the same before and after the fixes.
package digestvalues

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// HashFunc is what the caller hashes with.
type HashFunc func([]byte) [32]byte

var (
	leaves = [][]byte{[]byte("a"), []byte("b"), []byte("c"), []byte("d")}
	out    [32]byte
)

// A value of a hash's shape: the concatenation escapes into it, and the
// finding has no fix (the value is the caller's).
func nodeHash(h HashFunc, value [32]byte, label []byte) [32]byte {
	return h(append(value[:], label...)) // want `concat-hash: append\(value\[:\], label...\) builds a buffer only to hash it with h, a function value of a hash's shape \(HashFunc\) once per call of nodeHash, which Chain calls once per element of labels \(the loop at digestvalues.go:\d+\); hash the parts one after another \(no automatic fix: the call goes through h, a function value whose target is not known here: it hashes what one call gives it, and no fix can split that into parts\)`
}

// Chain hashes with what its caller gives it.
func Chain(h HashFunc, labels [][]byte) (v [32]byte) {
	for _, l := range labels {
		v = nodeHash(h, v, l)
	}
	return v
}

func CaseValue() { out = Chain(sha256.Sum256, leaves) }

// A buffer passed to a value of a hash's shape escapes into it where the
// compiler cannot see the value's target: a function that calls a value
// twice is never inlined. One allocation per call, which no fix removes by
// reuse (the value's target may keep it).
func labelHash(h HashFunc, bitLen uint32, label [32]byte) [32]byte {
	l := make([]byte, 0, 4+32) // want `hot-buffer: make\(\[\]byte, 0, 4 \+ 32\) escapes to the heap \(passed to h, a function value of a hash's shape\) once per call of labelHash, which Labels calls once per element of labels \(the loop at digestvalues.go:\d+\); reuse a scratch buffer kept beyond the call \(an array in a field, or one the caller passes\) \(no automatic fix: it is passed to a function value, whose target may keep it\)`
	l = binary.BigEndian.AppendUint32(l, bitLen)
	l = append(l, label[:]...)
	labelHash := h(l)
	return h(labelHash[:])
}

// Labels hashes each label with what its caller gives it.
func Labels(h HashFunc, labels [][32]byte) (v [32]byte) {
	for i, l := range labels {
		v = labelHash(h, uint32(i), l)
	}
	return v
}

func CaseLabels() { out = Labels(sha256.Sum256, [][32]byte{{1}, {2}, {3}}) }

// A full slice of an array has no spare capacity: the append allocates,
// and writes nothing into the array.
type node struct{ hash [32]byte }

func inner(l, r *node) [32]byte {
	return sha256.Sum256(append(l.hash[:], r.hash[:]...)) // want `concat-hash: append\(l.hash\[:\], r.hash\[:\]...\) builds a buffer only to hash it with sha256.Sum256 once per call of inner, which CaseArray calls once per element of nodes\[1:\] \(the loop at digestvalues.go:\d+\); automatic fix: hash the parts with`
}

var nodes = []*node{{hash: [32]byte{1}}, {hash: [32]byte{2}}, {hash: [32]byte{3}}}

func CaseArray() {
	for i, n := range nodes[1:] {
		out = inner(nodes[i], n)
	}
}

func ResultArray() string {
	CaseArray()
	return hex.EncodeToString(out[:])
}

// ---- Silent. ----

// A function value that returns a slice is not a hash by its shape.
func viaSlice(h func([]byte) []byte, l, r []byte) []byte {
	return h(append(l, r...))
}

// A slice of an array with bounds may have spare capacity: unknown.
func bounded(buf *[64]byte, n int, b []byte) [32]byte {
	return sha256.Sum256(append(buf[:n], b...))
}

// A function that calls a value once may be inlined where its caller
// passes a function, and the call made direct: the buffer may stay.
func inlinedLabel(h HashFunc, bitLen uint32) [32]byte {
	l := make([]byte, 0, 8)
	l = binary.BigEndian.AppendUint32(l, bitLen)
	return h(l)
}

// A buffer passed to a function value that is not of a hash's shape:
// what it does with it is not known.
func viaSliceBuffer(h func([]byte) []byte, bitLen uint32) []byte {
	l := make([]byte, 0, 8)
	l = binary.BigEndian.AppendUint32(l, bitLen)
	return h(l)
}

// Silent calls them; it is not a case the oracle measures: what it
// allocates is not what the model predicts of a finding.
func Silent() {
	var buf [64]byte
	for _, l := range leaves {
		_ = viaSlice(func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }, l, l)
		out = bounded(&buf, 1, l)
		out = inlinedLabel(sha256.Sum256, uint32(len(l)))
		_ = viaSliceBuffer(func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }, uint32(len(l)))
	}
}
