// Package inlinepool holds the cases of -pool=inline: fixes declare a
// sync.Pool in the file instead of importing the runtime module.
package inlinepool

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"io"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	out   [64]byte
	src   = bytes.NewReader(nil)
)

// digest is marked hot.
//
//hashalloc:hot
func digest(b []byte) {
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) on every call of digest, which is hot \(marked //hashalloc:hot\); automatic fix: take h from a pool of sha256\.New hashers`
	src.Reset(b)
	io.Copy(h, src)
	h.Sum(out[:0])
}

// digestAgain is marked hot.
//
//hashalloc:hot
func digestAgain(b []byte) {
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) on every call of digestAgain, which is hot`
	src.Reset(b)
	io.Copy(h, src)
	h.Sum(out[:0])
}

func CaseDigest() {
	for _, it := range items {
		digest(it)
		digestAgain(it)
	}
}

type signer struct {
	key []byte
}

func newSigner(key []byte) *signer { return &signer{key: key} }

func (s *signer) sign(msg []byte) {
	mac := hmac.New(sha256.New, s.key) // want `hmac-rekey: hmac.New\(sha256.New, s.key\) re-keys an HMAC \(5 allocations\) on every call, with a key fixed for each \*signer \(field key\); automatic fix: take mac from a pool of HMACs keyed with s\.key, held next to it`
	mac.Write(msg)
	mac.Sum(out[:0])
}

// verify compares with hmac.Equal: the fix pools the MAC and compares with
// a function declared next to the pool, which does not allocate the sum.
func (s *signer) verify(msg, sig []byte) bool {
	mac := hmac.New(sha256.New, s.key) // want `hmac-rekey: hmac.New\(sha256.New, s.key\) re-keys an HMAC \(5 allocations\) on every call, with a key fixed for each \*signer \(field key\); automatic fix: take mac from a pool of HMACs keyed with s\.key, held next to it, and compare its sum without allocating`
	mac.Write(msg)
	return hmac.Equal(mac.Sum(nil), sig)
}

var s = newSigner([]byte("secret"))

func CaseSign() { s.sign(items[0]) }

func CaseVerify() { s.verify(items[0], out[:32]) }

// ResultVerify verifies a right MAC, then a wrong one, twice: the second
// time with a pooled MAC whose sum space was used.
func ResultVerify() string {
	s.sign(items[2])
	sig := append([]byte(nil), out[:32]...)
	bad := append([]byte(nil), sig...)
	bad[0] ^= 1
	verdict := ""
	for i := 0; i < 2; i++ {
		verdict += fmt.Sprintf("%v,%v,%v;", s.verify(items[2], sig), s.verify(items[2], bad), s.verify(items[1], sig))
	}
	return verdict
}

var (
	prefix = []byte{0}
	sum    [32]byte
)

func CaseConcat() {
	sum = sha256.Sum256(append(prefix, items[0]...)) // want `concat-hash: append\(prefix, items\[0\]...\) builds a buffer only to hash it with sha256.Sum256; automatic fix: hash the parts with a multi-part sha256\.Sum256 declared in this file`
}

func leafHash(b []byte) [32]byte { return sha256.Sum256(b) }

func CaseConcatHelper() {
	sum = leafHash(append(prefix, items[1]...)) // want `concat-hash: append\(prefix, items\[1\]...\) builds a buffer only to hash it with leafHash; automatic fix: hash the parts with a variadic form of leafHash, declared next to it`
}
