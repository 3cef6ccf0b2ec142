// Package hotbufferhelper holds buffers handed to helpers of their package,
// the shape of merkledb's hashChangedNode: a key buffer made per node,
// written by a helper, read through an unsafe string view as a map key, in a
// function that hashes through a wrapper (calculateID returns hashNode's
// sum). What the helpers do with the buffer decides: one that only writes it
// or returns a view of it keeps it where it is; one that keeps it does not.
package hotbufferhelper

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"hash/crc32"
	"io"
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
	keyBuffer := make([]byte, len(n.key)+1+longest) // want `hot-buffer: make\(\[\]byte, len\(n.key\) \+ 1 \+ longest\) allocates whenever it is larger than 32 bytes \(its size is known only at run time; before Go 1\.25, always\) once per call of hashChanged \(it recurses: hashChanged → hashChanged, once per node it walks\); automatic fix: back keyBuffer by a 128-byte array on the stack, and make it only when larger`
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

// hashReader hashes what it reads, as a log's checksummed reader does.
type hashReader struct {
	r io.Reader
	h hash.Hash32
}

// Read reads into p and hashes what it read: by io's contracts neither the
// reader nor the hasher keeps p, but both are reached through interfaces,
// so p escapes.
func (t *hashReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.h.Write(p[:n])
	return n, err
}

// ReadByte makes a byte's buffer per byte it reads: reported, with no fix,
// as a pool costs more time than allocating a byte; a byte array in the
// reader would pay.
func (t *hashReader) ReadByte() (byte, error) {
	b := make([]byte, 1) // want `hot-buffer: make\(\[\]byte, 1\) escapes to the heap \(passed to \(\*hotbufferhelper.hashReader\).Read\) once per call of ReadByte, which headerSum calls once per iteration \(the loop at hotbufferhelper.go:\d+\); reuse a scratch buffer kept beyond the call \(an array in a field, or one the caller passes\) \(no automatic fix: a pool costs more time than allocating 1 byte\)`
	_, err := t.Read(b)
	return b[0], err
}

// headerSum reads a header byte by byte until its stream ends.
func headerSum(t *hashReader) (n int) {
	for {
		c, err := t.ReadByte()
		if err != nil {
			return n
		}
		n += int(c)
	}
}

// headerReader reads back a header of eight bytes, hashing it.
var headerReader = &hashReader{r: bytes.NewReader(nil), h: crc32.NewIEEE()}

func CaseHeaderSum() {
	headerReader.r.(*bytes.Reader).Reset([]byte("ABCDEFGH"))
	headerSum(headerReader)
}

// readBlock makes a block's buffer of 64 bytes per block it reads: from 64
// bytes a pool pays, and the fix takes the buffer from one.
func (t *hashReader) readBlock() (byte, error) {
	b := make([]byte, 64) // want `hot-buffer: make\(\[\]byte, 64\) escapes to the heap \(passed to \(\*hotbufferhelper.hashReader\).Read\) once per call of readBlock, which blocksSum calls once per iteration \(the loop at hotbufferhelper.go:\d+\); automatic fix: take b from a pool of byte buffers`
	n, err := t.Read(b)
	return b[0] + byte(n), err
}

// blocksSum reads blocks until its stream ends.
func blocksSum(t *hashReader) (n int) {
	for {
		c, err := t.readBlock()
		if err != nil {
			return n
		}
		n += int(c)
	}
}

func CaseBlocksSum() {
	headerReader.r.(*bytes.Reader).Reset(bytes.Repeat([]byte("ABCDEFGH"), 24))
	blocksSum(headerReader)
}

// appender is a log of another package's making: what it keeps is not known.
type appender interface{ Append(p []byte) }

// loggedReader hands what it reads to an appender, which may keep it.
type loggedReader struct {
	r   io.Reader
	log appender
	h   hash.Hash32
}

func (t *loggedReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.log.Append(p[:n])
	t.h.Write(p[:n])
	return n, err
}

// ReadByte's buffer may outlive the call in the log: not reported.
func (t *loggedReader) ReadByte() (byte, error) {
	b := make([]byte, 1)
	_, err := t.Read(b)
	return b[0], err
}

func loggedSum(t *loggedReader) (n int) {
	for {
		c, err := t.ReadByte()
		if err != nil {
			return n
		}
		n += int(c)
	}
}

var _, _ = headerSum, loggedSum
