package hashsum

import (
	"hash"
	"sync"
)

// AppendHMACFunc appends to dst the HMAC under key of the concatenation of
// parts with the hash that fn makes, and returns the result, as
// hmac.New(fn, key), written parts and summed with Sum(dst), returns: for a
// hash function known only at run time (a parameter, a field, a method
// value). It keeps no key, so it serves keys that change from call to call.
//
// It calls fn once, and uses the hasher fn returns for the inner and the
// outer hash, with Reset between: that hasher is its only allocation beyond
// what dst needs (hmac.New makes five). The padded key and the inner sum,
// which the hasher's Write would make escape, live in a scratch buffer that
// it clears and keeps in a pool between calls; dst is only appended to.
//
// Unlike hmac.New, which calls fn twice, AppendHMACFunc does not notice a fn
// that returns the same hasher every time (hmac.New panics), and does not
// apply the restrictions of FIPS 140-only mode. Like hmac.New, it panics
// when fn is nil.
func AppendHMACFunc(fn func() hash.Hash, dst, key []byte, parts ...[]byte) []byte {
	h := fn()
	bs := h.BlockSize()
	need := bs + h.Size()
	sp, _ := hmacScratch.Get().(*[]byte)
	if sp == nil || cap(*sp) < need {
		s := make([]byte, need)
		sp = &s
	}
	s := (*sp)[:need]
	// The key, padded with zeros to a block; a key longer than a block is
	// hashed first, and its digest cut to a block, as crypto/hmac does.
	pad := s[:bs]
	n := len(key)
	if n > bs {
		h.Write(key)
		n = copy(pad, h.Sum(s[:0])) // the digest is written over pad: a copy onto itself
		h.Reset()
	} else {
		copy(pad, key)
	}
	for i := n; i < bs; i++ {
		pad[i] = 0
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h.Write(pad)
	for _, p := range parts {
		h.Write(p)
	}
	inner := h.Sum(s[bs:bs])
	for i := range pad {
		pad[i] ^= ipad ^ opad
	}
	h.Reset()
	h.Write(pad)
	h.Write(inner)
	// The outer sum goes where the pad was, then to dst: dst handed to the
	// hasher's Sum would escape, and with it a caller's array on the stack.
	dst = append(dst, h.Sum(s[:0])...)
	for i := range s {
		s[i] = 0 // no key bytes are left in the pool
	}
	hmacScratch.Put(sp)
	return dst
}

// hmacScratch holds AppendHMACFunc's scratch buffers (a *[]byte each, which
// goes into the pool without allocating).
var hmacScratch sync.Pool
