package blake2b

import (
	"crypto/sha256"
	"errors"
	"hash"
)

// New returns a hasher of size bytes keyed by key, and an error when size is
// not between 1 and 64 or key is longer than 64 bytes, as the real one does.
//
//go:noinline
func New(size int, key []byte) (hash.Hash, error) {
	if size < 1 || size > 64 || len(key) > 64 {
		return nil, errors.New("blake2b: invalid size or key")
	}
	return &digest{sha256.New()}, nil
}
