// Package checksflag is analyzed with -checks=all,-hmac-rekey: a check that
// is turned off reports nothing, the others report as usual, and a
// //hashalloc:ignore comment that names no check is reported.
package checksflag

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
)

// Signer signs with a key fixed when it is built.
type Signer struct {
	key []byte
}

// Sign re-keys an HMAC per call: hmac-rekey, which is turned off.
func (s *Signer) Sign(m []byte) []byte {
	mac := hmac.New(sha256.New, s.key)
	mac.Write(m)
	return mac.Sum(nil)
}

// Verify allocates a sum per message only to compare it: sum-alloc.
func Verify(msgs, sums [][]byte) int {
	bad := 0
	for i, m := range msgs {
		h := sha256.New()
		h.Write(m)
		if !bytes.Equal(h.Sum(nil), sums[i]) { // want `^sum-alloc: h\.Sum\(nil\) allocates`
			bad++
		}
	}
	return bad
}

// Misspelt names a check that does not exist, and so ignores nothing.
func Misspelt(msgs, sums [][]byte) int {
	bad := 0
	for i, m := range msgs {
		h := sha256.New()
		h.Write(m)
		ok := bytes.Equal(h.Sum(nil), sums[i]) /* want `^sum-alloc: ` `^directive: //hashalloc:ignore names "sum-aloc", which is not a check \(did you mean sum-alloc\?\), so it ignores nothing` */ //hashalloc:ignore sum-aloc
		if !ok {
			bad++
		}
	}
	return bad
}

// Ignored names a check that does exist, among others.
func Ignored(msgs, sums [][]byte) int {
	bad := 0
	for i, m := range msgs {
		h := sha256.New()
		h.Write(m)
		if !bytes.Equal(h.Sum(nil), sums[i]) { //hashalloc:ignore hot-buffer sum-alloc -- measured
			bad++
		}
	}
	return bad
}
