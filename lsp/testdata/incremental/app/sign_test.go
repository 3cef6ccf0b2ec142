package app_test

import (
	"bytes"
	"testing"

	"example.com/incremental/app"
	"example.com/incremental/hashing"
)

func TestSignAll(t *testing.T) {
	key, msgs := []byte("key"), [][]byte{[]byte("a"), []byte("b")}
	for i, sig := range app.SignAll(key, msgs) {
		var want [][]byte
		hashing.Sign(&want, key, msgs[i])
		if !bytes.Equal(sig, want[0]) {
			t.Errorf("signature %d is not the message's", i)
		}
	}
}
