package hmaconce

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"io"
	"strings"
)

// Hash functions that are not a standard constructor written out, but
// whose one value the package shows: the fix computes the MAC with that
// constructor's one-shot HMAC.

// A function literal that only returns a constructor's hasher.
//
//hashalloc:hot
func macLiteral(key, msg []byte) []byte {
	mac := hmac.New(func() hash.Hash { return sha256.New() }, key) // want `hmac-rekey: hmac.New\(\(func\(\) hash.Hash literal\), key\) re-keys an HMAC \(5 allocations\) once per call of macLiteral \(it is marked //hashalloc:hot\), with key key, which its callers pass; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	mac.Write(msg)
	return mac.Sum(nil)
}

// Its negative twin for the constructor's one-shot HMAC: the literal
// returns what a function chooses at run time, so the MAC is the one-shot
// HMAC of the literal, which calls it once.
//
//hashalloc:hot
func macLiteralChosen(bits int, key, msg []byte) []byte {
	mac := hmac.New(func() hash.Hash { return hashFor(bits) }, key) // want `hmac-rekey: hmac.New\(\(func\(\) hash.Hash literal\), key\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns`
	mac.Write(msg)
	return mac.Sum(nil)
}

func hashFor(bits int) hash.Hash {
	if bits == 512 {
		return sha512.New()
	}
	return sha256.New()
}

// A local variable that such a literal defines, used by this MAC only: its
// definition goes with the MAC.
//
//hashalloc:hot
func macLocal(key, msg []byte) []byte {
	newHash := func() hash.Hash { return sha512.New() }
	mac := hmac.New(newHash, key) // want `hmac-rekey: hmac.New\(newHash, key\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACSHA512, which allocates nothing`
	mac.Write(msg)
	return mac.Sum(nil)
}

// Its negative twin for the constructor's one-shot HMAC: the variable
// serves two MACs (a key derivation's chain), and the fix of one would leave
// the other's undefined if it deleted the variable: each passes it to the
// one-shot HMAC of a hash function, which keeps it.
//
//hashalloc:hot
func macLocalTwice(key, msg []byte) []byte {
	newHash := func() hash.Hash { return sha256.New() }
	first := hmac.New(newHash, key) // want `hmac-rekey: hmac.New\(newHash, key\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns`
	first.Write(msg)
	derived := first.Sum(nil)
	second := hmac.New(newHash, derived) // want `hmac-rekey: hmac.New\(newHash, derived\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns`
	second.Write(msg)
	return second.Sum(nil)
}

// A parameter of an unexported function, for which every call passes the
// same constructor.
//
//hashalloc:hot
func macParam(newHash func() hash.Hash, key, msg []byte) []byte {
	mac := hmac.New(newHash, key) // want `hmac-rekey: hmac.New\(newHash, key\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	mac.Write(msg)
	return mac.Sum(nil)
}

// Its negative twin for the constructor's one-shot HMAC: the calls pass two
// constructors, and a function value cannot be compared to dispatch on it;
// the one-shot HMAC of a hash function calls it instead.
//
//hashalloc:hot
func macParamEither(newHash func() hash.Hash, key, msg []byte) []byte {
	mac := hmac.New(newHash, key) // want `hmac-rekey: hmac.New\(newHash, key\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns`
	mac.Write(msg)
	return mac.Sum(nil)
}

// algorithm chooses its hash in a method: a method value's hash is chosen
// by its receiver at run time, and the one-shot HMAC of a hash function
// calls it.
type algorithm int

func (a algorithm) hash() hash.Hash {
	if a == 512 {
		return sha512.New()
	}
	return sha256.New()
}

//hashalloc:hot
func macMethodValue(a algorithm, key, msg []byte) []byte {
	mac := hmac.New(a.hash, key) // want `hmac-rekey: hmac.New\(a.hash, key\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns`
	mac.Write(msg)
	return mac.Sum(nil)
}

// A signing key derived as OSS's V4 signer derives it: the parts are
// strings written with io.WriteString, which writes []byte(s).
//
//hashalloc:hot
func signingKey(secret, date string) []byte {
	h1 := hmac.New(func() hash.Hash { return sha256.New() }, []byte(secret)) // want `hmac-rekey: hmac.New\(...\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	io.WriteString(h1, date)
	return h1.Sum(nil)
}

// The string written is computed, by a call: it is evaluated into a
// variable where it was written, and the one-shot HMAC reads the variable.
//
//hashalloc:hot
func signingKeyUpper(secret, date string) []byte {
	h1 := hmac.New(func() hash.Hash { return sha256.New() }, []byte(secret)) // want `hmac-rekey: hmac.New\(...\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	io.WriteString(h1, strings.ToUpper(date))
	return h1.Sum(nil)
}

func CaseSigningKey()      { signingKey("secret", "20260101") }
func CaseSigningKeyUpper() { signingKeyUpper("secret", "20260101") }

func CaseMacLiteral()       { macLiteral(keys[0], keys[1]) }
func CaseMacLiteralChosen() { macLiteralChosen(512, keys[0], keys[1]) }
func CaseMacLocal()         { macLocal(keys[0], keys[1]) }
func CaseMacLocalTwice()    { macLocalTwice(keys[0], keys[1]) }
func CaseMacParam()         { macParam(sha256.New, keys[0], keys[1]) }
func CaseMacParamEither() {
	macParamEither(sha256.New, keys[0], keys[1])
	macParamEither(sha512.New, keys[0], keys[1])
}
func CaseMacMethodValue() {
	macMethodValue(512, keys[0], keys[1])
	algorithm(512).hash()
	algorithm(256).hash()
}

func ResultFuncValues() string {
	long := make([]byte, 200) // longer than a block: hashed first
	out := macLiteral(long, keys[1])
	out = append(out, macLiteralChosen(512, keys[0], keys[1])...)
	out = append(out, macLocal(long, keys[1])...)
	out = append(out, macLocalTwice(keys[0], keys[1])...)
	out = append(out, macParam(sha256.New, keys[2], keys[1])...)
	out = append(out, macParamEither(sha512.New, keys[0], keys[1])...)
	out = append(out, macMethodValue(256, keys[0], keys[1])...)
	out = append(out, signingKey("secret", "20260101")...)
	out = append(out, signingKeyUpper("secret", "20260101")...)
	return hex.EncodeToString(out)
}
