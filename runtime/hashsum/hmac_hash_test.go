package hashsum_test

import (
	"bytes"
	"crypto"
	"crypto/hmac"
	"hash"
	"hash/fnv"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashsum"
)

// fnvHash stands for a hash this package has no one-shot HMAC of.
const fnvHash = crypto.RIPEMD160

func init() {
	crypto.RegisterHash(fnvHash, func() hash.Hash { return fnv.New128a() })
}

// hashes are the crypto.Hash values AppendHMAC is checked with: those this
// package has a one-shot HMAC of, and one it computes with crypto/hmac.
var hashes = []crypto.Hash{
	crypto.SHA256, crypto.SHA224, crypto.SHA512, crypto.SHA384, crypto.SHA512_224,
	crypto.SHA512_256, crypto.SHA1, crypto.MD5, fnvHash,
}

// TestAppendHMAC checks AppendHMAC against crypto/hmac for every hash, key
// lengths around the block size and parts split in several ways, appended to
// a prefix.
func TestAppendHMAC(t *testing.T) {
	for _, h := range append(hashes, sha3Hashes...) {
		for _, n := range []int{0, 1, 63, 64, 65, 127, 128, 129, 200} {
			key := bytes.Repeat([]byte{byte(n)}, n)
			a, b := []byte("the header."), []byte("the payload")
			m := hmac.New(h.New, key)
			m.Write(a)
			m.Write(b)
			want := m.Sum([]byte("prefix"))
			for _, parts := range [][][]byte{{a, b}, {append(bytes.Clone(a), b...)}, {a, nil, b}} {
				if got := hashsum.AppendHMAC(h, []byte("prefix"), key, parts...); !bytes.Equal(got, want) {
					t.Fatalf("AppendHMAC(%v, key of %d bytes, %d parts) = %x, want %x", h, n, len(parts), got, want)
				}
			}
		}
	}
}

// TestAppendHMACZeroAllocs checks that AppendHMAC allocates nothing for the
// hashes this package has a one-shot HMAC of, given room in dst.
func TestAppendHMACZeroAllocs(t *testing.T) {
	key, msg := []byte("a key"), []byte("a message")
	dst := make([]byte, 0, 64)
	for _, h := range append(hashes[:len(hashes)-1], sha3Hashes...) {
		if n := testing.AllocsPerRun(100, func() { hashsum.AppendHMAC(h, dst, key, msg) }); n != 0 {
			t.Errorf("AppendHMAC(%v) makes %v allocations, want 0", h, n)
		}
	}
}
