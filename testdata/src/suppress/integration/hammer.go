// Package integration is test support by its directory's name: a load
// generator that submits entries to a live log and hashes each one, as
// certificate-transparency-go's trillian/integration hammer does. Nothing is
// reported here without -tests.
package integration

import "crypto/sha256"

var sums [][32]byte

// Submit hashes every entry it submits, a round trip per entry.
func Submit(entries [][]byte) {
	for _, e := range entries {
		sums = append(sums, sha256.Sum256(append([]byte{0}, e...)))
	}
}
