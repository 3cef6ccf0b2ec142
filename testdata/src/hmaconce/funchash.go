package hmaconce

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"strconv"
)

// Hash functions known only at run time: the MAC is the one-shot HMAC of the
// hash function, which calls it once, where hmac.New called it twice.

// A parameter of an exported function: its callers choose the hash.
//
//hashalloc:hot
func HMACValue(salt, val string, hashFunc func() hash.Hash) string {
	hm := hmac.New(hashFunc, []byte(salt)) // want `hmac-rekey: hmac.New\(hashFunc, \[\]byte\(salt\)\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns`
	hm.Write([]byte(val))
	return hex.EncodeToString(hm.Sum(nil))
}

// Its negative twin: a statement between runs code, and the hash function
// may be nil: hmac.New would panic before it runs.
//
//hashalloc:hot
func HMACValueNoted(salt, val string, hashFunc func() hash.Hash) string {
	hm := hmac.New(hashFunc, []byte(salt)) // want `hmac-rekey: hmac.New\(hashFunc, \[\]byte\(salt\)\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: the hash function hashFunc may be nil, which makes hmac.New panic before note\(val\) at funchash.go:\d+ runs, and the one-shot HMAC would call it after\)`
	note(val)
	hm.Write([]byte(val))
	return hex.EncodeToString(hm.Sum(nil))
}

// Its negative twin too: the Sum's statement calls code before the Sum.
//
//hashalloc:hot
func HMACValuePrefixed(salt, val string, hashFunc func() hash.Hash) []byte {
	hm := hmac.New(hashFunc, []byte(salt)) // want `hmac-rekey: hmac.New\(hashFunc, \[\]byte\(salt\)\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: the hash function hashFunc may be nil, which makes hmac.New panic before prefix\(val\) at funchash.go:\d+ runs, and the one-shot HMAC would call it after\)`
	hm.Write([]byte(val))
	return append(prefix(val), hm.Sum(nil)...)
}

func prefix(s string) []byte {
	notes++
	return []byte(s[:1])
}

var notes int

func note(s string) { notes += len(s) }

// A value receiver whose field holds the hash function and the key: a keyed
// pool in the copy would not outlive the call, and the one-shot HMAC keeps
// no key.
type Tagger struct {
	hash func() hash.Hash
	key  []byte
}

//hashalloc:hot
func (t Tagger) Tag(aad, msg []byte) []byte {
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], uint64(len(aad)*8))
	h := hmac.New(t.hash, t.key) // want `hmac-rekey: hmac.New\(t.hash, t.key\) re-keys .*; a keyed pool cannot be kept beside it .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns`
	h.Write(aad)
	h.Write(msg)
	h.Write(buf[:])
	s := h.Sum(nil)
	return s[:16]
}

// A method value, which cannot be nil: a call between that leaves its
// receiver as it was does not stop the fix.
//
//hashalloc:hot
func counterCode(a algorithm, secret []byte, counter uint64) []byte {
	var buf [8]byte
	mac := hmac.New(a.hash, secret) // want `hmac-rekey: hmac.New\(a.hash, secret\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns`
	binary.BigEndian.PutUint64(buf[:], counter)
	note("counter")
	mac.Write(buf[:])
	return mac.Sum(nil)
}

// Its negative twin: the receiver changes between hmac.New and the Sum.
//
//hashalloc:hot
func counterCodeSwitched(a algorithm, secret []byte, counter uint64) []byte {
	var buf [8]byte
	mac := hmac.New(a.hash, secret) // want `hmac-rekey: hmac.New\(a.hash, secret\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: the hash a.hash is read from a, which a = 256 at funchash.go:\d+ uses before the Sum\)`
	a = 256
	binary.BigEndian.PutUint64(buf[:], counter)
	mac.Write(buf[:])
	return mac.Sum(nil)
}

// counterOpts holds the algorithm by value, as pquerna/otp's ValidateOpts
// does.
type counterOpts struct {
	Algorithm algorithm
	Digits    int
}

// The method value is read through a field of a parameter passed by value,
// whose address nothing takes: a call between cannot change it without
// naming opts.
//
//hashalloc:hot
func counterCodeOpts(secret []byte, counter uint64, opts counterOpts) []byte {
	var buf [8]byte
	mac := hmac.New(opts.Algorithm.hash, secret) // want `hmac-rekey: hmac.New\(opts.Algorithm.hash, secret\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns`
	binary.BigEndian.PutUint64(buf[:], counter)
	note("counter")
	mac.Write(buf[:])
	return mac.Sum(nil)
}

// Its negative twin: the function hands out opts's address before, and the
// call between could change the algorithm through it.
//
//hashalloc:hot
func counterCodeShared(secret []byte, counter uint64, opts counterOpts) []byte {
	var buf [8]byte
	share(&opts)
	mac := hmac.New(opts.Algorithm.hash, secret) // want `hmac-rekey: hmac.New\(opts.Algorithm.hash, secret\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: the hash opts.Algorithm.hash is read through opts.Algorithm.hash, which note, called by note\("counter"\) at funchash.go:\d+, could change before the Sum\)`
	binary.BigEndian.PutUint64(buf[:], counter)
	note("counter")
	mac.Write(buf[:])
	return mac.Sum(nil)
}

