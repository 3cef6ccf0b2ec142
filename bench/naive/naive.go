package naive

import (
	"bytes"
	"crypto"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"io"
)

// HoistReset hashes msg, read through r, once per iteration of the loop that
// more drives, and returns the last digest appended to out[:0].
func HoistReset(more func() bool, r *bytes.Reader, msg, out []byte) []byte {
	for more() {
		h := sha256.New()
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
	h := sha256.New()
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
	h := t.New()
	h.Write(leaf)
	return h.Sum(out[:0])
}

// FuncTree hashes a Merkle tree's nodes with the hash function it is built
// with, as cbergoon/merkletree's hashStrategy, one of the standard
// constructors that NewFuncTree chooses.
type FuncTree struct {
	newHash func() hash.Hash
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
	h := t.newHash()
	h.Write(l)
	h.Write(r)
	return h.Sum(out[:0])
}

// Signer signs messages with HMAC-SHA256 under a key fixed when it is built.
type Signer struct {
	key []byte
}

// NewSigner returns a Signer that signs with key.
func NewSigner(key []byte) *Signer { return &Signer{key: key} }

// Sign returns the HMAC-SHA256 of msg under s.key, appended to out[:0].
func (s *Signer) Sign(msg, out []byte) []byte {
	mac := hmac.New(sha256.New, s.key)
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// Verify reports whether sig is the HMAC-SHA256 of msg under s.key, in
// constant time.
func (s *Signer) Verify(msg, sig []byte) bool {
	mac := hmac.New(sha256.New, s.key)
	mac.Write(msg)
	return hmac.Equal(mac.Sum(nil), sig)
}

// MAC returns the HMAC-SHA256 of msg under key, appended to out[:0]. Its
// callers pass a different key from one call to the next.
//
//hashalloc:hot
func MAC(key, msg, out []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// MACWith returns the HMAC of msg under key with the hash h, which its
// caller chooses (a JWT library's HS256/384/512), appended to out[:0].
//
//hashalloc:hot
func MACWith(h crypto.Hash, key, msg, out []byte) []byte {
	mac := hmac.New(h.New, key)
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// MACChosen returns the HMAC of msg under key, with SHA-256 when v2 is set
// and SHA-1 otherwise (a presigned URL's two versions), appended to out[:0].
//
//hashalloc:hot
func MACChosen(v2 bool, key, msg, out []byte) []byte {
	var mac hash.Hash
	if v2 {
		mac = hmac.New(sha256.New, key)
	} else {
		mac = hmac.New(sha1.New, key)
	}
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// MACFunc returns the HMAC of msg under key with the hash that newHash
// makes, which its caller chooses (a JWE content cipher's), appended to
// out[:0].
//
//hashalloc:hot
func MACFunc(newHash func() hash.Hash, key, msg, out []byte) []byte {
	mac := hmac.New(newHash, key)
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// SumPair returns the SHA-256 of a followed by b.
func SumPair(a, b []byte) [sha256.Size]byte {
	return sha256.Sum256(append(a, b...))
}

// DoubleSumPair returns the SHA-256 of the SHA-256 of a followed by b, as a
// block header's double hash is computed.
func DoubleSumPair(a, b []byte) [sha256.Size]byte {
	return doubleSum(append(a, b...))
}

// Node is a node of a tree whose hash covers a header of every node.
type Node struct {
	ID       uint64
	Children []*Node
}

// WriteTree writes to h a header of size bytes for n, with its ID in the
// first eight, then the headers of its children.
func WriteTree(h hash.Hash, n *Node, size int) {
	buf := make([]byte, size)
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
		if bytes.Equal(h.Sum(nil), want) {
			n++
		}
	}
	return n
}
