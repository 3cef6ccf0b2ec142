package hashsum_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"math/rand"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashsum"
)

// hmacCase pairs a one-shot HMAC with the hash crypto/hmac must use to
// compute the same MAC.
type hmacCase struct {
	name    string
	got     func(key []byte, parts ...[]byte) []byte
	newHash func() hash.Hash
}

// hmacs lists every one-shot HMAC (the SHA-3 ones are added by
// hashsum_sha3_test.go).
var hmacs = []hmacCase{
	{"HMACSHA256", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACSHA256(k, p...); return s[:] }, sha256.New},
	{"HMACSHA224", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACSHA224(k, p...); return s[:] }, sha256.New224},
	{"HMACSHA512", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACSHA512(k, p...); return s[:] }, sha512.New},
	{"HMACSHA384", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACSHA384(k, p...); return s[:] }, sha512.New384},
	{"HMACSHA512_224", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACSHA512_224(k, p...); return s[:] }, sha512.New512_224},
	{"HMACSHA512_256", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACSHA512_256(k, p...); return s[:] }, sha512.New512_256},
	{"HMACSHA1", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACSHA1(k, p...); return s[:] }, sha1.New},
	{"HMACMD5", func(k []byte, p ...[]byte) []byte { s := hashsum.HMACMD5(k, p...); return s[:] }, md5.New},
}

