package app

import (
	"bytes"
	"testing"

	"example.com/incremental/hashing"
)

var prefix = []byte("p")

func TestKey(t *testing.T) {
	for _, id := range bytes.Fields([]byte("a b c")) {
		want := hashing.Digest(append(prefix, id...))
		if Key(prefix, id) != want {
			t.Fatal("Key is not the digest of the prefix and the ID")
		}
	}
}
