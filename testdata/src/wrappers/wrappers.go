// Package wrappers holds constructor wrappers: functions that return the
// hasher of a known constructor, as it made it, are constructors too. Every
// exported func CaseX() is measured by the oracle test.
package wrappers

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"

	"golang.org/x/crypto/blake2b"
)

var (
	items     = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	out       [64]byte
	src       = bytes.NewReader(nil)
	kept      []hash.Hash
	key       = []byte("a fixed key")
	globalKey = []byte("a package key")
	sums      [][]byte
	calls     int
)

// newBranchHasher returns the hasher of a constructor that always
// allocates: so does it.
func newBranchHasher() hash.Hash {
	h, _ := blake2b.New256(nil)
	return h
}

// A wrapper of an always-allocating constructor, per iteration.
func CaseBranchLoop() {
	for _, it := range items {
		h := newBranchHasher() // want `hasher-alloc: newBranchHasher\(\) returns the hasher of blake2b.New256, which always allocates once per .* \(the loop at wrappers.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(it)
		h.Sum(out[:0])
	}
}

func ResultBranchLoop() string {
	CaseBranchLoop()
	return hex.EncodeToString(out[:32])
}

type node struct {
	v    []byte
	l, r *node
}

var tree = &node{v: []byte("root"), l: &node{v: []byte("left")}, r: &node{v: []byte("right")}}

// hashNode is called per node: hot by recursion, with no loop to hoist out
// of; a pool of the file holds the hashers of newBranchHasher, which takes
// no arguments and whose constructor's Reset restores what it made.
func hashNode(n *node) []byte {
	if n == nil {
		return nil
	}
	h := newBranchHasher() // want `hasher-alloc: newBranchHasher\(\) returns the hasher of blake2b.New256, which always allocates once per call of hashNode \(it recurses: hashNode → hashNode, once per node it walks\); automatic fix: take h from a pool of newBranchHasher hashers`
	h.Write(n.v)
	h.Write(hashNode(n.l))
	h.Write(hashNode(n.r))
	return h.Sum(nil)
}

func CaseTree() { sums = append(sums[:0], hashNode(tree)) }

// newBranch wraps the wrapper.
func newBranch() hash.Hash { return newBranchHasher() }

func CaseWrapperOfWrapper() {
	for _, it := range items {
		h := newBranch() // want `hasher-alloc: newBranch\(\) returns the hasher of blake2b.New256, which always allocates once per .* \(the loop at wrappers.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(it)
		h.Sum(out[:0])
	}
}

// newSHA returns a hasher that the compiler keeps on the stack where newSHA
// is inlined: its caller decides.
func newSHA() hash.Hash { return sha256.New() }

// Passed to io.Copy, it escapes as sha256.New() does.
func CaseSHACopy() {
	for _, it := range items {
		h := newSHA() // want `hasher-alloc: newSHA\(\) returns the hasher of sha256.New, which escapes to the heap \(passed to io.Copy\) once per .* \(the loop at wrappers.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		src.Reset(it)
		io.Copy(h, src)
		h.Sum(out[:0])
	}
}

func ResultSHACopy() string {
	CaseSHACopy()
	return hex.EncodeToString(out[:32])
}

// In a hot function, sha256.New's pool serves newSHA: it returns that
// constructor's hasher, called without arguments.
//
//hashalloc:hot
func digestOf(b []byte) {
	h := newSHA() // want `hasher-alloc: newSHA\(\) returns the hasher of sha256.New, which escapes to the heap \(passed to io.Copy\) once per call of digestOf \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of sha256\.New hashers`
	src.Reset(b)
	io.Copy(h, src)
	h.Sum(out[:0])
}

func CaseSHAPool() { digestOf(items[0]) }

func ResultSHAPool() string {
	digestOf(items[1])
	return hex.EncodeToString(out[:32])
}

// newSHAFrame is never inlined: its hasher is returned from a frame of its
// own, on the heap, whatever the caller does.
//
//go:noinline
func newSHAFrame() hash.Hash { return sha256.New() }

func CaseNoInline() {
	for _, it := range items {
		h := newSHAFrame() // want `hasher-alloc: newSHAFrame\(\) returns the hasher of sha256.New, which escapes to the heap \(newSHAFrame is never inlined\) once per .* \(the loop at wrappers.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(it)
		h.Sum(out[:0])
	}
}

// newKeyed passes its parameter to the constructor: the hasher depends on
// the wrapper's argument only.
func newKeyed(k []byte) hash.Hash {
	var h, _ = blake2b.New256(k)
	return h
}

