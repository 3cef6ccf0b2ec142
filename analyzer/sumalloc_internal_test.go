package analyzer

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"hash"
	"hash/adler32"
	"hash/crc32"
	"hash/crc64"
	"hash/fnv"
	"strings"
	"testing"
)

// TestDigestSizes checks the digest sizes of the standard constructors, which
// the sum-alloc fix declares arrays of, against the hashers themselves.
func TestDigestSizes(t *testing.T) {
	std := map[string]func() hash.Hash{
		"crypto/sha256.New":        sha256.New,
		"crypto/sha256.New224":     sha256.New224,
		"crypto/sha512.New":        sha512.New,
		"crypto/sha512.New384":     sha512.New384,
		"crypto/sha512.New512_224": sha512.New512_224,
		"crypto/sha512.New512_256": sha512.New512_256,
		"crypto/sha1.New":          sha1.New,
		"crypto/md5.New":           md5.New,
		"crypto/sha3.New224":       func() hash.Hash { return sha3.New224() },
		"crypto/sha3.New256":       func() hash.Hash { return sha3.New256() },
		"crypto/sha3.New384":       func() hash.Hash { return sha3.New384() },
		"crypto/sha3.New512":       func() hash.Hash { return sha3.New512() },
		"hash/fnv.New32":           func() hash.Hash { return fnv.New32() },
		"hash/fnv.New32a":          func() hash.Hash { return fnv.New32a() },
		"hash/fnv.New64":           func() hash.Hash { return fnv.New64() },
		"hash/fnv.New64a":          func() hash.Hash { return fnv.New64a() },
		"hash/fnv.New128":          fnv.New128,
		"hash/fnv.New128a":         fnv.New128a,
		"hash/crc32.NewIEEE":       func() hash.Hash { return crc32.NewIEEE() },
		"hash/crc32.New":           func() hash.Hash { return crc32.New(crc32.MakeTable(crc32.Castagnoli)) },
		"hash/crc64.New":           func() hash.Hash { return crc64.New(crc64.MakeTable(crc64.ISO)) },
		"hash/adler32.New":         func() hash.Hash { return adler32.New() },
	}
	for name, size := range digestSizes {
		ctor, ok := std[name]
		if !ok {
			if !strings.Contains(strings.SplitN(name, "/", 2)[0], ".") {
				t.Errorf("%s: a standard constructor that this test does not check", name)
			}
			continue
		}
		if got := int64(ctor().Size()); got != size {
			t.Errorf("%s: digestSizes says %d, the hasher's Size is %d", name, size, got)
		}
		if _, ok := stdConstructors[name]; !ok {
			t.Errorf("%s: not a known constructor", name)
		}
	}
	for name := range std {
		if _, ok := digestSizes[name]; !ok {
			t.Errorf("%s: no digest size", name)
		}
	}
}
