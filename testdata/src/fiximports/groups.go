package fiximports

import (
	"crypto"
	"crypto/sha256"
	_ "crypto/sha512" // linked, as crypto.SHA512.New needs it
)

// Two fixes change the imports: one replaces crypto with crypto/sha512, which
// goes at the end of the standard library's group, the other hashes the parts
// of a concatenation (crypto/sha256 stays, for the other sum). Applied
// together, in either order, crypto/sha512 stays in the standard library's
// group, before any group the other fix starts.
//
//hashalloc:hot
func CaseGroups() {
	out = sha256.Sum256(append(prefix, leaf...)) // want `concat-hash: append\(prefix, leaf...\) builds a buffer only to hash it with sha256.Sum256 once per call of CaseGroups \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
	h := crypto.SHA512.New()                     // want `hasher-alloc: crypto.SHA512.New\(\) always allocates its hasher once per call of CaseGroups \(it is marked //hashalloc:hot\); automatic fix: call sha512\.New directly`
	h.Write(leaf)
	h.Sum(sum[:0])
	out = sha256.Sum256(leaf)
}
