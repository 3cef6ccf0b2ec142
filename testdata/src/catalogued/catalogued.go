// Package catalogued holds calls that allocate by themselves, as the
// constructor catalogue says: CRC tables made per call, KDFs given a hash
// constructor as a value, and strings converted to be written into a
// hasher whose Write lets them escape; the negative cases beside them.
//
// Measured with testing.AllocsPerRun on Go 1.26: four words and four
// one-byte separators converted and written into a hash.Hash from a map of
// constructors, 9 allocations (the hasher and 8 copies); the words copied
// into one array declared before the loop, 2 (the hasher, the array, which
// escapes once); into a crc32.NewIEEE hasher, 4 copies for 4 words, 1 with
// the array; into sha256.New, 1 (the copy of the 39-byte word: up to 32
// bytes stay on the stack). One conversion per call has nothing cheaper:
// the array would escape as the copy does. crc32.MakeTable of IEEE or
// Castagnoli and crc64.MakeTable of ISO or ECMA: 0; of another polynomial,
// 1 (a 1 KiB or 2 KiB table). hkdf.Extract(sha256.New, ...) 7,
// hkdf.Expand 11, hkdf.Key 17, pbkdf2.Key with one iteration 12.
package catalogued

import (
	"crypto/hkdf"
	"crypto/pbkdf2"
	"crypto/sha256"
	"hash"
	"hash/crc32"
	"hash/crc64"
)

var bodies [][]byte

// ETags makes a table of a polynomial that the package does not keep, a
// new 1 KiB table per body.
func ETags() (sums []uint32) {
	for _, b := range bodies {
		const pol = 0xD5828281
		tab := crc32.MakeTable(pol) // want `hasher-alloc: crc32.MakeTable\(pol\) builds a new 1024-byte table once per element of bodies \(the loop at catalogued.go:\d+\); automatic fix: make the table once, in the package-level variable crc32Table`
		sums = append(sums, crc32.Checksum(b, tab))
	}
	return sums
}

// Koopman's table is not kept either; crc64's of another polynomial neither.
func Koopman() (sums []uint64) {
	for _, b := range bodies {
		sums = append(sums, uint64(crc32.Checksum(b, crc32.MakeTable(crc32.Koopman)))) // want `hasher-alloc: crc32.MakeTable\(crc32.Koopman\) builds a new 1024-byte table once per element of bodies`
		sums = append(sums, crc64.Checksum(b, crc64.MakeTable(0x42F0E1EBA9EA3692)))    // want `hasher-alloc: crc64.MakeTable\(0x42F0E1EBA9EA3692\) builds a new 2048-byte table once per element of bodies .*; automatic fix: make the table once, in the package-level variable crc64Table`
	}
	return sums
}

// Kept: the package builds the tables of IEEE, Castagnoli, ISO and ECMA
// once and returns them on every call.
func Kept() (sums []uint64) {
	for _, b := range bodies {
		sums = append(sums, uint64(crc32.Checksum(b, crc32.MakeTable(crc32.IEEE))))
		sums = append(sums, uint64(crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli))))
		sums = append(sums, crc64.Checksum(b, crc64.MakeTable(crc64.ISO)))
		sums = append(sums, crc64.Checksum(b, crc64.MakeTable(crc64.ECMA)))
	}
	return sums
}

// Polys makes the table of a polynomial it is given: no fix, no constant
// to make it from.
func Polys(polys []uint32, b []byte) (sums []uint32) {
	for _, p := range polys {
		sums = append(sums, crc32.Checksum(b, crc32.MakeTable(p))) // want `hasher-alloc: crc32.MakeTable\(p\) builds a new 1024-byte table once per element of polys .*; make the table once per polynomial and keep it \(no automatic fix: the polynomial is not a constant\)`
	}
	return sums
}

// Made once, at package level, and once per call of a function that
// nothing repeats: silent.
var table = crc32.MakeTable(0xD5828281)

// Once makes its table once per call.
func Once(b []byte) uint32 {
	return crc32.Checksum(b, crc32.MakeTable(0xD5828281)) + crc32.Checksum(b, table)
}

var secrets [][]byte

