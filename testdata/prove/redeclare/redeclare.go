// Package redeclare hashes leaves with a prefix, concatenated only to be
// hashed. With -pool=inline the fix declares a multi-part sum, under a name
// that its tests, which the analysis of the package does not load, do not
// declare already.
package redeclare

import "crypto/sha256"

var leafPrefix = []byte{0}

// LeafHash returns SHA-256(0x00 || leaf).
func LeafHash(leaf []byte) []byte {
	sum := sha256.Sum256(append(leafPrefix, leaf...))
	return sum[:]
}
