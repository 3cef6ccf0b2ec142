// Package hmacrekey holds the hmac-rekey cases, measured by the oracle test
// like every package of testdata: each exported func CaseX() allocates exactly
// when the allocation model says a constructor it reaches allocates.
package hmacrekey

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	out   [64]byte
	check [64]byte
	key   = []byte("a fixed package key")
)

// Signer signs with a key fixed when it is built, like a JWT signer.
type Signer struct {
	hash func() hash.Hash
	key  []byte
}

// NewSigner returns a signer that signs with key.
func NewSigner(key []byte) *Signer {
	return &Signer{
		hash: sha256.New,
		key:  key,
	}
}

// Sign re-keys an HMAC on every call.
func (s *Signer) Sign(msg []byte) []byte { // want Sign:"hashes parameter 0"
	mac := hmac.New(s.hash, s.key) // want `hmac-rekey: hmac.New\(s.hash, s.key\) re-keys an HMAC \(5 allocations\) on every call, with a key fixed for each \*Signer \(field key\); keep a pool of HMACs keyed once per value in field macs`
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// Verify too.
func (s *Signer) Verify(msg, sig []byte) bool { // want Verify:"hashes parameter 0"
	mac := hmac.New(s.hash, s.key) // want `hmac-rekey: hmac.New\(s.hash, s.key\) re-keys an HMAC \(5 allocations\) on every call, with a key fixed for each \*Signer \(field key\); keep a pool`
	mac.Write(msg)
	return hmac.Equal(mac.Sum(check[:0]), sig)
}

var signer = NewSigner([]byte("secret"))

func CaseSign() { signer.Sign(items[0]) }

func CaseVerify() { signer.Verify(items[0], out[:32]) }

// A loop-invariant key: build the HMAC once and Reset it.
func CaseSignAll() {
	for _, m := range items {
		mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) on every iteration of the loop at hmacrekey.go:\d+, with a key that does not change in the loop; hoist mac out of the loop and Reset it per iteration`
		mac.Write(m)
		mac.Sum(out[:0])
	}
}

// A key fixed for the package, per call: reported, fixed by hand.
func signPackage(msg []byte) {
	mac := hmac.New(sha512.New, key) // want `hmac-rekey: hmac.New\(sha512.New, key\) re-keys an HMAC \(5 allocations\) on every call, with a key fixed for the package \(variable key\); keep one keyed HMAC pool next to key \(no automatic fix: a package-level pool is left to you\)`
	mac.Write(msg)
	mac.Sum(out[:0])
}

func CasePackageKey() { signPackage(items[0]) }

// A key captured by a closure.
func makeSigner(k []byte) func([]byte) {
	return func(msg []byte) {
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) re-keys an HMAC \(5 allocations\) on every call, with a key fixed for the closure \(captured variable k\)`
		mac.Write(msg)
		mac.Sum(out[:0])
	}
}

func CaseClosure() { makeSigner(key)(items[0]) }

// ---- Negative cases. ----

// The key comes with each message: nothing is fixed.
func signWith(k, msg []byte) {
	mac := hmac.New(sha256.New, k)
	mac.Write(msg)
	mac.Sum(out[:0])
}

func CaseKeyPerMessage() { signWith(key, items[0]) }

// The key changes per iteration.
func CaseKeyPerIteration() {
	for _, k := range items {
		mac := hmac.New(sha256.New, k)
		mac.Write(k)
		mac.Sum(out[:0])
	}
}

// Rotating keys: the field is assigned after construction.
type Rotating struct {
	key []byte
}

func (r *Rotating) Rotate(k []byte) { r.key = k }

func (r *Rotating) Sign(msg []byte) { // want Sign:"hashes parameter 0"
	mac := hmac.New(sha256.New, r.key)
	mac.Write(msg)
	mac.Sum(out[:0])
}

var rotating = &Rotating{key: key}

func CaseRotating() { rotating.Sign(items[0]) }

// Keys rewritten in place: copy into the field changes the key.
type InPlace struct {
	key []byte
}

func (r *InPlace) Rotate(k []byte) { copy(r.key, k) }

func (r *InPlace) Sign(msg []byte) { // want Sign:"hashes parameter 0"
	mac := hmac.New(sha256.New, r.key)
	mac.Write(msg)
	mac.Sum(out[:0])
}

var inPlace = &InPlace{key: make([]byte, 16)}

func CaseInPlace() { inPlace.Sign(items[0]) }

// Kept: the HMAC is built once, stored, and Reset per use.
type Kept struct {
	mac hash.Hash
}

func NewKept(k []byte) *Kept { return &Kept{mac: hmac.New(sha256.New, k)} }

func (k *Kept) Sign(msg []byte) { // want Sign:"hashes parameter 0"
	k.mac.Reset()
	k.mac.Write(msg)
	k.mac.Sum(out[:0])
}

var kept = NewKept(key)

func CaseKept() { kept.Sign(items[0]) }

func CaseNewKept() { kept = NewKept(key) }

// Built once before the loop, Reset per message: the floor.
func CaseHoisted() {
	mac := hmac.New(sha256.New, signer.key)
	for _, m := range items {
		mac.Reset()
		mac.Write(m)
		mac.Sum(out[:0])
	}
}
