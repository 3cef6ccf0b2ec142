//go:build !go1.24

package hashsum_test

import (
	"crypto"
	"hash"
)

// sha3Hashes is empty before Go 1.24, which has no crypto/sha3.
var sha3Hashes []crypto.Hash

// sha3Funcs is empty before Go 1.24.
var sha3Funcs map[string]func() hash.Hash
