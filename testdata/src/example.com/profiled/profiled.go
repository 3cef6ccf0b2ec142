// Package profiled has two identical recursive tree hashes, each with a
// hasher per node that escapes through io.Copy. Statically both are hot
// (recursive); the workload in ./workload runs HashHot again and again and
// HashCold once, and the profiles it writes tell them apart.
package profiled

import (
	"bytes"
	"crypto/sha256"
	"io"
)

// Node is a node of a tree of data.
type Node struct {
	Data        []byte
	Left, Right *Node
}

// HashCold is HashHot under another name. It comes first, so that an order
// by share is not the order of the file.
func HashCold(n *Node) []byte {
	if n == nil {
		return nil
	}
	h := sha256.New()
	io.Copy(h, bytes.NewReader(n.Data))
	h.Write(HashCold(n.Left))
	h.Write(HashCold(n.Right))
	return h.Sum(nil)
}

// HashHot hashes the tree at n.
func HashHot(n *Node) []byte {
	if n == nil {
		return nil
	}
	h := sha256.New()
	io.Copy(h, bytes.NewReader(n.Data))
	h.Write(HashHot(n.Left))
	h.Write(HashHot(n.Right))
	return h.Sum(nil)
}

// Tree builds a complete tree of the given depth.
func Tree(depth int, data []byte) *Node {
	if depth == 0 {
		return nil
	}
	return &Node{Data: data, Left: Tree(depth-1, data), Right: Tree(depth-1, data)}
}