// A key that does not change in the loop: hoisted.
func CaseKeyedInvariant() {
	for _, it := range items {
		h := newKeyed(key) // want `hasher-alloc: newKeyed\(key\) returns the hasher of blake2b.New256, which always allocates once per .* \(the loop at wrappers.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(it)
		h.Sum(out[:0])
	}
}

func ResultKeyedInvariant() string {
	CaseKeyedInvariant()
	return hex.EncodeToString(out[:32])
}

// A key per iteration: reported, not hoisted.
func CaseKeyedPerItem() {
	for _, it := range items {
		h := newKeyed(it) // want `hasher-alloc: newKeyed\(it\) returns the hasher of blake2b.New256, which always allocates once per .* \(the loop at wrappers.go:\d+\); reuse one hasher across iterations \(no automatic fix: the loop may change it\)`
		h.Write(it)
		h.Sum(out[:0])
	}
}

// newChecked panics on the constructor's error.
func newChecked(k []byte) hash.Hash {
	h, err := blake2b.New256(k)
	if err != nil {
		panic(err)
	}
	return h
}

// Hoisted, it would run (and could panic) before a loop that does not run.
func CasePanics() {
	for _, it := range items {
		h := newChecked(key) // want `hasher-alloc: newChecked\(key\) returns the hasher of blake2b.New256, which always allocates once per .* \(the loop at wrappers.go:\d+\); reuse one hasher across iterations \(no automatic fix: newChecked may panic, and hoisted it would run even when the loop does not\)`
		h.Write(it)
		h.Sum(out[:0])
	}
}

// newMAC wraps hmac.New: 5 allocations per call.
func newMAC(k []byte) hash.Hash { return hmac.New(sha256.New, k) }

func CaseMAC() {
	for _, it := range items {
		mac := newMAC(key) // want `hmac-rekey: newMAC\(key\) re-keys an HMAC \(5 allocations: newMAC returns the HMAC of hmac.New\) once per .* \(the loop at wrappers.go:\d+\), with a key that does not change in the loop; automatic fix: hoist mac out of the loop and Reset it per iteration`
		mac.Write(it)
		mac.Sum(out[:0])
	}
}

func ResultMAC() string {
	CaseMAC()
	return hex.EncodeToString(out[:32])
}

// keyedMAC wraps hmac.New keyed with the array its caller points to.
func keyedMAC(key *[32]byte) hash.Hash { return hmac.New(sha256.New, key[:]) }

// keyedSum returns a MAC of what it is given, so it runs per item: each call
// re-keys an HMAC through keyedMAC with the key its caller passes, here the
// MAC before it in a chain.
func keyedSum(key *[32]byte, text []byte) *[32]byte {
	mac := keyedMAC(key) // want `hmac-rekey: keyedMAC\(key\) re-keys an HMAC \(5 allocations: keyedMAC returns the HMAC of hmac.New\) once per call of keyedSum, which CaseKeyedChain calls once per element of items \(the loop at wrappers.go:\d+\); automatic fix: compute the MAC with hashsum.AppendHMACSHA256, which allocates nothing`
	mac.Write(text)
	var sum [32]byte
	mac.Sum(sum[:0])
	return &sum
}

func CaseKeyedChain() {
	sig := &[32]byte{}
	for _, it := range items {
		sig = keyedSum(sig, it)
	}
	copy(out[:], sig[:])
}

func ResultKeyedChain() string {
	CaseKeyedChain()
	return hex.EncodeToString(out[:32])
}

// sumInto sums h into the array dest points to, and checks that the sum
// fills it: a check that cannot fail for a hash of dest's size.
//
// It is never inlined: the hasher it is given escapes.
//
//go:noinline
func sumInto(h hash.Hash, dest *[32]byte) {
	r := h.Sum(dest[:0])
	if len(r) != len(dest) {
		panic("hash size inconsistency")
	}
}

// keyedHash is keyedSum with its Sum through sumInto: the one-shot HMAC
// appends into the array instead.
func keyedHash(key *[32]byte, text []byte) *[32]byte {
	h := keyedMAC(key) // want `hmac-rekey: keyedMAC\(key\) re-keys an HMAC \(5 allocations: keyedMAC returns the HMAC of hmac.New\) once per call of keyedHash, which CaseKeyedHash calls once per element of items \(the loop at wrappers.go:\d+\); automatic fix: compute the MAC with hashsum.AppendHMACSHA256, which allocates nothing`
	h.Write([]byte(text))
	var sum [32]byte
	sumInto(h, &sum)
	return &sum
}

