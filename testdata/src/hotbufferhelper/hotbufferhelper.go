// Package hotbufferhelper holds buffers handed to helpers of their package,
// the shape of merkledb's hashChangedNode: a key buffer made per node,
// written by a helper, read through an unsafe string view as a map key, in a
// function that hashes through a wrapper (calculateID returns hashNode's
// sum). What the helpers do with the buffer decides: one that only writes it
// or returns a view of it keeps it where it is; one that keeps it does not.
package hotbufferhelper

import (
	"crypto/sha256"
	"encoding/hex"
	"unsafe"
)

type key struct {
	value string
	bits  int
}

type node struct {
	key      []byte
	children map[byte]*node
	id       [32]byte
}

type view struct {
	changed map[key]*node
	kept    [][]byte
	index   map[key]bool
}

// extendInto writes ext into buffer at offset: it only writes the buffer.
func extendInto(buffer, ext []byte, offset int) { copy(buffer[offset:], ext) }

// byteView is a string that shares the buffer's bytes.
func byteView(bs []byte) string { return unsafe.String(unsafe.SliceData(bs), len(bs)) }

func hashNode(n *node) [32]byte { return sha256.Sum256(n.key) }

// calculateID hashes through hashNode: a wrapper is hashing code too.
func (n *node) calculateID() [32]byte { return hashNode(n) }

// hashChanged is merkledb's shape: reported, with the stack array fix.
func (v *view) hashChanged(n *node) [32]byte {
	longest := 0
	for _, c := range n.children {
		longest = max(longest, len(c.key))
	}
	keyBuffer := make([]byte, len(n.key)+1+longest) // want `hot-buffer: make\(\[\]byte, len\(n.key\) \+ 1 \+ longest\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) on every call of hashChanged, which is hot \(recursive: hashChanged → hashChanged\); automatic fix: back keyBuffer by a 128-byte array on the stack, and make it only when larger`
	copy(keyBuffer, n.key)
	for index, c := range n.children {
		keyBuffer[len(n.key)] = index
		extendInto(keyBuffer, c.key, len(n.key)+1)
		k := keyBuffer[:len(n.key)+1+len(c.key)]
		if changed, ok := v.changed[key{value: byteView(k), bits: 8 * len(k)}]; ok {
			c.id = v.hashChanged(changed)
		}
	}
	return n.calculateID()
}

// keep stores the buffer: it outlives the call.
func (v *view) keep(b []byte) { v.kept = append(v.kept, b) }

// hashKept hands its buffer to keep: not reported, the buffer is meant to
// outlive the call.
func (v *view) hashKept(n *node) [32]byte {
	buf := make([]byte, len(n.key)+1)
	copy(buf, n.key)
	v.keep(buf)
	for _, c := range n.children {
		v.hashKept(c)
	}
	return n.calculateID()
}

// hashIndexed stores a view of its buffer as a map key: not reported.
func (v *view) hashIndexed(n *node) [32]byte {
	buf := make([]byte, len(n.key)+1)
	copy(buf, n.key)
	v.index[key{value: byteView(buf)}] = true
	for _, c := range n.children {
		v.hashIndexed(c)
	}
	return n.calculateID()
}

func tree() (*view, *node) {
	long := make([]byte, 40)
	leaf := &node{key: append(append([]byte{}, long...), 1)}
	root := &node{key: long, children: map[byte]*node{1: {key: []byte{}}}}
	v := &view{changed: map[key]*node{}, index: map[key]bool{}}
	k := append(append([]byte{}, long...), 1)
	v.changed[key{value: string(k), bits: 8 * len(k)}] = leaf
	return v, root
}

// The tree is built once; the cases hash it.
var tv, troot = tree()

func CaseChanged() { tv.hashChanged(troot) }

func ResultChanged() string {
	id := tv.hashChanged(troot)
	return hex.EncodeToString(id[:])
}

// Kept and indexed buffers really allocate, and are meant to: no case
// measures them, the analysis stays silent on them.
var _, _ = tv.hashKept, tv.hashIndexed
