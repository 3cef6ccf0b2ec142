package inlinepool

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"io"
)

// sha2 chooses its hasher by the digest size (a SQL engine's SHA2
// function). Each branch takes its hasher from a sync.Pool of the file,
// Reset after Get, and given back with defer; the Sum goes into a pooled
// array of the largest digest, 48 bytes.
func sha2(bits int, s string) string {
	var h hash.Hash
	switch bits {
	case 224:
		h = sha256.New224() // want `hasher-alloc: sha256.New224\(\) escapes to the heap .* once per call of sha2, which CaseSHA2 calls once per element of items \(the loop at branches.go:\d+\); h holds sha256.New224\(\) or sha512.New384\(\), chosen by the switch at branches.go:\d+: one finding for its 2 constructors; automatic fix: take h from a pool of sha256.New224 hashers`
	case 384:
		h = sha512.New384()
	default:
		return ""
	}
	io.WriteString(h, s)
	return hex.EncodeToString(h.Sum(nil)) // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of sha2, .*only to be encoded by hex.EncodeToString; automatic fix: sum into a pooled buffer, as the hasher is pooled`
}

var sha2Digest string

func CaseSHA2() {
	for _, it := range items {
		sha2Digest = sha2(384, string(it))
	}
}

func ResultSHA2() string { return sha2(224, "abc") + sha2(384, "abc") + sha2(1, "abc") }
