// Package trie is a Merkle radix trie over byte keys, in the shape of
// avalanchego's x/merkledb: nodes are stored by their full key (as a
// database would hold them), a node refers to its children by the next key
// byte, the compressed rest of their key and their hash, and the nodes
// changed since the last root are re-hashed, bottom up, when the root is
// asked for.
//
// The code is written the way such code is written, naive on purpose: the
// recursive hashChangedNode builds each child's full key in a buffer of its
// own to look the children up (see cmd/hashalloc/main_test.go, which fixes a
// copy of it and runs its tests).
package trie

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"slices"
)

// Trie maps byte keys to values and hashes them into a Merkle root.
type Trie struct {
	// nodes holds every node by its full key; "" is the root.
	nodes map[string]*node
	// changed holds the keys of the nodes changed since the last Root.
	changed map[string]bool
	root    [sha256.Size]byte
}

// node is a node of the trie: a key that some keys start with, maybe with a
// value of its own.
type node struct {
	key      []byte
	value    []byte
	hasValue bool
	children []*child // by index, ascending
}

// child is a node's reference to a child: the child's full key is the
// node's key, then index, then compressed.
type child struct {
	index      byte
	compressed []byte
	id         [sha256.Size]byte // the child's hash, when it has not changed since
}

// New returns an empty trie.
func New() *Trie {
	t := &Trie{nodes: map[string]*node{"": {}}, changed: map[string]bool{"": true}}
	return t
}

// Get returns the value of key.
func (t *Trie) Get(key []byte) ([]byte, bool) {
	n, ok := t.nodes[string(key)]
	if !ok || !n.hasValue {
		return nil, false
	}
	return n.value, true
}

// Put sets the value of key. The trie keeps copies of key and value.
func (t *Trie) Put(key, value []byte) {
	n := t.nodes[""]
	for {
		t.changed[string(n.key)] = true
		if len(n.key) == len(key) {
			n.value, n.hasValue = bytes.Clone(value), true
			if n.value == nil {
				n.value = []byte{}
			}
			return
		}
		index := key[len(n.key)]
		rest := key[len(n.key)+1:]
		i, found := n.find(index)
		if !found {
			leaf := &node{key: bytes.Clone(key), value: bytes.Clone(value), hasValue: true}
			if leaf.value == nil {
				leaf.value = []byte{}
			}
			t.nodes[string(key)] = leaf
			t.changed[string(key)] = true
			n.children = slices.Insert(n.children, i, &child{index: index, compressed: bytes.Clone(rest)})
			return
		}
		c := n.children[i]
		common := commonPrefix(c.compressed, rest)
		split := key[:len(n.key)+1+common]
		if common == len(c.compressed) {
			n = t.nodes[string(split)]
			continue
		}
		// The key leaves c's compressed path: a new node where they part.
		branch := &node{key: bytes.Clone(split)}
		branch.children = []*child{{index: c.compressed[common], compressed: c.compressed[common+1:], id: c.id}}
		c.compressed = c.compressed[:common:common]
		t.nodes[string(split)] = branch
		n = branch
	}
}

// find returns the position of the child with index in n.children, or where
// it would go.
func (n *node) find(index byte) (int, bool) {
	return slices.BinarySearchFunc(n.children, index, func(c *child, index byte) int {
		return int(c.index) - int(index)
	})
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// Root returns the Merkle root of the trie, hashing the nodes changed since
// the last call.
func (t *Trie) Root() [sha256.Size]byte {
	if len(t.changed) > 0 {
		t.root = t.hashChangedNodes()
		clear(t.changed)
	}
	return t.root
}

// hashChangedNodes hashes every changed node, bottom up, and returns the
// root's hash. It leaves t.changed as it is.
func (t *Trie) hashChangedNodes() [sha256.Size]byte {
	return t.hashChangedNode(t.nodes[""])
}

// hashChangedNode hashes the changed nodes under n, then n.
func (t *Trie) hashChangedNode(n *node) [sha256.Size]byte {
	if len(n.children) == 0 {
		return hashNode(n)
	}
	// One buffer for the full keys of the children, as long as the longest.
	longest := 0
	for _, c := range n.children {
		longest = max(longest, len(c.compressed))
	}
	keyBuffer := make([]byte, len(n.key)+1+longest)
	copy(keyBuffer, n.key)
	for _, c := range n.children {
		key := keyBuffer[:len(n.key)+1+len(c.compressed)]
		key[len(n.key)] = c.index
		copy(key[len(n.key)+1:], c.compressed)
		if t.changed[string(key)] {
			c.id = t.hashChangedNode(t.nodes[string(key)])
		}
	}
	return hashNode(n)
}

// hashNode returns the hash of n: its key, its value if it has one, and the
// index, compressed key and hash of each child.
func hashNode(n *node) [sha256.Size]byte {
	h := sha256.New()
	var num [binary.MaxVarintLen64]byte
	h.Write(binary.AppendUvarint(num[:0], uint64(len(n.key))))
	h.Write(n.key)
	if n.hasValue {
		h.Write([]byte{1})
		h.Write(binary.AppendUvarint(num[:0], uint64(len(n.value))))
		h.Write(n.value)
	} else {
		h.Write([]byte{0})
	}
	h.Write(binary.AppendUvarint(num[:0], uint64(len(n.children))))
	for _, c := range n.children {
		h.Write([]byte{c.index})
		h.Write(binary.AppendUvarint(num[:0], uint64(len(c.compressed))))
		h.Write(c.compressed)
		h.Write(c.id[:])
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}
