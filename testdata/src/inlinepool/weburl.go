package inlinepool

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// A presigned URL signed with HMAC-SHA1, or HMAC-SHA256 for version 2, with
// a key given per call: -pool=inline declares the copy of
// hashsum.AppendHMAC, which dispatches to a one-shot HMAC of each hash a
// branch chooses (crypto.SHA1 here, which the package names nowhere else),
// and the variable keeps the crypto.Hash of each.
func presign(v2 bool, key []byte, path string) string {
	mac := hmac.New(sha1.New, key) // want `hmac-rekey: hmac.New\(sha1.New, key\) re-keys an HMAC \(5 allocations\) once per call of presign.*, with key key, which its callers pass; automatic fix: compute the MAC with appendHMACWeburl, declared in this file \(a copy of the runtime module's hashsum\.AppendHMAC\): it dispatches to an RFC 2104 HMAC, declared in this file too, of each hash that this package names, which allocates nothing, and to crypto/hmac for any other hash; mac holds the crypto\.Hash that each branch chooses`
	if v2 && !strings.HasPrefix(path, "/v1/") {
		mac = hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of presign.*; automatic fix: compute the MAC with appendHMACWeburl, declared in this file .*; mac holds the crypto\.Hash that each branch chooses`
	}
	mac.Write([]byte(path))
	return hex.EncodeToString(mac.Sum(nil))
}

// presignRekeyed is its negative twin: the key changes in the if, after
// hmac.New read it, and the one-shot HMAC would read it at the Sum.
func presignRekeyed(v2 bool, key []byte, path string) string {
	mac := hmac.New(sha1.New, key) // want `hmac-rekey: hmac.New\(sha1.New, key\) re-keys an HMAC \(5 allocations\) once per call of presignRekeyed.*\(no automatic fix: the key is read from key, which key = key\[1:\] at weburl.go:\d+ uses before the Sum\)`
	if v2 {
		key = key[1:]
		mac = hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of presignRekeyed.*\(no automatic fix: the key is read from key, which key = key\[1:\] at weburl.go:\d+ uses before the Sum\)`
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
