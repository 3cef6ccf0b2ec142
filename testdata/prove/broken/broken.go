// Package broken has a benchmark that does not compile: the copy of the
// module cannot run it.
package broken

import "crypto/sha256"

// Sum returns the SHA-256 of b.
func Sum(b []byte) [32]byte { return sha256.Sum256(b) }
