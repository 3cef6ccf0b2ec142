package hashpool_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"
	"hash/adler32"
	"hash/crc32"
	"hash/fnv"
	"runtime"
	"sync"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashpool"
)

// pools pairs every ready-made pool with the standard library constructor
// whose hashers it must be indistinguishable from (the SHA-3 pools are added
// by pool_sha3_test.go).
var pools = []poolCase{
	{"SHA256", hashpool.SHA256, sha256.New},
	{"SHA224", hashpool.SHA224, sha256.New224},
	{"SHA512", hashpool.SHA512, sha512.New},
	{"SHA384", hashpool.SHA384, sha512.New384},
	{"SHA512_224", hashpool.SHA512_224, sha512.New512_224},
	{"SHA512_256", hashpool.SHA512_256, sha512.New512_256},
	{"SHA1", hashpool.SHA1, sha1.New},
	{"MD5", hashpool.MD5, md5.New},
	{"FNV32", hashpool.FNV32, func() hash.Hash { return fnv.New32() }},
	{"FNV32a", hashpool.FNV32a, func() hash.Hash { return fnv.New32a() }},
	{"FNV64", hashpool.FNV64, func() hash.Hash { return fnv.New64() }},
	{"FNV64a", hashpool.FNV64a, func() hash.Hash { return fnv.New64a() }},
	{"FNV128", hashpool.FNV128, fnv.New128},
	{"FNV128a", hashpool.FNV128a, fnv.New128a},
	{"CRC32", hashpool.CRC32, func() hash.Hash { return crc32.NewIEEE() }},
	{"Adler32", hashpool.Adler32, func() hash.Hash { return adler32.New() }},
}

// stdSum returns the sum of the concatenation of parts by a fresh hasher.
func stdSum(newHash func() hash.Hash, parts ...[]byte) []byte {
	h := newHash()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// hmacSum returns HMAC(key, concatenation of parts) by a fresh hmac.New.
func hmacSum(newHash func() hash.Hash, key []byte, parts ...[]byte) []byte {
	return stdSum(func() hash.Hash { return hmac.New(newHash, key) }, parts...)
}

type poolCase struct {
	name    string
	pool    *hashpool.Pool
	newHash func() hash.Hash
}

func TestPoolGetIsReset(t *testing.T) {
	for _, tc := range pools {
		empty := stdSum(tc.newHash)
		for i := 0; i < 10; i++ {
			h := tc.pool.Get()
			if got := h.Sum(nil); !bytes.Equal(got, empty) {
				t.Fatalf("%s: Get returned a hasher with state: sum %x, want %x", tc.name, got, empty)
			}
			h.Write([]byte("data of the previous user")) // put back dirty, without Sum
			tc.pool.Put(h)
		}
	}
}

func TestPoolPutNil(t *testing.T) {
	hashpool.SHA256.Put(nil)
	if h := hashpool.SHA256.Get(); h == nil {
		t.Fatal("Get returned nil after Put(nil)")
	}
}

func TestNew(t *testing.T) {
	p := hashpool.New(sha256.New)
	h := p.Get()
	h.Write([]byte("abc"))
	if got, want := h.Sum(nil), stdSum(sha256.New, []byte("abc")); !bytes.Equal(got, want) {
		t.Fatalf("sum %x, want %x", got, want)
	}
	p.Put(h)
}

// FuzzPool checks that a pooled hasher of every kind computes the same sums as
// a fresh standard library hasher, also after being reused.
func FuzzPool(f *testing.F) {
	f.Add([]byte{}, []byte{})
	f.Add([]byte("abc"), []byte("def"))
	for _, n := range []int{1, 63, 64, 65, 127, 128, 129, 136, 1024} {
		f.Add(bytes.Repeat([]byte{byte(n)}, n), []byte{byte(n)})
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		for _, tc := range pools {
			want := stdSum(tc.newHash, a, b)
			for round := 0; round < 2; round++ { // the second round likely reuses the first hasher
				h := tc.pool.Get()
				if h.Size() != len(want) || h.BlockSize() != tc.newHash().BlockSize() {
					t.Fatalf("%s: Size %d, BlockSize %d differ from the standard library", tc.name, h.Size(), h.BlockSize())
				}
				h.Write(a)
				h.Write(b)
				if got := h.Sum([]byte("prefix")); !bytes.Equal(got, append([]byte("prefix"), want...)) {
					t.Fatalf("%s: Sum = %x, want prefix+%x", tc.name, got, want)
				}
				tc.pool.Put(h)
			}
		}
	})
}

func TestPoolZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop values at random")
	}
	msg := make([]byte, 100)
	buf := make([]byte, 0, 64) // room for every sum
	for _, tc := range pools {
		// AllocsPerRun runs the function once before measuring, which fills
		// the pool, and then runs with GOMAXPROCS(1), so Get finds the hasher
		// that the previous Put left on the same P. Nothing in the loop
		// allocates, so no GC can start there and empty the pool (and even a
		// single GC only moves it to the victim cache, where Get finds it).
		allocs := testing.AllocsPerRun(100, func() {
			h := tc.pool.Get()
			h.Write(msg)
			buf = h.Sum(buf[:0])
			tc.pool.Put(h)
		})
		if allocs != 0 {
			t.Errorf("%s: Get+Write+Sum+Put: %v allocs/op, want 0", tc.name, allocs)
		}
	}
}

// TestConcurrentUse checks, under -race, that hashers shared through the
// pools never mix the data of concurrent users.
func TestConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var buf []byte
			for i := 0; i < 50; i++ {
				part1 := fmt.Appendf(nil, "goroutine %d ", g)
				part2 := fmt.Appendf(nil, "message %d", i)
				for _, tc := range pools {
					h := tc.pool.Get()
					h.Write(part1)
					runtime.Gosched() // let others use the pool in between
					h.Write(part2)
					buf = h.Sum(buf[:0])
					tc.pool.Put(h)
					if want := stdSum(tc.newHash, part1, part2); !bytes.Equal(buf, want) {
						t.Errorf("%s: goroutine %d got %x, want %x", tc.name, g, buf, want)
					}
				}
			}
		}(g)
	}
	wg.Wait()
}
