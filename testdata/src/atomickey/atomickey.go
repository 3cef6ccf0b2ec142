// Package atomickey holds HMAC keys loaded from atomic fields, so that they
// can be rotated while the signer is in use: the keyed pool checks the key on
// every Get, so it serves a rotated key as well as a fixed one. Every
// exported func CaseX() is measured by the oracle test, and every func
// ResultX() string returns the same before and after the fixes.
package atomickey

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"sync/atomic"
)

var (
	msg = []byte("a message")
	out [32]byte
)

// Signer's key is an atomic.Value that Rotate replaces.
type Signer struct {
	key atomic.Value // []byte
}

func NewSigner(key []byte) *Signer {
	s := &Signer{}
	s.key.Store(key)
	return s
}

// Rotate replaces the key: signatures made after it use the new one.
func (s *Signer) Rotate(key []byte) { s.key.Store(key) }

// Sign loads the key into a variable.
func (s *Signer) Sign(m []byte) []byte {
	key := s.key.Load().([]byte)
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key held by each \*Signer \(field key, an atomic.Value\), which may rotate it \(the keyed pool checks the key on every Get, so a rotated key is used from the next call on\); automatic fix: take mac from a pool of HMACs keyed with key, held next to it`
	mac.Write(m)
	return mac.Sum(out[:0])
}

// Verify loads it in the call.
func (s *Signer) Verify(m, sig []byte) bool {
	mac := hmac.New(sha256.New, s.key.Load().([]byte)) // want `hmac-rekey: hmac.New\(sha256.New, s.key.Load\(\).\(\[\]byte\)\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key held by each \*Signer \(field key, an atomic.Value\), which may rotate it \(the keyed pool checks the key on every Get, so a rotated key is used from the next call on\); automatic fix: take mac from a pool of HMACs keyed with s\.key\.Load\(\)\.\(\[\]byte\), held next to it`
	mac.Write(m)
	var sum [32]byte
	return hmac.Equal(mac.Sum(sum[:0]), sig)
}

var signer = NewSigner([]byte("first key"))

func CaseSign() { signer.Sign(msg) }

func CaseVerify() { signer.Verify(msg, out[:]) }

// ResultRotate signs, rotates, signs again and verifies both: the pool must
// answer the rotated key with MACs of the new key, never the old one.
func ResultRotate() string {
	s := NewSigner([]byte("first key"))
	first := append([]byte(nil), s.Sign(msg)...)
	s.Rotate([]byte("second key"))
	second := append([]byte(nil), s.Sign(msg)...)
	return hex.EncodeToString(first) + " " + hex.EncodeToString(second) + " " +
		map[bool]string{true: "verified", false: "rejected"}[s.Verify(msg, second)] + " " +
		map[bool]string{true: "verified", false: "rejected"}[s.Verify(msg, first)]
}

// PointerSigner holds its key in an atomic.Pointer.
type PointerSigner struct {
	name string
	key  atomic.Pointer[[]byte]
}

func (s *PointerSigner) Sign(m []byte) []byte {
	mac := hmac.New(sha256.New, *s.key.Load()) // want `hmac-rekey: hmac.New\(sha256.New, \*s.key.Load\(\)\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key held by each \*PointerSigner \(field key, an atomic.Pointer\[\[\]byte\]\), which may rotate it \(the keyed pool checks the key on every Get, so a rotated key is used from the next call on\); automatic fix: take mac from a pool of HMACs keyed with \*s\.key\.Load\(\), held next to it`
	mac.Write(m)
	return mac.Sum(out[:0])
}

var pointerSigner = func() *PointerSigner {
	s := &PointerSigner{name: "p"}
	k := []byte("pointer key")
	s.key.Store(&k)
	return s
}()

func CasePointer() { pointerSigner.Sign(msg) }

func ResultPointer() string {
	s := &PointerSigner{}
	k1, k2 := []byte("one"), []byte("two")
	s.key.Store(&k1)
	a := hex.EncodeToString(s.Sign(msg))
	s.key.Store(&k2)
	return a + " " + hex.EncodeToString(s.Sign(msg))
}

// ---- Negative cases. ----

// The key is stored by the call itself: it changes on every call, and a
// pool would re-key every time; a one-shot HMAC is what fits, with the key
// loaded into a variable where hmac.New loaded it.
func (s *Signer) SignWith(key, m []byte) []byte {
	s.key.Store(key)
	mac := hmac.New(sha256.New, s.key.Load().([]byte)) // want `hmac-rekey: hmac.New\(sha256.New, s.key.Load\(\).\(\[\]byte\)\) re-keys an HMAC \(5 allocations\) once per call of SignWith \(it returns a hash of what it is given: its callers call it once per item they hash\), with a key read or computed per call \(s\.key\.Load\(\)\.\(\[\]byte\)\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	mac.Write(m)
	return mac.Sum(out[:0])
}

// A signer at hand, not the receiver: says nothing about how often.
func signWithGlobal(m []byte) []byte {
	mac := hmac.New(sha256.New, signer.key.Load().([]byte))
	mac.Write(m)
	return mac.Sum(out[:0])
}

// The variable is assigned again: which key it holds is not known.
func (s *Signer) signReassigned(m []byte) []byte {
	key := s.key.Load().([]byte)
	if len(m) == 0 {
		key = msg
	}
	mac := hmac.New(sha256.New, key)
	mac.Write(m)
	return mac.Sum(out[:0])
}

func CaseNegatives() {
	signer.SignWith([]byte("first key"), msg)
	signWithGlobal(msg)
	signer.signReassigned(msg)
}
