// Package goversion is, with -pool=runtime, a Go 1.16 module: it cannot require
// the runtime module (go 1.21) without raising its go line, so the fixes declare
// their pools in the file, as -pool=inline does, with what Go 1.16 has.
package goversion

import (
	"bytes"
	"crypto/sha256"
	"io"
)

var (
	data = []byte("data")
	out  [32]byte
)

//hashalloc:hot
func digest() {
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) once per call of digest \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of sha256\.New hashers`
	io.Copy(h, bytes.NewReader(data))
	h.Sum(out[:0])
}

func CaseDigest() { digest() } // want CaseDigest:`allocates 1 time per call: sha256.New\(\) escapes to the heap \(passed to io.Copy\) \(goversion.digest at goversion.go:19\)`
