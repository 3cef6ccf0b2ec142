package fiximportsinline

import . "crypto/md5"

var out16 [16]byte

// A dot import that the fix leaves unused goes.
func CaseDotImport() {
	out16 = Sum(append(prefix, leaf...)) // want `concat-hash: append\(prefix, leaf...\) builds a buffer only to hash it with md5.Sum; automatic fix: hash the parts with a multi-part Sum declared in this file`
}
