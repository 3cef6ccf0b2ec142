// Package hashlib allocates a hasher, an HMAC or a concatenation on every
// call of some of its functions: each exports a fact that its callers in
// other packages (example.com/hashuser) read. A function that returns a hash
// of what it is given runs per item by what it is: its allocation is
// reported here, and its fact says so, so that its callers are not told
// again. One that makes a value (an Entry) runs per item only by what its
// callers do: they are told.
package hashlib

import (
	"crypto"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"hash"
)

// Digest allocates its hasher on every call: crypto.Hash.New is not
// devirtualized.
func Digest(key string) []byte { // want Digest:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Digest at hashlib.go:21\), reported there`
	h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher once per call of Digest \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	h.Write([]byte(key))
	return h.Sum(nil)
}

// Entry is a key's record.
type Entry struct{ Sum []byte }

// Lookup makes a record per call, with a hasher of its own: it makes a
// value, it does not return a hash, so nothing here shows it to run per item.
func Lookup(key string) Entry { // want Lookup:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Lookup at hashlib.go:32\)$`
	h := crypto.SHA256.New()
	h.Write([]byte(key))
	return Entry{Sum: h.Sum(nil)}
}

// MAC keys an HMAC with a key that changes from call to call: 5 allocations.
func MAC(key, msg []byte) []byte { // want MAC:`hashes parameter 1` MAC:`allocates 5 times per call: hmac.New\(sha256.New, key\) allocates 5 times \(hashlib.MAC at hashlib.go:39\), reported there`
	m := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of MAC \(it returns a hash of what it is given`
	m.Write(msg)
	return m.Sum(nil)
}

var prefix = []byte{0}

// Leaf builds a concatenation only to hash it.
func Leaf(leaf []byte) [32]byte { // want Leaf:`allocates 1 time per call: append\(prefix, leaf...\) builds a buffer only to hash it with sha256.Sum256 \(hashlib.Leaf at hashlib.go:48\), reported there`
	return sha256.Sum256(append(prefix, leaf...)) // want `concat-hash: append\(prefix, leaf...\) builds a buffer only to hash it with sha256.Sum256 once per call of Leaf \(it returns a hash`
}

// Checked allocates after an error check: still on every call that
// succeeds.
func Checked(key string) (Entry, error) { // want Checked:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates`
	if err := check(key); err != nil {
		return Entry{}, err
	}
	h := crypto.SHA256.New()
	h.Write([]byte(key))
	return Entry{Sum: h.Sum(nil)}, nil
}

func check(key string) error {
	if key == "" {
		return errors.New("empty key")
	}
	return nil
}

// Via allocates through an unexported function of the package.
func Via(key string) Entry { // want Via:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.digest at hashlib.go:75\)$`
	return Entry{Sum: digest(key)}
}

func digest(key string) []byte {
	h := crypto.SHA256.New()
	h.Write([]byte(key))
	return h.Sum(nil)
}

// Signer signs with a key of its own.
type Signer struct{ key []byte }

// Sign re-keys an HMAC per call: a method exports its fact too.
func (s *Signer) Sign(msg []byte) []byte { // want Sign:`allocates 5 times per call: hmac.New\(sha256.New, s.key\) allocates 5 times .*, reported there`
	m := hmac.New(sha256.New, s.key) // want `hmac-rekey: hmac.New\(sha256.New, s.key\) re-keys an HMAC`
	m.Write(msg)
	return m.Sum(nil)
}

// No fact below.

var cache = map[string][]byte{}

// Cached returns early, before it allocates, when the key is cached: not
// every call allocates, and those that do are misses, once per key.
func Cached(key string) []byte {
	if sum, ok := cache[key]; ok {
		return sum
	}
	h := crypto.SHA256.New()
	h.Write([]byte(key))
	cache[key] = h.Sum(nil)
	return cache[key]
}

// Maybe allocates only in a branch.
func Maybe(key string, long bool) []byte {
	if long {
		h := crypto.SHA512.New() // want `hasher-alloc: crypto.SHA512.New\(\) always allocates its hasher once per call of Maybe \(it returns a hash of what it is given`
		h.Write([]byte(key))
		return h.Sum(nil)
	}
	return nil
}

// MaybeEntry allocates only in a branch.
func MaybeEntry(key string, long bool) Entry {
	if long {
		h := crypto.SHA512.New()
		h.Write([]byte(key))
		return Entry{Sum: h.Sum(nil)}
	}
	return Entry{}
}

// New returns its hasher: no per-call fact, what becomes of the hasher is
// its callers' business; as a constructor wrapper, its calls are
// constructor sites.
func New() hash.Hash { // want New:"returns a crypto.Hash.New hasher \\(allocates always\\)"
	return crypto.SHA256.New()
}

// Stack's hasher stays on the stack: it costs nothing.
func Stack(key string) []byte {
	h := sha256.New()
	h.Write([]byte(key))
	return h.Sum(nil)
}

// Each allocates in a loop: maybe never.
func Each(keys []string) {
	for _, k := range keys {
		h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher once per`
		h.Write([]byte(k))
	}
}

// Root hashes a whole tree per call with one hasher, which its recursive
// helper reuses: the hasher escapes (through the helper's interface
// parameter), once per tree, shared by every node. Its callers are not told,
// however often they call it: no fact.
func Root(leaves [][]byte) []byte {
	return root(sha256.New(), leaves)
}

func root(h hash.Hash, leaves [][]byte) []byte {
	if len(leaves) == 1 {
		h.Reset()
		h.Write(leaves[0])
		return h.Sum(nil)
	}
	l := root(h, leaves[:len(leaves)/2])
	r := root(h, leaves[len(leaves)/2:])
	h.Reset()
	h.Write(l)
	h.Write(r)
	return h.Sum(nil)
}
