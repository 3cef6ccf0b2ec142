package sumalloc

import "crypto/sha256"

// Node is a tree node's 32-byte hash.
type Node [32]byte

// computeNode returns the digest only for its callers to copy: every call
// dereferences it at once.
func computeNode(l, r *Node) *Node {
	sha := sha256.New()
	sha.Write(l[:])
	sha.Write(r[:])
	digest := sha.Sum(nil) // want `sum-alloc: sha.Sum\(nil\) allocates its result once per call of computeNode, which CaseNodeCopied calls once per element of level\[1:\] \(the loop at returned.go:\d+\), only to be copied by every caller of computeNode, which copies what it points to; automatic fix: return the digest by value from computeNodeValue, which computeNode wraps`
	return truncate((*Node)(digest))
}

// truncate clears the top bits of n and returns it.
func truncate(n *Node) *Node {
	n[31] &= 0x3f
	return n
}

var level = []Node{{1}, {2}, {3}, {4}}

func CaseNodeCopied() {
	carry := level[0]
	for _, n := range level[1:] {
		carry = *computeNode(&carry, &n)
	}
	outNode = carry
	n := computeNode(&carry, &carry)
	store(0, n)
	keep()
	outNode = *ExportedNode(&carry, &carry)
}

var outNode Node

// CaseNodeOnce copies one node: after the fixes, it allocates nothing, as
// computeNode, inlined, leaves the worker's result on this stack.
func CaseNodeOnce() {
	outNode = *computeNode(&level[0], &level[1])
}

// CaseNodeRejected runs the shapes that are reported without the fix.
func CaseNodeRejected() {
	for i := range level {
		outNode = *nodeOrNil(&level[i])
		outNode = *hashNode(&level[i])
		outNode = *nodeFunc(&level[i])
	}
}

// nodeFunc's value is taken: a caller of that value may keep the pointer.
func nodeFunc(l *Node) *Node {
	sha := sha256.New()
	sha.Write(l[:])
	return (*Node)(sha.Sum(nil))
}

var nodeFuncs = []func(*Node) *Node{nodeFunc}

// nodeOrNil returns nil for a nil node too: the worker could return only
// the digest.
func nodeOrNil(l *Node) *Node {
	if l == nil {
		return nil
	}
	sha := sha256.New()
	sha.Write(l[:])
	return (*Node)(sha.Sum(nil)) // want `sum-alloc: sha.Sum\(nil\) allocates its result once per call of nodeOrNil, .*\(no automatic fix: nodeOrNil has several returns\)`
}

// hashNode's worker would be hashNodeValue, which the package declares.
func hashNode(l *Node) *Node {
	sha := sha256.New()
	sha.Write(l[:])
	return (*Node)(sha.Sum(nil)) // want `sum-alloc: sha.Sum\(nil\) allocates its result once per call of hashNode, .*\(no automatic fix: the name hashNodeValue, which the worker would take, is used in the package\)`
}

// hashNodeValue takes the name of hashNode's worker.
func hashNodeValue(l *Node) Node { return *l }

// computeLeaf is computeNode's shape with a caller in another file
// (go-data-segment's computeNode, called from hybridtree.go): the fix keeps
// computeLeaf as it is called, so that file is left as it is.
func computeLeaf(b *Node) *Node {
	sha := sha256.New()
	sha.Write(b[:])
	digest := sha.Sum(nil) // want `sum-alloc: sha.Sum\(nil\) allocates its result once per call of computeLeaf, which CaseLeafCopied calls once per element of level \(the loop at returnedcaller.go:\d+\), only to be copied by every caller of computeLeaf, which copies what it points to; automatic fix: return the digest by value from computeLeafValue, which computeLeaf wraps`
	return (*Node)(digest)
}

// The negative cases, which CaseNodeCopied runs next to the positive one.

// store copies what n points to.
func store(i int, n *Node) { level[i] = *n }

// A caller keeps the pointer: the digest outlives the call.
func keptNode(l, r *Node) *Node {
	sha := sha256.New()
	sha.Write(l[:])
	sha.Write(r[:])
	return (*Node)(sha.Sum(nil))
}

var keptNodes = []*Node{}

func keep() {
	for i := range level {
		keptNodes = append(keptNodes, keptNode(&level[i], &level[i]))
	}
	outNode = *keptNode(&level[0], &level[1])
	held := keptNode(&level[1], &level[2])
	hold(held)
}

var holder *Node

// hold keeps n itself.
func hold(n *Node) { holder = n }

// An exported function's callers are not all seen.
func ExportedNode(l, r *Node) *Node {
	sha := sha256.New()
	sha.Write(l[:])
	sha.Write(r[:])
	return (*Node)(sha.Sum(nil))
}
