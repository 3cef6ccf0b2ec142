//go:build go1.24

package hashpool_test

// The benchmarks use testing.B.Loop, which came with Go 1.24: this file is
// left out by older toolchains.

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"io"
	"sync"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashpool"
)

var benchSizes = []int{32, 64, 1024}

// sinkBytes keeps results alive so the compiler cannot drop the work.
var sinkBytes []byte

// feed writes p to w through io.Writer in a call that is not inlined, as real
// code does when it hands a hasher to io.Copy, an encoder or a helper. The
// hasher therefore escapes, and sha256.New allocates it on the heap.
//
//go:noinline
func feed(w io.Writer, p []byte) {
	w.Write(p)
}

// BenchmarkPool hashes one message with SHA-256 per op:
//   - naive-escaping: a new sha256.New() per op, fed through io.Writer;
//   - pooled: hashpool.SHA256 Get, the same feed, Sum(buf[:0]), Put;
//   - floor-reused: one hasher created before the loop, Reset per op.
func BenchmarkPool(b *testing.B) {
	for _, size := range benchSizes {
		msg := make([]byte, size)
		buf := make([]byte, 0, sha256.Size)
		b.Run(fmt.Sprintf("size=%d/naive-escaping", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				h := sha256.New()
				feed(h, msg)
				sinkBytes = h.Sum(buf[:0])
			}
		})
		b.Run(fmt.Sprintf("size=%d/pooled", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				h := hashpool.SHA256.Get()
				feed(h, msg)
				sinkBytes = h.Sum(buf[:0])
				hashpool.SHA256.Put(h)
			}
		})
		b.Run(fmt.Sprintf("size=%d/floor-reused", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			h := sha256.New()
			for b.Loop() {
				h.Reset()
				feed(h, msg)
				sinkBytes = h.Sum(buf[:0])
			}
		})
	}
}

// BenchmarkHMAC signs one message with HMAC-SHA256 per op (Write, then Sum
// into the caller's buffer), with a key held in a struct field:
//   - naive-hmac.New: hmac.New per message (the code before the fix);
//   - pooled: the struct's hashpool.HMAC field, Get (which checks the key)
//     and Put (the code after the fix);
//   - syncpool-nocheck: a sync.Pool of MACs made once for the key, which
//     trusts the key never to change (the part of pooled that is not the
//     check);
//   - floor-reused: one hmac built before the loop, Reset before each use.
func BenchmarkHMAC(b *testing.B) {
	for _, size := range []int{32, 1024} {
		msg := make([]byte, size)
		buf := make([]byte, 0, sha256.Size)
		s := &signer{key: []byte("a 32-byte key for the benchmarks")}
		b.Run(fmt.Sprintf("size=%d/code=naive-hmac.New", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				m := hmac.New(sha256.New, s.key)
				m.Write(msg)
				buf = m.Sum(buf[:0])
			}
		})
		b.Run(fmt.Sprintf("size=%d/code=pooled", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				m := s.macs.Get(sha256.New, s.key)
				m.Write(msg)
				buf = m.Sum(buf[:0])
				s.macs.Put(m)
			}
		})
		b.Run(fmt.Sprintf("size=%d/code=syncpool-nocheck", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			pool := sync.Pool{New: func() any { return hmac.New(sha256.New, s.key) }}
			for b.Loop() {
				m := pool.Get().(hash.Hash)
				m.Write(msg)
				buf = m.Sum(buf[:0])
				m.Reset()
				pool.Put(m)
			}
		})
		b.Run(fmt.Sprintf("size=%d/code=floor-reused", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			m := hmac.New(sha256.New, s.key)
			for b.Loop() {
				m.Reset()
				m.Write(msg)
				buf = m.Sum(buf[:0])
			}
		})
		sinkBytes = buf
	}
}

// sinkBool keeps verdicts alive so the compiler cannot drop the work.
var sinkBool bool

// BenchmarkHMACVerify checks the HMAC-SHA256 tag of one message per op, with
// a key held in a struct field:
//   - naive-hmac.New: hmac.New per message, hmac.Equal(m.Sum(nil), tag);
//   - pooled-sum-nil: the struct's hashpool.HMAC, hmac.Equal(m.Sum(nil), tag)
//     (the sum allocates: Sum is called through the interface);
//   - pooled-equal: the struct's hashpool.HMAC, m.Equal(tag);
//   - floor-reused: one hmac built before the loop, Reset before each use,
//     summed into a buffer reused across ops, hmac.Equal.
func BenchmarkHMACVerify(b *testing.B) {
	for _, size := range []int{32, 1024} {
		msg := make([]byte, size)
		s := &signer{key: []byte("a 32-byte key for the benchmarks")}
		tag := hmacSum(sha256.New, s.key, msg)
		b.Run(fmt.Sprintf("size=%d/code=naive-hmac.New", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				m := hmac.New(sha256.New, s.key)
				m.Write(msg)
				sinkBool = hmac.Equal(m.Sum(nil), tag)
			}
		})
		b.Run(fmt.Sprintf("size=%d/code=pooled-sum-nil", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				m := s.macs.Get(sha256.New, s.key)
				m.Write(msg)
				sinkBool = hmac.Equal(m.Sum(nil), tag)
				s.macs.Put(m)
			}
		})
		b.Run(fmt.Sprintf("size=%d/code=pooled-equal", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				m := s.macs.Get(sha256.New, s.key)
				m.Write(msg)
				sinkBool = m.Equal(tag)
				s.macs.Put(m)
			}
		})
		b.Run(fmt.Sprintf("size=%d/code=floor-reused", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			m := hmac.New(sha256.New, s.key)
			buf := make([]byte, 0, sha256.Size)
			for b.Loop() {
				m.Reset()
				m.Write(msg)
				buf = m.Sum(buf[:0])
				sinkBool = hmac.Equal(buf, tag)
			}
		})
	}
}

// writeNode hashes a node header through the hash.Hash interface, as hot
// recursive tree hashers do: the header buffer escapes.
//
//go:noinline
func writeNode(h hash.Hash, buf []byte, id uint64) {
	binary.BigEndian.PutUint64(buf, id)
	h.Write(buf)
}

// BenchmarkBufferPool builds a size-byte buffer per op and writes it to a hasher
// held as a hash.Hash (so the buffer escapes):
//   - naive-make: make([]byte, size) per op;
//   - pooled: hashpool.Buffers.Get and Put per op;
//   - floor-reused: one buffer made before the loop.
func BenchmarkBufferPool(b *testing.B) {
	for _, size := range benchSizes {
		var h hash.Hash = sha256.New()
		b.Run(fmt.Sprintf("size=%d/naive-make", size), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				buf := make([]byte, size)
				writeNode(h, buf, uint64(i))
			}
		})
		b.Run(fmt.Sprintf("size=%d/pooled", size), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				buf := hashpool.Buffers.Get(size)
				writeNode(h, buf, uint64(i))
				hashpool.Buffers.Put(buf)
			}
		})
		b.Run(fmt.Sprintf("size=%d/floor-reused", size), func(b *testing.B) {
			buf := make([]byte, size)
			for i := 0; b.Loop(); i++ {
				clear(buf)
				writeNode(h, buf, uint64(i))
			}
		})
	}
}
