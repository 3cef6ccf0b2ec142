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
		if !bytes.Equal(sig, hashing.Sign(key, msgs[i])) {
			t.Errorf("signature %d is not the message's", i)
		}
	}
}
