package hashpool

import (
	"math/bits"
	"sync"
)

// BufferPool is a pool of byte buffers, for code that builds a scratch buffer (a
// key, a length prefix, a node header) on every call of a hot function and
// hands it to an interface such as hash.Hash, which makes it escape. The zero
// value is ready to use; a BufferPool is safe for concurrent use and must not be
// copied after first use.
//
// A pool pays from 64 bytes: for a smaller buffer, Get and Put cost more
// time than make (BenchmarkBufferPool).
//
// Buffers come in power-of-two size classes from 64 bytes to 1 MiB, one
// sync.Pool per class, so that a buffer goes back to the pool without
// allocating. Larger buffers are allocated by Get and dropped by Put.
type BufferPool struct {
	classes [numClasses]sync.Pool
}

const (
	minClassShift = 6  // 64 bytes
	maxClassShift = 20 // 1 MiB
	numClasses    = maxClassShift - minClassShift + 1
)

// Buffers is the buffer pool that any code may share, and that hashalloc's
// fixes use.
var Buffers BufferPool

// arrays converts between a buffer of each class and the array pointer that
// the class's sync.Pool holds: a pointer fits in an interface value without
// an allocation, a slice does not.
var arrays = [numClasses]struct {
	wrap   func(b []byte) any
	unwrap func(v any) []byte
}{
	{func(b []byte) any { return (*[1 << 6]byte)(b) }, func(v any) []byte { return v.(*[1 << 6]byte)[:] }},
	{func(b []byte) any { return (*[1 << 7]byte)(b) }, func(v any) []byte { return v.(*[1 << 7]byte)[:] }},
	{func(b []byte) any { return (*[1 << 8]byte)(b) }, func(v any) []byte { return v.(*[1 << 8]byte)[:] }},
	{func(b []byte) any { return (*[1 << 9]byte)(b) }, func(v any) []byte { return v.(*[1 << 9]byte)[:] }},
	{func(b []byte) any { return (*[1 << 10]byte)(b) }, func(v any) []byte { return v.(*[1 << 10]byte)[:] }},
	{func(b []byte) any { return (*[1 << 11]byte)(b) }, func(v any) []byte { return v.(*[1 << 11]byte)[:] }},
	{func(b []byte) any { return (*[1 << 12]byte)(b) }, func(v any) []byte { return v.(*[1 << 12]byte)[:] }},
	{func(b []byte) any { return (*[1 << 13]byte)(b) }, func(v any) []byte { return v.(*[1 << 13]byte)[:] }},
	{func(b []byte) any { return (*[1 << 14]byte)(b) }, func(v any) []byte { return v.(*[1 << 14]byte)[:] }},
	{func(b []byte) any { return (*[1 << 15]byte)(b) }, func(v any) []byte { return v.(*[1 << 15]byte)[:] }},
	{func(b []byte) any { return (*[1 << 16]byte)(b) }, func(v any) []byte { return v.(*[1 << 16]byte)[:] }},
	{func(b []byte) any { return (*[1 << 17]byte)(b) }, func(v any) []byte { return v.(*[1 << 17]byte)[:] }},
	{func(b []byte) any { return (*[1 << 18]byte)(b) }, func(v any) []byte { return v.(*[1 << 18]byte)[:] }},
	{func(b []byte) any { return (*[1 << 19]byte)(b) }, func(v any) []byte { return v.(*[1 << 19]byte)[:] }},
	{func(b []byte) any { return (*[1 << 20]byte)(b) }, func(v any) []byte { return v.(*[1 << 20]byte)[:] }},
}

// Get returns a buffer of length n whose bytes, up to its capacity, are all
// zero, like make([]byte, n): no data of an earlier user can be read from it.
// Its capacity is at least 64, so Get(0) serves as the start of a key built
// with append. Give it back with Put when it is no longer used. Get panics if
// n is negative.
func (p *BufferPool) Get(n int) []byte {
	if n < 0 {
		panic("hashpool: BufferPool.Get with a negative length")
	}
	class, ok := classOf(n)
	if !ok {
		return make([]byte, n)
	}
	var b []byte
	if v := p.classes[class].Get(); v != nil {
		b = arrays[class].unwrap(v)
		clear(b)
	} else {
		b = make([]byte, 1<<(class+minClassShift))
	}
	return b[:n]
}

// Put returns b to the pool. b must have come from Get (any length within
// its capacity will do), must not be put back twice and must not be used
// after Put: another goroutine may already be writing to it. A buffer that
// no class fits, such as one that append has grown, is dropped. Put(nil)
// does nothing.
func (p *BufferPool) Put(b []byte) {
	c := cap(b)
	if c == 0 || c&(c-1) != 0 {
		return // not a power of two: not from Get
	}
	class, ok := classOf(c)
	if !ok || 1<<(class+minClassShift) != c {
		return
	}
	p.classes[class].Put(arrays[class].wrap(b[:c]))
}

// classOf returns the smallest size class that holds n bytes.
func classOf(n int) (int, bool) {
	if n > 1<<maxClassShift {
		return 0, false
	}
	if n <= 1<<minClassShift {
		return 0, true
	}
	return bits.Len(uint(n-1)) - minClassShift, true
}
