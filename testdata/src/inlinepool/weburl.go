package inlinepool

import (
	"crypto"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// A presigned URL signed with HMAC-SHA1, or HMAC-SHA256 for version 2, with
// a key given per call: -pool=inline declares the copy of
// hashsum.AppendHMAC, which dispatches to a one-shot HMAC of each hash a
// branch chooses (crypto.SHA1 here, which the package names nowhere else),
// and the variable keeps the crypto.Hash of each.
func presign(v2 bool, key []byte, path string) string {
	mac := hmac.New(sha1.New, key) // want `hmac-rekey: hmac.New\(sha1.New, key\) re-keys an HMAC \(5 allocations\) once per call of presign.*, with key key, which its callers pass; mac holds hmac.New\(sha1.New, key\) or hmac.New\(sha256.New, key\), chosen by the if at weburl.go:\d+: one finding for its 2 constructors; automatic fix: compute the MAC with appendHMACWeburl, declared in this file \(a copy of the runtime module's hashsum\.AppendHMAC\): it dispatches to an RFC 2104 HMAC, declared in this file too, of each hash that this package names, which allocates nothing, and to crypto/hmac for any other hash; mac holds the crypto\.Hash that each branch chooses`
	if v2 && !strings.HasPrefix(path, "/v1/") {
		mac = hmac.New(sha256.New, key)
	}
	mac.Write([]byte(path))
	return hex.EncodeToString(mac.Sum(nil))
}

// presignRekeyed is its negative twin: the key changes in the if, after
// hmac.New read it, and the one-shot HMAC would read it at the Sum.
func presignRekeyed(v2 bool, key []byte, path string) string {
	mac := hmac.New(sha1.New, key) // want `hmac-rekey: hmac.New\(sha1.New, key\) re-keys an HMAC \(5 allocations\) once per call of presignRekeyed.*; mac holds hmac.New\(sha1.New, key\) or hmac.New\(sha256.New, key\), chosen by the if at weburl.go:\d+: one finding for its 2 constructors.*\(no automatic fix: the key is read from key, which key = key\[1:\] at weburl.go:\d+ uses before the Sum\)`
	if v2 {
		key = key[1:]
		mac = hmac.New(sha256.New, key)
	}
	mac.Write([]byte(path))
	return hex.EncodeToString(mac.Sum(nil))
}

func CasePresign() {
	for _, k := range items {
		presign(true, k, "/v2/a/c/o")
		presignRekeyed(true, k, "/v2/a/c/o")
	}
}

func ResultPresign() string {
	long := make([]byte, 200) // longer than a block: hashed first
	return presign(false, items[0], "/v1/o") + presign(true, items[1], "/v2/o") + presign(true, long, "/v1/o") +
		presignRekeyed(false, items[0], "/v1/o") + presignRekeyed(true, items[1], "/v2/o")
}

// urlSigner verifies URLs signed with its fixed key: -pool=inline gives this
// file its own copy of the keyed HMAC pool that inlinepool.go declares, each
// of whose declarations ends with the file's word (hmacPoolWeburl,
// hmacPoolKeyedWeburl, hmacPoolMACWeburl, hmacPoolEqualWeburl).
type urlSigner struct {
	key []byte
}

// valid is marked hot.
//
//hashalloc:hot
func (u *urlSigner) valid(path, sig []byte) bool {
	mac := hmac.New(sha256.New, u.key) // want `hmac-rekey: hmac.New\(sha256.New, u.key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*urlSigner \(field key\); automatic fix: take mac from a pool of HMACs keyed with u\.key, held next to it, and compare its sum without allocating`
	mac.Write(path)
	return hmac.Equal(mac.Sum(nil), sig)
}

// digestURL is marked hot: its crypto.Hash is a parameter, and this file
// gets its own copy of the pool of hashers per crypto.Hash that
// cryptohashpool.go declares (pooledHashWeburl, pooledHashesWeburl).
//
//hashalloc:hot
func digestURL(alg crypto.Hash, url []byte) int {
	h := alg.New() // want `hasher-alloc: alg.New\(\) always allocates its hasher once per call of digestURL \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of the hashers of alg`
	h.Write(url)
	return len(h.Sum(nil))
}

var urls = &urlSigner{key: []byte("url key")}

func CaseURLSigner() {
	for _, it := range items {
		urls.valid(it, out[:32])
	}
}

func CaseDigestURL() {
	for _, it := range items {
		digestURL(crypto.SHA256, it)
	}
}

func ResultURLSigner() string {
	sig, _ := hex.DecodeString("7d74e45cd8ed2c9810b43e4756eebc45f36e800a6c226285e193826ad4df0ce3") // HMAC-SHA256 of "beta" under "url key"
	return fmt.Sprint(urls.valid(items[0], out[:32]), urls.valid(items[1], sig), digestURL(crypto.SHA256, items[2]))
}
