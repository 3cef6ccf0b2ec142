//go:build go1.24

package hashsum_test

import (
	"crypto/sha3"

	"github.com/hashalloc/hashalloc/runtime/hashsum"
)

func init() {
	sums = append(sums,
		sumCase{"SHA3_224", func(p ...[]byte) []byte { s := hashsum.SHA3_224(p...); return s[:] }, func(d []byte) []byte { s := sha3.Sum224(d); return s[:] }},
		sumCase{"SHA3_256", func(p ...[]byte) []byte { s := hashsum.SHA3_256(p...); return s[:] }, func(d []byte) []byte { s := sha3.Sum256(d); return s[:] }},
		sumCase{"SHA3_384", func(p ...[]byte) []byte { s := hashsum.SHA3_384(p...); return s[:] }, func(d []byte) []byte { s := sha3.Sum384(d); return s[:] }},
		sumCase{"SHA3_512", func(p ...[]byte) []byte { s := hashsum.SHA3_512(p...); return s[:] }, func(d []byte) []byte { s := sha3.Sum512(d); return s[:] }},
	)
	zeroAllocCalls["SHA3_224"] = func() { var a, b [32]byte; sink28 = hashsum.SHA3_224(a[:], b[:]) }
	zeroAllocCalls["SHA3_256"] = func() { var a, b [32]byte; sink32 = hashsum.SHA3_256(a[:], b[:]) }
	zeroAllocCalls["SHA3_384"] = func() { var a, b [32]byte; sink48 = hashsum.SHA3_384(a[:], b[:]) }
	zeroAllocCalls["SHA3_512"] = func() { var a, b [32]byte; sink64 = hashsum.SHA3_512(a[:], b[:]) }
}
