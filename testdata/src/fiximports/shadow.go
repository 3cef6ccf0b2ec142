package fiximports

import (
	"bytes"
	"crypto/sha256"
	"hash"
	"io"
)

// Checksum is a hash.Hash, so that the package hash is used outside copyDigest.
type Checksum hash.Hash

// The parameter hash shadows the package hash where the fix writes.
//
//hashalloc:hot
func copyDigest(hash []byte) {
	h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.Copy\) on every call of copyDigest, which is hot \(marked //hashalloc:hot\); automatic fix: take h from a pool of sha256\.New hashers`
	io.Copy(h, bytes.NewReader(hash))
	h.Sum(out[:0])
}

func CaseShadowed() { copyDigest(leaf) }
