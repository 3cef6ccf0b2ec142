package fiximportsinline

import (
	"crypto/sha256"

	simd "github.com/minio/sha256-simd"
)

// A fork of crypto/sha256 imported under another name, next to crypto/sha256.
//
//hashalloc:hot
func CaseAliased() {
	out = simd.Sum256(append(prefix, leaf...)) // want `concat-hash: append\(prefix, leaf...\) builds a buffer only to hash it with github.com/minio/sha256-simd.Sum256 once per call of CaseAliased \(it is marked //hashalloc:hot\); automatic fix: hash the parts with a multi-part simd\.Sum256 declared in this file`
	out = sha256.Sum256(leaf)
}
