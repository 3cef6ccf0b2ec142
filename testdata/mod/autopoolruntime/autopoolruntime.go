// Package autopoolruntime is, with -pool=runtime, a module that does not
// require the runtime module: no fix is offered, since the fixed module
// would not build.
package autopoolruntime

import (
	"bytes"
	"crypto/sha256"
	"io"
)

var out [32]byte

//hashalloc:hot
func digest(data []byte) {
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) on every call of digest, which is hot \(marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: -pool=runtime: example.com/autopoolruntime does not require github.com/hashalloc/hashalloc/runtime \(require it, or leave -pool to its default, which declares the pools in the fixed file\)\)`
	io.Copy(h, bytes.NewReader(data))
	h.Sum(out[:0])
}
