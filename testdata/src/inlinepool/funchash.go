package inlinepool

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
)

// A hash function known only at run time, in -pool=inline: the fix declares
// a copy of hashsum.AppendHMACFunc, which calls it once, and the pool of its
// scratch buffers.
//
//hashalloc:hot
func MacOf(hashFunc func() hash.Hash, key, msg []byte) []byte { // want MacOf:"hashes parameter 2"
	mac := hmac.New(hashFunc, key) // want `hmac-rekey: hmac.New\(hashFunc, key\) re-keys .*; automatic fix: compute the MAC with appendHMACFunc\d*, an RFC 2104 HMAC declared in this file \(a copy of the runtime module's hashsum\.AppendHMACFunc\), which calls the hash function once and allocates nothing but the hasher it returns`
	mac.Write(msg)
	return mac.Sum(nil)
}

// Its negative twin: a statement between runs code, and the hash function
// may be nil: hmac.New would panic before it runs.
//
//hashalloc:hot
func MacOfCounted(hashFunc func() hash.Hash, key, msg []byte) []byte {
	mac := hmac.New(hashFunc, key) // want `hmac-rekey: hmac.New\(hashFunc, key\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: the hash function hashFunc may be nil, which makes hmac.New panic before count\(msg\) at funchash.go:\d+ runs, and the one-shot HMAC would call it after\)`
	count(msg)
	mac.Write(msg)
	return mac.Sum(nil)
}

var counted int

func count(b []byte) { counted += len(b) }

func CaseMacOf()        { MacOf(sha256.New, items[0], items[1]) }
func CaseMacOfCounted() { MacOfCounted(sha256.New, items[0], items[1]) }

func ResultFuncHash() string {
	long := make([]byte, 200) // longer than a block: hashed first
	out := string(MacOf(sha256.New, items[0], items[1])) + string(MacOf(sha256.New224, long, items[1]))
	return out + string(MacOfCounted(sha256.New, long, items[1]))
}