// stdHMAC returns the MAC of the concatenation of parts by crypto/hmac.
func stdHMAC(newHash func() hash.Hash, key []byte, parts ...[]byte) []byte {
	m := hmac.New(newHash, key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

// checkHMAC checks tc against crypto/hmac for key and the concatenation of a
// and b, split in several ways, and that it leaves its arguments alone.
func checkHMAC(t *testing.T, tc hmacCase, key, a, b []byte) {
	t.Helper()
	keyCopy, aCopy, bCopy := bytes.Clone(key), bytes.Clone(a), bytes.Clone(b)
	want := stdHMAC(tc.newHash, key, a, b)
	whole := append(bytes.Clone(a), b...)
	for _, parts := range [][][]byte{{a, b}, {whole}, {a, nil, b}, {nil, whole, {}}} {
		if got := tc.got(key, parts...); !bytes.Equal(got, want) {
			t.Fatalf("%s(key %x, %d parts of %x) = %x, want %x", tc.name, key, len(parts), whole, got, want)
		}
	}
	if len(whole) == 0 {
		if got := tc.got(key); !bytes.Equal(got, want) {
			t.Fatalf("%s(key %x) = %x, want %x", tc.name, key, got, want)
		}
	}
	if !bytes.Equal(key, keyCopy) || !bytes.Equal(a, aCopy) || !bytes.Equal(b, bCopy) {
		t.Fatalf("%s changed its arguments", tc.name)
	}
}

// TestHMACKeyLengths checks every one-shot HMAC against crypto/hmac for every
// key length from 0 to three blocks: shorter than a block (padded), a block,
// longer (hashed first).
func TestHMACKeyLengths(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	randBytes := func(n int) []byte {
		b := make([]byte, n)
		rng.Read(b)
		return b
	}
	for _, tc := range hmacs {
		blockSize := tc.newHash().BlockSize()
		for n := 0; n <= 3*blockSize; n++ {
			checkHMAC(t, tc, randBytes(n), randBytes(rng.Intn(3*blockSize)), randBytes(rng.Intn(blockSize)))
		}
	}
}

// fuzzHMAC checks the one-shot HMAC named name against crypto/hmac.
func fuzzHMAC(f *testing.F, name string) {
	var tc hmacCase
	for _, c := range hmacs {
		if c.name == name {
			tc = c
		}
	}
	if tc.got == nil {
		f.Fatalf("no one-shot HMAC %s", name)
	}
	blockSize := tc.newHash().BlockSize()
	f.Add([]byte{}, []byte{}, []byte{})
	f.Add([]byte("key"), []byte("hello, "), []byte("world"))
	for _, n := range []int{1, blockSize - 1, blockSize, blockSize + 1, 2 * blockSize, 3*blockSize + 1} {
		f.Add(bytes.Repeat([]byte{byte(n)}, n), bytes.Repeat([]byte{1}, n/2), bytes.Repeat([]byte{2}, n/3))
	}
	f.Fuzz(func(t *testing.T, key, a, b []byte) {
		checkHMAC(t, tc, key, a, b)
	})
}

func FuzzHMACSHA256(f *testing.F)     { fuzzHMAC(f, "HMACSHA256") }
func FuzzHMACSHA224(f *testing.F)     { fuzzHMAC(f, "HMACSHA224") }
func FuzzHMACSHA512(f *testing.F)     { fuzzHMAC(f, "HMACSHA512") }
func FuzzHMACSHA384(f *testing.F)     { fuzzHMAC(f, "HMACSHA384") }
func FuzzHMACSHA512_224(f *testing.F) { fuzzHMAC(f, "HMACSHA512_224") }
func FuzzHMACSHA512_256(f *testing.F) { fuzzHMAC(f, "HMACSHA512_256") }
func FuzzHMACSHA1(f *testing.F)       { fuzzHMAC(f, "HMACSHA1") }
func FuzzHMACMD5(f *testing.F)        { fuzzHMAC(f, "HMACMD5") }

// hmacZeroAllocCalls calls every one-shot HMAC directly, as generated code
// does, with the key and the parts on the caller's stack, once with a short
// key and once with a key longer than any block, which is hashed first (the
// SHA-3 HMACs are added by hashsum_sha3_test.go).
var hmacZeroAllocCalls = map[string]func(){
	"HMACSHA256": func() {
		var k, l [200]byte
		var a, b [32]byte
		sink32 = hashsum.HMACSHA256(k[:32], a[:], b[:])
		sink32 = hashsum.HMACSHA256(l[:], a[:], b[:])
	},
	"HMACSHA224": func() {
		var k, l [200]byte
		var a, b [32]byte
		sink28 = hashsum.HMACSHA224(k[:32], a[:], b[:])
		sink28 = hashsum.HMACSHA224(l[:], a[:], b[:])
	},
	"HMACSHA512": func() {
		var k, l [200]byte
		var a, b [32]byte
		sink64 = hashsum.HMACSHA512(k[:32], a[:], b[:])
		sink64 = hashsum.HMACSHA512(l[:], a[:], b[:])
	},
	"HMACSHA384": func() {
		var k, l [200]byte
		var a, b [32]byte
		sink48 = hashsum.HMACSHA384(k[:32], a[:], b[:])
		sink48 = hashsum.HMACSHA384(l[:], a[:], b[:])
	},
	"HMACSHA512_224": func() {
		var k, l [200]byte
		var a, b [32]byte
		sink28 = hashsum.HMACSHA512_224(k[:32], a[:], b[:])
		sink28 = hashsum.HMACSHA512_224(l[:], a[:], b[:])
	},
	"HMACSHA512_256": func() {
		var k, l [200]byte
		var a, b [32]byte
		sink32 = hashsum.HMACSHA512_256(k[:32], a[:], b[:])
		sink32 = hashsum.HMACSHA512_256(l[:], a[:], b[:])
	},
	"HMACSHA1": func() {
		var k, l [200]byte
		var a, b [32]byte
		sink20 = hashsum.HMACSHA1(k[:32], a[:], b[:])
		sink20 = hashsum.HMACSHA1(l[:], a[:], b[:])
	},
	"HMACMD5": func() {
		var k, l [200]byte
		var a, b [32]byte
		sink16 = hashsum.HMACMD5(k[:32], a[:], b[:])
		sink16 = hashsum.HMACMD5(l[:], a[:], b[:])
	},
}

// TestHMACZeroAllocs runs hmacZeroAllocCalls: nothing may allocate, neither
// the hashers nor the padded key, and the key and parts must not escape.
func TestHMACZeroAllocs(t *testing.T) {
	if len(hmacZeroAllocCalls) != len(hmacs) {
		t.Fatalf("%d one-shot HMACs checked for allocations, want all %d", len(hmacZeroAllocCalls), len(hmacs))
	}
	for name, call := range hmacZeroAllocCalls {
		if n := testing.AllocsPerRun(100, call); n != 0 {
			t.Errorf("%s: %v allocs/op, want 0", name, n)
		}
	}
}
