// Package hasherlike holds values that embed a hasher and give it a Sum of
// their own (a VCS object store's object hasher): not a hash.Hash, but a
// call that yields one is a site the audit accounts for.
package hasherlike

import (
	"crypto/sha1"
	"hash"
	"strconv"
)

// Hasher hashes an object: its header, then its content.
type Hasher struct{ hash.Hash }

// Sum returns the object's ID.
func (h Hasher) Sum() (id [20]byte) {
	h.Hash.Sum(id[:0])
	return id
}

// NewHasher returns a hasher that has hashed the object's header.
func NewHasher(kind string, size int) Hasher {
	h := Hasher{sha1.New()}
	h.Write([]byte(kind + " " + strconv.Itoa(size) + "\x00"))
	return h
}

// ObjectID hashes an object.
func ObjectID(kind string, content []byte) [20]byte {
	h := NewHasher(kind, len(content))
	h.Write(content)
	return h.Sum()
}

// registry keeps the hashers Register makes: stored, not returned.
var registry []Hasher

// Register keeps a new Hasher for the process.
func Register() { registry = append(registry, Hasher{sha1.New()}) }