var shared *counterOpts

func share(o *counterOpts) { shared = o }

// A local variable that a literal choosing at run time defines: the MAC
// passes it, and its definition stays.
//
//hashalloc:hot
func macLocalChosen(bits int, key, msg []byte) []byte {
	newHash := func() hash.Hash { return hashFor(bits) }
	mac := hmac.New(newHash, key) // want `hmac-rekey: hmac.New\(newHash, key\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns`
	mac.Write(msg)
	return mac.Sum(nil)
}

// pick returns a hash function chosen at run time.
func pick(bits int) func() hash.Hash {
	if bits == 1 {
		return sha1.New
	}
	return sha512.New
}

// The hash function is computed by a call, which the one-shot HMAC would
// make at the Sum: no fix.
//
//hashalloc:hot
func macPicked(bits int, key, msg []byte) []byte {
	mac := hmac.New(pick(bits), key) // want `hmac-rekey: hmac.New\(pick\(bits\), key\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: .*the hash function pick\(bits\) runs code \(a call\) that the one-shot HMAC would run at the Sum instead of at hmac.New\)`
	mac.Write(msg)
	return mac.Sum(nil)
}

func CaseHMACValue()           { HMACValue("salt", "value", sha256.New) }
func CaseHMACValuePrefixed()   { HMACValuePrefixed("salt", "value", sha256.New) }
func CaseHMACValueNoted()      { HMACValueNoted("salt", "value", sha256.New) }
func CaseTaggerTag()           { Tagger{sha256.New, keys[0]}.Tag(keys[1], keys[2]) }
func CaseCounterCode()         { counterCode(256, keys[0], 7) }
func CaseCounterCodeSwitched() { counterCodeSwitched(512, keys[0], 7) }
func CaseCounterCodeOpts()     { counterCodeOpts(keys[0], 7, counterOpts{Algorithm: 512}) }
func CaseCounterCodeShared()   { counterCodeShared(keys[0], 7, counterOpts{Algorithm: 512}) }
func CaseMacLocalChosen()      { macLocalChosen(512, keys[0], keys[1]) }
func CaseMacPicked()           { macPicked(1, keys[0], keys[1]) }

func ResultFuncHash() string {
	long := make([]byte, 200) // longer than a block: hashed first
	out := HMACValue("salt", "value", sha256.New) + HMACValue(string(long), "value", sha1.New)
	out += HMACValueNoted("salt", "value", sha512.New)
	out += hex.EncodeToString(HMACValuePrefixed("salt", "value", sha1.New))
	out += hex.EncodeToString(Tagger{sha256.New, keys[0]}.Tag(keys[1], keys[2]))
	out += hex.EncodeToString(Tagger{sha512.New, long}.Tag(keys[1], keys[2]))
	out += hex.EncodeToString(counterCode(256, keys[0], 7)) + hex.EncodeToString(counterCode(512, long, 8))
	out += hex.EncodeToString(counterCodeSwitched(512, keys[0], 7))
	out += hex.EncodeToString(macLocalChosen(512, keys[0], keys[1])) + hex.EncodeToString(macLocalChosen(256, long, keys[1]))
	out += hex.EncodeToString(counterCodeOpts(keys[0], 7, counterOpts{Algorithm: 512}))
	out += hex.EncodeToString(counterCodeShared(long, 7, counterOpts{Algorithm: 256}))
	out += hex.EncodeToString(macPicked(1, keys[0], keys[1])) + hex.EncodeToString(macPicked(2, long, keys[1]))
	return out + string(rune('0'+notes%10))
}

// A signing function that is not a method, whose result a verifier of the
// file only compares, as lestrrat-go/dsig's SignHMAC: the compare form is
// declared beside it.
//
//hashalloc:hot
func SignHMAC(key, payload []byte, hfunc func() hash.Hash) ([]byte, error) { // want SignHMAC:"hashes parameter 1"
	h := hmac.New(hfunc, key) // want `hmac-rekey: hmac.New\(hfunc, key\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns, and compare the sum that VerifyHMAC checks without allocating`
	if _, err := h.Write(payload); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// VerifyHMAC checks signature against the MAC of payload.
func VerifyHMAC(key, payload, signature []byte, hfunc func() hash.Hash) bool {
	expected, err := SignHMAC(key, payload, hfunc)
	if err != nil {
		return false
	}
	return hmac.Equal(signature, expected)
}

func CaseSignHMAC() { SignHMAC(keys[0], keys[1], sha256.New) }

func ResultSignHMAC() string {
	sig, _ := SignHMAC(keys[0], keys[1], sha512.New)
	ok := VerifyHMAC(keys[0], keys[1], sig, sha512.New) && !VerifyHMAC(keys[0], keys[2], sig, sha512.New)
	return hex.EncodeToString(sig) + strconv.FormatBool(ok)
}
