// Package hotbuffer holds the hot-buffer cases. Every exported func CaseX()
// is measured by the oracle test: a case that reaches a finding must
// allocate, and allocate less after the fixes; the others must not allocate.
// Negatives whose buffer really allocates (kept, unknown callee) sit next to
// a positive in the same case, or in a function that no case runs.
package hotbuffer

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"io"
	"sync"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	out   [64]byte
	src             = bytes.NewReader(nil)
	w     hash.Hash = sha256.New()
	kept  []byte
	pool  = sync.Pool{New: func() any { return sha256.New() }}
)

type node struct {
	left, right *node
	id          uint64
	key         []byte
}

var tree = &node{
	left:  &node{id: 1, key: []byte("left")},
	right: &node{id: 2, key: []byte("right")},
	id:    3, key: []byte("root"),
}

// A recursive function that writes a node header to its hash.Hash
// parameter: the call goes through the interface, the header escapes.
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

func CaseRecursiveParam() {
	w.Reset()
	hashNode(w, tree)
}

// The same with buffers smaller than 64 bytes: a pool's Get and Put cost
// more time than the allocation they save (runtime/hashpool's
// BenchmarkBufferPool), so no fix; a buffer kept beyond the call would pay.
func hashNodeSmall(h hash.Hash, n *node) {
	if n == nil {
		return
	}
	id := make([]byte, 8)    // want `hot-buffer: make\(\[\]byte, 8\) escapes to the heap \(passed to h.Write through an interface\) once per call of hashNodeSmall \(it recurses: hashNodeSmall → hashNodeSmall, once per node it walks\); reuse a scratch buffer kept beyond the call \(an array in a field, or one the caller passes\) \(no automatic fix: a pool costs more time than allocating 8 bytes\)`
	edge := make([]byte, 63) // want `hot-buffer: make\(\[\]byte, 63\) escapes to the heap .* \(no automatic fix: a pool costs more time than allocating 63 bytes\)`
	binary.BigEndian.PutUint64(id, n.id)
	h.Write(id)
	h.Write(edge)
	hashNodeSmall(h, n.left)
	hashNodeSmall(h, n.right)
}

func CaseRecursiveSmall() {
	w.Reset()
	hashNodeSmall(w, tree)
}

// A hasher held in a field; a variable-size buffer, called in a loop.
type hasher struct{ h hash.Hash }

func (t *hasher) leaf(b []byte) {
	buf := make([]byte, 4+len(b)) // want `hot-buffer: make\(\[\]byte, 4 \+ len\(b\)\) escapes to the heap \(passed to t.h.Write through an interface\) once per call of leaf, which CaseField calls once per .* \(the loop at hotbuffer.go:\d+\); automatic fix: take buf from a pool of byte buffers`
	binary.LittleEndian.PutUint32(buf, uint32(len(b)))
	copy(buf[4:], b)
	t.h.Write(buf)
}

var fieldHasher = &hasher{h: sha256.New()}

func CaseField() {
	for _, it := range items {
		fieldHasher.leaf(it)
	}
}

// A package-level hasher, in a function marked hot; a buffer with a capacity.
//
//hashalloc:hot
func digestGlobal(x uint64) {
	buf := make([]byte, 8, 64) // want `hot-buffer: make\(\[\]byte, 8, 64\) escapes to the heap \(passed to w.Write through an interface\) once per call of digestGlobal \(it is marked //hashalloc:hot\); automatic fix: take buf from a pool of byte buffers`
	binary.BigEndian.PutUint64(buf, x)
	w.Write(buf)
}

func CaseGlobal() { digestGlobal(7) }

