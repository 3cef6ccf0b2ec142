//go:build go1.24

package hashpool

import (
	"crypto/sha3"
	"hash"
)

// Ready-made pools of the SHA-3 hashers, whose package crypto/sha3 came with
// Go 1.24. This file is built only by Go 1.24 and later, so that the module
// keeps working with older toolchains.
var (
	SHA3_224 = New(func() hash.Hash { return sha3.New224() }) // SHA3-224 (crypto/sha3)
	SHA3_256 = New(func() hash.Hash { return sha3.New256() }) // SHA3-256 (crypto/sha3)
	SHA3_384 = New(func() hash.Hash { return sha3.New384() }) // SHA3-384 (crypto/sha3)
	SHA3_512 = New(func() hash.Hash { return sha3.New512() }) // SHA3-512 (crypto/sha3)
)
