//go:build go1.24

package hashsum_test

import (
	"crypto/sha3"
	"hash"
	"testing"

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

	hmacs = append(hmacs,
		hmacCase{"HMACSHA3_224", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACSHA3_224(k, p...); return s[:] }, func() hash.Hash { return sha3.New224() }},
		hmacCase{"HMACSHA3_256", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACSHA3_256(k, p...); return s[:] }, func() hash.Hash { return sha3.New256() }},
		hmacCase{"HMACSHA3_384", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACSHA3_384(k, p...); return s[:] }, func() hash.Hash { return sha3.New384() }},
		hmacCase{"HMACSHA3_512", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACSHA3_512(k, p...); return s[:] }, func() hash.Hash { return sha3.New512() }},
	)
	hmacZeroAllocCalls["HMACSHA3_224"] = func() {
		var k, l [200]byte
		var a, b [32]byte
		sink28 = hashsum.HMACSHA3_224(k[:32], a[:], b[:])
		sink28 = hashsum.HMACSHA3_224(l[:], a[:], b[:])
	}
	hmacZeroAllocCalls["HMACSHA3_256"] = func() {
		var k, l [200]byte
		var a, b [32]byte
		sink32 = hashsum.HMACSHA3_256(k[:32], a[:], b[:])
		sink32 = hashsum.HMACSHA3_256(l[:], a[:], b[:])
	}
	hmacZeroAllocCalls["HMACSHA3_384"] = func() {
		var k, l [200]byte
		var a, b [32]byte
		sink48 = hashsum.HMACSHA3_384(k[:32], a[:], b[:])
		sink48 = hashsum.HMACSHA3_384(l[:], a[:], b[:])
	}
	hmacZeroAllocCalls["HMACSHA3_512"] = func() {
		var k, l [200]byte
		var a, b [32]byte
		sink64 = hashsum.HMACSHA3_512(k[:32], a[:], b[:])
		sink64 = hashsum.HMACSHA3_512(l[:], a[:], b[:])
	}
}

func FuzzHMACSHA3_224(f *testing.F) { fuzzHMAC(f, "HMACSHA3_224") }
func FuzzHMACSHA3_256(f *testing.F) { fuzzHMAC(f, "HMACSHA3_256") }
func FuzzHMACSHA3_384(f *testing.F) { fuzzHMAC(f, "HMACSHA3_384") }
func FuzzHMACSHA3_512(f *testing.F) { fuzzHMAC(f, "HMACSHA3_512") }
