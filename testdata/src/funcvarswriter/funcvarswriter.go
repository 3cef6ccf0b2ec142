// Package funcvarswriter writes a variable of function type of another
// package: what it holds is not known here, whatever its fact says.
package funcvarswriter

import (
	"bytes"
	"crypto/sha256"

	"example.com/hashing"
)

var (
	prefix = []byte{1}
	left   = bytes.Repeat([]byte{2}, 32)
)

func salted(b []byte) [32]byte { return sha256.Sum256(append(b, 0)) }

func Use() [32]byte {
	hashing.Sum = salted
	return hashing.Sum(append(prefix, left...))
}
