package hashpool_test

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashpool"
)

func TestHMACCopiesKey(t *testing.T) {
	key := []byte("original key")
	p := hashpool.NewHMAC(sha256.New, key)
	want := hmacSum(sha256.New, []byte("original key"), []byte("msg"))
	copy(key, "modified key") // before any MAC is created
	if got := p.Sum(nil, []byte("msg")); !bytes.Equal(got, want) {
		t.Fatalf("Sum uses the caller's modified key: got %x, want %x", got, want)
	}
}

// TestHMACGetIsKeyedAndReset checks that a MAC put back with data of one user
// (with or without Sum) comes out of Get in the keyed, reset state.
func TestHMACGetIsKeyedAndReset(t *testing.T) {
	key := []byte("key")
	p := hashpool.NewHMAC(sha256.New, key)
	want := hmacSum(sha256.New, key, []byte("msg"))
	for i := 0; i < 10; i++ {
		m := p.Get()
		m.Write([]byte("msg"))
		if got := m.Sum(nil); !bytes.Equal(got, want) {
			t.Fatalf("round %d: got %x, want %x", i, got, want)
		}
		m.Write([]byte("secret data of the previous user"))
		if i%2 == 0 {
			m.Sum(nil)
		}
		p.Put(m)
	}
}

// TestHMACPutForeignMAC checks that a MAC of another pool (another key) is
// never handed out by a pool it was put into.
func TestHMACPutForeignMAC(t *testing.T) {
	keyA := []byte("key A")
	a := hashpool.NewHMAC(sha256.New, keyA)
	b := hashpool.NewHMAC(sha256.New, []byte("key B"))
	want := hmacSum(sha256.New, keyA, []byte("msg"))
	for i := 0; i < 100; i++ {
		foreign := b.Get()
		a.Put(foreign)
		m := a.Get()
		if m == foreign {
			t.Fatal("a pool handed out a MAC of another pool")
		}
		m.Write([]byte("msg"))
		if got := m.Sum(nil); !bytes.Equal(got, want) {
			t.Fatalf("got %x, want HMAC with key A %x", got, want)
		}
		a.Put(m)
		if got := a.Sum(nil, []byte("msg")); !bytes.Equal(got, want) {
			t.Fatalf("Sum: got %x, want HMAC with key A %x", got, want)
		}
	}
}

func TestHMACPutNil(t *testing.T) {
	p := hashpool.NewHMAC(sha256.New, []byte("key"))
	p.Put(nil)
	p.Put(&hashpool.MAC{}) // not from any pool: dropped too
	if m := p.Get(); m == nil || m.Hash == nil {
		t.Fatal("Get returned no hasher")
	}
}

// FuzzHMAC checks Sum and Equal against crypto/hmac for several hashes, and
// that Equal rejects a MAC with any single bit flipped or a byte missing.
func FuzzHMAC(f *testing.F) {
	f.Add([]byte{}, []byte{}, []byte{}, uint16(0))
	f.Add([]byte("key"), []byte("hello, "), []byte("world"), uint16(7))
	f.Add(bytes.Repeat([]byte("k"), 200), bytes.Repeat([]byte("m"), 1024), []byte("tail"), uint16(300))
	for _, n := range []int{1, 63, 64, 65, 128, 129, 136, 168} {
		f.Add(bytes.Repeat([]byte{byte(n)}, n), bytes.Repeat([]byte{1}, n), []byte{}, uint16(n))
	}
	f.Fuzz(func(t *testing.T, key, a, b []byte, bit uint16) {
		for name, newHash := range hmacHashes {
			p := hashpool.NewHMAC(newHash, key)
			want := hmacSum(newHash, key, a, b)
			for round := 0; round < 2; round++ { // the second round likely reuses the first MAC
				if got := p.Sum([]byte("prefix"), a, b); !bytes.Equal(got, append([]byte("prefix"), want...)) {
					t.Fatalf("%s: Sum = %x, want prefix+%x", name, got, want)
				}
				if !p.Equal(want, a, b) {
					t.Fatalf("%s: Equal rejected the right MAC", name)
				}
				flipped := bytes.Clone(want)
				i := int(bit) % (8 * len(flipped))
				flipped[i/8] ^= 1 << (i % 8)
				if p.Equal(flipped, a, b) {
					t.Fatalf("%s: Equal accepted a MAC with bit %d flipped", name, i)
				}
				if p.Equal(want[:len(want)-1], a, b) {
					t.Fatalf("%s: Equal accepted a truncated MAC", name)
				}
			}
		}
	})
}

// hmacHashes are the hashes FuzzHMAC tries (SHA3-256 is added by
// pool_sha3_test.go).
var hmacHashes = map[string]func() hash.Hash{
	"SHA256": sha256.New,
	"SHA512": sha512.New,
	"SHA1":   sha1.New,
	"MD5":    md5.New,
}

func TestHMACZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop values at random")
	}
	p := hashpool.NewHMAC(sha256.New, []byte("key"))
	msg := make([]byte, 100)
	tag := p.Sum(nil, msg)
	buf := make([]byte, 0, sha256.Size)
	// See TestPoolZeroAllocs for why the pool does not empty during the run.
	if n := testing.AllocsPerRun(100, func() { buf = p.Sum(buf[:0], msg, msg) }); n != 0 {
		t.Errorf("Sum: %v allocs/op, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		if !p.Equal(tag, msg) {
			t.Fatal("Equal rejected the right MAC")
		}
	}); n != 0 {
		t.Errorf("Equal: %v allocs/op, want 0", n)
	}
}
