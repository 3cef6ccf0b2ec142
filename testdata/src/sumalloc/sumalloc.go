// Package sumalloc holds the sum-alloc cases. Every exported func CaseX() is
// measured by the oracle test: h.Sum(nil) allocates its result, so a case
// that reaches one must reach a finding, and allocate less after the fixes.
// Negatives whose Sum(nil) really allocates (returned, kept, cold) sit next
// to a positive in the same case.
package sumalloc

import (
	"bytes"
	"crypto"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"hash/fnv"
	"io"
	"sync"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	want  = make([]byte, 64)
	out   [128]byte
	dst   = make([]byte, 0, 64)
	src   = bytes.NewReader(nil)
	kept  = make([][]byte, 0, 8)
	ok    bool
	n     int
	text  string
)

// Compared in a loop: the array is declared in the loop body.
func CaseEqual() {
	for _, it := range items {
		h := sha256.New()
		h.Write(it)
		ok = bytes.Equal(h.Sum(nil), want) // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be compared by bytes.Equal; automatic fix: sum into a 32-byte array on the stack`
	}
}

// A Sum into a local slice declared without a value and never written is
// a Sum(nil) (go-pmtiles' dedup key, summed into var tmp []byte).
func CaseNilVar() {
	for _, it := range items {
		h := sha256.New()
		h.Write(it)
		var tmp []byte
		ok = bytes.Equal(h.Sum(tmp), want) // want `sum-alloc: h.Sum\(tmp\) allocates its result once per element of items \(the loop at sumalloc.go:\d+\), only to be compared by bytes.Equal; sum into a reused buffer \(no automatic fix: the sum appends to tmp, a nil slice declared for it, which the fix would leave unused: sum into a buffer declared in its place\)`
	}
}

// The twin: a slice written before the Sum is not nil there: the sum
// appends to it.
func CaseNonNilVar() {
	for _, it := range items {
		h := sha256.New()
		h.Write(it)
		var tmp []byte
		tmp = dst[:0]
		ok = bytes.Equal(h.Sum(tmp), want)
	}
}

// Compared in constant time, in a three-clause loop; the digest size is
// the constructor's (SHA-384: 48 bytes).
func CaseHMACEqual() {
	for i := 0; i < len(items); i++ {
		h := sha512.New384()
		h.Write(items[i])
		if hmac.Equal(h.Sum(nil), want) { // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be compared by hmac.Equal; automatic fix: sum into a 48-byte array on the stack`
			n++
		}
	}
}

// In a case clause: the array goes in the clause's body.
func CaseConstantTime() {
	for _, it := range items {
		h := fnv.New128a()
		h.Write(it)
		switch {
		case len(it) > 4:
			n += subtle.ConstantTimeCompare(h.Sum(nil), want) // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be compared by subtle.ConstantTimeCompare; automatic fix: sum into a 16-byte array on the stack`
		default:
			n++
		}
	}
}

// In a case expression: the array goes before the switch.
func CaseCaseExpr() {
	for _, it := range items {
		h := sha256.New()
		h.Write(it)
		switch {
		case bytes.Equal(h.Sum(nil), want): // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be compared by bytes.Equal; automatic fix: sum into a 32-byte array on the stack`
			n++
		}
	}
}

// Copied.
func CaseCopy() {
	for _, it := range items {
		h := sha512.New()
		h.Write(it)
		copy(out[:], h.Sum(nil)) // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be copied by copy; automatic fix: sum into a 64-byte array on the stack`
	}
}

// Encoded in a function that is hot by recursion. EncodeToString still
// allocates its string, one allocation less.
func hexDigest(b []byte) {
	h := sha1.New()
	h.Write(b)
	text = hex.EncodeToString(h.Sum(nil)) // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of hexDigest \(it recurses: hexDigest → hexDigest, once per node it walks\), only to be encoded by hex.EncodeToString; automatic fix: sum into a 20-byte array on the stack`
	if len(b) > 4 {
		hexDigest(b[:4])
	}
}

