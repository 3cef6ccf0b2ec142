package hashpool

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"hash/adler32"
	"hash/crc32"
	"hash/fnv"
	"sync"
)

// Pool is a pool of reusable hashers of one kind. It is safe for concurrent
// use. A Pool must not be copied after first use.
type Pool struct {
	pool sync.Pool
}

// New returns a pool whose hashers are created by newHash. Each call of
// newHash must return a new, independent hasher.
func New(newHash func() hash.Hash) *Pool {
	p := new(Pool)
	p.pool.New = func() any { return newHash() }
	return p
}

// Get returns a hasher in the reset (fresh) state, taken from the pool or
// newly created. Give it back with Put once its sum has been taken.
func (p *Pool) Get() hash.Hash {
	return p.pool.Get().(hash.Hash)
}

// Put resets h, so that no data from one user reaches the next, and returns
// it to the pool. h must have come from p.Get, must not be put back twice
// and must not be used after Put. Put(nil) does nothing.
func (p *Pool) Put(h hash.Hash) {
	if h == nil {
		return
	}
	h.Reset()
	p.pool.Put(h)
}

// Ready-made pools, one for each hasher of the standard library. The SHA-3
// pools, whose package is Go 1.24's, are in pool_sha3.go.
var (
	SHA256     = New(sha256.New)                                  // SHA-256 (crypto/sha256)
	SHA224     = New(sha256.New224)                               // SHA-224 (crypto/sha256)
	SHA512     = New(sha512.New)                                  // SHA-512 (crypto/sha512)
	SHA384     = New(sha512.New384)                               // SHA-384 (crypto/sha512)
	SHA512_224 = New(sha512.New512_224)                           // SHA-512/224 (crypto/sha512)
	SHA512_256 = New(sha512.New512_256)                           // SHA-512/256 (crypto/sha512)
	SHA1       = New(sha1.New)                                    // SHA-1 (crypto/sha1)
	MD5        = New(md5.New)                                     // MD5 (crypto/md5)
	FNV32      = New(func() hash.Hash { return fnv.New32() })     // 32-bit FNV-1 (hash/fnv)
	FNV32a     = New(func() hash.Hash { return fnv.New32a() })    // 32-bit FNV-1a (hash/fnv)
	FNV64      = New(func() hash.Hash { return fnv.New64() })     // 64-bit FNV-1 (hash/fnv)
	FNV64a     = New(func() hash.Hash { return fnv.New64a() })    // 64-bit FNV-1a (hash/fnv)
	FNV128     = New(fnv.New128)                                  // 128-bit FNV-1 (hash/fnv)
	FNV128a    = New(fnv.New128a)                                 // 128-bit FNV-1a (hash/fnv)
	CRC32      = New(func() hash.Hash { return crc32.NewIEEE() }) // CRC-32, IEEE polynomial (hash/crc32)
	Adler32    = New(func() hash.Hash { return adler32.New() })   // Adler-32 (hash/adler32)
)
