// Package fiximports holds fixes that must edit imports of every shape: a
// file whose only import the fix removes, one that imports a fork of
// crypto/sha256 under another name, a dot import, and a package name shadowed
// where the fix writes it. Each file is one shape.
package fiximports

import "crypto/sha256"

var (
	prefix = []byte{0}
	leaf   = []byte("a leaf of the tree")
	out    [32]byte
)

// The file's only import goes; the runtime's import comes in its place.
func CaseOnlyImport() {
	out = sha256.Sum256(append(prefix, leaf...)) // want `concat-hash: append\(prefix, leaf...\) builds a buffer only to hash it with sha256.Sum256; automatic fix: hash the parts with hashsum\.SHA256`
}
