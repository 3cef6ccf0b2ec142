package hotbuffer

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"strings"
)

// aead computes authentication tags over additional data, a nonce and a
// ciphertext, as go-jose's CBC-HMAC does.
type aead struct {
	mac hash.Hash
}

// authTag builds its MAC input in a buffer whose size is known only
// at run time, a uint64, and writes it through an interface: it escapes. The
// fix takes it from the runtime's buffers, converting the size to an int.
//
//hashalloc:hot
func (a *aead) authTag(aad, nonce, ciphertext []byte) (tag [16]byte) {
	buffer := make([]byte, uint64(len(aad))+uint64(len(nonce))+uint64(len(ciphertext))+8) // want `hot-buffer: make\(\.\.\.\) escapes to the heap \(passed to a.mac.Write through an interface\) once per call of authTag \(it is marked //hashalloc:hot\); automatic fix: take buffer from a pool of byte buffers`
	n := 0
	n += copy(buffer, aad)
	n += copy(buffer[n:], nonce)
	n += copy(buffer[n:], ciphertext)
	binary.BigEndian.PutUint64(buffer[n:], uint64(len(aad))*8)
	a.mac.Reset()
	a.mac.Write(buffer)
	copy(tag[:], a.mac.Sum(out[:0]))
	return tag
}

var tagger = &aead{mac: hmac.New(sha256.New, []byte("0123456789abcdef"))}

func CaseUintSize() {
	for _, it := range items {
		tagger.authTag(it, items[0], it)
	}
}

func ResultUintSize() string {
	var b strings.Builder
	for _, it := range items {
		tag := tagger.authTag(it, items[1], it)
		b.WriteString(hex.EncodeToString(tag[:]))
		tag = tagger.authTag(nil, it, items[2])
		b.WriteString(hex.EncodeToString(tag[:]))
	}
	return b.String()
}
