package hashpool_test

import (
	"bytes"
	"crypto"
	_ "crypto/md5"
	_ "crypto/sha1"
	_ "crypto/sha256"
	_ "crypto/sha512"
	"sync"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashpool"
)

// linkedHashes are the crypto.Hash values whose packages this test links.
var linkedHashes = []crypto.Hash{crypto.MD5, crypto.SHA1, crypto.SHA224, crypto.SHA256, crypto.SHA384, crypto.SHA512, crypto.SHA512_224, crypto.SHA512_256}

// TestForHash checks that each hash's pool gives hashers of that hash, in
// the reset state, however often they are reused.
func TestForHash(t *testing.T) {
	msg := []byte("the quick brown fox")
	for _, h := range linkedHashes {
		want := stdSum(h.New, msg)
		for i := 0; i < 3; i++ {
			p := hashpool.ForHash(h)
			if p != hashpool.ForHash(h) {
				t.Fatalf("%v: ForHash returns different pools", h)
			}
			hasher := p.Get()
			if got := hasher.Size(); got != h.Size() {
				t.Fatalf("%v: hasher of size %d, want %d", h, got, h.Size())
			}
			hasher.Write(msg)
			if got := hasher.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("%v: sum %x, want %x", h, got, want)
			}
			hasher.Write([]byte("left over, reset by Put"))
			p.Put(hasher)
		}
	}
}

// TestForHashConcurrent takes and gives back hashers of several hashes
// from many goroutines (run it with -race).
func TestForHashConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				h := linkedHashes[(g+i)%len(linkedHashes)]
				msg := []byte{byte(g), byte(i)}
				p := hashpool.ForHash(h)
				hasher := p.Get()
				hasher.Write(msg)
				if got, want := hasher.Sum(nil), stdSum(h.New, msg); !bytes.Equal(got, want) {
					t.Errorf("%v: sum %x, want %x", h, got, want)
				}
				p.Put(hasher)
			}
		}(g)
	}
	wg.Wait()
}

// TestForHashAllocs checks that, once warm, taking a pool, a hasher from
// it and giving it back allocates nothing.
func TestForHashAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops values at random under the race detector")
	}
	msg := []byte("the quick brown fox")
	var sum [64]byte
	for _, h := range linkedHashes {
		allocs := testing.AllocsPerRun(100, func() {
			p := hashpool.ForHash(h)
			hasher := p.Get()
			hasher.Write(msg)
			hasher.Sum(sum[:0])
			p.Put(hasher)
		})
		if allocs != 0 {
			t.Errorf("%v: %v allocations per use, want 0", h, allocs)
		}
	}
}

// TestForHashUnknown checks that a hash that is not linked, or a value
// that is no hash, panics at Get as h.New() does, and that ForHash itself
// does not.
func TestForHashUnknown(t *testing.T) {
	for _, h := range []crypto.Hash{0, crypto.BLAKE2b_256, crypto.BLAKE2b_512 + 1, 1000} {
		p := hashpool.ForHash(h)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ForHash(%d).Get() did not panic", h)
				}
			}()
			p.Get()
		}()
	}
}
