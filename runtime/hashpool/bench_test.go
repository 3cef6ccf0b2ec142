//go:build go1.24

package hashpool_test

// The benchmarks use testing.B.Loop, which came with Go 1.24: this file is
// left out by older toolchains.

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"hash"
	"hash/crc32"
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

// readSum reads len(buf) bytes into buf from r and writes them to h, as a
// reader that checksums what it reads does (one byte at a time in a
// ReadByte, a header at a time in a decoder). Both calls go through an
// interface: buf escapes.
//
//go:noinline
func readSum(r io.Reader, h hash.Hash32, buf []byte) {
	r.Read(buf)
	h.Write(buf)
}

// repeated is an io.Reader that never runs dry: it copies from the start of
// its bytes at every Read.
type repeated struct{ src []byte }

func (r *repeated) Read(p []byte) (int, error) { return copy(p, r.src), nil }

// bufferSizes are the sizes of BenchmarkBufferPool: from a byte read per
// call to a header of a few hundred bytes, around the size from which
// hashalloc's hot-buffer fix takes a constant-size buffer from a pool.
var bufferSizes = []int{1, 8, 16, 32, 64, 256}

// The pools that -pool=inline declares for the sizes of bufferSizes.
var (
	bytes1Pool   = sync.Pool{New: func() any { return new([1]byte) }}
	bytes8Pool   = sync.Pool{New: func() any { return new([8]byte) }}
	bytes16Pool  = sync.Pool{New: func() any { return new([16]byte) }}
	bytes32Pool  = sync.Pool{New: func() any { return new([32]byte) }}
	bytes64Pool  = sync.Pool{New: func() any { return new([64]byte) }}
	bytes256Pool = sync.Pool{New: func() any { return new([256]byte) }}
)

// inlinePooled are, by size, the function bodies that hot-buffer's fix
// writes with -pool=inline for buf := make([]byte, size).
var inlinePooled = map[int]func(r io.Reader, h hash.Hash32){
	1: func(r io.Reader, h hash.Hash32) {
		buf := bytes1Pool.Get().(*[1]byte)[:]
		defer bytes1Pool.Put((*[1]byte)(buf))
		clear(buf)
		readSum(r, h, buf)
	},
	8: func(r io.Reader, h hash.Hash32) {
		buf := bytes8Pool.Get().(*[8]byte)[:]
		defer bytes8Pool.Put((*[8]byte)(buf))
		clear(buf)
		readSum(r, h, buf)
	},
	16: func(r io.Reader, h hash.Hash32) {
		buf := bytes16Pool.Get().(*[16]byte)[:]
		defer bytes16Pool.Put((*[16]byte)(buf))
		clear(buf)
		readSum(r, h, buf)
	},
	32: func(r io.Reader, h hash.Hash32) {
		buf := bytes32Pool.Get().(*[32]byte)[:]
		defer bytes32Pool.Put((*[32]byte)(buf))
		clear(buf)
		readSum(r, h, buf)
	},
	64: func(r io.Reader, h hash.Hash32) {
		buf := bytes64Pool.Get().(*[64]byte)[:]
		defer bytes64Pool.Put((*[64]byte)(buf))
		clear(buf)
		readSum(r, h, buf)
	},
	256: func(r io.Reader, h hash.Hash32) {
		buf := bytes256Pool.Get().(*[256]byte)[:]
		defer bytes256Pool.Put((*[256]byte)(buf))
		clear(buf)
		readSum(r, h, buf)
	},
}

// BenchmarkBufferPool builds a size-byte buffer per op, reads into it through
// an io.Reader and writes it to a crc32 hasher held as a hash.Hash32 (the
// buffer escapes). Every mode is a function value called per op:
//   - make: make([]byte, size), the code before the fix;
//   - pooled: hashpool.Buffers.Get(size) and a deferred Put, the fix;
//   - inline: the -pool=inline fix, a sync.Pool of [size]byte arrays, a
//     deferred Put and clear;
//   - reused: a buffer that the caller keeps, the floor.
//
// Compare the modes of one run with
//
//	go test -run '^$' -bench '^BenchmarkBufferPool$' -benchmem -count 6 ./hashpool > buf.txt
//	benchstat -col /mode buf.txt
func BenchmarkBufferPool(b *testing.B) {
	r := &repeated{src: make([]byte, 256)}
	var h hash.Hash32 = crc32.NewIEEE()
	for _, size := range bufferSizes {
		scratch := make([]byte, size)
		for _, mode := range []struct {
			name string
			op   func(r io.Reader, h hash.Hash32)
		}{
			{"make", func(r io.Reader, h hash.Hash32) {
				buf := make([]byte, size)
				readSum(r, h, buf)
			}},
			{"pooled", func(r io.Reader, h hash.Hash32) {
				buf := hashpool.Buffers.Get(size)
				defer hashpool.Buffers.Put(buf)
				readSum(r, h, buf)
			}},
			{"inline", inlinePooled[size]},
			{"reused", func(r io.Reader, h hash.Hash32) {
				readSum(r, h, scratch)
			}},
		} {
			b.Run(fmt.Sprintf("size=%d/mode=%s", size, mode.name), func(b *testing.B) {
				for b.Loop() {
					mode.op(r, h)
				}
			})
		}
	}
}
