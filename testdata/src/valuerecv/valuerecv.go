// Package valuerecv holds HMAC keys in types whose methods have value
// receivers, as cristalhq/jwt's signer does (seed 003): a pool in the
// receiver would be a copy, lost after each call. When every value of the
// type reaches its methods through a pointer, the fix gives them pointer
// receivers; when a caller only compares the sum the signing helper returns,
// it gets a compare form that does not allocate the sum. Otherwise the MAC is
// computed with a one-shot HMAC, which keeps no key.
package valuerecv

import (
	"crypto"
	"crypto/hmac"
	_ "crypto/sha256" // registers crypto.SHA256
	"encoding/hex"
	"errors"
)

// ErrInvalid is the error of a signature that does not match.
var ErrInvalid = errors.New("invalid signature")

// Signer signs and verifies; hsAlg is its only implementation.
type Signer interface {
	Sign(payload []byte) ([]byte, error)
	Verify(payload, signature []byte) error
}

type hsAlg struct {
	hash crypto.Hash
	key  []byte
}

// NewSigner returns the signer, by pointer, as every constructor does.
func NewSigner(key []byte) Signer { return &hsAlg{hash: crypto.SHA256, key: key} }

func (h hsAlg) Sign(payload []byte) ([]byte, error) { return h.sign(payload) }

func (h hsAlg) Verify(payload, signature []byte) error {
	signed, err := h.sign(payload)
	if err != nil {
		return err
	}
	if !hmac.Equal(signature, signed) {
		return ErrInvalid
	}
	return nil
}

//hashalloc:hot
func (h hsAlg) sign(payload []byte) ([]byte, error) {
	mac := hmac.New(h.hash.New, h.key) // want `hmac-rekey: hmac.New\(h.hash.New, h.key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each hsAlg \(field key\); automatic fix: take mac from a pool of HMACs keyed with h\.key, held next to it, and compare the sum that Verify checks without allocating \(the methods of hsAlg take a pointer receiver\)`
	if _, err := mac.Write(payload); err != nil {
		return nil, err
	}
	return mac.Sum(nil), nil
}

// copied is held by value in a variable: its methods keep value receivers.
type copied struct{ key []byte }

var fallback copied

//hashalloc:hot
func (c copied) sign(msg []byte) []byte {
	mac := hmac.New(crypto.SHA256.New, c.key) // want `hmac-rekey: .*; a keyed pool cannot be kept beside it \(c is a copy, and a pool in it would not outlive the call; pointer receivers would keep it, but a copied value at valuerecv.go:\d+ is not reached through a pointer\); automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing`
	mac.Write(msg)
	return mac.Sum(nil)
}

// Exported holds its key in an exported type, whose values code outside the
// package may hold.
type Exported struct{ key []byte }

// Sign re-keys an HMAC on every call.
func (e Exported) Sign(msg []byte) []byte {
	mac := hmac.New(crypto.SHA256.New, e.key) // want `hmac-rekey: .*; a keyed pool cannot be kept beside it \(e is a copy, and a pool in it would not outlive the call; pointer receivers would keep it, but Exported is exported: code outside the package may hold Exported values\); automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing`
	mac.Write(msg)
	return mac.Sum(nil)
}

// self uses its receiver as a value.
type self struct{ key []byte }

//hashalloc:hot
func (s self) sign(msg []byte) (self, []byte) {
	mac := hmac.New(crypto.SHA256.New, s.key) // want `hmac-rekey: .*; a keyed pool cannot be kept beside it \(s is a copy, and a pool in it would not outlive the call; pointer receivers would keep it, but sign uses its receiver s as a value at valuerecv.go:\d+\); automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing`
	mac.Write(msg)
	return s, mac.Sum(nil)
}

var signer = &hsAlg{hash: crypto.SHA256, key: []byte("k")}

// CaseVerify verifies a signature, as a service does per token.
func CaseVerify() {
	sig, _ := signer.Sign([]byte("m"))
	_ = signer.Verify([]byte("m"), sig)
}

// ResultVerify returns a signature and what Verify says of a good and a bad
// one, which the fix must not change.
func ResultVerify() string {
	sig, _ := signer.Sign([]byte("m"))
	good, bad := signer.Verify([]byte("m"), sig), signer.Verify([]byte("n"), sig)
	return hex.EncodeToString(sig) + " " + errString(good) + " " + errString(bad)
}

func errString(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

// The cases that keep their value receivers: the one-shot HMAC, which keeps
// no key, needs no pool in them.
func CaseCopied()   { fallback.sign([]byte("m")) }
func CaseExported() { Exported{key: []byte("k")}.Sign([]byte("m")) }
func CaseSelf()     { self{key: []byte("k")}.sign([]byte("m")) }