func CaseKeyedHash() {
	sig := &[32]byte{7}
	for _, it := range items {
		sig = keyedHash(sig, it)
	}
	copy(out[:], sig[:])
}

func ResultKeyedHash() string {
	CaseKeyedHash()
	return hex.EncodeToString(out[:32])
}

// The twin: sumLong sums into an array longer than the digest, and panics
// when the sum does not fill it: the one-shot HMAC would not panic.
//
// It is never inlined: the hasher it is given escapes.
//
//go:noinline
func sumLong(h hash.Hash, dest *[64]byte) {
	r := h.Sum(dest[:0])
	if len(r) != len(dest) {
		panic("hash size inconsistency")
	}
}

func keyedHashLong(key *[32]byte, text []byte) (sum [64]byte, ok bool) {
	defer func() { ok = recover() == nil }()
	h := keyedMAC(key) // want `hmac-rekey: keyedMAC\(key\) re-keys an HMAC \(5 allocations: keyedMAC returns the HMAC of hmac.New\) once per call of keyedHashLong, which CaseKeyedHashLong calls once per element of items \(the loop at wrappers.go:\d+\); .* \(no automatic fix: the MAC is used for more than Write and one Sum, by sumLong\(h, &sum\) at wrappers.go:\d+\S*\)`
	h.Write(text)
	sumLong(h, &sum)
	return sum, true
}

func CaseKeyedHashLong() {
	key := &[32]byte{9}
	for _, it := range items {
		if sum, ok := keyedHashLong(key, it); ok {
			copy(out[:], sum[:])
		}
	}
}

func ResultKeyedHashLong() string {
	CaseKeyedHashLong()
	return hex.EncodeToString(out[:32])
}

// The twin: the key given to keyedMAC is a call's result. A one-shot HMAC
// would evaluate it at the Sum instead of at the call: no fix.
var (
	keyRing = [2][32]byte{{1}, {2}}
	turns   int
)

func nextKey() *[32]byte { turns++; return &keyRing[turns%2] }

func keyedSumNext(text []byte) *[32]byte {
	mac := keyedMAC(nextKey()) // want `hmac-rekey: keyedMAC\(nextKey\(\)\) re-keys an HMAC \(5 allocations: keyedMAC returns the HMAC of hmac.New\) once per call of keyedSumNext, which CaseKeyedNext calls once per element of items \(the loop at wrappers.go:\d+\); .* \(no automatic fix: the key is hmac.New's argument inside keyedMAC, given nextKey\(\), which is not a variable: a one-shot HMAC would evaluate it at the Sum instead\)`
	mac.Write(text)
	var sum [32]byte
	mac.Sum(sum[:0])
	return &sum
}

func CaseKeyedNext() {
	for _, it := range items {
		copy(out[:], keyedSumNext(it)[:])
	}
}

func ResultKeyedNext() string {
	CaseKeyedNext()
	return hex.EncodeToString(out[:32])
}

// The twin: fixedMAC keys its HMAC with a constant of its own, not with one
// of its parameters: no fix reads hmac.New's arguments through it.
func fixedMAC(salt []byte) hash.Hash { return hmac.New(sha256.New, []byte("fixed")) }

func fixedSum(text []byte) *[32]byte {
	mac := fixedMAC(text) // want `hmac-rekey: fixedMAC\(text\) re-keys an HMAC \(5 allocations: fixedMAC returns the HMAC of hmac.New\) once per call of fixedSum, which CaseFixedKey calls once per element of items \(the loop at wrappers.go:\d+\); .* \(no automatic fix: the hash and the key are hmac.New's arguments inside fixedMAC, which does more than return hmac.New of a standard hash and one of its parameters\)`
	mac.Write(text)
	var sum [32]byte
	mac.Sum(sum[:0])
	return &sum
}

func CaseFixedKey() {
	for _, it := range items {
		copy(out[:], fixedSum(it)[:])
	}
}

func ResultFixedKey() string {
	CaseFixedKey()
	return hex.EncodeToString(out[:32])
}

// The pointer does not change in the loop, the key it points to does: no
// hoist.
func CaseKeyedPointee() {
	var sig [32]byte
	p := &sig
	for _, it := range items {
		copy(sig[:], it)
		mac := keyedMAC(p) // want `hmac-rekey: keyedMAC\(p\) re-keys an HMAC \(5 allocations: keyedMAC returns the HMAC of hmac.New\) once per element of items \(the loop at wrappers.go:\d+\); automatic fix: compute the MAC with hashsum.AppendHMACSHA256, which allocates nothing`
		mac.Write(it)
		mac.Sum(out[:0])
	}
}

