package vetfail

import (
	"bytes"
	"io"
	"testing"
)

func Example_BuildSimple() {
	BuildSimple()
	// Output:
}

func BenchmarkDigestAll(b *testing.B) {
	data := bytes.Repeat([]byte("x"), 64)
	b.ReportAllocs()
	for b.Loop() {
		rs := make([]io.Reader, 16)
		for i := range rs {
			rs[i] = bytes.NewReader(data)
		}
		DigestAll(rs)
	}
}
