package hashsum_test

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashsum"
)

// sums pairs every helper with the standard library one-shot function it must
// match, both returning the digest as a slice (the SHA-3 helpers are added by
// hashsum_sha3_test.go).
var sums = []sumCase{
	{"SHA256", func(p ...[]byte) []byte { s := hashsum.SHA256(p...); return s[:] }, func(d []byte) []byte { s := sha256.Sum256(d); return s[:] }},
	{"SHA224", func(p ...[]byte) []byte { s := hashsum.SHA224(p...); return s[:] }, func(d []byte) []byte { s := sha256.Sum224(d); return s[:] }},
	{"SHA512", func(p ...[]byte) []byte { s := hashsum.SHA512(p...); return s[:] }, func(d []byte) []byte { s := sha512.Sum512(d); return s[:] }},
	{"SHA384", func(p ...[]byte) []byte { s := hashsum.SHA384(p...); return s[:] }, func(d []byte) []byte { s := sha512.Sum384(d); return s[:] }},
	{"SHA512_224", func(p ...[]byte) []byte { s := hashsum.SHA512_224(p...); return s[:] }, func(d []byte) []byte { s := sha512.Sum512_224(d); return s[:] }},
	{"SHA512_256", func(p ...[]byte) []byte { s := hashsum.SHA512_256(p...); return s[:] }, func(d []byte) []byte { s := sha512.Sum512_256(d); return s[:] }},
	{"SHA1", func(p ...[]byte) []byte { s := hashsum.SHA1(p...); return s[:] }, func(d []byte) []byte { s := sha1.Sum(d); return s[:] }},
	{"MD5", func(p ...[]byte) []byte { s := hashsum.MD5(p...); return s[:] }, func(d []byte) []byte { s := md5.Sum(d); return s[:] }},
}

type sumCase struct {
	name   string
	got    func(parts ...[]byte) []byte
	stdlib func(data []byte) []byte
}

// FuzzSum checks that every helper returns the standard library digest of the
// concatenation of its parts, for any contents and any split into three parts.
func FuzzSum(f *testing.F) {
	f.Add([]byte{}, []byte{}, []byte{})
	f.Add([]byte("abc"), []byte{}, []byte("def"))
	// Sizes around the 64- and 128-byte block boundaries and the SHA-3 rates.
	for _, n := range []int{1, 55, 56, 63, 64, 65, 71, 72, 104, 111, 112, 127, 128, 129, 136, 144, 168, 1024} {
		data := bytes.Repeat([]byte{byte(n)}, n)
		f.Add(data, data[:n/2], data[n/3:])
	}
	f.Fuzz(func(t *testing.T, a, b, c []byte) {
		whole := bytes.Join([][]byte{a, b, c}, nil)
		for _, s := range sums {
			want := s.stdlib(whole)
			if got := s.got(a, b, c); !bytes.Equal(got, want) {
				t.Errorf("%s(a, b, c) = %x, want %x", s.name, got, want)
			}
			if got := s.got(whole); !bytes.Equal(got, want) {
				t.Errorf("%s(whole) = %x, want %x", s.name, got, want)
			}
		}
	})
}

func TestNoParts(t *testing.T) {
	for _, s := range sums {
		if got, want := s.got(), s.stdlib(nil); !bytes.Equal(got, want) {
			t.Errorf("%s() = %x, want %x", s.name, got, want)
		}
	}
}

// Sinks of every digest size, so the compiler cannot drop the calls.
var (
	sink16 [16]byte
	sink20 [20]byte
	sink28 [28]byte
	sink32 [32]byte
	sink48 [48]byte
	sink64 [64]byte
)

// zeroAllocCalls calls every helper directly, as generated code does, with
// parts on the caller's stack (the SHA-3 helpers are added by
// hashsum_sha3_test.go).
var zeroAllocCalls = map[string]func(){
	"SHA256":     func() { var a, b [32]byte; sink32 = hashsum.SHA256(a[:], b[:]) },
	"SHA224":     func() { var a, b [32]byte; sink28 = hashsum.SHA224(a[:], b[:]) },
	"SHA512":     func() { var a, b [32]byte; sink64 = hashsum.SHA512(a[:], b[:]) },
	"SHA384":     func() { var a, b [32]byte; sink48 = hashsum.SHA384(a[:], b[:]) },
	"SHA512_224": func() { var a, b [32]byte; sink28 = hashsum.SHA512_224(a[:], b[:]) },
	"SHA512_256": func() { var a, b [32]byte; sink32 = hashsum.SHA512_256(a[:], b[:]) },
	"SHA1":       func() { var a, b [32]byte; sink20 = hashsum.SHA1(a[:], b[:]) },
	"MD5":        func() { var a, b [32]byte; sink16 = hashsum.MD5(a[:], b[:]) },
}

// TestZeroAllocs runs zeroAllocCalls: the parts must not escape and the
// hasher must stay on the stack.
func TestZeroAllocs(t *testing.T) {
	if len(zeroAllocCalls) != len(sums) {
		t.Fatalf("%d helpers checked for allocations, want all %d", len(zeroAllocCalls), len(sums))
	}
	for name, call := range zeroAllocCalls {
		if n := testing.AllocsPerRun(100, call); n != 0 {
			t.Errorf("%s: %v allocs/op, want 0", name, n)
		}
	}
}
