package fiximports

import "crypto/sha256"
import "crypto/sha512"

var out512 [64]byte

// Two single import declarations, each imported for one of two fixes that
// both import hashsum: the fixes remove both declarations and add one.
//
//hashalloc:hot
func CaseTwoDeclarations() {
	out = sha256.Sum256(append(prefix, leaf...))    // want `concat-hash: append\(prefix, leaf...\) builds a buffer only to hash it with sha256.Sum256 once per call of CaseTwoDeclarations \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	out512 = sha512.Sum512(append(prefix, leaf...)) // want `concat-hash: append\(prefix, leaf...\) builds a buffer only to hash it with sha512.Sum512 once per call of CaseTwoDeclarations \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA512`
}
