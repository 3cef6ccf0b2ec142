package hashpool

import (
	"bytes"
	"crypto"
	"crypto/hmac"
	"crypto/subtle"
	"hash"
	"sync"
	"sync/atomic"
	"unsafe"
)

// HMAC is a pool of keyed HMAC hashers for one key at a time. The zero value
// is ready to use, and an HMAC is safe for concurrent use.
//
// Every Get names the hash function and the key, and gets a MAC for exactly
// those: the pool keeps its own copy of the key its MACs were made with and
// compares it with the caller's key, in constant time, on every Get. When the
// key or the hash function differs (a rotated key, a key changed in place, a
// second hash), the pool starts a new generation for the new key and drops
// the MACs of older generations as they are put back. So code can hold an
// HMAC beside its key without a constructor to set it up, and one MAC is
// never answered with another key's state.
//
// An HMAC belongs to the value that holds the key: keep it in a field beside
// the key (or a variable beside a package-level key) and let it be collected
// with that value. Its pooled MACs and its copy of the key go with it: the
// runtime lets go of a sync.Pool's contents within two garbage collections
// after its last use. There is deliberately no package-level cache keyed by
// secret keys: such a cache would keep every key, rotated ones too, alive for
// the life of the process, grow without bound and hand out keyed state by key
// lookup.
//
// An HMAC holds no lock and may be copied, for example as part of a struct
// passed by value (go vet does not object). A copy shares the pool and its
// MACs with the original until one of them starts a new generation. A copy
// made for each call, such as the receiver of a value method, gets little
// reuse: a Get that starts a new generation (the first Get on a zero HMAC,
// for one) stores it in the copy, which is discarded with the call. Use
// pointer receivers to share one pool. A Get that re-keys writes to the
// HMAC, so copying an HMAC while another goroutine calls Get on it is a data
// race, as is copying any value that is being written.
//
// A pool serves one key at a time: goroutines that alternate between two
// keys on one HMAC get correct MACs, but re-key (and allocate) often. Give
// each key its own HMAC.
type HMAC struct {
	// gen holds the current *generation, or nothing in the zero value. It is
	// an atomic.Value, not a mutex, a sync.Pool or an atomic.Pointer, because
	// go vet's copylocks check flags copies of those (of a mutex for its Lock
	// method, of the others for their noCopy field) and an HMAC must be
	// copyable; the copies share the generation.
	gen atomic.Value
}

// generation is the state of a pool for one key and one hash function. It
// does not change once stored: a new key or hash makes a new generation.
type generation struct {
	key     []byte           // the pool's own copy of the key
	newHash func() hash.Hash // the hash function; kept so that fn stays unique (see funcID)
	fn      unsafe.Pointer   // funcID(newHash) for Get, nil for GetHash
	ch      crypto.Hash      // the crypto.Hash for GetHash, 0 for Get
	pool    sync.Pool        // of *MAC with gen == this generation
}

// MAC is a keyed HMAC hasher taken from an HMAC pool. It embeds the
// hash.Hash that hmac.New returns, so it is used as one: Write, Sum (which
// appends the HMAC of the data written since the last Reset), Reset (back to
// the keyed initial state), and it can be passed wherever a hash.Hash is
// expected.
//
// To check a MAC received with a message, write the message and call Equal,
// which compares in constant time without allocating, where
// hmac.Equal(m.Sum(nil), mac) allocates the sum.
//
// Give a MAC back with Put on the pool it came from. Do not replace the
// embedded Hash: the pool trusts it to be the hasher it made for the MAC's
// key.
type MAC struct {
	hash.Hash
	gen *generation // the generation that made this MAC, and whose key it holds
	sum []byte      // Equal's scratch space: the sum, zeroed after each use
}

// Equal reports whether mac is the HMAC of the data written since the last
// Reset, as hmac.Equal(m.Sum(nil), mac) does: in time that depends on the
// lengths of the MACs but not their contents, and without changing m's state.
//
// Equal sums into space that m keeps for it, so it allocates only on its first
// use by a MAC (a pooled MAC is reused, so that is once per MAC the pool
// makes), where Sum(nil) allocates on every call: Sum is called through the
// hash.Hash interface, so a stack array passed to it would escape too. The
// space is zeroed before Equal returns: it never holds a MAC between calls.
func (m *MAC) Equal(mac []byte) bool {
	m.sum = m.Hash.Sum(m.sum[:0])
	eq := hmac.Equal(m.sum, mac)
	clear(m.sum)
	return eq
}

