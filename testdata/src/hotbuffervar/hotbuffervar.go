// Package hotbuffervar holds the hot-buffer cases of buffers whose size is
// known only at run time and that do not escape: on the stack up to 32
// bytes (Go 1.25 and later), on the heap above. Every exported func CaseX()
// is measured by the oracle test; the cases use keys of 48 bytes, so that the
// buffers are above 32 bytes and allocate before the fixes. Negatives that
// allocate sit in functions that no case runs.
package hotbuffervar

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
)

var out [sha256.Size]byte

// key48 returns a 48-byte key ending in b.
func key48(b byte) []byte {
	k := bytes.Repeat([]byte{'k'}, 48)
	k[47] = b
	return k
}

// The merkledb seed: a trie node's children are looked up by their full key,
// built in a buffer made per recursive call, as long as the longest child's
// key. The buffer and its slice key never leave the function (a string
// conversion in a map index copies nothing and keeps nothing). The function
// does not hash itself: it calls hashNode, which does.
type node struct {
	key      []byte
	children []*child
}

type child struct {
	index      byte
	compressed []byte
	id         [sha256.Size]byte
}

type trie struct {
	nodes   map[string]*node
	changed map[string]bool
}

func (t *trie) hashChangedNode(n *node) [sha256.Size]byte {
	longest := 0
	for _, c := range n.children {
		longest = max(longest, len(c.compressed))
	}
	keyBuffer := make([]byte, len(n.key)+1+longest) // want `hot-buffer: make\(\[\]byte, len\(n.key\) \+ 1 \+ longest\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1.25, always\) once per call of hashChangedNode \(it recurses: hashChangedNode → hashChangedNode, once per node it walks\); automatic fix: back keyBuffer by a 128-byte array on the stack, and make it only when larger`
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

func hashNode(n *node) [sha256.Size]byte {
	h := sha256.New()
	h.Write(n.key)
	for _, c := range n.children {
		h.Write([]byte{c.index})
		h.Write(c.compressed)
		h.Write(c.id[:])
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// newTrie holds a root, an inner node at a 47-byte key and two leaves under
// it at 48-byte keys: the root's key buffer is 47 bytes long, the inner
// node's 48.
func newTrie() (*trie, *node) {
	k := key48(0)
	leafA, leafB := &node{key: key48('a')}, &node{key: key48('b')}
	inner := &node{key: k[:47], children: []*child{{index: 'a'}, {index: 'b'}}}
	root := &node{children: []*child{{index: 'k', compressed: k[1:47]}}}
	t := &trie{
		nodes:   map[string]*node{"": root, string(k[:47]): inner, string(leafA.key): leafA, string(leafB.key): leafB},
		changed: map[string]bool{"": true, string(k[:47]): true, string(leafA.key): true, string(leafB.key): true},
	}
	return t, root
}

var seedTrie, seedRoot = newTrie()

func CaseTrie() { out = seedTrie.hashChangedNode(seedRoot) }

func ResultTrie() string {
	t, root := newTrie()
	sum := t.hashChangedNode(root)
	return hex.EncodeToString(sum[:])
}

// var buf = make(...) is a definition like buf := make(...). Called in a
// loop, hashing itself into a local hasher (devirtualized: the buffer stays
// off the heap but for its size).
var keys = [][]byte{key48(1), key48(2), key48(3)}

func tagged(k []byte) [sha256.Size]byte {
	var buf = make([]byte, len(k)+1) // want `hot-buffer: make\(\[\]byte, len\(k\) \+ 1\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1.25, always\) once per call of tagged, which CaseVarDecl calls once per .* \(the loop at hotbuffervar.go:\d+\); automatic fix: back buf by a 128-byte array on the stack, and make it only when larger`
	buf[0] = 't'
	copy(buf[1:], k)
	h := sha256.New()
	h.Write(buf)
	h.Write(buf[:1])
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

func CaseVarDecl() {
	for _, k := range keys {
		out = tagged(k)
	}
}

func ResultVarDecl() string {
	var all []byte
	for _, k := range keys {
		sum := tagged(k)
		all = append(all, sum[:]...)
	}
	return hex.EncodeToString(all)
}

// Made in a loop: the array is declared, so zeroed, on every iteration, and
// needs no Put. A buffer larger than the array is still made: 200 bytes
// allocate before and after the fix, 48 bytes only before.
var mixed = [][]byte{key48(4), bytes.Repeat([]byte{'m'}, 200)}

func loopSums() []byte {
	var all []byte
	for _, k := range mixed {
		buf := make([]byte, len(k)+8) // want `hot-buffer: make\(\[\]byte, len\(k\) \+ 8\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1.25, always\) once per .* \(the loop at hotbuffervar.go:\d+\); automatic fix: back buf by a 128-byte array on the stack, and make it only when larger`
		copy(buf[8:], k)
		a, b := sha256.Sum256(buf), sha256.Sum256(buf[8:])
		all = append(append(all, a[:]...), b[:]...)
	}
	return all
}

func CaseLoop() { out[0] = loopSums()[0] }

func ResultLoop() string { return hex.EncodeToString(loopSums()) }

// Reported without a fix: a capacity, a size that is not an int, a var block
// that declares other variables.
func unfixable(k []byte, n uint) {
	grown := make([]byte, 0, len(k)+1) // want `hot-buffer: make\(\[\]byte, 0, len\(k\) \+ 1\) allocates whenever it is larger than 32 bytes .* once per call of unfixable, .*; back it by an array on the stack and make it only when larger \(no automatic fix: the make has a capacity\)`
	grown = append(grown, k...)
	grown = append(grown, 0)
	sized := make([]byte, n) // want `hot-buffer: make\(\[\]byte, n\) allocates whenever .*\(no automatic fix: its size is not an int\)`
	copy(sized, k)
	sized[0] = 's'
	var (
		sum  [sha256.Size]byte
		tag  = make([]byte, len(k)) // want `hot-buffer: make\(\[\]byte, len\(k\)\) allocates whenever .*\(no automatic fix: a variable declared after it in the same block reads it\)`
		head = tag[:1]
	)
	copy(tag, k)
	head[0] = 'h'
	var (
		width = sizeOf(k)
		wide  = make([]byte, width+sizeOf(k)) // want `hot-buffer: make\(\[\]byte, width \+ sizeOf\(k\)\) allocates whenever .*\(no automatic fix: it is declared with other variables and its size calls a function\)`
	)
	copy(wide, k)
	if len(k) > 0 {
		k := make([]byte, len(k)) // want `hot-buffer: make\(\[\]byte, len\(k\)\) allocates whenever .*\(no automatic fix: its size mentions k\)`
		k[0] = 'k'
		out = sha256.Sum256(k)
		out = sha256.Sum256(k[1:])
	}
	h := sha256.New()
	h.Write(grown)
	h.Write(sized)
	h.Write(tag)
	h.Write(tag[1:])
	h.Write(wide)
	h.Write(wide[1:])
	h.Sum(sum[:0])
	out = sum
}

func sizeOf(k []byte) int { return len(k) }

// blockKey declares its key buffer in a var block with other variables, as
// merkledb's hashChangedNode did before its pull request: the buffer is set
// after the block.
func blockKey(k []byte) [32]byte {
	var (
		longest   = len(k) + 8
		keyBuffer = make([]byte, longest) // want `hot-buffer: make\(\[\]byte, longest\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) once per call of blockKey, which blockKeys calls once per .* \(the loop at hotbuffervar\.go:\d+\); automatic fix: back keyBuffer by a 128-byte array on the stack, and make it only when larger`
		child     = make([]byte, 1)
		offset    = len(k)
	)
	copy(keyBuffer, k)
	child[0] = byte(offset)
	keyBuffer[offset] = child[0]
	return sha256.Sum256(keyBuffer)
}

func blockKeys() []byte {
	var all []byte
	for _, k := range mixed {
		s := blockKey(k)
		all = append(all, s[:]...)
	}
	return all
}

func CaseBlock() { out[0] = blockKeys()[0] }

func ResultBlock() string { return hex.EncodeToString(blockKeys()) }

func CaseUnfixable() {
	for _, k := range keys {
		unfixable(k, 40)
	}
}

// ---- Negative cases: not reported. ----

// The buffer leaves the function: returned, returned through a slice of it,
// through a named result (a bare return), stored in a field, passed through
// an alias to a function that may keep it.
type holder struct{ last []byte }

var held holder

func keep(b []byte) { held.last = b }

func leaves(k []byte) (named, sliced []byte) {
	a := make([]byte, len(k))
	sliced = a[1:]
	b := make([]byte, len(k))
	named = b[:len(k)-1]
	c := make([]byte, len(k))
	held.last = c
	d := make([]byte, len(k))
	alias := d[2:]
	keep(alias)
	out = sha256.Sum256(k)
	return
}

func returns(k []byte) []byte {
	r := make([]byte, len(k))
	copy(r, k)
	key := r[:len(k)-1]
	out = sha256.Sum256(key)
	return key
}

// A hot function that does not hash, nor calls a function that does.
func notHashing(k []byte) int {
	buf := make([]byte, len(k)+1)
	copy(buf, k)
	n := 0
	for _, c := range buf {
		n += int(c)
	}
	return n
}

// Two calls above the hashing: not hashing code (one call deep only).
func twoAbove(k []byte) {
	buf := make([]byte, len(k)+1)
	copy(buf, k)
	oneAbove(buf[0])
}

func oneAbove(b byte) { out = hashByte(b) }

func hashByte(b byte) [sha256.Size]byte { return sha256.Sum256([]byte{b}) }

// cold: one allocation per call of a function that nothing calls in a loop.
func cold(k []byte) [sha256.Size]byte {
	buf := make([]byte, len(k)+1)
	copy(buf, k)
	return sha256.Sum256(buf[1:])
}

func callers() {
	for _, k := range keys {
		leaves(k)
		returns(k)
		notHashing(k)
		twoAbove(k)
	}
}

var _ = callers
