// Package joins holds hashers and MACs assigned in branches: a variable
// defined by one constructor and assigned another in an if or a case of a
// switch holds the values of both where the branches join. Every exported
// func CaseX() is measured by the oracle test.
package joins

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"io"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	src   = bytes.NewReader(nil)
	out   [64]byte
	sig   string
)

// A presigned URL's signer: HMAC-SHA1 for version 1, HMAC-SHA256 for
// version 2, keyed with the signer's key. Both MACs are made per call; the
// variable is used only for Write and Sum.
type Signer struct {
	key []byte
	v2  bool
}

func (s *Signer) Sign(msg []byte) string {
	h := hmac.New(sha1.New, s.key) // want `hmac-rekey: hmac.New\(sha1.New, s.key\) re-keys an HMAC \(5 allocations\) once per call of Sign \(it returns a hash of what it is given: its callers call it once per item they hash\), with a key fixed for each \*Signer \(field key\); a keyed pool cannot be kept beside it \(h is assigned in more than one place: which hasher it holds depends on the branch taken\); automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing; h holds the crypto\.Hash that each branch chooses`
	if s.v2 {
		h = hmac.New(sha256.New, s.key) // want `hmac-rekey: hmac.New\(sha256.New, s.key\) re-keys an HMAC \(5 allocations\) once per call of Sign .*; a keyed pool cannot be kept beside it \(h is assigned in more than one place: which hasher it holds depends on the branch taken\); automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing; h holds the crypto\.Hash that each branch chooses`
	}
	h.Write(msg)
	return hex.EncodeToString(h.Sum(nil))
}

// The same choice in a switch on the algorithm's name.
func (s *Signer) SignAlg(alg string, msg []byte) string {
	var h hash.Hash
	switch alg {
	case "sha1":
		h = hmac.New(sha1.New, s.key) // want `hmac-rekey: hmac.New\(sha1.New, s.key\) re-keys an HMAC \(5 allocations\) once per call of SignAlg .*; a keyed pool cannot be kept beside it \(h is assigned in more than one place: which hasher it holds depends on the branch taken\); automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing; h holds the crypto\.Hash that each branch chooses`
	default:
		h = hmac.New(sha256.New, s.key) // want `hmac-rekey: hmac.New\(sha256.New, s.key\) re-keys an HMAC \(5 allocations\) once per call of SignAlg .*; a keyed pool cannot be kept beside it \(h is assigned in more than one place: which hasher it holds depends on the branch taken\); automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing; h holds the crypto\.Hash that each branch chooses`
	}
	h.Write(msg)
	return hex.EncodeToString(h.Sum(nil))
}

var signer = &Signer{key: []byte("0123456789abcdef"), v2: true}

func CaseSignIf() {
	for _, it := range items {
		sig = signer.Sign(it)
	}
}

func CaseSignSwitch() {
	for _, it := range items {
		sig = signer.SignAlg("sha1", it)
	}
}

func ResultSign() string {
	var all string
	for _, it := range items {
		all += signer.Sign(it) + signer.SignAlg("sha1", it) + signer.SignAlg("sha256", it)
	}
	return all
}

// Hashers of two packages, so of two types, chosen per item: the compiler
// cannot devirtualize h's method calls, and the hasher escapes.
func digests(long bool) []byte {
	var all []byte
	for _, it := range items {
		h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(h holds hashers of several types \(it is assigned again\), whose method calls the compiler cannot devirtualize\) once per element of items \(the loop at joins.go:\d+\); reuse one hasher across iterations \(no automatic fix: h is assigned in more than one place: which hasher it holds depends on the branch taken\)`
		if long {
			h = sha512.New() // want `hasher-alloc: sha512.New\(\) escapes to the heap \(h holds hashers of several types \(it is assigned again\), whose method calls the compiler cannot devirtualize\) once per element of items \(the loop at joins.go:\d+\); reuse one hasher across iterations \(no automatic fix: h is assigned in more than one place: which hasher it holds depends on the branch taken\)`
		}
		h.Write(it)
		all = append(all, h.Sum(out[:0])...)
	}
	return all
}

func CaseDigests() { out[0] = digests(false)[0] }

func ResultDigests() string {
	return hex.EncodeToString(digests(false)) + hex.EncodeToString(digests(true))
}

// ---- Negative cases: not reported. ----

// Hashers of one package, which may be of one type: the compiler
// devirtualizes h's calls where it sees the type (measured here: 0
// allocations), so the model does not decide, and no case reaches it.
func sameType(long bool) []byte {
	var all []byte
	for _, it := range items {
		h := sha256.New()
		if long {
			h = sha256.New()
		}
		h.Write(it)
		all = append(all, h.Sum(out[:0])...)
	}
	return all
}

// A MAC assigned a hasher made elsewhere: what h holds is not known, so
// the model does not decide, and no case reaches it.
func (s *Signer) signWith(other hash.Hash, msg []byte) string {
	h := hmac.New(md5.New, s.key)
	if other != nil {
		h = other
	}
	h.Write(msg)
	return hex.EncodeToString(h.Sum(nil))
}

// A hasher chosen in a branch and then kept: it outlives the call.
var kept []hash.Hash

func keep(long bool) {
	for _, it := range items {
		h := sha256.New()
		if long {
			h = sha512.New()
		}
		src.Reset(it)
		io.Copy(h, src)
		kept = append(kept, h)
	}
}

func CaseKeep() {
	keep(true)
	kept = kept[:0]
}