// Get returns a MAC in the reset state for hmac.New(newHash, key): from the
// pool when its MACs were made with the same hash function and a key of the
// same contents, otherwise newly made, and the pool then re-keys to newHash
// and key. Give it back with Put once its sum has been taken.
//
// The key is compared in constant time, and copied when the pool re-keys: the
// caller may change or reuse its slice at any time, and the next Get sees the
// new contents. Each call of newHash must return a new hasher of the same
// kind, as hmac.New requires. Get panics if newHash is nil.
//
// newHash is identified by its func value (see funcID): pass a top-level
// function such as sha256.New, a func literal that captures no variables
// (the compiler makes it once), or a func value made once and kept. A closure
// or method value created for each call, such as crypto.SHA256.New, is a new
// function to the pool every time: the MACs are still right, but each Get
// re-keys. Use GetHash for a hash named by a crypto.Hash.
func (p *HMAC) Get(newHash func() hash.Hash, key []byte) *MAC {
	fn := funcID(newHash)
	g, _ := p.gen.Load().(*generation)
	if g == nil || g.fn != fn || g.ch != 0 || !g.hasKey(key) {
		if newHash == nil {
			panic("hashpool: HMAC.Get with a nil hash function")
		}
		return p.rekey(&generation{key: bytes.Clone(key), newHash: newHash, fn: fn})
	}
	return g.get()
}

// GetHash is Get for hmac.New(h.New, key). A crypto.Hash is compared by
// value, so a pool used with GetHash(crypto.SHA256, key) re-keys only when the
// key or the hash changes. GetHash panics, as h.New does, if h is not
// available (its package is not linked into the binary).
func (p *HMAC) GetHash(h crypto.Hash, key []byte) *MAC {
	g, _ := p.gen.Load().(*generation)
	if g == nil || g.fn != nil || g.ch != h || !g.hasKey(key) {
		return p.rekey(&generation{key: bytes.Clone(key), newHash: h.New, ch: h})
	}
	return g.get()
}

// Put resets m, so that no data from one user reaches the next, and returns
// it to the pool. A MAC that was made for another key or hash function (an
// older generation of p), or by another pool, is dropped, never pooled. m
// must not be put back twice and must not be used after Put: another
// goroutine may already have taken it. Put(nil) does nothing.
func (p *HMAC) Put(m *MAC) {
	if m == nil {
		return
	}
	g, _ := p.gen.Load().(*generation)
	if g == nil || m.gen != g {
		return
	}
	m.Reset()
	g.pool.Put(m)
}

// rekey makes g the current generation of p and returns a MAC of g. The MAC
// is made first, so that a hash function that panics leaves p as it was.
// Goroutines that re-key at the same time each store their own generation:
// the last one stays, and the MACs of the others are dropped by Put.
func (p *HMAC) rekey(g *generation) *MAC {
	m := g.newMAC()
	p.gen.Store(g)
	return m
}

// hasKey reports, in time that depends on the lengths but not the contents
// of the keys, whether key equals g's key.
func (g *generation) hasKey(key []byte) bool {
	return subtle.ConstantTimeCompare(g.key, key) == 1
}

// get returns a pooled MAC of g, or a new one.
func (g *generation) get() *MAC {
	if m, _ := g.pool.Get().(*MAC); m != nil {
		return m
	}
	return g.newMAC()
}

func (g *generation) newMAC() *MAC {
	return &MAC{Hash: hmac.New(g.newHash, g.key), gen: g}
}

// funcID returns the identity of the func value f: the address of the
// funcval it points to (the object that holds the code pointer and any
// captured variables), read from the func value's single word. Func values
// are not comparable in Go, and reflect's Value.Pointer is no substitute: it
// returns the code pointer, which every closure of one func literal shares
// with different captured variables, as does every method value of one
// method with different receivers (all crypto.Hash(x).New, for one).
//
// Comparing funcval addresses is sound for the pool because a generation
// keeps its func value, so while the generation is alive its funcval cannot
// be freed and no other func value can have its address. A top-level
// function such as sha256.New is a single static funcval, so it always
// compares equal to itself, wherever the func value was taken. A closure or
// method value created per call is a new funcval each time and compares
// unequal: that is correct, only slower (a re-key per Get), and is why GetHash
// exists for hashes taken from a crypto.Hash, which is comparable.
func funcID(f func() hash.Hash) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&f))
}
