// Package concathash holds the concat-hash cases. Every exported func CaseX()
// is measured by the oracle test: it allocates exactly when it reaches a finding.
package concathash

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"

	"golang.org/x/crypto/blake2b"
	"hashutil"
	"tmhash"
)

var (
	leafPrefix  = []byte{0}
	innerPrefix = []byte{1}
	left        = bytes.Repeat([]byte{2}, 32)
	right       = bytes.Repeat([]byte{3}, 32)
	id          = []byte("an identifier")
	name        = "name"
	scratch     = make([]byte, 0, 128)
	out32       [32]byte
	out64       [64]byte
	out16       [16]byte
)

// The seed's leaf hash: the prefix has no spare capacity, so append copies.
//
//hashalloc:hot
func CaseSumAppend() {
	out32 = sha256.Sum256(append(leafPrefix, left...)) // want `concat-hash: append\(leafPrefix, left...\) builds a buffer only to hash it with sha256.Sum256 once per call of CaseSumAppend \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
}

// The seed's inner hash, nested, with parameters that append may write into.
//
//hashalloc:hot
func innerHash(l, r []byte) [32]byte {
	return sha256.Sum256(append(innerPrefix, append(l, r...)...)) // want `concat-hash: append\(innerPrefix, append\(l, r...\)...\) builds a buffer only to hash it with sha256.Sum256 once per call of innerHash \(it is marked //hashalloc:hot\) \(and may write into the spare capacity of l, overwriting the caller's data\); automatic fix: hash the parts with hashsum\.SHA256`
}

func CaseNested() { out32 = innerHash(left[:32:32], right) }

type node struct {
	prefix []byte
	key    []byte
}

var n = &node{prefix: leafPrefix, key: id}

// A field of a struct may have spare capacity too.
//
//hashalloc:hot
func CaseField() {
	out64 = sha512.Sum512(append(n.prefix, n.key...)) // want `concat-hash: append\(n.prefix, n.key...\) builds a buffer only to hash it with sha512.Sum512 once per call of CaseField \(it is marked //hashalloc:hot\) \(and may write into the spare capacity of n.prefix, overwriting the caller's data\); automatic fix: hash the parts with hashsum\.SHA512`
}

// Built into a variable right before it is hashed.
//
//hashalloc:hot
func CaseVar() {
	key := append(leafPrefix, id...) // want `concat-hash: key := append\(leafPrefix, id...\) builds a buffer only to hash it with sha256.Sum256 once per call of CaseVar \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	out32 = sha256.Sum256(key)
}

// make + copy of more than 32 bytes, then hashed.
//
//hashalloc:hot
func makeCopy(l, r []byte) [32]byte {
	data := make([]byte, len(innerPrefix)+len(l)+len(r)) // want `concat-hash: data := make\+copy builds a buffer only to hash it with sha256.Sum256 once per call of makeCopy \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	n := copy(data, innerPrefix)
	n += copy(data[n:], l)
	copy(data[n:], r)
	return sha256.Sum256(data)
}

func CaseMakeCopy() { out32 = makeCopy(left, right) }

//hashalloc:hot
func CaseJoin() {
	out16 = md5.Sum(bytes.Join([][]byte{leafPrefix, left, right}, nil)) // want `concat-hash: bytes.Join builds a buffer only to hash it with md5.Sum once per call of CaseJoin \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.MD5`
}

// Written to a hasher.
//
//hashalloc:hot
func CaseWrite() {
	h := sha256.New()
	h.Write(append(leafPrefix, left...)) // want `concat-hash: append\(leafPrefix, left...\) builds a buffer only to hash it with h.Write once per call of CaseWrite \(it is marked //hashalloc:hot\); automatic fix: write the parts one after another`
	h.Sum(out32[:0])
}

