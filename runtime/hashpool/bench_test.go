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
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashpool"
)

var benchSizes = []int{32, 64, 1024}

// Sinks keep every result alive so the compiler cannot drop the work.
var (
	sinkBytes []byte
	sinkBool  bool
)

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

// naiveSign is the usual way to compute an HMAC-SHA256: a new hmac per message.
func naiveSign(key, msg []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(msg)
	return m.Sum(nil)
}

// naiveVerify is the usual way to check an HMAC-SHA256.
func naiveVerify(key, tag, msg []byte) bool {
	return hmac.Equal(tag, naiveSign(key, msg))
}

// BenchmarkHMAC signs one message and verifies its tag with HMAC-SHA256 per op:
//   - naive-hmac.New: naiveSign and naiveVerify, an hmac.New for each;
//   - pooled: Sum into a buffer with capacity and Equal of a keyed pool;
//   - floor-reused: one hmac built before the loop, Reset before each use.
func BenchmarkHMAC(b *testing.B) {
	key := []byte("a 32-byte key for the benchmarks")
	for _, size := range benchSizes {
		msg := make([]byte, size)
		tag := naiveSign(key, msg)
		buf := make([]byte, 0, sha256.Size)
		b.Run(fmt.Sprintf("size=%d/naive-hmac.New", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				sinkBytes = naiveSign(key, msg)
				sinkBool = naiveVerify(key, tag, msg)
			}
		})
		b.Run(fmt.Sprintf("size=%d/pooled", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			p := hashpool.NewHMAC(sha256.New, key)
			for b.Loop() {
				sinkBytes = p.Sum(buf[:0], msg)
				sinkBool = p.Equal(tag, msg)
			}
		})
		b.Run(fmt.Sprintf("size=%d/floor-reused", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			m := hmac.New(sha256.New, key)
			scratch := make([]byte, 0, sha256.Size)
			for b.Loop() {
				m.Reset()
				m.Write(msg)
				sinkBytes = m.Sum(buf[:0])
				m.Reset()
				m.Write(msg)
				sinkBool = hmac.Equal(tag, m.Sum(scratch[:0]))
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

// BenchmarkBytes builds a size-byte buffer per op and writes it to a hasher
// held as a hash.Hash (so the buffer escapes):
//   - naive-make: make([]byte, size) per op;
//   - pooled: hashpool.Buffers.Get and Put per op;
//   - floor-reused: one buffer made before the loop.
func BenchmarkBytes(b *testing.B) {
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
