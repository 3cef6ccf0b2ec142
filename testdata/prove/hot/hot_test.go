package hot

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"example.com/provedep"
)

func TestDigest(t *testing.T) {
	msgs := provedep.NewMessages(4, 64)
	(Pipeline{SHA256{}}).Run(msgs)
	for i, m := range msgs {
		want := sha256.Sum256(m.Body)
		if !bytes.Equal(m.Sum, want[:]) {
			t.Errorf("digest %d = %x, want %x", i, m.Sum, want)
		}
	}
}

func TestTreeSum(t *testing.T) {
	leaf := &Tree{Msg: []byte("leaf")}
	l := sha256.Sum256([]byte("leaf"))
	want := sha256.Sum256(append([]byte("root"), l[:]...))
	if got := (&Tree{Msg: []byte("root"), Kids: []*Tree{leaf}}).Sum(); !bytes.Equal(got, want[:]) {
		t.Errorf("Sum = %x, want %x", got, want)
	}
}

// BenchmarkPipeline digests 16 messages of 64 bytes: 32 allocations, two
// per message (the hasher, the digest).
func BenchmarkPipeline(b *testing.B) {
	p := Pipeline{SHA256{}}
	msgs := provedep.NewMessages(16, 64)
	b.ReportAllocs()
	for b.Loop() {
		p.Run(msgs)
	}
}
