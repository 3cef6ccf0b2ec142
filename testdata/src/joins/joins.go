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
	"errors"
	"hash"
	"hash/crc32"
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
	h := hmac.New(sha1.New, s.key) // want `hmac-rekey: hmac.New\(sha1.New, s.key\) re-keys an HMAC \(5 allocations\) once per call of Sign \(it returns a hash of what it is given: its callers call it once per item they hash\), with a key fixed for each \*Signer \(field key\); a keyed pool cannot be kept beside it \(h is assigned in more than one place: which hasher it holds depends on the branch taken\); h holds hmac.New\(sha1.New, s.key\) or hmac.New\(sha256.New, s.key\), chosen by the if at joins.go:\d+: one finding for its 2 constructors; automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing; h holds the crypto\.Hash that each branch chooses`
	if s.v2 {
		h = hmac.New(sha256.New, s.key)
	}
	h.Write(msg)
	return hex.EncodeToString(h.Sum(nil))
}

// The same choice in a switch on the algorithm's name.
func (s *Signer) SignAlg(alg string, msg []byte) string {
	var h hash.Hash
	switch alg {
	case "sha1":
		h = hmac.New(sha1.New, s.key) // want `hmac-rekey: hmac.New\(sha1.New, s.key\) re-keys an HMAC \(5 allocations\) once per call of SignAlg .*; a keyed pool cannot be kept beside it \(h is assigned in more than one place: which hasher it holds depends on the branch taken\); h holds hmac.New\(sha1.New, s.key\) or hmac.New\(sha256.New, s.key\), chosen by the switch at joins.go:\d+: one finding for its 2 constructors; automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing; h holds the crypto\.Hash that each branch chooses`
	default:
		h = hmac.New(sha256.New, s.key)
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
		h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(h holds hashers of several types \(it is assigned again\), whose method calls the compiler cannot devirtualize\) once per element of items \(the loop at joins.go:\d+\); h holds sha256.New\(\) or sha512.New\(\), chosen by the if at joins.go:\d+: one finding for its 2 constructors; reuse one hasher across iterations \(no automatic fix: h is assigned in more than one place: which hasher it holds depends on the branch taken\)`
		if long {
			h = sha512.New()
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

// ---- A wrapper that chooses its constructor in a switch. ----

// A SCRAM formatter (sarama's): mac chooses its HMAC by the mechanism, and
// gives back an error where it knows none. Each call makes one of its
// hmac.New calls' MACs: its callers' MAC is the set of them.
type scram struct{ mechanism int }

var errMechanism = errors.New("unknown mechanism")

func (s scram) mac(key []byte) (hash.Hash, error) {
	var m hash.Hash
	switch s.mechanism {
	case 256:
		m = hmac.New(sha256.New, key)
	case 512:
		m = hmac.New(sha512.New, key)
	default:
		return nil, errMechanism
	}
	return m, nil
}

// hmac MACs extra once with a MAC of mac's, and drops it.
func (s scram) hmac(key, extra []byte) ([]byte, error) {
	mac, err := s.mac(key) // want `hmac-rekey: s.mac\(key\) re-keys an HMAC \(5 allocations: scram.mac returns the HMAC of hmac.New\) once per call of hmac, which saltedPassword calls once per iteration \(the loop at joins.go:\d+\), with a key that the loop does not change; automatic fix: keep one MAC across the loop in passwordMAC, which hmac makes on the first call and Resets on the next ones`
	if err != nil {
		return nil, err
	}
	if _, err := mac.Write(extra); err != nil {
		return nil, err
	}
	return mac.Sum(nil), nil
}

// saltedPassword is PBKDF2 written by hand: one HMAC per iteration, keyed
// with the password.
func (s scram) saltedPassword(password, salt []byte, iterations int) ([]byte, error) {
	mac, err := s.mac(password)
	if err != nil {
		return nil, err
	}
	mac.Write(salt)
	mac.Write([]byte{0, 0, 0, 1})
	u1 := mac.Sum(nil)
	prev, result := u1, u1
	for i := 2; i <= iterations; i++ {
		ui, err := s.hmac(password, prev)
		if err != nil {
			return nil, err
		}
		for j := range result {
			result[j] ^= ui[j]
		}
		prev = ui
	}
	return result, nil
}

var salted []byte

// Each user's password is salted once per request: the MAC that
// saltedPassword keys itself is one beside the iterations' many.
func CaseSaltedPassword() {
	for _, it := range items {
		salted, _ = scram{mechanism: 256}.saltedPassword(it, []byte("salt"), 16)
	}
}

func ResultSaltedPassword() string {
	a, _ := scram{mechanism: 256}.saltedPassword([]byte("pencil"), []byte("salt"), 16)
	b, _ := scram{mechanism: 512}.saltedPassword([]byte("pencil"), []byte("salt"), 16)
	_, err := scram{mechanism: 1}.saltedPassword([]byte("pencil"), []byte("salt"), 16)
	return hex.EncodeToString(a) + hex.EncodeToString(b) + err.Error()
}

// The twin: a session keeps the MAC that mac chooses for as long as it
// lives, and resets it per message: built once for what keeps it.
type session struct{ mac hash.Hash }

func newSession(s scram, key []byte) (*session, error) {
	m, err := s.mac(key)
	if err != nil {
		return nil, err
	}
	return &session{mac: m}, nil
}

func CaseSession() {
	sess, _ := newSession(scram{mechanism: 512}, []byte("key"))
	for _, it := range items {
		sess.mac.Reset()
		sess.mac.Write(it)
		sess.mac.Sum(out[:0])
	}
}

// A hasher chosen by the object format (gitobj's): sha1.New or sha256.New,
// or none. Hashers of two types: on the heap whatever its caller does.
func formatHasher(sha256Format bool) hash.Hash {
	switch sha256Format {
	case false:
		return sha1.New()
	case true:
		return sha256.New()
	default:
		return nil
	}
}

func CaseFormatHashers() {
	for _, it := range items {
		h := formatHasher(false) // want `hasher-alloc: formatHasher\(false\) returns the hasher of sha1.New or sha256.New, which always allocates once per element of items \(the loop at joins.go:\d+\); reuse one hasher across iterations \(no automatic fix: formatHasher chooses at run time which of sha1.New\(\) or sha256.New\(\) to call, and hoisted it would choose once instead of once per iteration\)`
		h.Write(it)
		h.Sum(out[:0])
	}
}

// A wrapper of formatHasher chooses as formatHasher does: no hoist either.
func legacyHasher() hash.Hash { return formatHasher(false) }

func CaseLegacyHashers() {
	for _, it := range items {
		h := legacyHasher() // want `hasher-alloc: legacyHasher\(\) returns the hasher of sha1.New or sha256.New, which always allocates once per element of items \(the loop at joins.go:\d+\); reuse one hasher across iterations \(no automatic fix: legacyHasher chooses at run time which of sha1.New\(\) or sha256.New\(\) to call, and hoisted it would choose once instead of once per iteration\)`
		h.Write(it)
		h.Sum(out[:0])
	}
}

// The twin: the hasher is chosen once, for a writer that keeps it.
type objectWriter struct{ h hash.Hash }

func CaseFormatHasherKept() {
	w := &objectWriter{h: formatHasher(true)}
	for _, it := range items {
		w.h.Write(it)
	}
	w.h.Sum(out[:0])
}

// ---- Hashers chosen per branch in a function that runs per item. ----

// The SHA2 function of a SQL engine (go-mysql-server's): the hasher is
// chosen by the digest size, then written and summed once per row. Each
// branch takes its hasher from a pool of its own, given back with defer
// right after the Get: the deferred Put reads h there, so it gives back
// that branch's hasher.
func sha2(bits int, s string) string {
	var h hash.Hash
	switch bits {
	case 224:
		h = sha256.New224() // want `hasher-alloc: sha256.New224\(\) escapes to the heap \(.*\) once per call of sha2, which CaseSHA2 calls once per element of items \(the loop at joins.go:\d+\); h holds sha256.New224\(\), sha256.New\(\), sha512.New384\(\) or sha512.New\(\), chosen by the switch at joins.go:\d+: one finding for its 4 constructors; automatic fix: take h from a pool of sha256.New224 hashers`
	case 256, 0:
		h = sha256.New()
	case 384:
		h = sha512.New384()
	case 512:
		h = sha512.New()
	default:
		return ""
	}
	if _, err := io.WriteString(h, s); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil)) // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of sha2, .*only to be encoded by hex.EncodeToString; automatic fix: sum into a pooled buffer, as the hasher is pooled`
}

var digest string

func CaseSHA2() {
	for _, it := range items {
		digest = sha2(384, string(it))
	}
}

func ResultSHA2() string {
	return sha2(224, "abc") + sha2(0, "abc") + sha2(256, "abc") + sha2(384, "abc") + sha2(512, "abc") + sha2(1, "abc")
}

// A signature's digest: SHA-1 for version 1, SHA-256 from version 2 on,
// defined by one constructor and replaced in a branch. Both take their
// hasher from a pool.
func versioned(v2 bool, msg []byte) []byte {
	h := sha1.New() // want `hasher-alloc: sha1.New\(\) escapes to the heap .*; h holds sha1.New\(\) or sha256.New\(\), chosen by the if at joins.go:\d+: one finding for its 2 constructors; automatic fix: take h from a pool of sha1.New hashers`
	if v2 {
		h = sha256.New()
	}
	h.Write(msg)
	return h.Sum(out[:0])
}

func CaseVersioned() {
	for _, it := range items {
		out[0] = versioned(true, it)[0]
	}
}

func ResultVersioned() string {
	return hex.EncodeToString(versioned(false, []byte("abc"))) + hex.EncodeToString(versioned(true, []byte("abc")))
}

// ---- Hashers chosen per branch that no pool serves. ----

// A function literal writes h: called after a deferred Put, it would write
// another caller's hasher.
func sha2Closure(bits int, s string) string {
	var h hash.Hash
	switch bits {
	case 256:
		h = sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap .*; h holds sha256.New\(\) or sha512.New\(\), chosen by the switch at joins.go:\d+: one finding for its 2 constructors; reuse a pooled hasher \(no automatic fix: h is assigned in more than one place: which hasher it holds depends on the branch taken, and a function literal uses h, which may run after a deferred Put gives the pooled hasher back\)`
	default:
		h = sha512.New()
	}
	write := func(p string) { io.WriteString(h, p) }
	write(s)
	return hex.EncodeToString(h.Sum(out[:0]))
}

func CaseSHA2Closure() {
	for _, it := range items {
		digest = sha2Closure(256, string(it))
	}
}

// A hasher chosen per branch and then kept: it outlives the call, and no
// finding reports it.
var last hash.Hash

func sha2Kept(bits int, s string) string {
	var h hash.Hash
	switch bits {
	case 256:
		h = sha256.New()
	default:
		h = sha512.New()
	}
	io.WriteString(h, s)
	last = h
	return hex.EncodeToString(h.Sum(out[:0]))
}

func CaseSHA2Kept() {
	for _, it := range items {
		digest = sha2Kept(256, string(it))
	}
}

// ---- One finding per value. ----

// A checksum or a digest, chosen by the table: a CRC-32 of the caller's
// table, which is not a constant, so that no pool serves it. The value is
// one finding, whose fix would pool one branch's hasher and not the
// other's: it offers none, and says which constructor has none.
func tableOrDigest(tab *crc32.Table, s string) []byte {
	var h hash.Hash
	if tab == nil {
		h = sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.WriteString\) once per call of tableOrDigest, .*; h holds sha256.New\(\) or crc32.New\(tab\), chosen by the if at joins.go:\d+: one finding for its 2 constructors; reuse a pooled hasher \(no automatic fix: crc32.New\(tab\) at joins.go:\d+ cannot be fixed: no pool serves crc32.New\)`
	} else {
		h = crc32.New(tab)
	}
	io.WriteString(h, s)
	return h.Sum(out[:0])
}

func CaseTableOrDigest() {
	for _, it := range items {
		out[0] = tableOrDigest(nil, string(it))[0]
	}
}

func ResultTableOrDigest() string {
	return hex.EncodeToString(tableOrDigest(nil, "abc")) + hex.EncodeToString(tableOrDigest(crc32.MakeTable(crc32.Castagnoli), "abc"))
}

// Two variables, each chosen in a branch: two values, two findings, each
// with the fix of its own constructors.
func twoDigests(long bool, s string) []byte {
	a := sha1.New() // want `hasher-alloc: sha1.New\(\) escapes to the heap \(passed to io.WriteString\) once per call of twoDigests, .*; a holds sha1.New\(\) or sha512.New\(\), chosen by the if at joins.go:\d+: one finding for its 2 constructors; automatic fix: take a from a pool of sha1.New hashers; take a from a pool of sha512.New hashers`
	if long {
		a = sha512.New()
	}
	b := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.WriteString\) once per call of twoDigests, .*; b holds sha256.New\(\) or sha512.New384\(\), chosen by the if at joins.go:\d+: one finding for its 2 constructors; automatic fix: take b from a pool of sha256.New hashers; take b from a pool of sha512.New384 hashers`
	if long {
		b = sha512.New384()
	}
	io.WriteString(a, s)
	io.WriteString(b, s)
	return b.Sum(a.Sum(out[:0]))
}

func CaseTwoDigests() {
	for _, it := range items {
		out[0] = twoDigests(false, string(it))[0]
	}
}

func ResultTwoDigests() string {
	return hex.EncodeToString(twoDigests(false, "abc")) + hex.EncodeToString(twoDigests(true, "abc"))
}

// One variable that holds two values one after the other: the first is
// summed before the second is made, so no branch chooses between them,
// and each constructor is a finding of its own.
func twice(s, t string) []byte {
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.WriteString\) once per call of twice, .*; automatic fix: take h from a pool of sha256.New hashers`
	io.WriteString(h, s)
	first := h.Sum(out[:0])
	h = sha512.New() // want `hasher-alloc: sha512.New\(\) escapes to the heap \(passed to io.WriteString\) once per call of twice, .*; automatic fix: take h from a pool of sha512.New hashers`
	io.WriteString(h, t)
	return h.Sum(first)
}

func CaseTwice() {
	for _, it := range items {
		out[0] = twice(string(it), "x")[0]
	}
}

func ResultTwice() string { return hex.EncodeToString(twice("abc", "def")) }