func CaseHexString() {
	for _, it := range items {
		hexDigest(it)
	}
}

// An 8-byte digest (the tiny allocator packs two in 16 bytes).
func CaseHexEncode() {
	for _, it := range items {
		h := fnv.New64a()
		h.Write(it)
		hex.Encode(out[:], h.Sum(nil)) // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be encoded by hex.Encode; automatic fix: sum into a 8-byte array on the stack`
	}
}

type node struct {
	left, right *node
	data        []byte
}

var tree = &node{left: &node{data: []byte("left")}, right: &node{data: []byte("right")}, data: []byte("root")}

// Recursive: hot. The name sum is taken by a parameter: the array is sum2.
func encodeTree(n *node, sum int) {
	if n == nil {
		return
	}
	h := sha256.New()
	h.Write(n.data)
	text = base64.StdEncoding.EncodeToString(h.Sum(nil)) // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of encodeTree \(it recurses: encodeTree → encodeTree, once per node it walks\), only to be encoded by base64.StdEncoding.EncodeToString; automatic fix: sum into a 32-byte array on the stack`
	encodeTree(n.left, sum+1)
	encodeTree(n.right, sum+1)
}

func CaseBase64() { encodeTree(tree, 0) }

// Marked hot.
//
//hashalloc:hot
func encodeInto(b []byte) {
	h := sha256.New224()
	h.Write(b)
	base64.RawURLEncoding.Encode(out[:], h.Sum(nil)) // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of encodeInto \(it is marked //hashalloc:hot\), only to be encoded by base64.RawURLEncoding.Encode; automatic fix: sum into a 28-byte array on the stack`
}

func CaseBase64Encode() { encodeInto(items[0]) }

// Appended: Sum appends to dst itself.
func CaseAppend() {
	for _, it := range items {
		h := sha256.New()
		h.Write(it)
		dst = append(dst[:0], h.Sum(nil)...) // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be appended to dst\[:0\]; automatic fix: append the sum to dst\[:0\] with h\.Sum\(dst\[:0\]\)`
	}
}

