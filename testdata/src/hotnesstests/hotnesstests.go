// Package hotnesstests checks, under -tests, that a loop in a test or a
// benchmark does not make the code it calls hot.
package hotnesstests

import "golang.org/x/crypto/blake2b"

var out [64]byte

// digest is called in a loop by a test only: not hot.
func digest(b []byte) []byte {
	h, _ := blake2b.New256(nil) // silent: a test's loop is no evidence
	h.Write(b)
	return h.Sum(out[:0])
}
