package parity

import "crypto/sha256"

// LeafHash hashes a leaf of a Merkle tree behind its domain byte.
func LeafHash(leaves [][]byte) [][32]byte {
	out := make([][32]byte, 0, len(leaves))
	for _, l := range leaves {
		out = append(out, sha256.Sum256(append([]byte{0}, l...)))
	}
	return out
}

// NodeHash hashes two children of a Merkle tree behind their domain byte.
func NodeHash(pairs [][2][]byte) [][32]byte {
	out := make([][32]byte, 0, len(pairs))
	for _, p := range pairs {
		out = append(out, sha256.Sum256(append(append([]byte{1}, p[0]...), p[1]...)))
	}
	return out
}
