package suppress

import (
	"crypto/sha256"
	"io"
	"testing"
)

// Test files are skipped unless -tests is set.
func BenchmarkCopy(b *testing.B) {
	for b.Loop() {
		h := sha256.New()
		src.Reset(items[0])
		io.Copy(h, src)
	}
}
