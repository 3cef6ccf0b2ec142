package allocmore

import (
	"bytes"
	"crypto/sha256"
	"io"
	"testing"
)

func TestSumAll(t *testing.T) {
	sums, err := SumAll([]io.Reader{bytes.NewReader([]byte("a")), bytes.NewReader([]byte("b"))})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range []string{"a", "b"} {
		if want := sha256.Sum256([]byte(m)); !bytes.Equal(sums[i], want[:]) {
			t.Errorf("sum %d = %x, want %x", i, sums[i], want)
		}
	}
}

// BenchmarkSumNone sums no reader: nothing to allocate, until the hasher
// is hoisted out of the loop.
func BenchmarkSumNone(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		SumAll(nil)
	}
}
