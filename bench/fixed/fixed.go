package fixed

import (
	"bytes"
	"crypto"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"io"
	"sync"

	"github.com/hashalloc/hashalloc/runtime/hashpool"
	"github.com/hashalloc/hashalloc/runtime/hashsum"
)

// doubleSumParts returns doubleSum of the concatenation of parts, the sum of
// their sum, without building it: the parts are hashed one after another.
func doubleSumParts(parts ...[]byte) [32]byte {
	first := hashsum.SHA256(parts...)
	return hashsum.SHA256(first[:])
}

// HoistReset hashes msg, read through r, once per iteration of the loop that
// more drives, and returns the last digest appended to out[:0].
func HoistReset(more func() bool, r *bytes.Reader, msg, out []byte) []byte {
	h := sha256.New()
	for more() {
		h.Reset()
		r.Reset(msg)
		if _, err := io.Copy(h, r); err != nil {
			panic(err)
		}
		out = h.Sum(out[:0])
	}
	return out
}

// Digest returns the SHA-256 of what r holds, appended to out[:0].
//
//hashalloc:hot
func Digest(r io.Reader, out []byte) []byte {
	h := hashpool.SHA256.Get()
	defer hashpool.SHA256.Put(h)
	if _, err := io.Copy(h, r); err != nil {
		panic(err)
	}
	return h.Sum(out[:0])
}

// TreeHasher hashes a Merkle tree's nodes with the crypto.Hash it embeds,
// which its user chooses, as transparency-dev/merkle's and trillian's do.
type TreeHasher struct{ crypto.Hash }

// HashLeaf returns the hash of leaf, appended to out[:0].
//
//hashalloc:hot
func (t *TreeHasher) HashLeaf(leaf, out []byte) []byte {
	h := hashpool.ForHash(t.Hash).Get()
	defer hashpool.ForHash(t.Hash).Put(h)
	h.Write(leaf)
	return h.Sum(out[:0])
}

// FuncTree hashes a Merkle tree's nodes with the hash function it is built
// with, as cbergoon/merkletree's hashStrategy, one of the standard
// constructors that NewFuncTree chooses.
type FuncTree struct {
	newHash     func() hash.Hash
	newHashPool sync.Pool
}

// NewFuncTree returns a FuncTree that hashes with SHA-256, or SHA-1 when
// legacy is set.
func NewFuncTree(legacy bool) *FuncTree {
	if legacy {
		return &FuncTree{newHash: sha1.New}
	}
	return &FuncTree{newHash: sha256.New}
}

// Node returns the hash of the node whose children hash to l and r,
// appended to out[:0].
//
//hashalloc:hot
func (t *FuncTree) Node(l, r, out []byte) []byte {
	h := pooledHasher(&t.newHashPool, t.newHash)
	defer t.newHashPool.Put(h)
	h.Write(l)
	h.Write(r)
	return h.Sum(out[:0])
}

// Signer signs messages with HMAC-SHA256 under a key fixed when it is built.
type Signer struct {
	key     []byte
	keyMACs hashpool.HMAC
}

// NewSigner returns a Signer that signs with key.
func NewSigner(key []byte) *Signer { return &Signer{key: key} }

// Sign returns the HMAC-SHA256 of msg under s.key, appended to out[:0].
func (s *Signer) Sign(msg, out []byte) []byte {
	mac := s.keyMACs.Get(sha256.New, s.key)
	defer s.keyMACs.Put(mac)
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// Verify reports whether sig is the HMAC-SHA256 of msg under s.key, in
// constant time.
func (s *Signer) Verify(msg, sig []byte) bool {
	mac := s.keyMACs.Get(sha256.New, s.key)
	defer s.keyMACs.Put(mac)
	mac.Write(msg)
	return mac.Equal(sig)
}

// MAC returns the HMAC-SHA256 of msg under key, appended to out[:0]. Its
// callers pass a different key from one call to the next.
//
//hashalloc:hot
func MAC(key, msg, out []byte) []byte {
	return hashsum.AppendHMACSHA256(out[:0], key, msg)
}

// MACWith returns the HMAC of msg under key with the hash h, which its
// caller chooses (a JWT library's HS256/384/512), appended to out[:0].
//
//hashalloc:hot
func MACWith(h crypto.Hash, key, msg, out []byte) []byte {
	return hashsum.AppendHMAC(h, out[:0], key, msg)
}

// MACChosen returns the HMAC of msg under key, with SHA-256 when v2 is set
// and SHA-1 otherwise (a presigned URL's two versions), appended to out[:0].
//
//hashalloc:hot
func MACChosen(v2 bool, key, msg, out []byte) []byte {
	var mac crypto.Hash
	if v2 {
		mac = crypto.SHA256
	} else {
		mac = crypto.SHA1
	}
	return hashsum.AppendHMAC(mac, out[:0], key, msg)
}

// MACFunc returns the HMAC of msg under key with the hash that newHash
// makes, which its caller chooses (a JWE content cipher's), appended to
// out[:0].
//
//hashalloc:hot
func MACFunc(newHash func() hash.Hash, key, msg, out []byte) []byte {
	return hashsum.AppendHMACFunc(newHash, out[:0], key, msg)
}

// SumPair returns the SHA-256 of a followed by b.
func SumPair(a, b []byte) [sha256.Size]byte {
	return hashsum.SHA256(a, b)
}

// DoubleSumPair returns the SHA-256 of the SHA-256 of a followed by b, as a
// block header's double hash is computed.
func DoubleSumPair(a, b []byte) [sha256.Size]byte {
	return doubleSumParts(a, b)
}

// Node is a node of a tree whose hash covers a header of every node.
type Node struct {
	ID       uint64
	Children []*Node
}

// WriteTree writes to h a header of size bytes for n, with its ID in the
// first eight, then the headers of its children.
func WriteTree(h hash.Hash, n *Node, size int) {
	buf := hashpool.Buffers.Get(size)
	defer hashpool.Buffers.Put(buf)
	binary.BigEndian.PutUint64(buf, n.ID)
	h.Write(buf)
	for _, c := range n.Children {
		WriteTree(h, c, size)
	}
}

// CountMatches hashes msg once per iteration of the loop that more drives and
// counts the digests equal to want.
func CountMatches(more func() bool, msg, want []byte) int {
	n := 0
	for more() {
		h := sha256.New()
		h.Write(msg)
		var sum [32]byte
		if bytes.Equal(h.Sum(sum[:0]), want) {
			n++
		}
	}
	return n
}

// pooledHasher returns a hasher of pool, reset, or newHash() when pool is empty.
func pooledHasher(pool *sync.Pool, newHash func() hash.Hash) hash.Hash {
	if h, ok := pool.Get().(hash.Hash); ok {
		h.Reset()
		return h
	}
	return newHash()
}
