package inlinepool

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
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

// The MAC's size is read before its Write: the copy of
// hashsum.AppendHMACFunc computes it where hmac.New was, and the size is the
// length of its sum.
//
//hashalloc:hot
func MacTruncated(hashFunc func() hash.Hash, key, msg []byte, n int) ([]byte, error) { // want MacTruncated:"hashes parameter 2"
	mac := hmac.New(hashFunc, key) // want `hmac-rekey: hmac.New\(hashFunc, key\) re-keys .*; automatic fix: compute the MAC with appendHMACFunc\d*, an RFC 2104 HMAC declared in this file \(a copy of the runtime module's hashsum\.AppendHMACFunc\), which calls the hash function once and allocates nothing but the hasher it returns, where hmac.New was: the MAC's size is the length of its sum`
	if n > mac.Size() {
		return nil, fmt.Errorf("a tag of %d bytes is longer than the MAC's %d", n, mac.Size())
	}
	mac.Write(msg)
	return mac.Sum(nil)[:n], nil
}

// Its negative twin: the block size is read, which the sum does not tell.
//
//hashalloc:hot
func MacBlockTruncated(hashFunc func() hash.Hash, key, msg []byte, n int) ([]byte, error) { // want MacBlockTruncated:"hashes parameter 2"
	mac := hmac.New(hashFunc, key) // want `hmac-rekey: hmac.New\(hashFunc, key\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: mac.BlockSize\(\) at funchash.go:\d+ reads the MAC's block size, which the one-shot HMAC's sum does not tell\)`
	if n > mac.BlockSize() {
		return nil, fmt.Errorf("a tag of %d bytes is longer than a block", n)
	}
	mac.Write(msg)
	return mac.Sum(nil)[:n], nil
}

func CaseMacOf()             { MacOf(sha256.New, items[0], items[1]) }
func CaseMacOfCounted()      { MacOfCounted(sha256.New, items[0], items[1]) }
func CaseMacTruncated()      { MacTruncated(sha256.New, items[0], items[1], 16) }
func CaseMacBlockTruncated() { MacBlockTruncated(sha256.New, items[0], items[1], 16) }

func ResultFuncHash() string {
	long := make([]byte, 200) // longer than a block: hashed first
	out := string(MacOf(sha256.New, items[0], items[1])) + string(MacOf(sha256.New224, long, items[1]))
	out += string(MacOfCounted(sha256.New, long, items[1]))
	for _, n := range []int{16, 28, 33} { // SHA-224's sum is 28 bytes
		tag, err := MacTruncated(sha256.New224, long, items[2], n)
		out += string(tag) + fmt.Sprint(err)
	}
	for _, n := range []int{16, 65} { // SHA-256's block is 64 bytes
		tag, err := MacBlockTruncated(sha256.New, items[0], items[2], n)
		out += string(tag) + fmt.Sprint(err)
	}
	return out
}
