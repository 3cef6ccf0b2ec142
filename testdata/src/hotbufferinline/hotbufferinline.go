// Package hotbufferinline holds the hot-buffer cases of -pool=inline: fixes
// declare a sync.Pool of arrays in the file instead of importing the
// runtime module.
package hotbufferinline

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	out   [64]byte
	w     = sha256.New()
)

type node struct {
	left, right *node
	id          uint64
}

var tree = &node{left: &node{id: 1}, right: &node{id: 2}, id: 3}

func hashNode(h hash.Hash, n *node) {
	if n == nil {
		return
	}
	buf := make([]byte, 64) // want `hot-buffer: make\(\[\]byte, 64\) escapes to the heap \(passed to h.Write through an interface\) once per call of hashNode \(it recurses: hashNode → hashNode, once per node it walks\); automatic fix: take buf from a pool of byte buffers`
	binary.BigEndian.PutUint64(buf, n.id)
	h.Write(buf)
	hashNode(h, n.left)
	hashNode(h, n.right)
}

func CaseRecursive() {
	w.Reset()
	hashNode(w, tree)
}

// A second buffer of the same size shares the pool. One of 8 bytes beside
// it gets no pool of its own: the pool would cost more time than the
// allocation it saves.
func header(x uint64) {
	hdr := make([]byte, 64) // want `hot-buffer: make\(\[\]byte, 64\) escapes to the heap \(passed to w.Write through an interface\) once per call of header`
	tag := make([]byte, 8)  // want `hot-buffer: make\(\[\]byte, 8\) escapes to the heap \(passed to w.Write through an interface\) once per call of header, .*; reuse a scratch buffer kept beyond the call \(an array in a field, or one the caller passes\) \(no automatic fix: a pool costs more time than allocating 8 bytes\)`
	binary.LittleEndian.PutUint64(hdr, x)
	binary.LittleEndian.PutUint64(tag, x)
	w.Write(hdr)
	w.Write(tag)
}

func CaseShared() {
	for i := range items {
		header(uint64(i))
	}
}

// Too large for the stack.
func large(b []byte) {
	buf := make([]byte, 100<<10) // want `hot-buffer: make\(\[\]byte, 100 << 10\) is too large for the stack \(more than 64 KiB\) once per call of large, which CaseLarge calls once per .* \(the loop at hotbufferinline.go:\d+\); automatic fix: take buf from a pool of byte buffers`
	n := copy(buf, b)
	h := sha256.New()
	h.Write(buf[:n])
	h.Sum(out[:0])
}

func CaseLarge() {
	for _, it := range items {
		large(it)
	}
}

// A size known only at run time: a pool of buffers that grow (see
// varsize.go); a key built by append: no fix in this mode.
func variable(b []byte) {
	buf := make([]byte, 4+len(b)) // want `hot-buffer: make\(\[\]byte, 4 \+ len\(b\)\) escapes to the heap \(passed to w.Write through an interface\) once per call of variable, which CaseVariable calls once per .* \(the loop at hotbufferinline.go:\d+\); automatic fix: take buf from a pool of byte buffers`
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	copy(buf[4:], b)
	w.Write(buf)
	key := append([]byte(nil), b...) // want `hot-buffer: append\(\[\]byte\(nil\), b...\) allocates its array, which escapes to the heap \(passed to w.Write through an interface\), once per call of variable, .*\(no automatic fix: -pool=inline pools buffers made by make\(\[\]byte, n\) only\)`
	key = append(key, 0)
	w.Write(key)
}

func CaseVariable() {
	for _, it := range items {
		variable(it)
	}
}

// A size known only at run time that does not escape: the stack array needs
// no runtime, so the fix is the one of the default mode. 40-byte keys: above
// 32 bytes, so the make allocates before the fix.
var keys = [][]byte{make([]byte, 40), make([]byte, 41)}

func keySum(k []byte) [sha256.Size]byte {
	key := make([]byte, len(k)+1) // want `hot-buffer: make\(\[\]byte, len\(k\) \+ 1\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1.25, always\) once per call of keySum, which keySums calls once per .* \(the loop at hotbufferinline.go:\d+\); automatic fix: back key by a 128-byte array on the stack, and make it only when larger`
	key[0] = 'k'
	copy(key[1:], k)
	h := sha256.New()
	h.Write(key)
	h.Write(key[1:])
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

func keySums() []byte {
	var all []byte
	for _, k := range keys {
		sum := keySum(k)
		all = append(all, sum[:]...)
	}
	return all
}

func CaseStackArray() { out[0] = keySums()[0] }

func ResultStackArray() string { return string(keySums()) }
