// Package suppress holds code that hashalloc must leave alone.
package suppress

import (
	"bytes"
	"crypto/sha256"
	"io"
	"sync"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta")}
	out   [32]byte
	src   = bytes.NewReader(nil)
)

func CaseIgnoreLine() {
	for _, it := range items {
		h := sha256.New() //hashalloc:ignore
		src.Reset(it)
		io.Copy(h, src)
		h.Sum(out[:0])
	}
}

func CaseIgnoreAbove() {
	for _, it := range items {
		//hashalloc:ignore hasher-alloc -- benchmarked: not worth a pool here
		h := sha256.New()
		src.Reset(it)
		io.Copy(h, src)
		h.Sum(out[:0])
	}
}

func CaseNolint() {
	for _, it := range items {
		h := sha256.New() //nolint:errcheck,hashalloc // reviewed
		src.Reset(it)
		io.Copy(h, src)
		h.Sum(out[:0])
	}
}

// An ignore directive for another category does not hide this one.
func CaseOtherCategory() {
	for _, it := range items {
		h := sha256.New() //hashalloc:ignore hmac-rekey // want `hasher-alloc: sha256.New\(\) escapes`
		src.Reset(it)
		io.Copy(h, src)
		h.Sum(out[:0])
	}
}

// Package-level initializers and init functions run once.
var digests = func() [][]byte {
	var sums [][]byte
	for _, it := range items {
		h := sha256.New()
		src.Reset(it)
		io.Copy(h, src)
		sums = append(sums, h.Sum(nil))
	}
	return sums
}()

var pool = sync.Pool{New: func() any { return sha256.New() }}

func init() {
	for _, it := range items {
		h := sha256.New()
		src.Reset(it)
		io.Copy(h, src)
	}
}
