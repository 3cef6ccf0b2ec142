// Package reserved hashes leaves with a prefix, concatenated only to be
// hashed. The fix declares a sum of parts under a name free in the package
// and in its tests and its files for other platforms, which the analysis of
// the package does not see: they declare sha256Parts and sha256Parts2.
package reserved

import "crypto/sha256"

var leafPrefix = []byte{0}

// LeafHash returns SHA-256(0x00 || leaf).
func LeafHash(leaf []byte) []byte {
	sum := sha256.Sum256(append(leafPrefix, leaf...)) // want `concat-hash: append\(leafPrefix, leaf...\) builds a buffer only to hash it with sha256.Sum256 once per call of LeafHash`
	return sum[:]
}
