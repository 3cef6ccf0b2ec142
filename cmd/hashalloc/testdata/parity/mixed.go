package parity

import (
	"crypto/sha256"
	"io"
)

// Digests hashes each reader.
func Digests(rs []io.Reader) [][]byte {
	var sums [][]byte
	for _, r := range rs {
		h := sha256.New()
		if _, err := io.Copy(h, r); err != nil {
			return nil
		}
		sums = append(sums, h.Sum(nil))
	}
	return sums
}

// Inner hashes each pair of children with a domain byte.
func Inner(pairs [][2][]byte) [][32]byte {
	out := make([][32]byte, 0, len(pairs))
	for _, p := range pairs {
		out = append(out, sha256.Sum256(append(append([]byte{1}, p[0]...), p[1]...)))
	}
	return out
}

// Leaf hashes each leaf with a domain byte.
func Leaf(leaves [][]byte) [][32]byte {
	out := make([][32]byte, 0, len(leaves))
	for _, l := range leaves {
		out = append(out, sha256.Sum256(append([]byte{0}, l...)))
	}
	return out
}
