// Package funcvars hashes concatenations through package variables of
// function type, of this package and, by their facts, of another: a
// variable assigned only at its declaration calls what it holds. Every
// exported func CaseX() is measured by the oracle test; the negative cases,
// whose concatenations allocate too, are not cases.
package funcvars

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"

	"example.com/hashing"
)

var (
	prefix = []byte{1}
	left   = bytes.Repeat([]byte{2}, 32)
	out    [32]byte
	digest []byte
)

// hash holds a sum function.
var hash = sha256.Sum256

//hashalloc:hot
func CaseHoldsSum() {
	out = hash(append(prefix, left...)) // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with hash, which holds sha256.Sum256 once per call of CaseHoldsSum \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
}

func ResultHoldsSum() string {
	CaseHoldsSum()
	return hex.EncodeToString(out[:])
}

// leafHash is a literal that returns the sum of its argument.
var leafHash = func(b []byte) [32]byte { return sha256.Sum256(b) }

//hashalloc:hot
func CaseLiteral() {
	out = leafHash(append(prefix, left...)) // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with leafHash, which computes sha256.Sum256 once per call of CaseLiteral \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
}

func ResultLiteral() string {
	CaseLiteral()
	return hex.EncodeToString(out[:])
}

// nodeHash holds a helper of the package that only hashes its argument.
var nodeHash = nodeDigest

func nodeDigest(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

//hashalloc:hot
func CaseHoldsHelper() {
	digest = nodeHash(append(prefix, left...)) // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with nodeHash, which holds nodeDigest once per call of CaseHoldsHelper \(it is marked //hashalloc:hot\); automatic fix: hash the parts with a variadic form of nodeDigest, declared next to it`
}

func ResultHoldsHelper() string {
	CaseHoldsHelper()
	return hex.EncodeToString(digest)
}

// Variables of another package, known from their facts.
//
//hashalloc:hot
func CaseOtherPackage() {
	out = hashing.Hash(append(prefix, left...))       // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with hashing.Hash, which computes sha256.Sum256 once per call of CaseOtherPackage \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	out2 = hashing.Sum(append(prefix, left...))       // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with hashing.Sum, which computes sha256.Sum256 once per call of CaseOtherPackage \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	digest = hashing.Leaf(append(prefix, left...))    // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with hashing.Leaf, which computes sha256.Sum256 once per call of CaseOtherPackage \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.AppendSHA256`
	digest2 = hashing.Digest(append(prefix, left...)) // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with hashing.Digest, which computes sha256.Sum256 once per call of CaseOtherPackage \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.AppendSHA256`
}

var (
	out2    [32]byte
	digest2 []byte
)

func ResultOtherPackage() string {
	CaseOtherPackage()
	return hex.EncodeToString(out[:]) + hex.EncodeToString(out2[:]) + hex.EncodeToString(digest) + hex.EncodeToString(digest2)
}

// A literal that does more than return the sum: reported, not fixed.
//
//hashalloc:hot
func CaseCounted() {
	out = hashing.Counted(append(prefix, left...)) // want `concat-hash: append\(prefix, left...\) builds a buffer only to hash it with hashing.Counted once per call of CaseCounted \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: Counted does more than return a standard sum of its argument\)`
}

// ---- Negative cases. ----

// rotated is assigned again: what it holds is not known.
var rotated = sha256.Sum256

func init() { rotated = salted }

func salted(b []byte) [32]byte { return sha256.Sum256(append(b, 0)) }

func viaRotated() [32]byte { return rotated(append(prefix, left...)) }

// Swappable is written by its package: it has no fact.
func viaSwappable() [32]byte { return hashing.Swappable(append(prefix, left...)) }

// A local variable of function type: not followed.
func viaLocal() [32]byte {
	h := sha256.Sum256
	return h(append(prefix, left...))
}
