//go:build go1.24

package hashsum_test

import (
	"crypto"
	"crypto/sha3"
	"hash"
)

// sha3Hashes are the SHA-3 hashes, which crypto/sha3 has from Go 1.24.
var sha3Hashes = []crypto.Hash{crypto.SHA3_224, crypto.SHA3_256, crypto.SHA3_384, crypto.SHA3_512}

// sha3Funcs are SHA-3 hash functions, whose block sizes (136 bytes for
// SHA3-256) are not powers of two.
var sha3Funcs = map[string]func() hash.Hash{
	"sha3-256": func() hash.Hash { return sha3.New256() },
	"sha3-512": func() hash.Hash { return sha3.New512() },
}
