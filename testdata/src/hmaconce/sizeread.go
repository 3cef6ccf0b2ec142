package hmaconce

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
)

// MACs whose size is read before their Write: the one-shot HMAC is computed
// where hmac.New was, and the size is the length of its sum.

// An HMACPRF of a hash function and a key held by a value receiver (tink's
// HMACPRF): a keyed pool in the copy would not outlive the call, and the
// size bounds the output before the Write.
type HMACPRF struct {
	h   func() hash.Hash
	key []byte
}

//hashalloc:hot
func (h HMACPRF) ComputePRF(data []byte, outputLength uint32) ([]byte, error) {
	mac := hmac.New(h.h, h.key) // want `hmac-rekey: hmac.New\(h.h, h.key\) re-keys .*; a keyed pool cannot be kept beside it .*; automatic fix: compute the MAC with hashsum\.AppendHMACFunc, which calls the hash function once and allocates nothing but the hasher it returns, where hmac.New was: the MAC's size is the length of its sum`
	if outputLength > uint32(mac.Size()) {
		return nil, fmt.Errorf("output length must be between 1 and %d", mac.Size())
	}
	mac.Write(data)
	return mac.Sum(nil)[:outputLength], nil
}

// A standard hash and a key its callers pass; a statement between that
// calls code does not stop the fix: it cannot change the part, a parameter
// whose address nothing takes.
//
//hashalloc:hot
func truncatedTag(key, msg []byte, n int) ([]byte, error) {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys .*; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing, where hmac.New was: the MAC's size is the length of its sum`
	size := mac.Size()
	note("tag")
	if n > size {
		return nil, fmt.Errorf("a tag of %d bytes is longer than the MAC's %d", n, size)
	}
	mac.Write(msg)
	return mac.Sum(nil)[:n], nil
}

// Its negative twin: a statement before the size is read changes the part,
// which the one-shot HMAC would read before it.
//
//hashalloc:hot
func truncatedTagTrimmed(key, msg []byte, n int) ([]byte, error) {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: msg \(written into the MAC at sizeread.go:\d+\) is read from msg, which trim\(&msg\) at sizeread.go:\d+ uses before the Sum\)`
	trim(&msg)
	if n > mac.Size() {
		return nil, fmt.Errorf("a tag of %d bytes is longer than the MAC's %d", n, mac.Size())
	}
	mac.Write(msg)
	return mac.Sum(nil)[:n], nil
}

func trim(b *[]byte) {
	if len(*b) > 1 {
		*b = (*b)[1:]
	}
}

// Its negative twin: the block size is read, which the sum does not tell.
//
//hashalloc:hot
func blockTag(key, msg []byte, n int) ([]byte, error) {
	mac := hmac.New(sha1.New, key) // want `hmac-rekey: hmac.New\(sha1.New, key\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: mac.BlockSize\(\) at sizeread.go:\d+ reads the MAC's block size, which the one-shot HMAC's sum does not tell\)`
	if n > mac.BlockSize() {
		return nil, fmt.Errorf("a tag of %d bytes is longer than a block", n)
	}
	mac.Write(msg)
	return mac.Sum(nil)[:n], nil
}

// Its negative twin: the MAC is used after its Sum.
//
//hashalloc:hot
func sizedAfter(key, msg []byte, n int) ([]byte, int) {
	mac := hmac.New(sha512.New, key) // want `hmac-rekey: hmac.New\(sha512.New, key\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: the MAC is used for more than Write and one Sum, after the Sum at sizeread.go:\d+\)`
	if n > mac.Size() {
		n = mac.Size()
	}
	mac.Write(msg)
	tag := mac.Sum(nil)
	return tag[:n], mac.Size()
}

type message struct{ body []byte }

// Its negative twin: the part is read through a pointer, which may be nil:
// read where hmac.New was, it could panic where the early return did not.
//
//hashalloc:hot
func sizedBody(key []byte, m *message, n int) ([]byte, error) {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: the MAC's size is read before its Write, so the one-shot HMAC would be computed where hmac.New was, and m.body, written at sizeread.go:\d+, runs code or may panic, and it would be evaluated before the statements between\)`
	if n > mac.Size() {
		return nil, fmt.Errorf("a tag of %d bytes is too long", n)
	}
	mac.Write(m.body)
	return mac.Sum(nil)[:n], nil
}

// Its negative twin: the key runs code, which the one-shot HMAC would call
// beside reading the part.
//
//hashalloc:hot
func sizedKeyed(id string, msg []byte, n int) ([]byte, error) {
	mac := hmac.New(sha256.New, keyOf(id)) // want `hmac-rekey: hmac.New\(sha256.New, keyOf\(id\)\) re-keys .*; compute it with a one-shot HMAC \(no automatic fix: the MAC's size is read before its Write, and the key keyOf\(id\) runs code \(a call\), which the one-shot HMAC computed where hmac.New was would call beside reading the parts, in an order Go leaves open\)`
	if n > mac.Size() {
		return nil, fmt.Errorf("a tag of %d bytes is too long", n)
	}
	mac.Write(msg)
	return mac.Sum(nil)[:n], nil
}

func keyOf(id string) []byte { return []byte("key:" + id) }

func CaseComputePRF()          { HMACPRF{sha256.New, keys[0]}.ComputePRF(keys[1], 16) }
func CaseTruncatedTag()        { truncatedTag(keys[0], keys[1], 16) }
func CaseTruncatedTagTrimmed() { truncatedTagTrimmed(keys[0], keys[1], 16) }
func CaseBlockTag()            { blockTag(keys[0], keys[1], 16) }
func CaseSizedAfter()          { sizedAfter(keys[0], keys[1], 16) }
func CaseSizedKeyed()          { sizedKeyed("a", keys[1], 16) }
func CaseSizedBody()           { sizedBody(keys[0], &message{keys[1]}, 16) }

func ResultSizeRead() string {
	long := make([]byte, 200) // longer than a block: hashed first
	out := ""
	add := func(b []byte, err error) {
		out += hex.EncodeToString(b) + fmt.Sprint(err) + ";"
	}
	add(HMACPRF{sha256.New, keys[0]}.ComputePRF(keys[1], 16))
	add(HMACPRF{sha512.New, long}.ComputePRF(keys[1], 64))
	add(HMACPRF{sha1.New, keys[0]}.ComputePRF(keys[1], 21)) // longer than SHA-1's 20 bytes
	add(truncatedTag(keys[0], keys[1], 16))
	add(truncatedTag(long, keys[2], 33))
	add(truncatedTagTrimmed(keys[0], keys[1], 16))
	add(blockTag(keys[0], keys[1], 16))
	tag, n := sizedAfter(keys[0], keys[1], 100)
	add(tag, fmt.Errorf("%d", n))
	add(sizedBody(keys[0], &message{keys[1]}, 16))
	add(sizedBody(keys[0], nil, 100))
	add(sizedKeyed("a", keys[1], 16))
	return out
}
