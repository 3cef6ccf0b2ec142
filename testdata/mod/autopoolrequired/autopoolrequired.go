// Package autopoolrequired is a module that requires the runtime module: by
// default its fixes take the runtime module's pools.
package autopoolrequired

import (
	"bytes"
	"crypto/sha256"
	"io"
)

var out [32]byte

//hashalloc:hot
func digest(data []byte) {
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) on every call of digest, which is hot \(marked //hashalloc:hot\); automatic fix: take h from a pool of sha256\.New hashers`
	io.Copy(h, bytes.NewReader(data))
	h.Sum(out[:0])
}
