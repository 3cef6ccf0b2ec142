// Package redeclare hashes leaves with a prefix, concatenated only to be
// hashed. The fix declares a multi-part sum under a name that is free in
// the package, but not in its tests, which hashalloc does not load: the
// fixed copy's tests do not build.
package redeclare

import "crypto/sha256"

var leafPrefix = []byte{0}

// LeafHash returns SHA-256(0x00 || leaf).
func LeafHash(leaf []byte) []byte {
	sum := sha256.Sum256(append(leafPrefix, leaf...))
	return sum[:]
}
