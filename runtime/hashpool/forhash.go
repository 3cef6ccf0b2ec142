package hashpool

import "crypto"

// hashPools holds a pool per crypto.Hash value, by that value: every hash of
// package crypto, from crypto.MD4 (1) to crypto.BLAKE2b_512 (19), the last
// that crypto.RegisterHash accepts.
var hashPools [crypto.BLAKE2b_512 + 1]Pool

func init() {
	for i := range hashPools {
		h := crypto.Hash(i)
		hashPools[i].pool.New = func() any { return h.New() }
	}
}

// ForHash returns the pool of the hashers of h, those h.New() returns, for
// code that hashes with a crypto.Hash it is given:
//
//	p := hashpool.ForHash(t.hash)
//	hasher := p.Get()
//	hasher.Write(data)
//	sum = hasher.Sum(sum[:0])
//	p.Put(hasher)
//
// Taking a pool does not allocate. For a value that no hash of package
// crypto has, ForHash returns a new pool, whose Get calls h.New(), which
// panics as it does without a pool; so does Get for a hash that is not
// linked into the binary (h.Available() is false).
func ForHash(h crypto.Hash) *Pool {
	if h < crypto.Hash(len(hashPools)) {
		return &hashPools[h]
	}
	return New(h.New)
}
