// Package pinned hashes leaves with a prefix, concatenated only to be
// hashed, in a module that requires an old release of hashalloc's runtime
// module, one without package hashsum. The fix imports hashsum, as the
// runtime module hashalloc ships has it: the analysis, which checks fixes
// against that API, cannot tell; the fixed copy does not build.
package pinned

import "crypto/sha256"

var leafPrefix = []byte{0}

// LeafHash returns SHA-256(0x00 || leaf).
func LeafHash(leaf []byte) []byte {
	sum := sha256.Sum256(append(leafPrefix, leaf...))
	return sum[:]
}
