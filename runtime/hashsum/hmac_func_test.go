package hashsum_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"hash/fnv"
	"strconv"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashsum"
)

// oddBlock is a hash whose block size is what the test chooses (0, 1, 7,
// 200, ...), smaller or larger than its digest: crypto/hmac pads keys to the
// hasher's BlockSize, whatever it is.
type oddBlock struct {
	hash.Hash
	block int
}

func (o oddBlock) BlockSize() int { return o.block }

// hashFuncs are the hash functions AppendHMACFunc is checked with.
func hashFuncs() map[string]func() hash.Hash {
	funcs := map[string]func() hash.Hash{
		"sha256": sha256.New, "sha224": sha256.New224, "sha512": sha512.New, "sha384": sha512.New384,
		"sha1": sha1.New, "md5": md5.New, "fnv128a": fnv.New128a, "fnv32": func() hash.Hash { return fnv.New32() },
	}
	for _, block := range []int{0, 1, 7, 100, 200} {
		block := block
		funcs["sha256 with block size "+strconv.Itoa(block)] = func() hash.Hash {
			return oddBlock{sha256.New(), block}
		}
	}
	for name, fn := range sha3Funcs {
		funcs[name] = fn
	}
	return funcs
}

// TestAppendHMACFunc checks AppendHMACFunc against crypto/hmac for every
// hash, key lengths around the block sizes and parts split in several ways,
// appended to a prefix and to nothing.
func TestAppendHMACFunc(t *testing.T) {
	for name, fn := range hashFuncs() {
		for _, n := range []int{0, 1, 6, 7, 8, 63, 64, 65, 99, 100, 101, 127, 128, 129, 136, 137, 144, 145, 200, 201, 300} {
			key := bytes.Repeat([]byte{byte(n)}, n)
			a, b := []byte("the header."), []byte("the payload")
			for _, prefix := range [][]byte{nil, []byte("prefix")} {
				m := hmac.New(fn, key)
				m.Write(a)
				m.Write(b)
				want := m.Sum(bytes.Clone(prefix))
				for _, parts := range [][][]byte{{a, b}, {append(bytes.Clone(a), b...)}, {a, nil, b}} {
					if got := hashsum.AppendHMACFunc(fn, bytes.Clone(prefix), key, parts...); !bytes.Equal(got, want) {
						t.Fatalf("AppendHMACFunc(%s, key of %d bytes, %d parts) = %x, want %x", name, n, len(parts), got, want)
					}
				}
			}
		}
	}
}

// TestAppendHMACFuncAllocs checks that AppendHMACFunc allocates only the
// hasher that fn returns, given room in dst, and no more than that and the
// result for a nil dst: hmac.New makes five allocations, Sum(nil) a sixth.
func TestAppendHMACFuncAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop values at random")
	}
	key, msg := []byte("a key"), []byte("a message")
	long := bytes.Repeat([]byte("k"), 300)
	dst := make([]byte, 0, 64)
	for _, fn := range []func() hash.Hash{sha256.New, sha512.New, sha1.New, md5.New} {
		for _, k := range [][]byte{key, long} {
			if n := testing.AllocsPerRun(100, func() { hashsum.AppendHMACFunc(fn, dst, k, msg) }); n != 1 {
				t.Errorf("AppendHMACFunc into room makes %v allocations, want 1 (the hasher)", n)
			}
			if n := testing.AllocsPerRun(100, func() { hashsum.AppendHMACFunc(fn, nil, k, msg) }); n != 2 {
				t.Errorf("AppendHMACFunc(nil) makes %v allocations, want 2 (the hasher and the result)", n)
			}
		}
	}
}

// TestAppendHMACFuncStackDst checks that dst does not escape: a caller's
// array on the stack stays there.
func TestAppendHMACFuncStackDst(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop values at random")
	}
	key, msg := []byte("a key"), []byte("a message")
	n := testing.AllocsPerRun(100, func() {
		var out [sha256.Size]byte
		hashsum.AppendHMACFunc(sha256.New, out[:0], key, msg)
	})
	if n != 1 {
		t.Errorf("AppendHMACFunc into an array on the stack makes %v allocations, want 1 (the hasher)", n)
	}
}

// TestAppendHMACFuncNil checks that a nil hash function panics, as it does
// in hmac.New.
func TestAppendHMACFuncNil(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("AppendHMACFunc(nil, ...) did not panic")
		}
	}()
	hashsum.AppendHMACFunc(nil, nil, []byte("key"), []byte("msg"))
}

// TestAppendHMACFuncConcurrent checks, under -race, that calls on several
// goroutines do not share scratch space.
func TestAppendHMACFuncConcurrent(t *testing.T) {
	want := hmac.New(sha512.New, []byte("key"))
	want.Write([]byte("msg"))
	sum := want.Sum(nil)
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			ok := true
			for i := 0; i < 200; i++ {
				ok = ok && bytes.Equal(hashsum.AppendHMACFunc(sha512.New, nil, []byte("key"), []byte("msg")), sum)
			}
			done <- ok
		}()
	}
	for g := 0; g < 4; g++ {
		if !<-done {
			t.Error("a concurrent AppendHMACFunc computed another MAC")
		}
	}
}
