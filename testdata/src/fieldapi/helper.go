package fieldapi

import "crypto/sha256"

var prefix = []byte{0}

// Digest is an exported helper that hashes one buffer: the variadic form a
// fix declares next to it is unexported.
func Digest(b []byte) []byte { // want Digest:`hashes parameter 0`
	s := sha256.Sum256(b)
	return s[:]
}

// Leaf hashes a leaf behind its prefix.
func Leaf(leaf []byte) []byte {
	return Digest(append(prefix, leaf...)) // want `concat-hash: append\(prefix, leaf...\) builds a buffer only to hash it with Digest; automatic fix: hash the parts with a variadic form of Digest, declared next to it`
}

// CaseLeaf hashes leaves.
func CaseLeaf() {
	for _, l := range [][]byte{{1}, {2}} {
		_ = Leaf(l)
	}
}
