package hotbuffervar

import (
	"crypto/sha256"
	"encoding/hex"
	"unsafe"
)

// The merkledb seed as its real code has it (x/merkledb's view.go before its
// pull request): the key buffer is declared in a var block with the node's
// other per-call values, filled by a helper (extendIntoBuffer), and looked
// up through a key struct whose string aliases the buffer's bytes
// (byteSliceToString, unsafe.String): key := Key{value: ...}; m[key] keeps
// nothing of the buffer, as m[Key{value: ...}] does not.
type Key struct {
	value  string
	length int
}

func byteSliceToString(bs []byte) string {
	return unsafe.String(unsafe.SliceData(bs), len(bs))
}

// extendIntoBuffer writes val's bytes into buffer at offset.
func extendIntoBuffer(buffer []byte, val Key, offset int) {
	copy(buffer[offset:], val.value)
}

type keyNode struct {
	key      Key
	children map[byte]*keyChild
}

type keyChild struct {
	compressed Key
	id         [sha256.Size]byte
}

type keyTrie struct {
	nodes map[Key]*keyNode
	seen  map[Key]bool
}

func (t *keyTrie) hashChangedNode(n *keyNode) [sha256.Size]byte {
	longest := 0
	for _, c := range n.children {
		longest = max(longest, c.compressed.length)
	}
	var (
		maxBytesNeeded = n.key.length + 1 + longest
		keyBuffer      = make([]byte, maxBytesNeeded) // want `hot-buffer: make\(\[\]byte, maxBytesNeeded\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) once per call of hashChangedNode \(it recurses: hashChangedNode → hashChangedNode, once per node it walks\); automatic fix: back keyBuffer by a 128-byte array on the stack, and make it only when larger`
		childBuffer    = make([]byte, 1)
	)
	copy(keyBuffer, n.key.value)
	for index, c := range n.children {
		childBuffer[0] = index
		childIndexAsKey := Key{value: byteSliceToString(childBuffer), length: 1}
		total := n.key.length + 1 + c.compressed.length
		buffer := keyBuffer[:total]
		extendIntoBuffer(buffer, childIndexAsKey, n.key.length)
		extendIntoBuffer(buffer, c.compressed, n.key.length+1)
		childKey := Key{value: byteSliceToString(buffer), length: total}
		child, ok := t.nodes[childKey]
		if !ok {
			continue
		}
		c.id = t.hashChangedNode(child)
	}
	return hashKeyNode(n)
}

func hashKeyNode(n *keyNode) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(n.key.value))
	for i := range 256 {
		if c := n.children[byte(i)]; c != nil {
			h.Write([]byte{byte(i)})
			h.Write(c.id[:])
		}
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// The same walk, but it records every key it looks up: the map keeps the
// key struct, and with it the buffer's bytes. Not reported.
func (t *keyTrie) markChanged(n *keyNode) [sha256.Size]byte {
	var (
		maxBytesNeeded = n.key.length + 1 + 48
		keyBuffer      = make([]byte, maxBytesNeeded)
	)
	copy(keyBuffer, n.key.value)
	for index, c := range n.children {
		keyBuffer[n.key.length] = index
		childKey := Key{value: byteSliceToString(keyBuffer[:n.key.length+1]), length: n.key.length + 1}
		t.seen[childKey] = true
		if child := t.nodes[childKey]; child != nil {
			c.id = t.markChanged(child)
		}
	}
	return hashKeyNode(n)
}

// newKeyTrie holds a root at the empty key, an inner node at a 47-byte key
// and two leaves under it at 48-byte keys.
func newKeyTrie() (*keyTrie, *keyNode) {
	k := string(key48(0))
	leafA := &keyNode{key: Key{k[:47] + "a", 48}}
	leafB := &keyNode{key: Key{k[:47] + "b", 48}}
	inner := &keyNode{key: Key{k[:47], 47}, children: map[byte]*keyChild{'a': {}, 'b': {}}}
	root := &keyNode{children: map[byte]*keyChild{k[0]: {compressed: Key{k[1:47], 46}}}}
	t := &keyTrie{
		nodes: map[Key]*keyNode{inner.key: inner, leafA.key: leafA, leafB.key: leafB},
		seen:  map[Key]bool{},
	}
	return t, root
}

var realTrie, realRoot = newKeyTrie()

func CaseKeyStruct() { out = realTrie.hashChangedNode(realRoot) }

func ResultKeyStruct() string {
	t, root := newKeyTrie()
	sum := t.hashChangedNode(root)
	return hex.EncodeToString(sum[:])
}

func ResultKeyStructMarked() string {
	t, root := newKeyTrie()
	sum := t.markChanged(root)
	return hex.EncodeToString(sum[:]) + hex.EncodeToString([]byte{byte(len(t.seen))})
}
