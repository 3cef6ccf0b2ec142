// Package hot digests messages through an interface of another package:
// which Digester runs, and how often, is up to whoever holds a Pipeline,
// which nothing in the package shows (Digest returns no hash, and no loop
// of the package calls it). Only a profile of the benchmarks reveals that
// Digest is where the allocations are.
package hot

import (
	"crypto"
	_ "crypto/sha256"

	"example.com/provedep"
)

// SHA256 digests with SHA-256, named by its crypto.Hash.
type SHA256 struct{}

// Digest sets m's digest to the SHA-256 of its body, through a Digester
// (provedep's interface) that a Pipeline holds. crypto.SHA256.New() is
// not devirtualized: its hasher is allocated on every call, and so is the
// digest.
func (SHA256) Digest(m *provedep.Message) {
	h := crypto.SHA256.New()
	h.Write(m.Body)
	m.Sum = h.Sum(nil)
}

// Pipeline digests every message with its Digester.
type Pipeline struct {
	D provedep.Digester
}

// Run digests msgs, in place: once per message, through an interface of
// another package, whose implementations the package cannot know; static
// evidence is silent.
func (p Pipeline) Run(msgs []provedep.Message) {
	for i := range msgs {
		p.D.Digest(&msgs[i])
	}
}

// Tree is a tree of messages.
type Tree struct {
	Msg  []byte
	Kids []*Tree
}

// Sum returns the digest of the tree. It is recursive, which static
// evidence takes for hot, but the benchmarks never run it: with their
// profile, its hasher stays silent.
func (t *Tree) Sum() []byte {
	h := crypto.SHA256.New()
	h.Write(t.Msg)
	for _, k := range t.Kids {
		h.Write(k.Sum())
	}
	return h.Sum(nil)
}
