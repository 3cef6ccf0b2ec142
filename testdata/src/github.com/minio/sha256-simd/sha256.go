// Package sha256 stands in for github.com/minio/sha256-simd in the testdata:
// the same API, computed by crypto/sha256.
package sha256

import (
	"crypto/sha256"
	"hash"
)

// Sum256 returns the SHA-256 digest of data.
func Sum256(data []byte) [32]byte { return sha256.Sum256(data) }

// New returns a new SHA-256 hasher.
func New() hash.Hash { return sha256.New() }
