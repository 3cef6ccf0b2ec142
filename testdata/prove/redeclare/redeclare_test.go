package redeclare

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// sha256Parts is a helper of the tests with the name the fix gives
// its own.
func sha256Parts(parts ...[]byte) []byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

func TestLeafHash(t *testing.T) {
	if got, want := LeafHash([]byte("leaf")), sha256Parts([]byte{0}, []byte("leaf")); !bytes.Equal(got, want) {
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
