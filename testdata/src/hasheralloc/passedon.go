package hasheralloc

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strings"
)

var (
	namespace = []byte("namespace")
	ids       [][16]byte
)

// nameID derives an identifier from a namespace and a name with the hasher it
// is given, as name-based UUIDs do: it calls the hasher's methods through
// hash.Hash and lets it go, so the hasher escapes but is not kept.
func nameID(h hash.Hash, ns, name []byte) (id [16]byte) {
	h.Reset()
	h.Write(ns)
	h.Write(name)
	copy(id[:], h.Sum(nil))
	id[6] = (id[6] & 0x0f) | 0x30
	return id
}

// newMD5ID passes its hasher on without a variable: the fix introduces one,
// taken from a pool and given back when the function returns.
//
//hashalloc:hot
func newMD5ID(name []byte) [16]byte {
	return nameID(md5.New(), namespace, name) // want `hasher-alloc: md5.New\(\) escapes to the heap \(passed to hasheralloc.nameID, which lets it escape: calls Reset through an interface\) once per call of newMD5ID \(it is marked //hashalloc:hot\); automatic fix: take the hasher passed on from a pool of md5\.New hashers`
}

// appendSHA1ID passes it on in an assignment: the hasher goes back to the pool
// right after it.
//
//hashalloc:hot
func appendSHA1ID(name []byte) {
	id := nameID(sha1.New(), namespace, name) // want `hasher-alloc: sha1.New\(\) escapes to the heap \(passed to hasheralloc.nameID, .*\); automatic fix: take the hasher passed on from a pool of sha1\.New hashers`
	ids = append(ids, id)
}

// sumOf hashes b with the hasher it is given and lets it go.
func sumOf(h hash.Hash, b []byte) []byte {
	h.Reset()
	h.Write(b)
	return h.Sum(nil)
}

// stringToSign builds a signer's string to sign, the hash of its request
// deep in an expression (aws-sdk-go-v2's shape).
//
//hashalloc:hot
func stringToSign(scope, request string) string {
	return strings.Join([]string{
		"ALGORITHM",
		scope,
		hex.EncodeToString(sumOf(sha256.New(), []byte(request))), // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to hasheralloc.sumOf, .*\); automatic fix: take the hasher passed on from a pool of sha256\.New hashers`
	}, "\n")
}

// keyed is a hasher kept with its name.
type keyed struct {
	h    hash.Hash
	name string
}

// keep keeps the hasher it is given.
func keep(h hash.Hash, name string) *keyed { return &keyed{h: h, name: name} }

// keepNamed is the twin of newMD5ID whose callee keeps the hasher: it is
// meant to outlive the call, so there is nothing to report, nor to pool.
//
//hashalloc:hot
func keepNamed(name string) *keyed {
	return keep(md5.New(), name)
}

// firstMatch passes its hasher on in an if statement in a loop of a constant
// bound (not per item): a deferred Put would keep every iteration's hasher,
// and Put after the if would not run when it returns, so no fix is offered.
//
//hashalloc:hot
func firstMatch(names [2][]byte, want [16]byte) bool {
	for i := 0; i < 2; i++ {
		if nameID(md5.New(), namespace, names[i]) == want { // want `hasher-alloc: md5.New\(\) escapes to the heap .*; reuse a pooled hasher \(no automatic fix: the hasher is not assigned to a variable, and its statement may branch in a loop, where a deferred Put would keep every iteration's hasher\)`
			return true
		}
	}
	return false
}

func CasePassedOn() {
	ids = ids[:0]
	for _, it := range items {
		newMD5ID(it)
		appendSHA1ID(it)
		stringToSign("scope", string(it))
		keepNamed(string(it))
		firstMatch([2][]byte{it, it}, [16]byte{})
	}
}

func ResultPassedOn() string {
	var b strings.Builder
	for _, it := range items {
		id := newMD5ID(it)
		b.WriteString(hex.EncodeToString(id[:]))
		appendSHA1ID(it)
		b.WriteString(stringToSign("scope", string(it)))
		b.WriteString(keepNamed(string(it)).name)
		if firstMatch([2][]byte{it, namespace}, id) {
			b.WriteString("match")
		}
	}
	for _, id := range ids {
		b.WriteString(hex.EncodeToString(id[:]))
	}
	return b.String()
}
