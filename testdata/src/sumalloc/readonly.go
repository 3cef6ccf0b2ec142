package sumalloc

import (
	"crypto/md5"
	"fmt"
	"hash"
)

// A consistent-hash ring's bucket: the digest of a key, of which only two
// bytes are read. The sum is a variable of the function, only read.
func bucket(key []byte, n int) int {
	h := md5.New()
	h.Write(key)
	s := h.Sum(nil) // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of bucket, which CaseBucket calls once per element of items \(the loop at readonly.go:\d+\), only to be read by indexing; automatic fix: sum into a 16-byte array on the stack`
	return (int(s[0])<<8 | int(s[1])) % n
}

var buckets []int

func CaseBucket() {
	buckets = buckets[:0]
	for _, it := range items {
		buckets = append(buckets, bucket(it, 7))
	}
}

func ResultBucket() string {
	CaseBucket()
	return fmt.Sprint(buckets)
}

// ---- Negative cases. ----

// The digest is kept beyond the function: returned with what was read (no
// case runs it: what it keeps allocates).
func bucketKept(h hash.Hash, key []byte, n int) (int, []byte) {
	h.Reset()
	h.Write(key)
	s := h.Sum(nil)
	return int(s[0]) % n, s
}