// An HMAC is never devirtualized: what is written to it escapes. The key is
// a parameter, a new one per item: hmac-rekey tells of the HMAC too.
func sign(key []byte, id uint64) {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of sign, which CaseHMAC calls once per element of items \(the loop at hotbuffer.go:\d+\), with key key, which its callers pass; automatic fix: compute the MAC with hashsum.AppendHMACSHA256, which allocates nothing`
	buf := make([]byte, 64)          // want `hot-buffer: make\(\[\]byte, 64\) escapes to the heap \(passed to mac.Write through an interface\) once per call of sign, which CaseHMAC calls once per .* \(the loop at hotbuffer.go:\d+\); automatic fix: take buf from a pool of byte buffers`
	binary.BigEndian.PutUint64(buf, id)
	mac.Write(buf)
	mac.Sum(out[:0])
}

func CaseHMAC() {
	for i, it := range items {
		sign(it, uint64(i))
	}
}

// A hasher asserted from a sync.Pool is called through the interface. 16
// bytes: no fix.
func pooled(b []byte) {
	h := pool.Get().(hash.Hash)
	h.Reset()
	buf := make([]byte, 16) // want `hot-buffer: make\(\[\]byte, 16\) escapes to the heap \(passed to h.Write through an interface\) once per call of pooled, .* \(no automatic fix: a pool costs more time than allocating 16 bytes\)`
	copy(buf, b)
	buf[15] = 1
	h.Write(buf)
	h.Sum(out[:0])
	pool.Put(h)
}

func CasePooledHasher() {
	for _, it := range items {
		pooled(it)
	}
}

// io.CopyBuffer hands its buffer to an io.Reader: it escapes.
func copyInto(b []byte) {
	buf := make([]byte, 32<<10) // want `hot-buffer: make\(\[\]byte, 32 << 10\) escapes to the heap \(passed to io.CopyBuffer\) once per call of copyInto, which CaseCopyBuffer calls once per .* \(the loop at hotbuffer.go:\d+\); automatic fix: take buf from a pool of byte buffers`
	src.Reset(b)
	io.CopyBuffer(w, src, buf)
}

func CaseCopyBuffer() {
	for _, it := range items {
		copyInto(it)
	}
}

// Too large for the stack, even though it does not escape.
func large(b []byte) {
	buf := make([]byte, 100<<10) // want `hot-buffer: make\(\[\]byte, 100 << 10\) is too large for the stack \(more than 64 KiB\) once per call of large, which CaseLarge calls once per .* \(the loop at hotbuffer.go:\d+\); automatic fix: take buf from a pool of byte buffers`
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

// A key built by append from nothing allocates its array even when it does
// not escape (the hasher is local and devirtualized).
func keyed(n *node) {
	if n == nil {
		return
	}
	key := append([]byte(nil), n.key...) // want `hot-buffer: append\(\[\]byte\(nil\), n.key...\) allocates its array once per call of keyed \(it recurses: keyed → keyed, once per node it walks\); automatic fix: take key from a pool of byte buffers`
	key = append(key, byte(n.id))
	h := sha256.New()
	h.Write(key)
	h.Sum(out[:0])
	keyed(n.left)
	keyed(n.right)
}

func CaseAppendKey() { keyed(tree) }

// The same, written to an interface: the array escapes too.
func keyedInto(h hash.Hash, n *node) {
	if n == nil {
		return
	}
	key := append([]byte{}, n.key...) // want `hot-buffer: append\(\[\]byte\{\}, n.key...\) allocates its array, which escapes to the heap \(passed to h.Write through an interface\), once per call of keyedInto \(it recurses: keyedInto → keyedInto, once per node it walks\); automatic fix: take key from a pool of byte buffers`
	key = append(key, '/')
	h.Write(key)
	keyedInto(h, n.left)
	keyedInto(h, n.right)
}

func CaseAppendEscaping() {
	w.Reset()
	keyedInto(w, tree)
}

// Buffers declared with var, alone or in a var block, are buffers as those
// defined by := are. In a block, the deferred Put follows the block.
func varDeclared(x uint64) {
	var hdr = make([]byte, 64) // want `hot-buffer: make\(\[\]byte, 64\) escapes to the heap \(passed to w.Write through an interface\) once per call of varDeclared, which CaseVarDecl calls once per .* \(the loop at hotbuffer.go:\d+\); automatic fix: take hdr from a pool of byte buffers`
	var (
		n          = 8
		tag []byte = make([]byte, 64) // want `hot-buffer: make\(\[\]byte, 64\) escapes to the heap \(passed to w.Write through an interface\) once per call of varDeclared, .*; automatic fix: take tag from a pool of byte buffers`
	)
	binary.BigEndian.PutUint64(hdr, x)
	binary.BigEndian.PutUint64(tag, x+uint64(n))
	w.Write(hdr)
	w.Write(tag)
}

func CaseVarDecl() {
	for i := range items {
		varDeclared(uint64(i))
	}
}

// Made in a loop: a deferred Put would keep every buffer until the
// function returns, so no fix. A cold function: the loop makes it frequent.
// Next to it, the same buffer outside the loop: cold, not reported. A
// buffer of 8 bytes in the loop would get no pool anywhere: its cost says
// why.
func CaseLoop() {
	once := make([]byte, 64)
	w.Write(once)
	for i := range items {
		buf := make([]byte, 64) // want `hot-buffer: make\(\[\]byte, 64\) escapes to the heap \(passed to w.Write through an interface\) once per .* \(the loop at hotbuffer.go:\d+\); reuse a scratch buffer or a pooled one \(no automatic fix: it is made in a loop, where a deferred Put would keep every iteration's buffer until the function returns\)`
		tag := make([]byte, 8)  // want `hot-buffer: make\(\[\]byte, 8\) escapes to the heap \(passed to w.Write through an interface\) once per .* \(the loop at hotbuffer.go:\d+\); reuse a scratch buffer kept beyond the call \(an array in a field, or one the caller passes\) \(no automatic fix: a pool costs more time than allocating 8 bytes\)`
		binary.BigEndian.PutUint64(buf, uint64(i))
		binary.BigEndian.PutUint64(tag, uint64(i))
		w.Write(buf)
		w.Write(tag)
	}
}

