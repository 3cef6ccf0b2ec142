// Package hashlib allocates a hasher, an HMAC or a concatenation on every
// call of some of its functions: each exports a fact that its callers in
// other packages (example.com/hashuser) read. Nothing here is hot in this
// package: no loop of its own calls them.
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
func Digest(key string) []byte { // want Digest:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Digest at hashlib.go:18\)`
	h := crypto.SHA256.New()
	h.Write([]byte(key))
	return h.Sum(nil)
}

// MAC keys an HMAC with a key that changes from call to call: 5 allocations.
func MAC(key, msg []byte) []byte { // want MAC:`hashes parameter 1` MAC:`allocates 5 times per call: hmac.New\(sha256.New, key\) allocates 5 times \(hashlib.MAC at hashlib.go:25\)`
	m := hmac.New(sha256.New, key)
	m.Write(msg)
	return m.Sum(nil)
}

var prefix = []byte{0}

// Leaf builds a concatenation only to hash it.
func Leaf(leaf []byte) [32]byte { // want Leaf:`allocates 1 time per call: append\(prefix, leaf...\) builds a buffer only to hash it with sha256.Sum256 \(hashlib.Leaf at hashlib.go:34\)`
	return sha256.Sum256(append(prefix, leaf...)) // want `concat-hash: append\(prefix, leaf...\) builds a buffer only to hash it`
}

// Checked allocates after an error check: still on every call that
// succeeds.
func Checked(key string) ([]byte, error) { // want Checked:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates`
	if err := check(key); err != nil {
		return nil, err
	}
	h := crypto.SHA256.New()
	h.Write([]byte(key))
	return h.Sum(nil), nil
}

func check(key string) error {
	if key == "" {
		return errors.New("empty key")
	}
	return nil
}

// Via allocates through an unexported function of the package.
func Via(key string) byte { // want Via:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.digest at hashlib.go:61\)`
	return digest(key)[0]
}

func digest(key string) []byte {
	h := crypto.SHA256.New()
	h.Write([]byte(key))
	return h.Sum(nil)
}

// Signer signs with a key of its own.
type Signer struct{ key []byte }

// Sign re-keys an HMAC per call: a method exports its fact too.
func (s *Signer) Sign(msg []byte) []byte { // want Sign:`allocates 5 times per call: hmac.New\(sha256.New, s.key\) allocates 5 times`
	m := hmac.New(sha256.New, s.key) // want `hmac-rekey: hmac.New\(sha256.New, s.key\) re-keys an HMAC`
	m.Write(msg)
	return m.Sum(nil)
}

// No fact below.

var cache = map[string][]byte{}

// Cached returns early, before it allocates, when the key is cached: not
// every call allocates.
func Cached(key string) []byte {
	if sum, ok := cache[key]; ok {
		return sum
	}
	h := crypto.SHA256.New()
	h.Write([]byte(key))
	return h.Sum(nil)
}

// Maybe allocates only in a branch.
func Maybe(key string, long bool) []byte {
	if long {
		h := crypto.SHA512.New()
		h.Write([]byte(key))
		return h.Sum(nil)
	}
	return nil
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
		h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher on every iteration`
		h.Write([]byte(k))
	}
}
