// Package hashing has helpers that hash their arguments, for its importers.
package hashing

import (
	"crypto/hmac"
	"crypto/sha256"
)

// Digest returns the SHA-256 of b.
func Digest(b []byte) [32]byte {
	return sha256.Sum256(b)
}

// Sign returns the HMAC-SHA256 of m under key.
func Sign(key, m []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(m)
	return mac.Sum(nil)
}