// Kept: returned, stored, passed to a function that may keep it, to a
// function value, or suppressed. Not reported. Next to a positive.
func keep(b []byte) { kept = b }

var consume = func(b []byte) { out[0] = b[0] }

func mixed(b []byte) []byte {
	buf := make([]byte, 64) // want `hot-buffer: make\(\[\]byte, 64\) escapes to the heap \(passed to w.Write through an interface\) once per call of mixed`
	returned := make([]byte, 8)
	stored := make([]byte, 8)
	unknown := make([]byte, 8)
	value := make([]byte, 8)
	copy(buf, b)
	copy(returned, b)
	copy(stored, b)
	w.Write(buf)
	w.Write(returned)
	w.Write(stored)
	w.Write(unknown)
	w.Write(value)
	kept = stored
	keep(unknown)
	consume(value)
	ignored := make([]byte, 8) //hashalloc:ignore hot-buffer -- measured, fine
	w.Write(ignored)
	return returned
}

func CaseKept() {
	for _, it := range items {
		mixed(it)
	}
}

// ---- Negative cases: on the stack, never reported. ----

// Constant sizes up to 64 KiB that do not escape: written to a local hasher
// (devirtualized), to encoding/binary, to a static function that does not
// keep its argument.
func fill(b []byte) { b[0] = 1 }

func onStack(b []byte) {
	small := make([]byte, 64)
	limit := make([]byte, 64<<10)
	copy(small, b)
	copy(limit, b)
	h := sha256.New()
	h.Write(small)
	h.Write(limit[:8])
	fill(small)
	binary.BigEndian.PutUint64(small, 1)
	h.Sum(out[:0])
}

func CaseOnStack() {
	for _, it := range items {
		onStack(it)
	}
}

// A buffer filled by one copy and hashed once: one part is no
// concatenation, which concat-hash leaves alone, so the buffer is reported
// here (the copy is the caller's bytes, which the hasher could be given).
func concatShaped(b []byte) {
	buf := make([]byte, len(b)) // want `hot-buffer: make\(\[\]byte, len\(b\)\) escapes to the heap \(passed to w.Write through an interface\) once per call of concatShaped, which CaseOnePart calls once per element of items \(the loop at hotbuffer.go:\d+\); automatic fix: take buf from a pool of byte buffers`
	copy(buf, b)
	w.Write(buf)
}

// A hot function that does not hash (no case: it allocates).
var sink bytes.Buffer

func notHashing(b []byte) {
	buf := make([]byte, 8)
	copy(buf, b)
	sink.Reset()
	var wr io.Writer = &sink
	wr.Write(buf)
}

func CaseOnePart() {
	for _, it := range items {
		concatShaped(it)
	}
}

func callers() {
	for _, it := range items {
		notHashing(it)
	}
}

var _ = callers

// Made in a block of the loop that always returns (the end of the
// stream): it runs once per call, not per iteration. Not reported; the
// buffer made per iteration beside it is.
func CaseEndOfStream() {
	for i := 0; i <= len(items); i++ {
		if i == len(items) {
			tail := make([]byte, 8)
			binary.BigEndian.PutUint64(tail, uint64(i))
			w.Write(tail)
			return
		}
		buf := make([]byte, 64) // want `hot-buffer: make\(\[\]byte, 64\) escapes to the heap \(passed to w.Write through an interface\) once per element of items \(the loop at hotbuffer.go:\d+\); reuse a scratch buffer or a pooled one \(no automatic fix: it is made in a loop, where a deferred Put would keep every iteration's buffer until the function returns\)`
		binary.BigEndian.PutUint64(buf, uint64(i))
		w.Write(buf)
	}
}
