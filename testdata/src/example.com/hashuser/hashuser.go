// Package hashuser calls the per-call allocations of example.com/hashlib:
// in loops and in hot functions it is told so at the call; once per call of
// a cold function it is not, nor when hashlib reports the allocation where
// it is.
package hashuser

import (
	"bytes"
	"net/http"
	"os"
	"strings"

	"example.com/hashlib"
)

// LocksFor hashes every key in a loop, through a function of this package
// (vault's locksutil.LocksForKeys over cryptoutil.Blake2b256Hash).
func LocksFor(keys []string) map[uint8]bool {
	locks := map[uint8]bool{}
	for _, k := range keys {
		locks[lockIndex(k)] = true
	}
	return locks
}

// lockIndex runs once per key of LocksFor's loop: its call of hashlib is
// reported, with that chain.
func lockIndex(key string) uint8 {
	return hashlib.Lookup(key).Sum[0] // want `hasher-alloc: hashlib.Lookup allocates on every call, crypto.SHA256.New\(\) always allocates its hasher at hashlib.go:32 \(1 allocation per call\), called once per call of lockIndex, which LocksFor calls once per element of keys \(the loop at hashuser.go:20\); make hashlib.Lookup reuse what it allocates, or call it less often \(no automatic fix: the allocation is in package example.com/hashlib, where its fix belongs\)`
}

// LockFor is called once per lock: cold, nothing to say.
func LockFor(key string) uint8 { // want LockFor:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Lookup at hashlib.go:32\)`
	return lockIndex(key)
}

// Cold calls hashlib.Lookup once per call of a function nothing makes hot.
func Cold(key string) []byte { // want Cold:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Lookup at hashlib.go:32\)`
	return hashlib.Lookup(key).Sum
}

// Each loop below repeats one call of hashlib and nothing else.

func Vias(keys []string) (n int) {
	for _, k := range keys {
		n += len(hashlib.Via(k).Sum) // want `hasher-alloc: hashlib.Via allocates on every call, through hashlib.digest: crypto.SHA256.New\(\) always allocates its hasher at hashlib.go:75 \(1 allocation per call\), called once per element of keys \(the loop at hashuser.go:\d+\)`
	}
	return n
}

func CheckedAll(keys []string) (n int) {
	for _, k := range keys {
		e, _ := hashlib.Checked(k) // want `hasher-alloc: hashlib.Checked allocates on every call`
		n += len(e.Sum)
	}
	return n
}

// Reported reports nothing: each function it calls returns a hash of what
// it is given, and hashlib reports its allocation where it is.
func Reported(msgs [][]byte, s *hashlib.Signer) (n int) {
	for _, m := range msgs {
		n += len(hashlib.Digest(string(m)))
	}
	for _, m := range msgs {
		n += len(hashlib.MAC(m, m))
	}
	for _, m := range msgs {
		n += len(s.Sign(m))
	}
	for _, m := range msgs {
		sum := hashlib.Leaf(m)
		n += int(sum[0])
	}
	return n
}

// No fact: not every call allocates, or nothing is per-call waste.
func NoFacts(keys []string) (n int) {
	for _, k := range keys {
		n += len(hashlib.Cached(k))
	}
	for _, k := range keys {
		n += len(hashlib.MaybeEntry(k, false).Sum)
	}
	for range keys {
		n += hashlib.New().Size() // want `hasher-alloc: hashlib.New\(\) returns the hasher of crypto.Hash.New, which always allocates once per .* \(the loop at hashuser.go:\d+\); reuse one hasher across iterations \(no automatic fix: the hasher is not assigned to a variable\)`
	}
	for _, k := range keys {
		n += len(hashlib.Stack(k))
	}
	return n
}

// Busy's loop reads a file per key, beside which one allocation is noise;
// lowering a name is no such work. (A second loop over keys would count the
// file each key reads: the heavy work of every loop over the same items is
// theirs.)
func Busy(keys, names []string) (n int) { // want Busy:`costs: heavy \(os.ReadFile \(file I/O\)\)`
	for _, k := range keys {
		b, _ := os.ReadFile(k)
		n += len(b) + len(hashlib.Lookup(k).Sum)
	}
	for _, k := range names {
		n += len(hashlib.Lookup(strings.ToLower(k)).Sum) // want `hasher-alloc: hashlib.Lookup allocates on every call, .* called once per element of names`
	}
	return n
}

// First leaves the loop right after the call: it runs once per call.
func First(keys []string) []byte {
	for _, k := range keys {
		if k != "" {
			return hashlib.Lookup(k).Sum
		}
	}
	return nil
}

// Handler runs once per request (its role), but net/http reads the request
// and writes the response around each call: beside that one hasher is
// noise, as beside the HTTP requests of go-containerregistry's manifest
// walks.
type Handler struct{}

func (Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Lookup at hashlib.go:32\)`
	w.Write(hashlib.Lookup(r.URL.Path).Sum)
}

// byDigest sorts keys by their digests: sort.Sort calls Less O(n log n)
// times (its role), and Less does nothing but hash and compare.
type byDigest []string

func (s byDigest) Len() int      { return len(s) }
func (s byDigest) Swap(i, j int) { s[i], s[j] = s[j], s[i] }
func (s byDigest) Less(i, j int) bool { // want Less:`allocates 2 times per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Lookup at hashlib.go:32\)`
	a := hashlib.Lookup(s[i]) // want `hasher-alloc: hashlib.Lookup allocates on every call, .* called once per call of Less \(it is Less of a sort.Interface, which sort.Sort calls O\(n log n\) times\)`
	b := hashlib.Lookup(s[j]) // want `hasher-alloc: hashlib.Lookup allocates on every call, .* called once per call of Less`
	return bytes.Compare(a.Sum, b.Sum) < 0
}

// walk is recursive: every level calls hashlib.Lookup.
func walk(keys []string) []byte {
	if len(keys) == 0 {
		return nil
	}
	e := hashlib.Lookup(keys[0]) // want `hasher-alloc: hashlib.Lookup allocates on every call, .* called once per call of walk \(it recurses: walk → walk, once per node it walks\)`
	return append(e.Sum, walk(keys[1:])...)
}

// Walk starts the recursion.
func Walk(keys []string) []byte { return walk(keys) }

// Ignored is marked: nothing is said.
func Ignored(keys []string) {
	for _, k := range keys {
		hashlib.Lookup(k) //hashalloc:ignore hasher-alloc
	}
}

// Marked is hot by its directive.
//
//hashalloc:hot
func Marked(key string) { // want Marked:`allocates 1 time per call`
	hashlib.Lookup(key) // want `hasher-alloc: hashlib.Lookup allocates on every call, .* called once per call of Marked \(it is marked //hashalloc:hot\)`
}

// Roots hashes a tree per block: Root's one hasher per tree is shared by
// its nodes, and nothing is said.
func Roots(blocks [][][]byte) (n int) {
	for _, b := range blocks {
		n += len(hashlib.Root(b))
	}
	return n
}
