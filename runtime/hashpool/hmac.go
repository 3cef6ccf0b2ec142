package hashpool

import (
	"bytes"
	"crypto/hmac"
	"hash"
	"sync"
)

// HMAC is a pool of HMAC hashers that all share one key. It is safe for
// concurrent use.
//
// An HMAC belongs to the value that holds the key: create it where the key
// is set (for example in a struct constructor) and let it be collected with
// that value. Its pooled hashers and its copy of the key go with it: the
// runtime lets go of a sync.Pool's contents within two garbage collections
// after its last use. There is deliberately no package-level cache keyed by
// secret keys: such a cache would keep every key alive for the life of the
// process and would hand out keyed state by key lookup.
type HMAC struct {
	pool sync.Pool // of *MAC with owner == this HMAC
}

// NewHMAC returns a pool of HMAC hashers that use newHash and key, as built
// by hmac.New(newHash, key). The key is copied, so later changes to the
// caller's slice do not affect the pool.
func NewHMAC(newHash func() hash.Hash, key []byte) *HMAC {
	key = bytes.Clone(key)
	p := new(HMAC)
	p.pool.New = func() any {
		h := hmac.New(newHash, key)
		return &MAC{Hash: h, owner: p, sum: make([]byte, 0, h.Size())}
	}
	return p
}

// MAC is a keyed HMAC hasher taken from an HMAC pool. It implements
// hash.Hash: Sum appends the HMAC of the data written since the last Reset,
// and Reset returns it to the keyed initial state.
//
// Give a MAC back with Put on the pool it came from. Do not replace the
// embedded Hash: the pool trusts it to be the hasher it created.
type MAC struct {
	hash.Hash
	owner *HMAC  // the pool that created this MAC, and whose key it holds
	sum   []byte // scratch space for Equal, with capacity Size()
}

// Get returns a MAC in the keyed, reset state. Give it back with Put once
// its sum has been taken.
func (p *HMAC) Get() *MAC {
	return p.pool.Get().(*MAC)
}

// Put resets m, so that no data from one user reaches the next, and returns
// it to the pool. A MAC that did not come from p (and so may hold another
// key) is dropped, never pooled. m must not be put back twice and must not be
// used after Put. Put(nil) does nothing.
func (p *HMAC) Put(m *MAC) {
	if m == nil || m.owner != p {
		return
	}
	m.Reset()
	p.pool.Put(m)
}

// Sum appends HMAC(key, the concatenation of parts) to dst and returns the
// result. It does not allocate when dst has room for the sum.
func (p *HMAC) Sum(dst []byte, parts ...[]byte) []byte {
	m := p.Get()
	dst = m.sumParts(dst, parts)
	p.Put(m)
	return dst
}

// Equal reports whether mac is HMAC(key, the concatenation of parts). The
// comparison takes constant time (see hmac.Equal). It does not allocate.
func (p *HMAC) Equal(mac []byte, parts ...[]byte) bool {
	m := p.Get()
	sum := m.sumParts(m.sum[:0], parts)
	ok := hmac.Equal(mac, sum)
	clear(sum) // the expected MAC is no business of the next user
	p.Put(m)
	return ok
}

// sumParts writes parts to m and appends the resulting sum to dst.
func (m *MAC) sumParts(dst []byte, parts [][]byte) []byte {
	for _, b := range parts {
		m.Write(b)
	}
	return m.Sum(dst)
}
