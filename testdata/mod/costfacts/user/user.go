// Package user hashes the fields of every key, encoded by enc.
package user

import (
	"crypto/sha256"
	"io"

	"example.com/costfacts/enc"
)

// Thumbprints hashes each key's two encoded fields: the six allocations
// of enc.Field, known from its fact, make the hasher under a tenth of each
// call, so it is not reported.
func Thumbprints(keys [][2][]byte) (n int) { // want Thumbprints:`costs: 7 allocating calls \(enc.Field\)`
	for _, k := range keys {
		n += len(thumbprint(k))
	}
	return n
}

func thumbprint(k [2][]byte) []byte {
	h := sha256.New()
	io.WriteString(h, enc.Field("x", k[0]))
	io.WriteString(h, enc.Field("y", k[1]))
	return h.Sum(nil)
}

// Names hashes each key's names, which enc.Name does not allocate: the
// hasher is each call's allocation.
func Names(keys [][2]string) (n int) { // want Names:`costs: 1 allocating call \(\(hash.Hash\).Sum\)`
	for _, k := range keys {
		n += len(names(k))
	}
	return n
}

func names(k [2]string) []byte {
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.WriteString\) once per call of names, which Names calls once per element of keys \(the loop at user.go:\d+\); automatic fix: take h from a pool of sha256.New hashers`
	io.WriteString(h, enc.Name(k[0]))
	io.WriteString(h, enc.Name(k[1]))
	return h.Sum(nil)
}
