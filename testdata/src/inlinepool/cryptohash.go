package inlinepool

import (
	"crypto"
	"crypto/hmac"
	_ "crypto/sha512" // HS512's hash, linked as a JWT library links it
	"encoding/hex"
	"fmt"
)

// signingMethod signs with a hash chosen at run time and a key given per
// call, as JWT libraries do: -pool=inline declares a copy of
// hashsum.AppendHMAC that dispatches to a one-shot HMAC of each hash the
// package names (crypto.SHA256, crypto.SHA512 below).
type signingMethod struct {
	name string
	hash crypto.Hash
}

func (m *signingMethod) sign(signingString string, key []byte) ([]byte, error) {
	if !m.hash.Available() {
		return nil, fmt.Errorf("%s: hash unavailable", m.name)
	}
	hasher := hmac.New(m.hash.New, key) // want `hmac-rekey: hmac.New\(m.hash.New, key\) re-keys an HMAC \(5 allocations\) once per call of sign, which CaseCryptoHash calls once per element of items .*, with key key, which its callers pass; automatic fix: compute the MAC with appendHMAC, declared in this file \(a copy of the runtime module's hashsum\.AppendHMAC\): it dispatches to an RFC 2104 HMAC, declared in this file too, of each hash that this package names, which allocates nothing, and to crypto/hmac for any other hash`
	hasher.Write([]byte(signingString))
	return hasher.Sum(nil), nil
}

// signRotated is its negative twin: the hash changes between hmac.New and
// the Sum, which the one-shot HMAC would read at the Sum.
func (m *signingMethod) signRotated(signingString string, key []byte) []byte {
	hasher := hmac.New(m.hash.New, key) // want `hmac-rekey: hmac.New\(m.hash.New, key\) re-keys an HMAC \(5 allocations\) once per call of signRotated.*; compute it with a one-shot HMAC \(no automatic fix: the hash m.hash is read from m, which m.hash = crypto.SHA256 at cryptohash.go:\d+ uses before the Sum\)`
	hasher.Write([]byte(signingString))
	m.hash = crypto.SHA256
	return hasher.Sum(nil)
}

var (
	hs256 = &signingMethod{name: "HS256", hash: crypto.SHA256}
	hs512 = &signingMethod{name: "HS512", hash: crypto.SHA512}
	hs384 = &signingMethod{name: "HS384", hash: crypto.Hash(6)} // crypto.SHA384, which the package does not name: crypto/hmac computes it
)

func CaseCryptoHash() {
	for _, k := range items {
		hs256.sign("header.payload", k)
		hs512.sign("header.payload", k)
	}
}

func CaseCryptoHashRotated() {
	rotated := &signingMethod{name: "HS512", hash: crypto.SHA512}
	for _, k := range items {
		rotated.signRotated("header.payload", k)
	}
}

func ResultCryptoHash() string {
	long := make([]byte, 200) // longer than a block: hashed first
	a, _ := hs256.sign("header.payload", items[0])
	b, _ := hs512.sign("header.payload", long)
	c, _ := hs384.sign("header.payload", items[1])
	rotated := &signingMethod{name: "HS512", hash: crypto.SHA512}
	d := rotated.signRotated("header.payload", items[2])
	return hex.EncodeToString(a) + hex.EncodeToString(b) + hex.EncodeToString(c) + hex.EncodeToString(d)
}
