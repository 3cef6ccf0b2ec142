// Package merkle builds RFC 6962 Merkle trees over byte slices, recursively
// and iteratively, and proves and verifies inclusion. It is written the way
// many Merkle packages are (the shape of cometbft's crypto/merkle): every
// leaf and inner hash appends its parts to a prefix and hashes the result,
// allocating a buffer that is dropped at once. hashalloc's concat-hash check
// finds and rewrites those concatenations.
package merkle

import (
	"crypto/sha256"
	"math/bits"
)

// Domain separation prefixes of RFC 6962: a leaf hash can never be taken for
// an inner node hash.
var (
	leafPrefix  = []byte{0}
	innerPrefix = []byte{1}
)

// Size is the size of every hash this package returns.
const Size = sha256.Size

// sum returns the SHA-256 of bz.
func sum(bz []byte) []byte {
	h := sha256.Sum256(bz)
	return h[:]
}

func emptyHash() []byte { return sum([]byte{}) }

// leafHash returns SHA-256(0x00 || leaf).
func leafHash(leaf []byte) []byte {
	return sum(append(leafPrefix, leaf...))
}

// innerHash returns SHA-256(0x01 || left || right).
func innerHash(left, right []byte) []byte {
	return sum(append(innerPrefix, append(left, right...)...))
}

// splitPoint returns the largest power of two smaller than n (n > 1).
func splitPoint(n int) int {
	return 1 << (bits.Len(uint(n-1)) - 1)
}

// HashFromByteSlices returns the root of the Merkle tree over items.
func HashFromByteSlices(items [][]byte) []byte {
	switch len(items) {
	case 0:
		return emptyHash()
	case 1:
		return leafHash(items[0])
	default:
		k := splitPoint(len(items))
		left := HashFromByteSlices(items[:k])
		right := HashFromByteSlices(items[k:])
		return innerHash(left, right)
	}
}

// HashFromByteSlicesIterative returns the same root as HashFromByteSlices
// without recursion: it keeps a stack of complete subtrees, merging two of
// the same height as soon as they meet, then folds the rest from the right.
func HashFromByteSlicesIterative(items [][]byte) []byte {
	if len(items) == 0 {
		return emptyHash()
	}
	type subtree struct {
		hash   []byte
		leaves int
	}
	stack := make([]subtree, 0, bits.Len(uint(len(items)))+1)
	for _, item := range items {
		t := subtree{leafHash(item), 1}
		for len(stack) > 0 && stack[len(stack)-1].leaves == t.leaves {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			t = subtree{innerHash(top.hash, t.hash), top.leaves + t.leaves}
		}
		stack = append(stack, t)
	}
	root := stack[len(stack)-1].hash
	for i := len(stack) - 2; i >= 0; i-- {
		root = innerHash(stack[i].hash, root)
	}
	return root
}

// Proof proves that a leaf is at Index in a tree of Total leaves: Aunts are
// the hashes of the sibling subtrees from the leaf up to the root.
type Proof struct {
	Index, Total int
	Aunts        [][]byte
}

// ProveInclusion returns the root of the tree over items and the proof that
// items[index] is in it.
func ProveInclusion(items [][]byte, index int) (root []byte, proof Proof) {
	proof = Proof{Index: index, Total: len(items)}
	return prove(items, index, &proof.Aunts), proof
}

// prove returns the root over items, appending the aunts of items[index]
// from the bottom up.
func prove(items [][]byte, index int, aunts *[][]byte) []byte {
	if len(items) == 1 {
		return leafHash(items[0])
	}
	k := splitPoint(len(items))
	if index < k {
		left := prove(items[:k], index, aunts)
		right := HashFromByteSlices(items[k:])
		*aunts = append(*aunts, right)
		return innerHash(left, right)
	}
	left := HashFromByteSlices(items[:k])
	right := prove(items[k:], index-k, aunts)
	*aunts = append(*aunts, left)
	return innerHash(left, right)
}

// Verify reports whether leaf is at p.Index in the tree with the given root.
func (p Proof) Verify(root, leaf []byte) bool {
	if p.Index < 0 || p.Index >= p.Total {
		return false
	}
	h, ok := rootFromAunts(leafHash(leaf), p.Index, p.Total, p.Aunts)
	return ok && string(h) == string(root)
}

// rootFromAunts climbs from the hash of the leaf at index in a tree of total
// leaves to the root, with the aunts from the bottom up.
func rootFromAunts(h []byte, index, total int, aunts [][]byte) ([]byte, bool) {
	if total == 1 {
		return h, len(aunts) == 0
	}
	if len(aunts) == 0 {
		return nil, false
	}
	aunt, rest := aunts[len(aunts)-1], aunts[:len(aunts)-1]
	k := splitPoint(total)
	if index < k {
		left, ok := rootFromAunts(h, index, k, rest)
		return innerHash(left, aunt), ok
	}
	right, ok := rootFromAunts(h, index-k, total-k, rest)
	return innerHash(aunt, right), ok
}