// Appended, from a hasher built through a crypto.Hash: the append fix does
// not care how Sum is called; hasher-alloc hoists the hasher.
func CaseAppendCryptoHash() {
	for _, it := range items {
		h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher once per .* \(the loop at sumalloc.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(it)
		dst = append(dst[:0], h.Sum(nil)...) // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be appended to dst\[:0\]; automatic fix: append the sum to dst\[:0\] with h\.Sum\(dst\[:0\]\)`
	}
}

// A hasher that escapes through io.Copy still has its Sum devirtualized: the
// array stays on the stack (measured). hasher-alloc hoists it.
func CaseEscaping() {
	for _, it := range items {
		h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) once per .* \(the loop at sumalloc.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		src.Reset(it)
		io.Copy(h, src)
		ok = bytes.Equal(h.Sum(nil), want) // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be compared by bytes.Equal; automatic fix: sum into a 32-byte array on the stack`
	}
}

// Two sums in one statement, two more in the next: four arrays, four names.
func CaseTwoInOneStatement() {
	for _, it := range items {
		h, g := sha256.New(), sha256.New()
		h.Write(it)
		g.Write(it)
		ok = bytes.Equal(h.Sum(nil), g.Sum(nil)) // want `sum-alloc: h.Sum\(nil\) .*; automatic fix: sum into a 32-byte array on the stack` `sum-alloc: g.Sum\(nil\) .*; automatic fix: sum into a 32-byte array on the stack`
		ok = hmac.Equal(h.Sum(nil), g.Sum(nil))  // want `sum-alloc: h.Sum\(nil\) .*; automatic fix: sum into a 32-byte array on the stack` `sum-alloc: g.Sum\(nil\) .*; automatic fix: sum into a 32-byte array on the stack`
	}
}

// In the condition of a labeled loop: the array goes before the label, and
// is reused by every evaluation of the condition.
func CaseLabeled() {
	h := sha256.New()
	i := 0
outer:
	for !bytes.Equal(h.Sum(nil), want) && i < len(items) { // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be compared by bytes.Equal; automatic fix: sum into a 32-byte array on the stack`
		h.Write(items[i])
		i++
		continue outer
	}
}

// An HMAC's Sum is called through an interface: an array passed to it
// escapes, so no fix; the result of the second Sum is kept: not reported.
func CaseHMAC() {
	k := []byte("key")
	mac := hmac.New(sha256.New, k)
	for _, it := range items {
		mac.Reset()
		mac.Write(it)
		ok = hmac.Equal(mac.Sum(nil), want) // want `sum-alloc: mac.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be compared by hmac.Equal; sum into a reused buffer \(no automatic fix: mac.Sum is called through an interface, so a stack array passed to it would escape\)`
	}
	kept = append(kept[:0], mac.Sum(nil))
}

// The same for a crypto.Hash hasher built once.
func CaseCryptoHash() {
	h := crypto.SHA512.New()
	for _, it := range items {
		h.Reset()
		h.Write(it)
		ok = bytes.Equal(h.Sum(nil), want) // want `sum-alloc: h.Sum\(nil\) .* \(no automatic fix: h.Sum is called through an interface, so a stack array passed to it would escape\)`
	}
}

// A hasher that is kept: whether an array passed to its Sum stays on the
// stack was not measured, so no fix.
var hashers = make([]hash.Hash, 0, 8)

func CaseKeptHasher() {
	for _, it := range items {
		h := sha256.New()
		hashers = append(hashers[:0], h)
		h.Write(it)
		ok = bytes.Equal(h.Sum(nil), want) // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be compared by bytes.Equal; sum into a reused buffer \(no automatic fix: the hasher is appended to a slice\)`
	}
}

// A destination of a named type: append returns it, Sum returns []byte.
type Digest []byte

var digest = make(Digest, 0, 64)

func CaseNamedDst() {
	for _, it := range items {
		h := sha256.New()
		h.Write(it)
		digest = append(digest[:0], h.Sum(nil)...) // want `sum-alloc: h.Sum\(nil\) allocates its result once per .* \(the loop at sumalloc.go:\d+\), only to be appended to digest\[:0\]; sum into a reused buffer \(no automatic fix: digest\[:0\] is not a \[\]byte\)`
	}
}

// ---- Negative cases: not reported. ----

// Already summed into a reused buffer: the floor.
func CaseReused() {
	for _, it := range items {
		h := sha256.New()
		h.Write(it)
		ok = bytes.Equal(h.Sum(out[:0]), want)
		dst = h.Sum(dst[:0])
	}
}

// Returned: the result is meant to outlive the call. Next to a positive.
//
//hashalloc:hot
func verifyAndDigest(b []byte) []byte {
	h := sha256.New()
	h.Write(b)
	ok = bytes.Equal(h.Sum(nil), want) // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of verifyAndDigest`
	return h.Sum(nil)
}

func CaseReturned() {
	for _, it := range items {
		kept = append(kept[:0], verifyAndDigest(it))
	}
}

// Kept (appended as an element, stored), compared through a string
// conversion, or suppressed: not reported. Next to a positive.
func CaseKept() {
	for _, it := range items {
		h := sha256.New()
		h.Write(it)
		kept = append(kept[:0], h.Sum(nil))
		kept[0] = h.Sum(nil)
		copy(out[:], h.Sum(nil)) // want `sum-alloc: h.Sum\(nil\) allocates its result once per`
		ok = string(h.Sum(nil)) == text
		ok = bytes.Equal(h.Sum(nil), want) //hashalloc:ignore sum-alloc -- measured, fine here
	}
}

// Cold: once per call of a function that nobody calls in a loop. Next to a
// positive in a loop.
func CaseCold() {
	h := sha256.New()
	h.Write(items[0])
	ok = bytes.Equal(h.Sum(nil), want)
	for _, it := range items {
		g := sha256.New()
		g.Write(it)
		ok = bytes.Equal(g.Sum(nil), want) // want `sum-alloc: g.Sum\(nil\) allocates its result once per`
	}
}

// A hasher assigned again, with a hasher of another package: the compiler
// cannot devirtualize its calls, and it escapes, which hasher-alloc reports
// (without a fix); its Sum(nil) allocates all the same, which sum-alloc
// reports, without a fix either: a stack array passed to the Sum of a
// hasher of several types would escape.
func CaseReassignedBranch() {
	for _, it := range items {
		h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(h holds hashers of several types.*; h holds sha256.New\(\) or sha512.New\(\), chosen by the if at sumalloc.go:\d+: one finding for its 2 constructors`
		if len(it) > 4 {
			h = sha512.New()
		}
		h.Write(it)
		ok = bytes.Equal(h.Sum(nil), want) // want `sum-alloc: h.Sum\(nil\) allocates its result once per element of items \(the loop at sumalloc.go:\d+\), only to be compared by bytes.Equal; sum into a reused buffer \(no automatic fix: its hasher is the one each branch chooses, of several types, whose Sum is called through an interface: a stack array passed to it would escape\)`
	}
}

// Next to it, a positive.
func CaseReassigned() {
	for _, it := range items {
		g := sha256.New()
		g.Write(it)
		ok = bytes.Equal(g.Sum(nil), want) // want `sum-alloc: g.Sum\(nil\) allocates its result once per`
	}
}

// An unknown hasher (a parameter): not reported (no Case: it allocates).
func unknownHasher(h hash.Hash) {
	for range items {
		ok = bytes.Equal(h.Sum(nil), want)
	}
}

var _ = unknownHasher

// ---- Fixes applied together. ----

// The hasher escapes through io.Copy in a hot function: hasher-alloc takes it
// from a pool, so sum-alloc must not offer a stack array, which would escape
// through the pooled interface in the hasher's place: it sums into a pooled
// buffer.
//
//hashalloc:hot
func copyAndCompare(want []byte) bool {
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) once per call of copyAndCompare \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of sha256\.New hashers`
	io.Copy(h, src)
	return bytes.Equal(h.Sum(nil), want) // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of copyAndCompare \(it is marked //hashalloc:hot\), only to be compared by bytes.Equal; automatic fix: sum into a pooled buffer, as the hasher is pooled`
}

func CaseComposed() {
	src.Reset(items[0])
	copyAndCompare(out[:32])
}

// After that fix, the Sum of the pooled hasher still allocates, and is still
// reported.
//
//hashalloc:hot
func pooledCompare(want []byte) bool {
	h := sha256Pool.Get().(hash.Hash)
	h.Reset()
	io.Copy(h, src)
	ok := bytes.Equal(h.Sum(nil), want) // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of pooledCompare \(it is marked //hashalloc:hot\), only to be compared by bytes.Equal; sum into a reused buffer \(no automatic fix: the hasher is taken from a pool, and a stack array passed to a pooled hasher would escape\)`
	sha256Pool.Put(h)
	return ok
}

var sha256Pool = sync.Pool{New: func() any { return sha256.New() }}

func CasePooled() {
	src.Reset(items[0])
	pooledCompare(out[:32])
}

// In a function literal called in place, under a lock held for the
// iteration: the literal runs once per iteration, as its body would. The
// same literal after the loop runs once per call: not reported, next to
// the positive.
func CaseLockedLevel() {
	var mu sync.Mutex
	h := sha256.New()
	for _, it := range items {
		func() {
			mu.Lock()
			defer mu.Unlock()
			h.Reset()
			h.Write(it)
			ok = bytes.Equal(h.Sum(nil), want) // want `sum-alloc: h.Sum\(nil\) allocates its result once per element of items \(the loop at sumalloc.go:\d+\), only to be compared by bytes.Equal; automatic fix: sum into a 32-byte array on the stack`
		}()
	}
	func() {
		mu.Lock()
		defer mu.Unlock()
		ok = bytes.Equal(h.Sum(nil), want)
	}()
}
