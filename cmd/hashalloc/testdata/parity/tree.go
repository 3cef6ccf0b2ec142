package parity

import "crypto/sha256"
import "crypto/sha512"

// Leaves hashes each leaf behind the prefix.
func Leaves(prefix []byte, leaves [][]byte) [][32]byte {
	out := make([][32]byte, 0, len(leaves))
	for _, leaf := range leaves {
		out = append(out, sha256.Sum256(append(prefix, leaf...)))
	}
	return out
}

// Pairs hashes each pair behind the prefix.
func Pairs(prefix []byte, pairs [][2][]byte) [][64]byte {
	out := make([][64]byte, 0, len(pairs))
	for _, p := range pairs {
		out = append(out, sha512.Sum512(append(append(prefix, p[0]...), p[1]...)))
	}
	return out
}
