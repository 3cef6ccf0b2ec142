// Package makecopy holds concatenations built by make and copy, with offsets
// spelled in any way and with copy loops: the parts are hashed one after
// another instead, when their order and their coverage of the buffer are
// proved. Every exported func CaseX() is measured by the oracle test; the
// negative cases, whose buffers allocate too, are hot-buffer's findings.
package makecopy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

var (
	prefix = []byte{1}
	left   = bytes.Repeat([]byte{2}, 32)
	right  = bytes.Repeat([]byte{3}, 32)
	extra  = bytes.Repeat([]byte{4}, 16)
	root   [32]byte
	parts  = [][]byte{prefix, left, right}
	out    [32]byte
	total  int
)

// Offsets from the parts' lengths.
//
//hashalloc:hot
func pair(l, r []byte) [32]byte {
	buf := make([]byte, len(l)+len(r)) // want `concat-hash: buf := make\+copy builds a buffer only to hash it with sha256.Sum256 once per call of pair \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	copy(buf, l)
	copy(buf[len(l):], r)
	return sha256.Sum256(buf)
}

func CasePair() { out = pair(left, right) }

func ResultPair() string {
	s := pair(left, right)
	return hex.EncodeToString(s[:])
}

// Three parts, with high bounds, the size's terms in another order.
//
//hashalloc:hot
func triple(a, b, c []byte) [32]byte {
	buf := make([]byte, len(c)+len(a)+len(b)) // want `concat-hash: buf := make\+copy builds a buffer only to hash it with sha256.Sum256 once per call of triple \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	copy(buf[:len(a)], a)
	copy(buf[len(a):len(a)+len(b)], b)
	copy(buf[len(b)+len(a):], c)
	return sha256.Sum256(buf)
}

func CaseTriple() { out = triple(prefix, left, right) }

func ResultTriple() string {
	s := triple(prefix, left, right)
	return hex.EncodeToString(s[:])
}

// A part that is an array: its length is a constant.
//
//hashalloc:hot
func withRoot(p []byte) [32]byte {
	buf := make([]byte, len(p)+len(root)) // want `concat-hash: buf := make\+copy builds a buffer only to hash it with sha256.Sum256 once per call of withRoot \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	copy(buf, p)
	copy(buf[len(p):], root[:])
	return sha256.Sum256(buf)
}

func CaseArrayPart() { out = withRoot(prefix) }

func ResultArrayPart() string {
	root = sha256.Sum256(left)
	s := withRoot(prefix)
	return hex.EncodeToString(s[:])
}

// An offset variable set from a length, then advanced.
//
//hashalloc:hot
func withOffset(a, b, c []byte) [32]byte {
	buf := make([]byte, len(a)+len(b)+len(c)) // want `concat-hash: buf := make\+copy builds a buffer only to hash it with sha256.Sum256 once per call of withOffset \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	off := len(a)
	copy(buf, a)
	copy(buf[off:], b)
	off += len(b)
	copy(buf[off:], c)
	return sha256.Sum256(buf)
}

func CaseOffsetVar() { out = withOffset(prefix, left, right) }

func ResultOffsetVar() string {
	s := withOffset(prefix, left, right)
	return hex.EncodeToString(s[:])
}

// A copy loop over a list of parts, sized by a loop over the same list.
//
//hashalloc:hot
func joined(list [][]byte) [32]byte {
	size := 0
	for _, p := range list {
		size += len(p)
	}
	buf := make([]byte, size) // want `concat-hash: buf := make\+copy builds a buffer only to hash it with sha256.Sum256 once per call of joined \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	n := 0
	for _, p := range list {
		n += copy(buf[n:], p)
	}
	return sha256.Sum256(buf)
}

func CaseCopyLoop() { out = joined(parts) }

func ResultCopyLoop() string {
	s := joined(parts)
	return hex.EncodeToString(s[:])
}

