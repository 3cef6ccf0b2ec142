//go:build go1.24

package hashsum_test

// The benchmarks use testing.B.Loop, which came with Go 1.24: this file is
// left out by older toolchains.

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashsum"
)

// benchSink and benchSinkBytes keep every result alive so the compiler cannot
// drop the work.
var (
	benchSink      [sha256.Size]byte
	benchSinkBytes []byte
)

// BenchmarkSHA256 hashes two halves a and b of a message:
//   - naive-append: sha256.Sum256(append(a, b...)), where a has no spare
//     capacity, so append allocates a copy every time;
//   - hashsum: hashsum.SHA256(a, b);
//   - floor-prebuilt: sha256.Sum256 of a concatenation built once.
func BenchmarkSHA256(b *testing.B) {
	for _, size := range []int{32, 64, 1024} {
		whole := make([]byte, size)
		for i := range whole {
			whole[i] = byte(i)
		}
		x := whole[: size/2 : size/2] // len == cap: append must copy
		y := whole[size/2:]
		b.Run(fmt.Sprintf("size=%d/naive-append", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				benchSink = sha256.Sum256(append(x, y...))
			}
		})
		b.Run(fmt.Sprintf("size=%d/hashsum", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				benchSink = hashsum.SHA256(x, y)
			}
		})
		b.Run(fmt.Sprintf("size=%d/floor-prebuilt", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				benchSink = sha256.Sum256(whole)
			}
		})
	}
}

// BenchmarkHMACSHA256 computes one HMAC-SHA256 per op, with a key that
// changes from message to message, into a caller's buffer:
//   - naive-hmac.New: hmac.New, Write, Sum (the code before the fix);
//   - hashsum: hashsum.HMACSHA256 (the code after the fix);
//   - floor-reused: one hmac for a fixed key, built before the loop and Reset
//     before each use, the least work a keyed MAC can do, and the most a fix
//     could hope for if the key did not change.
func BenchmarkHMACSHA256(b *testing.B) {
	var keys [4][32]byte
	for i := range keys {
		keys[i][0] = byte(i)
	}
	for _, size := range []int{32, 1024} {
		msg := make([]byte, size)
		buf := make([]byte, 0, sha256.Size)
		b.Run(fmt.Sprintf("size=%d/code=naive-hmac.New", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for i := 0; b.Loop(); i++ {
				m := hmac.New(sha256.New, keys[i%len(keys)][:])
				m.Write(msg)
				buf = m.Sum(buf[:0])
			}
		})
		b.Run(fmt.Sprintf("size=%d/code=hashsum", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for i := 0; b.Loop(); i++ {
				benchSink = hashsum.HMACSHA256(keys[i%len(keys)][:], msg)
			}
		})
		b.Run(fmt.Sprintf("size=%d/code=floor-reused", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			m := hmac.New(sha256.New, keys[0][:])
			for b.Loop() {
				m.Reset()
				m.Write(msg)
				buf = m.Sum(buf[:0])
			}
		})
		benchSinkBytes = buf
	}
}
