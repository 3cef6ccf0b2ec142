// Package hmacrekey holds the hmac-rekey cases, measured by the oracle test
// like every package of testdata: each exported func CaseX() allocates exactly
// when the allocation model says a constructor it reaches allocates, and each
// func ResultX() string returns the same before and after the fixes.
package hmacrekey

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
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

// NewVerifier builds the same struct in a second place.
func NewVerifier(key []byte) *Signer {
	return &Signer{hash: sha256.New, key: key}
}

// Sign re-keys an HMAC on every call.
func (s *Signer) Sign(msg []byte) []byte {
	mac := hmac.New(s.hash, s.key) // want `hmac-rekey: hmac.New\(s.hash, s.key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*Signer \(field key\); automatic fix: take mac from a pool of HMACs keyed with s\.key, held next to it`
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// Verify too; its MAC is given back after its last use.
func (s *Signer) Verify(msg, sig []byte) bool {
	mac := hmac.New(s.hash, s.key) // want `hmac-rekey: hmac.New\(s.hash, s.key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*Signer \(field key\); automatic fix: take mac from a pool of HMACs keyed with s\.key, held next to it`
	mac.Write(msg)
	sum := mac.Sum(check[:0])
	return hmac.Equal(sum, sig)
}

var (
	signer   = NewSigner([]byte("secret"))
	verifier = NewVerifier([]byte("secret"))
)

func CaseSign() { signer.Sign(items[0]) }

func CaseVerify() { verifier.Verify(items[0], out[:32]) }

// ResultSignVerify signs with one constructor's value and verifies with the
// other's.
func ResultSignVerify() string {
	sig := append([]byte(nil), signer.Sign(items[0])...)
	if !verifier.Verify(items[0], sig) {
		return "mismatch"
	}
	return hex.EncodeToString(sig)
}

// ZeroSigner is used as a zero value too: its key is nil.
type ZeroSigner struct {
	key []byte
}

func (z *ZeroSigner) Sign(msg []byte) string {
	mac := hmac.New(sha256.New, z.key) // want `hmac-rekey: hmac.New\(sha256.New, z.key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*ZeroSigner \(field key\); automatic fix: take mac from a pool of HMACs keyed with z\.key, held next to it`
	mac.Write(msg)
	return hex.EncodeToString(mac.Sum(out[:0]))
}

var defaultSigner ZeroSigner

func CaseZeroValue() { defaultSigner.Sign(items[0]) }

// ResultZeroValue signs with a zero value, then with new and a literal.
func ResultZeroValue() string {
	var local ZeroSigner
	z := new(ZeroSigner)
	z.key = []byte("set after new")
	return defaultSigner.Sign(items[0]) + local.Sign(items[1]) + z.Sign(items[1]) + (&ZeroSigner{key: key}).Sign(items[2])
}

// Rotating keys: the field is assigned after construction, or rewritten in
// place through an alias. The pool compares the key on every Get.
type Rotating struct {
	key []byte
}

func (r *Rotating) Rotate(k []byte) { r.key = k }

func (r *Rotating) Flip() {
	k := r.key
	k[0] ^= 1
}

func (r *Rotating) Sign(msg []byte) string {
	mac := hmac.New(sha256.New, r.key) // want `hmac-rekey: hmac.New\(sha256.New, r.key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*Rotating \(field key\); automatic fix: take mac from a pool of HMACs keyed with r\.key, held next to it`
	mac.Write(msg)
	return hex.EncodeToString(mac.Sum(out[:0]))
}

var rotating = &Rotating{key: []byte("first key")}

func CaseRotating() { rotating.Sign(items[0]) }

// ResultRotating signs, rotates, flips a byte in place, and signs again:
// every signature follows the key of its moment.
func ResultRotating() string {
	r := &Rotating{key: []byte("first key")}
	a := r.Sign(items[0])
	r.Rotate([]byte("second key"))
	b := r.Sign(items[0])
	r.Flip()
	c := r.Sign(items[0])
	return a + b + c
}

// HashField takes its hash from a crypto.Hash field, as JWT libraries do.
type HashField struct {
	hash crypto.Hash
	key  []byte
}

func (h *HashField) Sign(msg []byte) string {
	mac := hmac.New(h.hash.New, h.key) // want `hmac-rekey: hmac.New\(h.hash.New, h.key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*HashField \(field key\); automatic fix: take mac from a pool of HMACs keyed with h\.key, held next to it`
	mac.Write(msg)
	return hex.EncodeToString(mac.Sum(out[:0]))
}

var (
	hs256 = &HashField{hash: crypto.SHA256, key: []byte("jwt key")}
	hs512 = &HashField{hash: crypto.SHA512, key: []byte("jwt key")}
)

func CaseHashField() { hs256.Sign(items[0]) }

// ResultHashField signs with two hash functions and one key.
func ResultHashField() string {
	return hs256.Sign(items[0]) + hs512.Sign(items[0]) + hs256.Sign(items[1])
}

// Secret holds its key as a string, as configuration gives it.
type Secret struct {
	secret string
}

func (s *Secret) Sign(msg []byte) string {
	mac := hmac.New(sha256.New, []byte(s.secret)) // want `hmac-rekey: hmac.New\(sha256.New, \[\]byte\(s.secret\)\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*Secret \(field secret\), converted from a string each time; automatic fix: take mac from a pool of HMACs keyed with \[\]byte\(s\.secret\), held next to it`
	mac.Write(msg)
	return hex.EncodeToString(mac.Sum(out[:0]))
}

var secret = &Secret{secret: "webhook secret"}

func CaseStringField() { secret.Sign(items[0]) }

// ResultStringField signs, changes the secret after construction, and signs
// again.
func ResultStringField() string {
	s := &Secret{}
	s.secret = "set later"
	a := s.Sign(items[0])
	s.secret = "rotated"
	return a + s.Sign(items[0])
}

// A key fixed for the package, per call of a hot function: a pool beside it.
//
//hashalloc:hot
func signPackage(msg []byte) string {
	mac := hmac.New(sha512.New, key) // want `hmac-rekey: hmac.New\(sha512.New, key\) re-keys an HMAC \(5 allocations\) once per call of signPackage \(it is marked //hashalloc:hot\), with a key fixed for the package \(variable key\); automatic fix: take mac from a pool of HMACs keyed with key, held next to it`
	mac.Write(msg)
	return hex.EncodeToString(mac.Sum(out[:0]))
}

func CasePackageKey() { signPackage(items[0]) }

// ResultPackageKey signs, rotates the package key and signs again.
func ResultPackageKey() string {
	old := key
	a := signPackage(items[0])
	key = []byte("another package key")
	b := signPackage(items[0])
	key = old
	return a + b
}

// A field of the package's configuration (a process-wide secret): not said
// to change, since nothing writes it here, nor to be fixed, since a
// package variable's fields may be set anywhere; the one-shot HMAC is right
// either way.
type settings struct{ secret []byte }

var config = settings{secret: []byte("a process-wide secret")}

//hashalloc:hot
func signConfig(msg []byte) string {
	mac := hmac.New(sha256.New, config.secret) // want `hmac-rekey: hmac.New\(sha256.New, config.secret\) re-keys an HMAC \(5 allocations\) once per call of signConfig \(it is marked //hashalloc:hot\), with key config.secret, which nothing shows to be fixed across calls; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	mac.Write(msg)
	return hex.EncodeToString(mac.Sum(out[:0]))
}

func CaseConfigKey() { signConfig(items[0]) }

// A transport's key, fixed when the transport is built, per request sent
// (here, once per transport of a loop): fixed for each *keyedTransport.
type keyedTransport struct {
	key []byte
}

func (t *keyedTransport) sign(r []byte) string {
	mac := hmac.New(sha256.New, t.key) // want `hmac-rekey: hmac.New\(sha256.New, t.key\) re-keys an HMAC \(5 allocations\) once per call of sign, which CaseTransportKey calls once per element of transports \(the loop at hmacrekey.go:\d+\), with a key fixed for each \*keyedTransport \(field key\); automatic fix: take mac from a pool of HMACs keyed with t\.key, held next to it`
	mac.Write(r)
	return hex.EncodeToString(mac.Sum(out[:0]))
}

var transports = []*keyedTransport{{key: key}, {key: loopKey}}

func CaseTransportKey() {
	for _, t := range transports {
		t.sign(items[0])
	}
}

const salt = "a package salt"

// A package string key, in a hot function.
//
//hashalloc:hot
func salted(id []byte) string {
	mac := hmac.New(sha256.New, []byte(salt)) // want `hmac-rekey: hmac.New\(sha256.New, \[\]byte\(salt\)\) re-keys an HMAC \(5 allocations\) once per call of salted \(it is marked //hashalloc:hot\), with a key fixed for the package \(constant salt\), converted from a string each time; automatic fix: take mac from a pool of HMACs keyed with \[\]byte\(salt\), held next to it`
	mac.Write(id)
	return hex.EncodeToString(mac.Sum(out[:0]))
}

func CasePackageString() { salted(items[0]) }

// A package key in a function that nothing shows hot (btcutil's NewMaster
// keys "Bitcoin seed" once per wallet): a package key says nothing about how
// often the MAC is made, so nothing is reported.
func newMaster(seed []byte) []byte {
	mac := hmac.New(sha512.New, key)
	mac.Write(seed)
	return mac.Sum(nil)
}

func CaseColdPackageKey() { newMaster(items[0]) }

// A child derived by index, keyed with its parent's chain code (BIP32's
// Derive): once per child, for each of which a wallet calls it.
type ExtendedKey struct {
	key, chainCode []byte
}

func (k *ExtendedKey) Derive(i uint32) (*ExtendedKey, error) {
	mac := hmac.New(sha512.New, k.chainCode) // want `hmac-rekey: hmac.New\(sha512.New, k.chainCode\) re-keys an HMAC \(5 allocations\) once per call of Derive \(it derives a child of its receiver by index: its callers call it once per child\), with a key fixed for each \*ExtendedKey \(field chainCode\); automatic fix: take mac from a pool of HMACs keyed with k\.chainCode, held next to it`
	mac.Write(k.key)
	mac.Write([]byte{byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)})
	sum := mac.Sum(nil)
	return &ExtendedKey{key: sum[:32], chainCode: sum[32:]}, nil
}