// A helper of the package that only hashes its argument.
func leafHash(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

//hashalloc:hot
func CaseHelper() {
	sink = leafHash(append(leafPrefix, left...)) // want `concat-hash: append\(leafPrefix, left...\) builds a buffer only to hash it with leafHash once per call of CaseHelper \(it is marked //hashalloc:hot\); automatic fix: hash the parts with a variadic form of leafHash, declared next to it`
}

var sink []byte

// A helper that writes its argument into a hasher.
func digest(b []byte) (sum [32]byte) {
	h := sha256.New()
	h.Write(b)
	h.Sum(sum[:0])
	return sum
}

//hashalloc:hot
func CaseWriteHelper() {
	out32 = digest(append(innerPrefix, right...)) // want `concat-hash: append\(innerPrefix, right...\) builds a buffer only to hash it with digest once per call of CaseWriteHelper \(it is marked //hashalloc:hot\); automatic fix: hash the parts with a variadic form of digest, declared next to it`
}

// A helper of another package, known from its fact.
//
//hashalloc:hot
func CaseOtherPackage() {
	out32 = hashutil.Sum(append(leafPrefix, id...)) // want `concat-hash: append\(leafPrefix, id...\) builds a buffer only to hash it with hashutil.Sum once per call of CaseOtherPackage \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
}

var digestSlice []byte

// A helper of another package that returns the sum as a slice (cometbft's
// tmhash.Sum before v0.38): the runtime's Append form returns the same.
//
//hashalloc:hot
func CaseOtherPackageSlice() {
	digestSlice = hashutil.SumSlice(append(leafPrefix, id...)) // want `concat-hash: append\(leafPrefix, id...\) builds a buffer only to hash it with hashutil.SumSlice once per call of CaseOtherPackageSlice \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.AppendSHA256`
}

// A helper whose package has a variadic form (cometbft's tmhash.SumMany):
// the fix uses it.
//
//hashalloc:hot
func CaseOtherPackageMany() {
	digestSlice = tmhash.Sum(append(leafPrefix, id...)) // want `concat-hash: append\(leafPrefix, id...\) builds a buffer only to hash it with tmhash.Sum once per call of CaseOtherPackageMany \(it is marked //hashalloc:hot\); automatic fix: hash the parts with tmhash\.SumMany, the variadic form of tmhash\.Sum`
}

// No multi-part blake2b in the runtime module.
//
//hashalloc:hot
func CaseBlake2b() {
	out32 = blake2b.Sum256(append(leafPrefix, id...)) // want `concat-hash: append\(leafPrefix, id...\) builds a buffer only to hash it with blake2b.Sum256 once per call of CaseBlake2b \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: the runtime module has no multi-part blake2b.Sum256\)`
}

// A string part cannot be passed as a []byte.
//
//hashalloc:hot
func CaseStringPart() {
	out32 = sha256.Sum256(append(leafPrefix, name...)) // want `concat-hash: append\(leafPrefix, name...\) builds a buffer only to hash it with sha256.Sum256 once per call of CaseStringPart \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: name is not a \[\]byte\)`
}

// ---- Negative cases. ----

// Reusing a scratch buffer's capacity does not allocate.
func CaseScratch() {
	out32 = sha256.Sum256(append(scratch[:0], left...))
}

// A constant-size make stays on the stack.
func CaseConstMake() {
	data := make([]byte, 65)
	copy(data, innerPrefix)
	copy(data[1:], left)
	out32 = sha256.Sum256(data)
}

// A short string converted for append fits the compiler's stack buffer.
func CaseConverted() {
	out32 = sha256.Sum256(append([]byte(name), id[:4]...))
}

// A local buffer: whether it has room is unknown, so it is not reported.
func CaseLocalBuffer() {
	buf := make([]byte, 0, 64)
	out32 = sha256.Sum256(append(buf, left...))
}

// Nested appends on a buffer with room (go.sia.tech/core's hashKeys): the
// inner append fills the buffer, the outer one too, on the stack: 0
// allocations, nothing to report.
func CaseNestedOnBuffer() {
	var k1, k2 [32]byte
	out32 = sha256.Sum256(append(append(make([]byte, 0, len(k1)+len(k2)), k1[:]...), k2[:]...))
}

// Nested appends on a buffer made at run time (transparency-dev's
// HashChildren): on the heap above 32 bytes, one allocation per call.
//
//hashalloc:hot
func CaseNestedOnRuntimeBuffer() {
	b := append(append(make([]byte, 0, len(left)+len(right)), left...), right...) // want `concat-hash: b := append\(...\) builds a buffer only to hash it with sha256.Sum256 once per call of CaseNestedOnRuntimeBuffer \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	out32 = sha256.Sum256(b)
}

// The same with a one-byte prefix appended first (transparency-dev's
// HashChildren): append(make(...), 1) is written as the literal []byte{1},
// which stays on the stack with the hasher (see literal.go for a hasher on
// the heap).
//
//hashalloc:hot
func CaseNestedPrefixOnRuntimeBuffer() {
	h := sha256.New()
	b := append(append(append(make([]byte, 0, 1+len(left)+len(right)), 1), left...), right...) // want `concat-hash: b := append\(...\) builds a buffer only to hash it with h.Write once per call of CaseNestedPrefixOnRuntimeBuffer \(it is marked //hashalloc:hot\); automatic fix: write the parts one after another`
	h.Write(b)
	h.Sum(out32[:0])
}

// The variable is hashed in a loop: moving the parts there would read them
// again on every iteration.
func hashedInLoop() {
	key := append(leafPrefix, id...)
	for range 2 {
		out32 = sha256.Sum256(key)
	}
}

// The concatenation is used for more than the hash (no Case: it allocates).
func keyAndHash() ([]byte, [32]byte) {
	key := append(leafPrefix, id...)
	return key, sha256.Sum256(key)
}

// The iterative Merkle shape: an element of a slice is as likely to be full
// as a parameter, and append may write into its spare capacity.
func CaseLevel() {
	nodes := [][]byte{left[:32:32], right[:32:32], left[:32:32], right[:32:32]}
	for i := 0; i+1 < len(nodes); i += 2 {
		out32 = sha256.Sum256(append(nodes[i], nodes[i+1]...)) // want `concat-hash: append\(nodes\[i\], nodes\[i \+ 1\]...\) builds a buffer only to hash it with sha256.Sum256 once per element of nodes \(the loop at concathash.go:\d+\) \(and may write into the spare capacity of nodes\[i\], overwriting the caller's data\); automatic fix: hash the parts with hashsum\.SHA256`
	}
}

func prefixOf(b []byte) []byte { return b[:1:1] }

// A function's result, too.
//
//hashalloc:hot
func CaseCallResult() {
	out32 = sha256.Sum256(append(prefixOf(left), right...)) // want `concat-hash: append\(prefixOf\(left\), right...\) builds a buffer only to hash it with sha256.Sum256 once per call of CaseCallResult \(it is marked //hashalloc:hot\) \(and may write into the spare capacity of prefixOf\(left\), overwriting the caller's data\); automatic fix: hash the parts with hashsum\.SHA256`
}
