// Package parity holds fixes of every kind that the entry points must apply
// alike: fixes that add imports the package does not have, and several
// fixes in one file.
package parity

import (
	"crypto/hmac"
	"crypto/sha256"
)

// Signer signs messages with a key that is fixed for each Signer.
type Signer struct {
	key []byte
}

// Sign returns the MAC of m.
func (s *Signer) Sign(m []byte) []byte {
	mac := hmac.New(sha256.New, s.key)
	mac.Write(m)
	return mac.Sum(nil)
}
