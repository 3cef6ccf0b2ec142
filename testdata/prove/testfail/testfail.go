// Package testfail digests messages with a hasher that crypto.SHA256.New()
// allocates on every call. Its tests pin that allocation down, so the fix
// that removes it makes them fail.
package testfail

import (
	"crypto"
	_ "crypto/sha256"
)

// Digest returns the SHA-256 of msg.
func Digest(msg []byte) []byte {
	h := crypto.SHA256.New()
	h.Write(msg)
	return h.Sum(nil)
}
