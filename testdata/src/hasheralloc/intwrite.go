package hasheralloc

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"
)

// sumNode is a node of a Merkle sum tree: its hash commits to its children's
// hashes and to the sum of its leaves (taproot-assets' shape).
type sumNode struct {
	left, right *sumNode
	leaf        [32]byte
	sum         uint64
	level       int8
}

// nodeHash writes the sum with binary.Write, whose io.Writer parameter makes
// the hasher escape; the children's hashes are arrays on the stack, which a
// pooled hasher would make escape too. Written with the hasher's own Write,
// the sum leaves the hasher on the stack.
//
//hashalloc:hot
func (n *sumNode) nodeHash() [32]byte {
	if n.left == nil {
		return n.leaf
	}
	left := n.left.nodeHash()
	right := n.right.nodeHash()
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to binary.Write\) once per call of nodeHash .*; automatic fix: write the integers with h.Write instead of binary.Write, which makes h escape`
	h.Write(left[:])
	h.Write(right[:])
	_ = binary.Write(h, binary.BigEndian, n.sum)
	binary.Write(h, binary.LittleEndian, n.level)
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// checkedHash is its twin that checks binary.Write's error: the Write of the
// hasher returns two results, so the call stays, and the pool would make
// left[:] escape.
//
//hashalloc:hot
func (n *sumNode) checkedHash() ([32]byte, error) {
	var sum [32]byte
	if n.left == nil {
		return n.leaf, nil
	}
	left, err := n.left.checkedHash()
	if err != nil {
		return sum, err
	}
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to binary.Write\) once per call of checkedHash .*; reuse a pooled hasher \(no automatic fix: a pooled hasher would make left\[:\] escape\)`
	h.Write(left[:])
	if err := binary.Write(h, binary.BigEndian, n.sum); err != nil {
		return sum, err
	}
	h.Sum(sum[:0])
	return sum, nil
}

func sumTree() *sumNode {
	leaf := func(b byte, sum uint64) *sumNode { return &sumNode{leaf: [32]byte{b}, sum: sum} }
	return &sumNode{
		left:  &sumNode{left: leaf(1, 10), right: leaf(2, 20), sum: 30, level: 1},
		right: &sumNode{left: leaf(3, 30), right: leaf(4, 40), sum: 70, level: 1},
		sum:   100,
	}
}

var sumRoot = sumTree()

func CaseIntegerWrite() {
	sumRoot.nodeHash()
	sumRoot.checkedHash()
}

func ResultIntegerWrite() string {
	var b strings.Builder
	sum := sumRoot.nodeHash()
	b.WriteString(hex.EncodeToString(sum[:]))
	sum, _ = sumRoot.checkedHash()
	b.WriteString(hex.EncodeToString(sum[:]))
	return b.String()
}
