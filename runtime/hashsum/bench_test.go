//go:build go1.24

package hashsum_test

// The benchmarks use testing.B.Loop, which came with Go 1.24: this file is
// left out by older toolchains.

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashsum"
)

// benchSink keeps every digest alive so the compiler cannot drop the work.
var benchSink [sha256.Size]byte

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
