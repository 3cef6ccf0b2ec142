//go:build go1.24

package hashsum_test

import "crypto"

// sha3Hashes are the SHA-3 hashes, which crypto/sha3 has from Go 1.24.
var sha3Hashes = []crypto.Hash{crypto.SHA3_224, crypto.SHA3_256, crypto.SHA3_384, crypto.SHA3_512}
