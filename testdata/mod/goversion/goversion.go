// Package goversion is a Go 1.16 module:
// fixes must not use what Go 1.16 does not have, and the runtime module
// (go 1.21) cannot be required without raising the module's go line.
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
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) once per call of digest \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: the runtime module needs Go 1.21 and this file is go1.16 \(-pool=inline works on it\)\)`
	io.Copy(h, bytes.NewReader(data))
	h.Sum(out[:0])
}

func CaseDigest() { digest() } // want CaseDigest:`allocates 1 time per call: sha256.New\(\) escapes to the heap \(passed to io.Copy\) \(goversion.digest at goversion.go:19\)`
