package sample

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"testing"
)

func TestSign(t *testing.T) {
	key, msg := []byte("key"), []byte("message")
	want := hmac.New(sha256.New, key)
	want.Write(msg)
	s := NewSigner(key)
	for range 3 {
		if got := s.Sign(msg); !bytes.Equal(got, want.Sum(nil)) {
			t.Fatalf("Sign = %x, want %x", got, want.Sum(nil))
		}
	}
}

func TestDigests(t *testing.T) {
	blobs := [][]byte{[]byte("a"), []byte("bc"), nil}
	got := Digests(blobs)
	for i, b := range blobs {
		if want := sha256.Sum256(b); !bytes.Equal(got[i], want[:]) {
			t.Errorf("Digests[%d] = %x, want %x", i, got[i], want)
		}
	}
	if n := Total(blobs); n != 3*sha256.Size {
		t.Errorf("Total = %d", n)
	}
}
