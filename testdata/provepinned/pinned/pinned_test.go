package pinned

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

func TestLeafHash(t *testing.T) {
	want := sha256.Sum256([]byte("\x00leaf"))
	if got := LeafHash([]byte("leaf")); !bytes.Equal(got, want[:]) {
		t.Errorf("LeafHash = %x, want %x", got, want)
	}
}

func BenchmarkLeafHash(b *testing.B) {
	leaf := bytes.Repeat([]byte{1}, 64)
	b.ReportAllocs()
	for b.Loop() {
		LeafHash(leaf)
	}
}
