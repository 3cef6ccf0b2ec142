package valuerecv

import (
	"crypto"
	"crypto/hmac"
	"encoding/hex"
	"fmt"
)

// HSAlg is a JWT signing method as cristalhq/jwt's first versions wrote it:
// exported, with value receivers, and a Verify that compares what sign
// returns. No keyed pool can be kept in a copy: the MAC is computed with a
// one-shot HMAC, and Verify compares with a form of sign that sums into an
// array on the stack.
type HSAlg struct {
	hash crypto.Hash
	key  []byte
}

// NewHS256 returns an HS256 signing method.
func NewHS256(key []byte) HSAlg { return HSAlg{hash: crypto.SHA256, key: key} }

// Sign returns the signature of payload.
func (h HSAlg) Sign(payload []byte) []byte { return h.sign(payload) }

// Verify reports whether signature is payload's.
func (h HSAlg) Verify(payload, signature []byte) bool {
	return hmac.Equal(h.sign(payload), signature)
}

func (h HSAlg) sign(payload []byte) []byte {
	mac := hmac.New(h.hash.New, h.key) // want `hmac-rekey: hmac.New\(h.hash.New, h.key\) re-keys an HMAC \(5 allocations\) once per call of sign, .* with a key fixed for each HSAlg \(field key\); a keyed pool cannot be kept beside it \(h is a copy, .*\); automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing, and compare the sum that Verify checks without allocating`
	mac.Write(payload)
	return mac.Sum(nil)
}

// hsPtr is reached through pointers only: it gets a keyed pool, and its
// Verify, which compares sign's result directly, the pool's compare form.
type hsPtr struct {
	hash crypto.Hash
	key  []byte
}

func (h *hsPtr) Verify(payload, signature []byte) bool {
	return hmac.Equal(signature, h.sign(payload))
}

//hashalloc:hot
func (h *hsPtr) sign(payload []byte) []byte {
	mac := hmac.New(h.hash.New, h.key) // want `hmac-rekey: .* with a key fixed for each \*hsPtr \(field key\); automatic fix: take mac from a pool of HMACs keyed with h\.key, held next to it, and compare the sum that Verify checks without allocating`
	mac.Write(payload)
	return mac.Sum(nil)
}

// HSReceived compares with a MAC that a call returns: evaluated in the
// compare form's call, the call would run before sign instead of after it,
// so Verify keeps the sum.
type HSReceived struct {
	key  []byte
	sigs [][]byte
}

func (h HSReceived) received() []byte { return h.sigs[0] }

// Verify reports whether the first signature received is payload's.
func (h HSReceived) Verify(payload []byte) bool {
	return hmac.Equal(h.sign(payload), h.received())
}

func (h HSReceived) sign(payload []byte) []byte {
	mac := hmac.New(crypto.SHA256.New, h.key) // want `hmac-rekey: .* with a key fixed for each HSReceived \(field key\); a keyed pool cannot be kept beside it \(h is a copy, .*\); automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing`
	mac.Write(payload)
	return mac.Sum(nil)
}

// HSChecked checks the error of its Write and returns it beside the MAC, as
// kataras/jwt's Sign does: the check goes with the Write, and the compare
// form returns false where sign returned nil.
type HSChecked struct {
	hash crypto.Hash
	key  []byte
}

func (h HSChecked) Verify(payload, signature []byte) (bool, error) {
	sig, err := h.sign(payload)
	if err != nil {
		return false, err
	}
	return hmac.Equal(sig, signature), nil
}

func (h HSChecked) sign(payload []byte) ([]byte, error) {
	mac := hmac.New(h.hash.New, h.key) // want `hmac-rekey: .* with a key fixed for each HSChecked \(field key\); a keyed pool cannot be kept beside it \(h is a copy, .*\); automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing, and compare the sum that Verify checks without allocating`
	if _, err := mac.Write(payload); err != nil {
		return nil, err
	}
	return mac.Sum(nil), nil
}

var (
	hs256    = NewHS256([]byte("jwt key"))
	hsp      = &hsPtr{hash: crypto.SHA256, key: []byte("jwt key")}
	received = HSReceived{key: []byte("jwt key"), sigs: [][]byte{out[:]}}
	checked  = HSChecked{hash: crypto.SHA256, key: []byte("jwt key")}
	out      [32]byte
	payload  = []byte("payload")
)

// CaseJWTVerify verifies a token's signature: after the fixes, it allocates
// nothing.
func CaseJWTVerify() { hs256.Verify(payload, out[:]) }

// CasePtrVerify verifies through the pool's compare form: after the fixes,
// it allocates nothing.
func CasePtrVerify() { hsp.Verify(payload, out[:]) }

func CaseReceivedVerify() { received.Verify(payload) }

// CaseCheckedVerify verifies through the compare form of a sign that checks
// its Write: after the fixes, it allocates nothing.
func CaseCheckedVerify() { checked.Verify(payload, out[:]) }

// ResultJWTVerify returns a signature and what each Verify says of a good
// and a bad one.
func ResultJWTVerify() string {
	sig := hs256.Sign([]byte("payload"))
	r := HSReceived{key: []byte("jwt key"), sigs: [][]byte{sig}}
	return hex.EncodeToString(sig) + fmt.Sprint(hs256.Verify([]byte("payload"), sig), hs256.Verify([]byte("other"), sig),
		hsp.Verify([]byte("payload"), sig), hsp.Verify([]byte("other"), sig), r.Verify([]byte("payload")), r.Verify([]byte("other"))) +
		fmt.Sprint(checked.Verify([]byte("payload"), sig)) + fmt.Sprint(checked.Verify([]byte("other"), sig))
}
