// Package treehash computes Merkle tree hashes as RFC 6962 (Certificate
// Transparency) defines them, with SHA-256:
//
//	MTH({})      = SHA-256()
//	MTH({d0})    = SHA-256(0x00 || d0)
//	MTH(D[0:n])  = SHA-256(0x01 || MTH(D[0:k]) || MTH(D[k:n]))
//
// where k is the largest power of two smaller than n. The 0x00 and 0x01
// prefixes keep a leaf hash from ever being mistaken for an inner node hash.
//
// The code is written the naive way on purpose: it allocates a hasher per
// recursive call or per leaf, which hashalloc reports as hasher-alloc and
// rewrites (see cmd/hashalloc/main_test.go, which fixes a copy of it and runs
// its tests).
package treehash

import (
	"crypto"
	"crypto/sha256"
	"io"
)

// Domain separation prefixes of RFC 6962, section 2.1.
const (
	leafPrefix = 0x00
	nodePrefix = 0x01
)

// The prefixes as byte slices, for hashers that are not kept on the stack.
var (
	leafPrefixBytes = []byte{leafPrefix}
	nodePrefixBytes = []byte{nodePrefix}
)

// Size is the size of every hash this package returns.
const Size = sha256.Size

// Root returns the Merkle tree hash of leaves.
func Root(leaves [][]byte) []byte {
	if len(leaves) == 0 {
		sum := sha256.Sum256(nil)
		return sum[:]
	}
	return hashNode(leaves)
}

// hashNode returns the hash of the subtree over leaves, which is not empty.
func hashNode(leaves [][]byte) []byte {
	h := crypto.SHA256.New()
	if len(leaves) == 1 {
		h.Write([]byte{leafPrefix})
		h.Write(leaves[0])
		return h.Sum(nil)
	}
	k := split(len(leaves))
	left := hashNode(leaves[:k])
	right := hashNode(leaves[k:])
	h.Write([]byte{nodePrefix})
	h.Write(left)
	h.Write(right)
	return h.Sum(nil)
}

// LeafHashes returns the leaf hash SHA-256(0x00 || content) of each leaf, in
// order, reading each leaf to its end.
func LeafHashes(leaves []io.Reader) ([][]byte, error) {
	sums := make([][]byte, 0, len(leaves))
	for _, r := range leaves {
		h := sha256.New()
		h.Write([]byte{leafPrefix})
		if _, err := io.Copy(h, r); err != nil {
			return nil, err
		}
		sums = append(sums, h.Sum(nil))
	}
	return sums, nil
}

// RootOfReaders returns the Merkle tree hash of the leaves that the readers
// hold, reading each to its end, without holding any leaf in memory.
func RootOfReaders(leaves []io.Reader) ([]byte, error) {
	if len(leaves) == 0 {
		sum := sha256.Sum256(nil)
		return sum[:], nil
	}
	return hashStream(leaves)
}

// hashStream returns the hash of the subtree over leaves, which is not empty.
func hashStream(leaves []io.Reader) ([]byte, error) {
	h := sha256.New()
	if len(leaves) == 1 {
		h.Write(leafPrefixBytes)
		if _, err := io.Copy(h, leaves[0]); err != nil {
			return nil, err
		}
		return h.Sum(nil), nil
	}
	k := split(len(leaves))
	left, err := hashStream(leaves[:k])
	if err != nil {
		return nil, err
	}
	right, err := hashStream(leaves[k:])
	if err != nil {
		return nil, err
	}
	h.Write(nodePrefixBytes)
	h.Write(left)
	h.Write(right)
	return h.Sum(nil), nil
}

// split returns the largest power of two smaller than n, for n > 1.
func split(n int) int {
	k := 1
	for k<<1 < n {
		k <<= 1
	}
	return k
}
