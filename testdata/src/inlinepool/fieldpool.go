package inlinepool

import (
	"crypto/sha256"
	"fmt"
	"hash"
)

// merkleTree hashes with the hash function it was built with, which only
// its composite literal sets: a pool kept beside it serves its hashers, the
// same code in both pool modes.
type merkleTree struct {
	hashStrategy func() hash.Hash
}

// verify is marked hot.
//
//hashalloc:hot
func (t *merkleTree) verify(l, r []byte) []byte {
	h := t.hashStrategy() // want `hasher-alloc: t.hashStrategy\(\) always allocates its hasher once per call of verify \(it is marked //hashalloc:hot\); automatic fix: take h from a pool kept beside t.hashStrategy \(field hashStrategyPool\)`
	h.Write(l)
	h.Write(r)
	return h.Sum(nil)
}

// node holds its tree by a pointer.
type node struct{ tree *merkleTree }

// verifyTwice is marked hot: n.tree may name another tree after a call, so
// the hasher goes back with a deferred Put, right after the Get.
//
//hashalloc:hot
func (n *node) verifyTwice(l []byte) []byte {
	h := n.tree.hashStrategy() // want `hasher-alloc: n.tree.hashStrategy\(\) always allocates its hasher once per call of verifyTwice \(it is marked //hashalloc:hot\); automatic fix: take h from a pool kept beside n.tree.hashStrategy \(field hashStrategyPool\)`
	h.Write(l)
	sum := h.Sum(nil)
	return sum
}

func CaseFieldPool() {
	t := &merkleTree{hashStrategy: sha256.New}
	n := &node{tree: t}
	for _, b := range branches {
		t.verify(b, b)
		n.verifyTwice(b)
	}
}

func ResultFieldPool() string {
	t := &merkleTree{hashStrategy: sha256.New}
	n := &node{tree: t}
	return fmt.Sprintf("%x %x %x", t.verify(branches[0], branches[1]), n.verifyTwice(branches[1]), t.verify(branches[1], branches[0]))
}