func ResultKeyedPointee() string {
	CaseKeyedPointee()
	return hex.EncodeToString(out[:32])
}

// The twin: a chain link keeps the HMAC that keyedMAC returns for as long as
// it lives, and resets it per message: built once for what keeps it.
type link struct{ mac hash.Hash }

func newLink(key *[32]byte) *link { return &link{mac: keyedMAC(key)} }

func CaseKeyedKept() {
	l := newLink(&[32]byte{1})
	for _, it := range items {
		l.mac.Reset()
		l.mac.Write(it)
		l.mac.Sum(out[:0])
	}
}

func ResultKeyedKept() string {
	CaseKeyedKept()
	return hex.EncodeToString(out[:32])
}

// A method can be a wrapper.
type hasherFactory struct{ size int }

func (f *hasherFactory) hasher() hash.Hash {
	h, _ := blake2b.New256(nil)
	return h
}

var factory = &hasherFactory{size: 32}

func CaseMethod() {
	for _, it := range items {
		h := factory.hasher() // want `hasher-alloc: factory.hasher\(\) returns the hasher of blake2b.New256, which always allocates once per .* \(the loop at wrappers.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(it)
		h.Sum(out[:0])
	}
}

// ---- Negative cases. ----

// Inlined with newSHA, a hasher only written and summed stays on the
// stack: 0 allocations, nothing to report.
func CaseSHAStays() {
	for _, it := range items {
		h := newSHA()
		h.Write(it)
		h.Sum(out[:0])
	}
}

// A wrapper's hasher that is kept: meant to outlive the iteration.
func CaseKept() {
	kept = kept[:0]
	for range items {
		kept = append(kept, newBranchHasher())
	}
}

// newPrefixed writes into its hasher before returning it: Reset would lose
// the prefix, so it is no wrapper, and its calls are not constructor sites.
func newPrefixed() hash.Hash {
	h := sha256.New()
	h.Write([]byte("prefix"))
	return h
}

// newGlobalKeyed reads a package variable: the hasher does not depend on
// the wrapper's arguments only, so it is no wrapper.
func newGlobalKeyed() hash.Hash {
	h, _ := blake2b.New256(globalKey)
	return h
}

// newCounted does more than build the hasher: calling it once instead of
// once per iteration would change what it counts.
func newCounted() hash.Hash {
	calls++
	return sha256.New()
}

func CaseNotWrappers() {
	for _, it := range items {
		for _, h := range []hash.Hash{newPrefixed(), newGlobalKeyed(), newCounted()} {
			src.Reset(it)
			io.Copy(h, src)
			kept = append(kept[:0], h)
		}
	}
}

var equal bool

// sum-alloc knows the digest size of the constructor a wrapper returns the
// hasher of: the sum goes into an array on the stack.
func CaseSumOfWrapper() {
	for _, it := range items {
		h := newSHA()
		h.Write(it)
		equal = bytes.Equal(h.Sum(nil), out[:32]) // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at wrappers.go:\d+\), only to be compared by bytes.Equal; automatic fix: sum into a 32-byte array on the stack`
	}
}

// A Merkle root built level by level: the root function's level loop calls
// a helper once per node, and the helper makes its hasher with the
// package's wrapper.
func branchOf(l, r []byte) []byte {
	h := newBranchHasher() // want `hasher-alloc: newBranchHasher\(\) returns the hasher of blake2b.New256, which always allocates once per call of branchOf, which merkleRoot calls once per element of level \(the loop at wrappers.go:\d+\); automatic fix: take h from a pool of newBranchHasher hashers`
	h.Write(l)
	h.Write(r)
	return h.Sum(nil)
}

func merkleRoot(level [][]byte) []byte {
	for len(level) > 1 {
		next := make([][]byte, 0, (len(level)+1)/2)
		for i := 0; i+1 < len(level); i += 2 {
			next = append(next, branchOf(level[i], level[i+1]))
		}
		if len(level)%2 == 1 {
			next = append(next, level[len(level)-1])
		}
		level = next
	}
	return level[0]
}

func CaseMerkleRoot() { sums = append(sums[:0], merkleRoot(items)) }

func ResultMerkleRoot() string { return hex.EncodeToString(merkleRoot(items)) }
