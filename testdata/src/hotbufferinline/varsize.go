package hotbufferinline

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

// authTag builds its MAC input in a buffer whose size, a uint64, is known only
// at run time, and writes it through an interface: it escapes. The fix takes
// it from a pool of buffers that grow as needed, declared in the file.
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

// framed is its twin made with a capacity: the pool's buffers are made by
// make([]byte, n), and a buffer that starts empty is not one of them.
//
//hashalloc:hot
func framed(parts [][]byte) {
	buf := make([]byte, 0, 4*len(parts)) // want `hot-buffer: make\(\[\]byte, 0, 4 \* len\(parts\)\) escapes to the heap \(passed to w.Write through an interface\) once per call of framed \(it is marked //hashalloc:hot\); reuse a scratch buffer or a pooled one \(no automatic fix: -pool=inline pools buffers made by make\(\[\]byte, n\) only\)`
	for _, p := range parts {
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(p)))
	}
	w.Write(buf)
}

var tagger = &aead{mac: hmac.New(sha256.New, []byte("0123456789abcdef"))}

func CaseVariableSize() {
	for _, it := range items {
		tagger.authTag(it, items[0], it)
		framed(items)
	}
}

func ResultVariableSize() string {
	var b strings.Builder
	for _, it := range items {
		tag := tagger.authTag(it, items[1], it)
		b.WriteString(hex.EncodeToString(tag[:]))
		tag = tagger.authTag(nil, it, items[2])
		b.WriteString(hex.EncodeToString(tag[:]))
	}
	return b.String()
}
