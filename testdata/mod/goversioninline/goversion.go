// Package goversioninline is, with -pool=inline, a file of a Go 1.16 module, as its build line says:
// fixes must not use what Go 1.16 does not have, and the runtime module
// (go 1.21) cannot be required without raising the module's go line.
package goversioninline

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
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) on every call of digest, which is hot \(marked //hashalloc:hot\); automatic fix: take h from a pool of sha256\.New hashers`
	io.Copy(h, bytes.NewReader(data))
	h.Sum(out[:0])
}

func CaseDigest() { digest() } // want CaseDigest:`allocates 1 time per call: sha256.New\(\) escapes to the heap \(passed to io.Copy\) \(goversioninline.digest at goversion.go:19\)`