// Derive derives a key per secret with HKDF: two HMACs made anew per call.
func Derive() (keys [][]byte) { // want Derive:`derives a key`
	for _, s := range secrets {
		prk, _ := hkdf.Extract(sha256.New, s, nil) // want `hasher-alloc: hkdf.Extract\(sha256.New, s, nil\) makes its HMACs anew on each call \(7 allocations\) once per element of secrets .*; derive once and keep what it derives while its inputs stay the same \(no automatic fix: each HMAC is keyed with what the call is given, and Extract keeps none\)`
		keys = append(keys, prk)
	}
	return keys
}

// stretch stretches each password: the allocations are a small part of it.
func stretch(passwords []string) (keys [][]byte) {
	for _, pw := range passwords {
		k, _ := pbkdf2.Key(sha256.New, pw, nil, 4096, 32)
		keys = append(keys, k)
	}
	return keys
}

// DeriveOnce derives one key per call: not per item.
func DeriveOnce(secret []byte) ([]byte, error) { // want DeriveOnce:`derives a key`
	return hkdf.Key(sha256.New, secret, nil, "label", 32)
}

// Tree is given a constructor as a value, which it calls per node, where
// the calls are judged.
type Tree struct{ newHash func() hash.Hash }

// NewTree returns a tree that hashes with newHash.
func NewTree(newHash func() hash.Hash) *Tree { return &Tree{newHash} }

// DefaultTree is a tree of SHA-256.
func DefaultTree() *Tree { return NewTree(sha256.New) }

var registry = map[string]func() hash.Hash{"sha256": sha256.New}

// Header writes an object's fields piecewise into a hasher from a registry,
// whose Write is a dynamic call: each conversion escapes, once per field.
func Header(fields []string) []byte {
	h := registry["sha256"]()
	for _, f := range fields {
		h.Write([]byte(f))   // want `hot-buffer: \[\]byte\(f\) copies f to the heap on each write \(h: its Write is a dynamic call, which lets what it is given escape\) once per element of fields .*; automatic fix: copy f into an array declared before the loop`
		h.Write([]byte(":")) // want `hot-buffer: \[\]byte\(":"\) copies ":" to the heap on each write .*; automatic fix: copy ":" into an array declared before the loop`
	}
	return h.Sum(nil)
}

var words []string

// Grams hashes every q-gram of words with one CRC-32 reset per gram: crc32's
// Write lets what it is given escape, so each word's copy is made anew.
func Grams(q int) (sums []uint32) {
	crc := crc32.NewIEEE()
	for offset := 0; offset+q <= len(words); offset++ {
		crc.Reset()
	gram:
		for i := 0; i < q; i++ {
			if words[offset+i] == "" {
				break gram
			}
			crc.Write([]byte(words[offset+i])) // want `hot-buffer: \[\]byte\(words\[offset \+ i\]\) copies words\[offset \+ i\] to the heap on each write \(crc: crc32.NewIEEE's Write lets what it is given escape\) once per .*; automatic fix: copy words\[offset\+i\] into an array declared before the loop`
		}
		sums = append(sums, crc.Sum32())
	}
	return sums
}

// Stays: a standard hasher made in the function keeps the copy on the stack.
func Stays(fields []string) [32]byte {
	h := sha256.New()
	for _, f := range fields {
		h.Write([]byte(f))
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// OncePerCall writes one conversion per call: a buffer would escape too.
func OncePerCall(s string) []byte {
	h := registry["sha256"]()
	h.Write([]byte(s))
	return h.Sum(nil)
}

// PerHasher makes its hasher in the loop, where it is judged.
func PerHasher(fields []string) (sums [][]byte) {
	for _, f := range fields {
		h := registry["sha256"]() // want `hasher-alloc: registry\["sha256"\]\(\) always allocates its hasher once per element of fields`
		h.Write([]byte(f))
		sums = append(sums, h.Sum(nil))
	}
	return sums
}

// ConversationKey derives a key from what it is given, once per call of a
// function that nothing shows to run per item.
func ConversationKey(shared []byte) []byte { // want ConversationKey:`derives a key`
	prk, _ := hkdf.Extract(sha256.New, shared, []byte("salt"))
	return prk
}