// The same, advanced by the part's length, and written to a hasher.
//
//hashalloc:hot
func joinedWrite(list [][]byte) [32]byte {
	h := sha256.New()
	var size int
	for _, p := range list {
		size += len(p)
	}
	buf := make([]byte, size) // want `concat-hash: buf := make\+copy builds a buffer only to hash it with h.Write once per call of joinedWrite \(it is marked //hashalloc:hot\); automatic fix: write the parts one after another`
	var n int
	for _, p := range list {
		copy(buf[n:], p)
		n += len(p)
	}
	h.Write(buf)
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

func CaseCopyLoopWrite() { out = joinedWrite(parts) }

func ResultCopyLoopWrite() string {
	s := joinedWrite(parts)
	return hex.EncodeToString(s[:])
}

// The size is used again: its loop stays.
//
//hashalloc:hot
func joinedSize(list [][]byte) ([32]byte, int) {
	size := 0
	for _, p := range list {
		size += len(p)
	}
	buf := make([]byte, size) // want `concat-hash: buf := make\+copy builds a buffer only to hash it with sha256.Sum256 once per call of joinedSize \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	n := 0
	for _, p := range list {
		n += copy(buf[n:], p)
	}
	return sha256.Sum256(buf), size
}

func CaseSizeKept() { out, total = joinedSize(parts) }

func ResultSizeKept() string {
	s, n := joinedSize(parts)
	return fmt.Sprint(hex.EncodeToString(s[:]), n)
}

// ---- Negative cases: not the parts, in order, and nothing else. ----

// A byte more than the parts: the zero at the end is hashed too.
//
//hashalloc:hot
func withGap(l, r []byte) [32]byte {
	buf := make([]byte, len(l)+len(r)+1) // want `hot-buffer: make\(\[\]byte, len\(l\) \+ len\(r\) \+ 1\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) once per call of withGap \(it is marked //hashalloc:hot\); automatic fix: back buf by a 128-byte array on the stack, and make it only when larger`
	copy(buf, l)
	copy(buf[len(l):], r)
	return sha256.Sum256(buf)
}

func CaseGap() { out = withGap(left, right) }

// The second part at the first one's place.
//
//hashalloc:hot
func overlapping(l, r []byte) [32]byte {
	buf := make([]byte, len(l)+len(r)) // want `hot-buffer: make\(\[\]byte, len\(l\) \+ len\(r\)\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) once per call of overlapping \(it is marked //hashalloc:hot\); automatic fix: back buf by a 128-byte array on the stack, and make it only when larger`
	copy(buf, l)
	copy(buf[len(r):], r)
	return sha256.Sum256(buf)
}

func CaseOverlapping() { out = overlapping(left, right) }

// Out of order: r first, at the offset of l.
//
//hashalloc:hot
func swapped(l, r []byte) [32]byte {
	buf := make([]byte, len(l)+len(r)) // want `hot-buffer: make\(\[\]byte, len\(l\) \+ len\(r\)\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) once per call of swapped \(it is marked //hashalloc:hot\); automatic fix: back buf by a 128-byte array on the stack, and make it only when larger`
	copy(buf[len(l):], r)
	copy(buf, l)
	return sha256.Sum256(buf)
}

func CaseSwapped() { out = swapped(left, right) }

// A high bound short of the part.
//
//hashalloc:hot
func truncated(l, r []byte) [32]byte {
	buf := make([]byte, len(l)+len(r)) // want `hot-buffer: make\(\[\]byte, len\(l\) \+ len\(r\)\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) once per call of truncated \(it is marked //hashalloc:hot\); automatic fix: back buf by a 128-byte array on the stack, and make it only when larger`
	copy(buf[:len(r)], l)
	copy(buf[len(l):], r)
	return sha256.Sum256(buf)
}

func CaseTruncated() { out = truncated(left, right) }

// A part that runs code: hashed in its place, it would run once, not twice.
//
//hashalloc:hot
func called(l []byte) [32]byte {
	buf := make([]byte, len(l)+len(next())) // want `hot-buffer: make\(\[\]byte, len\(l\) \+ len\(next\(\)\)\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) once per call of called \(it is marked //hashalloc:hot\); automatic fix: back buf by a 128-byte array on the stack, and make it only when larger`
	copy(buf, l)
	copy(buf[len(l):], next())
	return sha256.Sum256(buf)
}

func CaseCalled() { out = called(left) }

func next() []byte { total++; return extra }

// The buffer is kept.
//
//hashalloc:hot
func kept(l, r []byte) ([]byte, [32]byte) {
	buf := make([]byte, len(l)+len(r))
	copy(buf, l)
	copy(buf[len(l):], r)
	return buf, sha256.Sum256(buf)
}

// Sized over another list.
//
//hashalloc:hot
func otherList(list, other [][]byte) [32]byte {
	size := 0
	for _, p := range other {
		size += len(p)
	}
	buf := make([]byte, size) // want `hot-buffer: make\(\[\]byte, size\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) once per call of otherList \(it is marked //hashalloc:hot\); automatic fix: back buf by a 128-byte array on the stack, and make it only when larger`
	n := 0
	for _, p := range list {
		n += copy(buf[n:], p)
	}
	return sha256.Sum256(buf)
}

func CaseOtherList() { out = otherList(parts, parts) }

// A loop that does more than copy.
//
//hashalloc:hot
func separated(list [][]byte) [32]byte {
	size := 0
	for _, p := range list {
		size += len(p) + 1
	}
	buf := make([]byte, size) // want `hot-buffer: make\(\[\]byte, size\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) once per call of separated \(it is marked //hashalloc:hot\); automatic fix: back buf by a 128-byte array on the stack, and make it only when larger`
	n := 0
	for _, p := range list {
		n += copy(buf[n:], p)
		n++
	}
	return sha256.Sum256(buf)
}

func CaseSeparated() { out = separated(parts) }

// The offset is read after the copies.
//
//hashalloc:hot
func offsetUsed(l, r []byte) ([32]byte, int) {
	buf := make([]byte, len(l)+len(r)) // want `hot-buffer: make\(\[\]byte, len\(l\) \+ len\(r\)\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) once per call of offsetUsed \(it is marked //hashalloc:hot\); automatic fix: back buf by a 128-byte array on the stack, and make it only when larger`
	n := copy(buf, l)
	n += copy(buf[n:], r)
	return sha256.Sum256(buf), n
}

func CaseOffsetUsed() { out, total = offsetUsed(left, right) }
