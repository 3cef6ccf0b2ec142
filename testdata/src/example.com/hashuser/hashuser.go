// Package hashuser calls the per-call allocations of example.com/hashlib:
// in loops and in hot functions it is told so at the call; once per call of
// a cold function it is not.
package hashuser

import (
	"bytes"
	"net/http"
	"strings"

	"example.com/hashlib"
)

// LocksFor hashes every key in a loop, through a function of this package
// (vault's locksutil.LocksForKeys over cryptoutil.Blake2b256Hash).
func LocksFor(keys []string) map[uint8]bool {
	locks := map[uint8]bool{}
	for _, k := range keys {
		locks[lockIndex(k)] = true // want `hasher-alloc: lockIndex allocates on every call, through hashlib.Digest: crypto.SHA256.New\(\) always allocates its hasher at hashlib.go:18 \(1 allocation per call\), called on every iteration of the loop at hashuser.go:18; make hashlib.Digest reuse what it allocates, or call it less often \(no automatic fix: the allocation is in package example.com/hashlib, where its fix belongs\)`
	}
	return locks
}

// lockIndex is hot only by the loop above: weak evidence, so its own call
// is not reported, the loop's is.
func lockIndex(key string) uint8 {
	return hashlib.Digest(key)[0]
}

// LockFor is called once per lock: cold, nothing to say.
func LockFor(key string) uint8 { // want LockFor:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Digest at hashlib.go:18\)`
	return lockIndex(key)
}

// Cold calls hashlib.Digest once per call of a function nothing makes hot.
func Cold(key string) []byte { // want Cold:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Digest at hashlib.go:18\)`
	return hashlib.Digest(key)
}

// Each loop below repeats one call of hashlib and nothing else.

func MACs(msgs [][]byte) (n int) {
	for _, m := range msgs {
		n += len(hashlib.MAC(m, m)) // want `hasher-alloc: hashlib.MAC allocates on every call, hmac.New\(sha256.New, key\) allocates 5 times at hashlib.go:25 \(5 allocations per call\), called on every iteration of the loop at hashuser.go:\d+`
	}
	return n
}

func Signs(msgs [][]byte, s *hashlib.Signer) (n int) {
	for _, m := range msgs {
		n += len(s.Sign(m)) // want `hasher-alloc: \(\*hashlib.Signer\).Sign allocates on every call, hmac.New\(sha256.New, s.key\) allocates 5 times at hashlib.go:71 \(5 allocations per call\)`
	}
	return n
}

func Leaves(msgs [][]byte) (sums [][32]byte) {
	for _, m := range msgs {
		sums = append(sums, hashlib.Leaf(m)) // want `concat-hash: hashlib.Leaf allocates on every call, append\(prefix, leaf...\) builds a buffer only to hash it with sha256.Sum256 at hashlib.go:34`
	}
	return sums
}

func Vias(keys []string) (n int) {
	for _, k := range keys {
		n += int(hashlib.Via(k)) // want `hasher-alloc: hashlib.Via allocates on every call, through hashlib.digest: crypto.SHA256.New\(\) always allocates its hasher at hashlib.go:61`
	}
	return n
}

func CheckedAll(keys []string) (n int) {
	for _, k := range keys {
		sum, _ := hashlib.Checked(k) // want `hasher-alloc: hashlib.Checked allocates on every call`
		n += len(sum)
	}
	return n
}

// No fact: not every call allocates, or nothing is per-call waste.
func NoFacts(keys []string) (n int) {
	for _, k := range keys {
		n += len(hashlib.Cached(k))
	}
	for _, k := range keys {
		n += len(hashlib.Maybe(k, false))
	}
	for range keys {
		n += hashlib.New().Size() // want `hasher-alloc: hashlib.New\(\) returns the hasher of crypto.Hash.New, which always allocates on every iteration of the loop at hashuser.go:\d+; reuse one hasher across iterations \(no automatic fix: the hasher is not assigned to a variable\)`
	}
	for _, k := range keys {
		n += len(hashlib.Stack(k))
	}
	return n
}

// Busy's loops do other work per iteration, beside which one allocation is
// noise (a file read, a key derived): a loop gives no measure of it.
func Busy(keys []string, log func(string)) (n int) {
	for _, k := range keys {
		log(k)
		n += len(hashlib.Digest(k))
	}
	for _, k := range keys {
		n += len(hashlib.Digest(strings.ToLower(k)))
	}
	return n
}

// First leaves the loop right after the call: it runs once per call.
func First(keys []string) []byte {
	for _, k := range keys {
		if k != "" {
			return hashlib.Digest(k)
		}
	}
	return nil
}

// Handler runs once per request (its role), but it also writes the
// response: beside a round trip over the network one hasher is noise, as
// beside the HTTP requests of go-containerregistry's manifest walks.
type Handler struct{}

func (Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Digest at hashlib.go:18\)`
	w.Write(hashlib.Digest(r.URL.Path))
}

// byDigest sorts keys by their digests: sort.Sort calls Less O(n log n)
// times (its role), and Less does nothing but hash and compare.
type byDigest []string

func (s byDigest) Len() int      { return len(s) }
func (s byDigest) Swap(i, j int) { s[i], s[j] = s[j], s[i] }
func (s byDigest) Less(i, j int) bool { // want Less:`allocates 2 times per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Digest at hashlib.go:18\)`
	a := hashlib.Digest(s[i]) // want `hasher-alloc: hashlib.Digest allocates on every call, .* called on every call of Less, which is hot \(role: Less of a sort.Interface, which sort.Sort calls O\(n log n\) times\)`
	b := hashlib.Digest(s[j]) // want `hasher-alloc: hashlib.Digest allocates on every call, .* called on every call of Less, which is hot`
	return bytes.Compare(a, b) < 0
}

// walk is recursive: every level calls hashlib.Digest.
func walk(keys []string) []byte {
	if len(keys) == 0 {
		return nil
	}
	sum := hashlib.Digest(keys[0]) // want `hasher-alloc: hashlib.Digest allocates on every call, .* called on every call of walk, which is hot \(recursive: walk → walk\)`
	return append(sum, walk(keys[1:])...)
}

// Walk starts the recursion.
func Walk(keys []string) []byte { return walk(keys) }

// Ignored is marked: nothing is said.
func Ignored(keys []string) {
	for _, k := range keys {
		hashlib.Digest(k) //hashalloc:ignore hasher-alloc
	}
}

// Marked is hot by its directive.
//
//hashalloc:hot
func Marked(key string) { // want Marked:`allocates 1 time per call`
	hashlib.Digest(key) // want `hasher-alloc: hashlib.Digest allocates on every call, .* called on every call of Marked, which is hot \(marked //hashalloc:hot\)`
}