var parent = &ExtendedKey{key: key, chainCode: []byte("a chain code")}

func CaseDerive() { parent.Derive(1) }

// ResultDerive derives two children and a grandchild.
func ResultDerive() string {
	a, _ := parent.Derive(0)
	b, _ := parent.Derive(1)
	c, _ := a.Derive(2)
	return hex.EncodeToString(a.key) + hex.EncodeToString(b.key) + hex.EncodeToString(c.chainCode)
}

// A key captured by a closure that is returned to be called per message.
func makeSigner(k []byte) func([]byte) string {
	return func(msg []byte) string {
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for the closure \(captured variable k\); automatic fix: take mac from a pool of HMACs keyed with k, held next to it`
		mac.Write(msg)
		return hex.EncodeToString(mac.Sum(out[:0]))
	}
}

var closure func([]byte) string

// CaseClosure makes its closure once (AllocsPerRun warms up with one run),
// then signs with it.
func CaseClosure() {
	if closure == nil {
		closure = makeSigner(key)
	}
	closure(items[0])
}

// ResultClosure signs with two closures of two keys.
func ResultClosure() string {
	return makeSigner([]byte("one"))(items[0]) + makeSigner([]byte("two"))(items[0]) + makeSigner(key)(items[1])
}

var loopKey = []byte("a key for the loop")

// A loop-invariant key: build the HMAC once and Reset it.
func CaseSignAll() {
	for _, m := range items {
		mac := hmac.New(sha256.New, loopKey) // want `hmac-rekey: hmac.New\(sha256.New, loopKey\) re-keys an HMAC \(5 allocations\) once per .* \(the loop at hmacrekey.go:\d+\), with a key that does not change in the loop; automatic fix: hoist mac out of the loop and Reset it per iteration`
		mac.Write(m)
		mac.Sum(out[:0])
	}
}

// The same loop with a key stretched in every iteration (PBKDF2): the HMAC
// beside it is noise, not reported.
func CaseStretchAll() { // want CaseStretchAll:`costs: heavy \(pbkdf2.Key \(key stretching\)\)`
	for _, m := range items {
		k, _ := pbkdf2.Key(sha512.New, string(m), loopKey, 1000, 64)
		mac := hmac.New(sha512.New, loopKey)
		mac.Write(k)
		mac.Sum(out[:0])
	}
}

// One identity made per iteration, its key pair generated beside the HMAC
// (Ed25519 here; an RSA key costs more still): the HMAC is noise, not
// reported.
func CaseNewIdentities() { // want CaseNewIdentities:`costs: heavy \(ed25519.GenerateKey \(an Ed25519 operation\)\)`
	for _, m := range items {
		pub, _, _ := ed25519.GenerateKey(rand.Reader)
		mac := hmac.New(sha256.New, loopKey)
		mac.Write(m)
		mac.Write(pub)
		mac.Sum(out[:0])
	}
}

// A rejection-sampling loop: a seed is stretched and MACed until the key
// it gives is valid, a few tries per new wallet, each dominated by PBKDF2.
// Not reported.
func newWalletKey(seed []byte) []byte {
	for i := byte(0); ; i++ {
		k, _ := pbkdf2.Key(sha512.New, string(seed), []byte{i}, 1000, 64)
		mac := hmac.New(sha512.New, loopKey)
		mac.Write(k)
		if sum := mac.Sum(out[:0]); sum[0] < 0x80 {
			return sum
		}
	}
}

func CaseNewWallet() { newWalletKey(items[0]) } // want CaseNewWallet:`costs: heavy \(newWalletKey, which calls pbkdf2.Key \(key stretching\)\)`

func ResultNewWallet() string { return hex.EncodeToString(newWalletKey(items[1])) } // want ResultNewWallet:`costs: heavy`

// ---- A key that changes each time: a one-shot HMAC. ----

// The key changes per iteration.
func CaseKeyPerIteration() {
	for _, k := range items {
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) re-keys an HMAC \(5 allocations\) once per .* \(the loop at hmacrekey.go:\d+\), with a key that changes from iteration to iteration \(k\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
		mac.Write(k)
		mac.Sum(out[:0])
	}
}

// A constant key converted on every call: the message says it is constant.
//
//hashalloc:hot
func CaseConstKey() {
	mac := hmac.New(sha256.New, []byte("a constant key")) // want `hmac-rekey: hmac.New\(sha256.New, \[\]byte\("a constant key"\)\) re-keys an HMAC \(5 allocations\) once per call of CaseConstKey \(it is marked //hashalloc:hot\), with the constant key "a constant key", converted on every call; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	mac.Write(key)
	mac.Sum(out[:0])
}

var tag []byte

// A hash chain: each link is MACed under the previous tag.
func CaseChain() {
	tag = append(tag[:0], key...)
	for _, m := range items {
		mac := hmac.New(sha256.New, tag) // want `hmac-rekey: hmac.New\(sha256.New, tag\) re-keys an HMAC \(5 allocations\) once per .* \(the loop at hmacrekey.go:\d+\), with key tag, which nothing shows to be fixed across calls; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
		mac.Write(m)
		mac.Write([]byte(salt))
		tag = mac.Sum(tag[:0])
	}
}

// ResultChain is the chain's last tag: the one-shot HMAC computes the same.
func ResultChain() string {
	CaseChain()
	return hex.EncodeToString(tag)
}

// A MAC used for more than Write and Sum keeps hmac.New.
func CaseMACUsedMore() {
	for _, k := range items {
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) re-keys an HMAC \(5 allocations\) once per .* \(the loop at hmacrekey.go:\d+\), with a key that changes from iteration to iteration \(k\); compute it with a one-shot HMAC \(no automatic fix: the MAC is used for more than Write and one Sum, by out\[0\] = byte\(mac.Size\(\)\) at hmacrekey.go:\d+\)`
		mac.Write(k)
		out[0] = byte(mac.Size())
		mac.Sum(out[:0])
	}
}

// ---- A value receiver: the next rung. ----

// A value receiver of an exported type: a pool in the copy would not outlive
// the call, and the one-shot HMAC, which keeps no key, needs no field.
type ByValue struct {
	key []byte
}

//hashalloc:hot
func (b ByValue) Sign(msg []byte) {
	mac := hmac.New(sha256.New, b.key) // want `hmac-rekey: .* with a key fixed for each ByValue \(field key\); a keyed pool cannot be kept beside it \(b is a copy, and a pool in it would not outlive the call; pointer receivers would keep it, but ByValue is exported: code outside the package may hold ByValue values\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	mac.Write(msg)
	mac.Sum(out[:0])
}

var byValue = ByValue{key: key}

func CaseByValue() { byValue.Sign(items[0]) }

// ---- Negative cases. ----

// The key comes with each message: nothing is fixed.
func signWith(k, msg []byte) {
	mac := hmac.New(sha256.New, k)
	mac.Write(msg)
	mac.Sum(out[:0])
}

func CaseKeyPerMessage() { signWith(key, items[0]) }

// The method sets the key itself before each MAC: it changes per call.
type Deriving struct {
	key []byte
}

func (d *Deriving) Sign(msg []byte) {
	d.key = msg[:1]
	mac := hmac.New(sha256.New, d.key)
	mac.Write(msg)
	mac.Sum(out[:0])
}

var deriving = &Deriving{}

func CaseDeriving() { deriving.Sign(items[0]) }

// Kept: the HMAC is built once, stored, and Reset per use.
type Kept struct {
	mac hash.Hash
}

func NewKept(k []byte) *Kept { return &Kept{mac: hmac.New(sha256.New, k)} }

func (k *Kept) Sign(msg []byte) {
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

// Built once per call with a package key, then Reset per message: one MAC
// serves the loop.
func CaseHoistedPackageKey() {
	mac := hmac.New(sha256.New, loopKey)
	for _, m := range items {
		mac.Reset()
		mac.Write(m)
		mac.Sum(out[:0])
	}
}

// ---- Verifying: the pooled MAC compares its sum without allocating. ----

// Checker verifies MACs under a key fixed when it is built.
type Checker struct {
	key []byte
	n   int
}

// Check compares with hmac.Equal: the fix pools the MAC and compares with
// its Equal method, so the sum is not allocated either.
func (c *Checker) Check(msg, sig []byte) bool {
	mac := hmac.New(sha256.New, c.key) // want `hmac-rekey: hmac.New\(sha256.New, c.key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*Checker \(field key\); automatic fix: take mac from a pool of HMACs keyed with c\.key, held next to it, and compare its sum without allocating`
	mac.Write(msg)
	return hmac.Equal(mac.Sum(nil), sig)
}

// CheckAll compares twice, the sum second and the MAC received a slice, in
// constant time with subtle: == 1 and != 1, in parentheses. The MAC is given
// back after its last use.
func (c *Checker) CheckAll(msg, sig []byte, n int) bool {
	mac := hmac.New(sha256.New, c.key) // want `hmac-rekey: .* and compare its sum without allocating`
	mac.Write(msg)
	ok := hmac.Equal(sig[:n], (mac.Sum(nil)))
	if (subtle.ConstantTimeCompare(mac.Sum(nil), sig)) != 1 {
		ok = false
	}
	ok = ok && 1 == subtle.ConstantTimeCompare(sig, mac.Sum(nil))
	return ok
}

// decode returns what it is given, in a call: code that Equal would run
// before the sum, where the comparison ran it after.
func decode(b []byte) []byte { return b }

// The MACs received are calls, the sum is kept or returned, the comparison's
// int is added up, the comparison is not constant-time: the MAC is pooled,
// and these sums stay as they are (the compared ones are told, with no
// fix: the pooled MAC is an interface).
func (c *Checker) Mixed(msg, sig []byte) []byte {
	mac := hmac.New(sha256.New, c.key) // want `hmac-rekey: hmac.New\(sha256.New, c.key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*Checker \(field key\); automatic fix: take mac from a pool of HMACs keyed with c\.key, held next to it`
	mac.Write(msg)
	if !hmac.Equal(mac.Sum(nil), decode(sig)) { // want `sum-alloc: mac.Sum\(nil\) allocates its result once per call of Mixed \(it returns a hash of what it is given: its callers call it once per item they hash\), only to be compared by hmac.Equal; sum into a reused buffer \(no automatic fix: mac.Sum is called through an interface, so a stack array passed to it would escape\)`
		c.n++
	}
	c.n += subtle.ConstantTimeCompare(mac.Sum(nil), sig) // want `sum-alloc: mac.Sum\(nil\) allocates its result once per call of Mixed \(it returns a hash of what it is given: its callers call it once per item they hash\), only to be compared by subtle.ConstantTimeCompare; sum into a reused buffer \(no automatic fix: mac.Sum is called through an interface, so a stack array passed to it would escape\)`
	if bytes.Equal(mac.Sum(nil), sig) {                  // want `sum-alloc: mac.Sum\(nil\) allocates its result once per call of Mixed \(it returns a hash of what it is given: its callers call it once per item they hash\), only to be compared by bytes.Equal; sum into a reused buffer \(no automatic fix: mac.Sum is called through an interface, so a stack array passed to it would escape\)`
		c.n++
	}
	sum := mac.Sum(nil)
	if hmac.Equal(sum, sig) {
		c.n++
	}
	return sum
}

var checker = &Checker{key: []byte("secret")}

func CaseCheck() { checker.Check(items[0], out[:32]) }

func CaseCheckAll() { checker.CheckAll(items[0], out[:32], 32) }

func CaseMixed() { checker.Mixed(items[0], out[:32]) }

// ResultCheck checks a right MAC, a wrong one and a short one, each way.
func ResultCheck() string {
	sig := append([]byte(nil), signer.Sign(items[1])...) // signer has checker's key
	bad := append([]byte(nil), sig...)
	bad[7] ^= 1
	checker.n = 0
	return fmt.Sprintf("%v,%v,%v;%v,%v,%v;%d,%x,%d",
		checker.Check(items[1], sig), checker.Check(items[1], bad), checker.Check(items[1], sig[:31]),
		checker.CheckAll(items[1], sig, 32), checker.CheckAll(items[1], bad, 32), checker.CheckAll(items[1], sig, 31),
		checker.n, checker.Mixed(items[1], sig), checker.n,
	)
}

// A loop-invariant key: the MAC is hoisted, not pooled, and its Sum(nil) has
// nothing to compare into without allocating.
func CaseCheckLoop() {
	for _, m := range items {
		mac := hmac.New(sha256.New, loopKey) // want `hmac-rekey: hmac.New\(sha256.New, loopKey\) re-keys an HMAC \(5 allocations\) once per .* \(the loop at hmacrekey.go:\d+\), with a key that does not change in the loop; automatic fix: hoist mac out of the loop and Reset it per iteration`
		mac.Write(m)
		ok := hmac.Equal(mac.Sum(nil), out[:32]) // want `sum-alloc: mac.Sum\(nil\) allocates its result once per .* \(the loop at hmacrekey.go:\d+\), only to be compared by hmac.Equal; sum into a reused buffer \(no automatic fix: mac.Sum is called through an interface, so a stack array passed to it would escape\)`
		_ = ok
	}
}
