package inlinepool

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"io"
	"strings"
)

var namespace = []byte("namespace")

// nameID derives an identifier from a namespace and a name with the hasher it
// is given, as name-based UUIDs do: it lets the hasher go.
func nameID(h hash.Hash, ns, name []byte) (id [16]byte) {
	h.Reset()
	h.Write(ns)
	h.Write(name)
	copy(id[:], h.Sum(nil))
	id[6] = (id[6] & 0x0f) | 0x30
	return id
}

// newMD5ID passes its hasher on without a variable: the fix introduces one,
// taken from a sync.Pool declared in the file.
//
//hashalloc:hot
func newMD5ID(name []byte) [16]byte {
	return nameID(md5.New(), namespace, name) // want `hasher-alloc: md5.New\(\) escapes to the heap \(passed to inlinepool.nameID, which lets it escape: calls Reset through an interface\) once per call of newMD5ID \(it is marked //hashalloc:hot\); automatic fix: take the hasher passed on from a pool of md5\.New hashers`
}

// sumOf hashes b with the hasher it is given and lets it go.
func sumOf(h hash.Hash, b []byte) []byte {
	h.Reset()
	h.Write(b)
	return h.Sum(nil)
}

// requestHash passes it on in an assignment: the hasher goes back to the
// pool right after it.
//
//hashalloc:hot
func requestHash(request string) string {
	sum := sumOf(sha512.New(), []byte(request)) // want `hasher-alloc: sha512.New\(\) escapes to the heap \(passed to inlinepool.sumOf, .*\); automatic fix: take the hasher passed on from a pool of sha512\.New hashers`
	return hex.EncodeToString(sum)
}

// keep keeps the hasher it is given.
func keep(h hash.Hash) []hash.Hash { return []hash.Hash{h} }

// keepOne is the twin of newMD5ID whose callee keeps the hasher: there is
// nothing to report, nor to pool.
//
//hashalloc:hot
func keepOne() []hash.Hash { return keep(md5.New()) }

// payloadHash copies a stream into its hasher, which the hasher-alloc fix
// takes from a pool, and encodes the sum (aws-sdk-go-v2's payload hash): an
// array on the stack passed to the pooled hasher's Sum would escape, so the
// sum goes into a pooled array.
//
//hashalloc:hot
func payloadHash(b []byte) string {
	h := sha1.New() // want `hasher-alloc: sha1.New\(\) escapes to the heap \(passed to io.Copy\) once per call of payloadHash \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of sha1\.New hashers`
	io.Copy(h, bytes.NewReader(b))
	return hex.EncodeToString(h.Sum(nil)) // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of payloadHash \(it is marked //hashalloc:hot\), only to be encoded by hex.EncodeToString; automatic fix: sum into a pooled buffer, as the hasher is pooled`
}

func CasePassedOn() {
	for _, it := range items {
		newMD5ID(it)
		requestHash(string(it))
		keepOne()
		payloadHash(it)
	}
}

func ResultPassedOn() string {
	var b strings.Builder
	for _, it := range items {
		id := newMD5ID(it)
		b.WriteString(hex.EncodeToString(id[:]))
		b.WriteString(requestHash(string(it)))
		b.WriteString(hex.EncodeToString(keepOne()[0].Sum(nil)))
		b.WriteString(payloadHash(it))
	}
	return b.String()
}
