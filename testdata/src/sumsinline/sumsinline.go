// Package sums holds the concat-hash cases of sum functions outside the
// standard library: a fork of sha256-simd under another path, whose sums are
// known by their facts, murmur3 and geth's Keccak256 from the catalog, and a
// sum function named by -sums. Every exported func CaseX() is measured by the
// oracle test; this is the package sums, with -pool=inline.
package sumsinline

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"

	"example.com/customhash"
	fork "example.com/fork/sha256"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/spaolacci/murmur3"
)

var (
	prefix  = []byte{0}
	left    = bytes.Repeat([]byte{2}, 32)
	right   = bytes.Repeat([]byte{3}, 32)
	items   = [][]byte{left, right, prefix}
	out32   [32]byte
	out64   uint64
	digest  []byte
	scratch = make([]byte, 0, 128)
)

// The fork's Sum256 hashes with a digest of its own: hashalloc cannot prove
// that it is SHA-256, so the concatenation is reported without a fix.
//
//hashalloc:hot
func CaseForkSum() {
	out32 = fork.Sum256(append(prefix, left...)) // want `concat-hash: append\(prefix, left\.\.\.\) builds a buffer only to hash it with example\.com/fork/sha256\.Sum256 once per call of CaseForkSum \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: example\.com/fork/sha256\.Sum256 hashes with a hasher of its own, whose algorithm hashalloc cannot prove; if it computes what crypto/sha256\.Sum256 does, -sums=example\.com/fork/sha256\.Sum256=sha256 lets hashalloc fix it\)`
}

// The fork's variadic sum hashes its parts one after another: pass them.
//
//hashalloc:hot
func CaseForkMany() {
	out32 = fork.SumMany(append(prefix, left...)) // want `concat-hash: append\(prefix, left\.\.\.\) builds a buffer only to hash it with example\.com/fork/sha256\.SumMany once per call of CaseForkMany \(it is marked //hashalloc:hot\); automatic fix: pass the parts to example\.com/fork/sha256\.SumMany, which hashes them one after another`
}

// The fork's Hash writes into crypto/sha256's hasher and returns its Sum:
// provably SHA-256, as a slice.
//
//hashalloc:hot
func CaseForkHash() {
	digest = fork.Hash(append(prefix, left...)) // want `concat-hash: append\(prefix, left\.\.\.\) builds a buffer only to hash it with example\.com/fork/sha256\.Hash once per call of CaseForkHash \(it is marked //hashalloc:hot\); automatic fix: hash the parts with a multi-part fork\.Hash declared in this file`
}

// ResultForks is what the fork's functions compute, before and after the fixes.
func ResultForks() string {
	CaseForkSum()
	a := out32
	CaseForkMany()
	CaseForkHash()
	return hex.EncodeToString(a[:]) + hex.EncodeToString(out32[:]) + hex.EncodeToString(digest)
}

// murmur3's sums return integers: no multi-part form allocates less.
//
//hashalloc:hot
func CaseMurmur() {
	out64 = murmur3.Sum64(append(prefix, left...)) // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with murmur3.Sum64 once per call of CaseMurmur \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: no standard hasher computes murmur3.Sum64\)`
}

// geth's Keccak256 is variadic: pass the parts.
//
//hashalloc:hot
func CaseKeccak() {
	digest = crypto.Keccak256(append(prefix, left...)) // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with crypto.Keccak256 once per call of CaseKeccak \(it is marked //hashalloc:hot\); automatic fix: pass the parts to crypto\.Keccak256, which hashes them one after another`
}

// ResultKeccak is the Keccak256 of the concatenation.
func ResultKeccak() string {
	CaseKeccak()
	return hex.EncodeToString(digest)
}

// -sums=example.com/customhash.Sum256=sha256 says that it computes SHA-256.
//
//hashalloc:hot
func CaseCustom() {
	out32 = customhash.Sum256(append(prefix, left...)) // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with customhash.Sum256 once per call of CaseCustom \(it is marked //hashalloc:hot\); automatic fix: hash the parts with a multi-part customhash\.Sum256 declared in this file`
}

// ResultCustom is the SHA-256 of the concatenation.
func ResultCustom() string {
	CaseCustom()
	return hex.EncodeToString(out32[:])
}

// -sums=example.com/customhash.New=sha256: customhash.Hash writes into its
// hasher and returns its Sum, so it computes SHA-256 too.
//
//hashalloc:hot
func CaseCustomHash() {
	digest = customhash.Hash(append(prefix, left...)) // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with customhash.Hash once per call of CaseCustomHash \(it is marked //hashalloc:hot\); automatic fix: hash the parts with a multi-part customhash\.Hash declared in this file`
}

// ResultCustomHash is the SHA-256 of the concatenation, as a slice.
func ResultCustomHash() string {
	CaseCustomHash()
	return hex.EncodeToString(digest)
}

// -sums=example.com/customhash.Digest names no algorithm: reported only.
//
//hashalloc:hot
func CaseCustomDigest() {
	digest = customhash.Digest(append(prefix, left...)) // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with customhash.Digest once per call of CaseCustomDigest \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: no standard hasher computes customhash.Digest\)`
}

// A one-shot HMAC per item with a key that changes.
func CaseOneShot() {
	for _, k := range items {
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) re-keys an HMAC \(5 allocations\) once per .* \(the loop at sumsinline.go:\d+\), with a key that changes from iteration to iteration \(k\); automatic fix: compute the MAC with appendHMACSHA256, an RFC 2104 HMAC declared in this file \(a copy of the runtime module's hashsum\.AppendHMACSHA256\), which allocates nothing`
		mac.Write(left)
		digest = mac.Sum(digest[:0])
	}
}

// ResultOneShot is the last MAC, and one under a key longer than a block.
func ResultOneShot() string {
	CaseOneShot()
	a := hex.EncodeToString(digest)
	items[0] = bytes.Repeat([]byte{7}, 100)
	CaseOneShot()
	return a + hex.EncodeToString(digest)
}

// ---- Negative cases. ----

// Already in parts, or not a concatenation: nothing to do.
func CaseNoConcat() {
	out32 = fork.Sum256(left)
	out32 = fork.SumMany(prefix, left)
	out64 = murmur3.Sum64(left)
}

// The concatenation is used for more than the hash (not measured: the
// append allocates, and nothing is reported).
func usedTwice() {
	b := append(prefix, left...)
	digest = fork.Hash(b)
	digest = append(digest, b...)
}

// A scratch buffer's capacity is reused: append does not allocate (not
// measured: Keccak256 returns a new slice).
func scratchBuffer() {
	out32 = fork.Sum256(append(scratch[:0], left...))
	digest = crypto.Keccak256(append(scratch[:0], left...))
	digest = crypto.Keccak256(prefix, left)
}
