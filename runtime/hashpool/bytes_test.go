package hashpool_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sync"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashpool"
)

func TestBytesGet(t *testing.T) {
	var p hashpool.BufferPool
	for _, tc := range []struct{ n, cap int }{
		{0, 64}, {1, 64}, {64, 64}, {65, 128}, {1000, 1024}, {1024, 1024},
		{1 << 16, 1 << 16}, {1<<16 + 1, 1 << 17}, {1 << 20, 1 << 20}, {1<<20 + 1, 1<<20 + 1},
	} {
		b := p.Get(tc.n)
		if len(b) != tc.n || cap(b) != tc.cap {
			t.Errorf("Get(%d): len %d cap %d, want len %d cap %d", tc.n, len(b), cap(b), tc.n, tc.cap)
		}
		if !allZero(b[:cap(b)]) {
			t.Errorf("Get(%d): not zero", tc.n)
		}
		p.Put(b)
	}
}

// A buffer put back dirty comes back zeroed up to its capacity: no data of
// one user reaches the next.
func TestBytesReuseIsZero(t *testing.T) {
	var p hashpool.BufferPool
	for i := 0; i < 100; i++ {
		b := p.Get(40)
		b = b[:cap(b)]
		for i := range b {
			b[i] = 0xAA
		}
		p.Put(b[:3])
		if got := p.Get(10); !allZero(got[:cap(got)]) {
			t.Fatalf("Get after Put of a dirty buffer: % x", got[:cap(got)])
		}
	}
}

// Put drops what no class fits and ignores nil.
func TestBytesPutForeign(t *testing.T) {
	var p hashpool.BufferPool
	p.Put(nil)
	p.Put(make([]byte, 10))
	p.Put(make([]byte, 100))
	p.Put(make([]byte, 1<<21))
	p.Put(make([]byte, 0, 128)) // a power of two is fine, wherever it comes from
	if b := p.Get(100); len(b) != 100 || cap(b) != 128 || !allZero(b) {
		t.Fatalf("Get(100): len %d cap %d", len(b), cap(b))
	}
}

func TestBytesGetNegative(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Get(-1) did not panic")
		}
	}()
	hashpool.Buffers.Get(-1)
}

func TestBytesZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop values")
	}
	for _, n := range []int{0, 8, 64, 65, 1000, 1 << 16, 1<<16 + 1, 1 << 20} {
		hashpool.Buffers.Put(hashpool.Buffers.Get(n))
		allocs := testing.AllocsPerRun(100, func() {
			b := hashpool.Buffers.Get(n)
			if n > 0 {
				b[0] = 1
			}
			hashpool.Buffers.Put(b)
		})
		if allocs != 0 {
			t.Errorf("Get(%d)+Put: %v allocs per run, want 0", n, allocs)
		}
	}
}

// Concurrent users never see each other's bytes (run with -race).
func TestBytesConcurrentUse(t *testing.T) {
	var p hashpool.BufferPool
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				n := 1 + (g*131+i*17)%3000
				b := p.Get(n)
				if !allZero(b) {
					t.Errorf("goroutine %d: Get(%d) not zero", g, n)
					return
				}
				for j := range b {
					b[j] = byte(g + 1)
				}
				for j := range b {
					if b[j] != byte(g+1) {
						t.Errorf("goroutine %d: buffer written by another user", g)
						return
					}
				}
				p.Put(b)
			}
		}(g)
	}
	wg.Wait()
}

func FuzzBufferPool(f *testing.F) {
	f.Add(0, 1, []byte("x"))
	f.Add(64, 65, []byte("key"))
	f.Fuzz(func(t *testing.T, n, m int, data []byte) {
		if n < 0 || m < 0 || n > 1<<21 || m > 1<<21 {
			return
		}
		var p hashpool.BufferPool
		b := p.Get(n)
		copy(b, data)
		p.Put(b)
		c := p.Get(m)
		if len(c) != m || cap(c) < m || !allZero(c[:cap(c)]) {
			t.Fatalf("Get(%d) after Get(%d): len %d cap %d", m, n, len(c), cap(c))
		}
	})
}

func allZero(b []byte) bool {
	return bytes.Count(b, []byte{0}) == len(b)
}

func ExampleBufferPool() {
	h := sha256.New()
	buf := hashpool.Buffers.Get(64) // 64 zero bytes, like make([]byte, 64)
	defer hashpool.Buffers.Put(buf)
	binary.BigEndian.PutUint64(buf, 42)
	h.Write(buf)
	fmt.Printf("%x\n", h.Sum(nil)[:8])
	// Output:
	// febc0f2e309de95c
}
