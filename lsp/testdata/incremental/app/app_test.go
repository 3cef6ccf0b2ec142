package app

import (
	"testing"

	"example.com/incremental/hashing"
)

// want is what Key should return.
func want(prefix, id []byte) [32]byte {
	return hashing.Digest(append(prefix, id...))
}

func TestKey(t *testing.T) {
	prefix := []byte("p")
	for _, id := range [][]byte{[]byte("a"), []byte("b")} {
		if Key(prefix, id) != want(prefix, id) {
			t.Fatal("Key is not the digest of the prefix and the ID")
		}
	}
}
