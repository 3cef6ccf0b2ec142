package fixedinline

import (
	"bytes"
	"crypto"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"hash"
	"io"
	"sync"
	"sync/atomic"

	"golang.org/x/crypto/blake2b"
)

// HoistReset hashes msg, read through r, once per iteration of the loop that
// more drives, and returns the last digest appended to out[:0].
func HoistReset(more func() bool, r *bytes.Reader, msg, out []byte) []byte {
	h := sha256.New()
	for more() {
		h.Reset()
		r.Reset(msg)
		if _, err := io.Copy(h, r); err != nil {
			panic(err)
		}
		out = h.Sum(out[:0])
	}
	return out
}

// sha256Pool reuses sha256.New hashers.
var sha256Pool = sync.Pool{New: func() any { return sha256.New() }}

// Digest returns the SHA-256 of what r holds, appended to out[:0].
//
//hashalloc:hot
func Digest(r io.Reader, out []byte) []byte {
	h := sha256Pool.Get().(hash.Hash)
	defer sha256Pool.Put(h)
	h.Reset()
	if _, err := io.Copy(h, r); err != nil {
		panic(err)
	}
	return h.Sum(out[:0])
}

// TreeHasher hashes a Merkle tree's nodes with the crypto.Hash it embeds,
// which its user chooses, as transparency-dev/merkle's and trillian's do.
type TreeHasher struct{ crypto.Hash }

// pooledHashes holds the hashers of each crypto.Hash, by its value.
var pooledHashes [crypto.BLAKE2b_512 + 1]sync.Pool

// pooledHash returns a hasher of h, reset, from pooledHashes, or h.New().
func pooledHash(h crypto.Hash) hash.Hash {
	if h < crypto.Hash(len(pooledHashes)) {
		if x, ok := pooledHashes[h].Get().(hash.Hash); ok {
			x.Reset()
			return x
		}
	}
	return h.New()
}

// HashLeaf returns the hash of leaf, appended to out[:0].
//
//hashalloc:hot
func (t *TreeHasher) HashLeaf(leaf, out []byte) []byte {
	h := pooledHash(t.Hash)
	defer pooledHashes[t.Hash].Put(h)
	h.Write(leaf)
	return h.Sum(out[:0])
}

// FuncTree hashes a Merkle tree's nodes with the hash function it is built
// with, as cbergoon/merkletree's hashStrategy, one of the standard
// constructors that NewFuncTree chooses.
type FuncTree struct {
	newHash     func() hash.Hash
	newHashPool sync.Pool
}

// NewFuncTree returns a FuncTree that hashes with SHA-256, or SHA-1 when
// legacy is set.
func NewFuncTree(legacy bool) *FuncTree {
	if legacy {
		return &FuncTree{newHash: sha1.New}
	}
	return &FuncTree{newHash: sha256.New}
}

// pooledHasher returns a hasher of pool, reset, or newHash() when pool is
// empty.
func pooledHasher(pool *sync.Pool, newHash func() hash.Hash) hash.Hash {
	if h, ok := pool.Get().(hash.Hash); ok {
		h.Reset()
		return h
	}
	return newHash()
}

// Node returns the hash of the node whose children hash to l and r,
// appended to out[:0].
//
//hashalloc:hot
func (t *FuncTree) Node(l, r, out []byte) []byte {
	h := pooledHasher(&t.newHashPool, t.newHash)
	defer t.newHashPool.Put(h)
	h.Write(l)
	h.Write(r)
	return h.Sum(out[:0])
}

// Signer signs messages with HMAC-SHA256 under a key fixed when it is built.
type Signer struct {
	key     []byte
	keyMACs hmacPool
}

// NewSigner returns a Signer that signs with key.
func NewSigner(key []byte) *Signer { return &Signer{key: key} }

// hmacPool reuses the HMACs of one key and hash function at a time. Its zero
// value is ready to use. get compares the key (in constant time) and the hash
// function with those of the pooled HMACs on every call, and starts afresh
// when either changed: a MAC is never handed out for another key.
type hmacPool struct {
	keyed atomic.Value // *hmacPoolKeyed
}

// hmacPoolKeyed is the pool of the HMACs of one key and hash function.
type hmacPoolKeyed struct {
	id   any
	key  []byte
	pool sync.Pool
}

// hmacPoolMAC is an HMAC taken from an hmacPool.
type hmacPoolMAC struct {
	hash.Hash
	keyed *hmacPoolKeyed
	sum   []byte // space to compute a sum in without allocating, zeroed by put
}

// get returns an HMAC of newHash, identified by id, keyed with key.
func (p *hmacPool) get(id any, newHash func() hash.Hash, key []byte) *hmacPoolMAC {
	k, _ := p.keyed.Load().(*hmacPoolKeyed)
	if k == nil || k.id != id || subtle.ConstantTimeCompare(k.key, key) != 1 {
		k = &hmacPoolKeyed{id: id, key: append([]byte(nil), key...)}
		p.keyed.Store(k)
	}
	if m, ok := k.pool.Get().(*hmacPoolMAC); ok {
		return m
	}
	return &hmacPoolMAC{Hash: hmac.New(newHash, k.key), keyed: k}
}

// put resets m and gives it back, unless its key is no longer the pool's.
func (p *hmacPool) put(m *hmacPoolMAC) {
	for i := range m.sum {
		m.sum[i] = 0
	}
	if k, _ := p.keyed.Load().(*hmacPoolKeyed); k == m.keyed {
		m.Reset()
		k.pool.Put(m)
	}
}

// Sign returns the HMAC-SHA256 of msg under s.key, appended to out[:0].
func (s *Signer) Sign(msg, out []byte) []byte {
	mac := s.keyMACs.get("sha256.New", sha256.New, s.key)
	defer s.keyMACs.put(mac)
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// hmacPoolEqual reports whether mac is the HMAC of the data written to m, in
// constant time, as hmac.Equal(m.Sum(nil), mac) does, but without allocating:
// it sums into m's own space, which is allocated once per MAC and zeroed when
// m is put back.
func hmacPoolEqual(m *hmacPoolMAC, mac []byte) bool {
	m.sum = m.Sum(m.sum[:0])
	return hmac.Equal(m.sum, mac)
}

// Verify reports whether sig is the HMAC-SHA256 of msg under s.key, in
// constant time.
func (s *Signer) Verify(msg, sig []byte) bool {
	mac := s.keyMACs.get("sha256.New", sha256.New, s.key)
	defer s.keyMACs.put(mac)
	mac.Write(msg)
	return hmacPoolEqual(mac, sig)
}

// appendHMACSHA256 appends to dst the HMAC of the concatenation of parts under
// key, the MAC that hmac.New(sha256.New, key) computes (RFC 2104), with its
// hasher and its pad on the stack: it allocates nothing but what dst needs. A
// copy of hashsum.AppendHMACSHA256 (github.com/hashalloc/hashalloc/runtime),
// declared by hashalloc -fix.
func appendHMACSHA256(dst, key []byte, parts ...[]byte) []byte {
	var pad [sha256.BlockSize]byte
	if len(key) > len(pad) {
		k := sha256.Sum256(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= 0x36 // ipad
	}
	h := sha256.New()
	h.Write(pad[:])
	for _, part := range parts {
		h.Write(part)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	for i := range pad {
		pad[i] ^= 0x36 ^ 0x5c // ipad, then opad
	}
	h.Reset()
	h.Write(pad[:])
	h.Write(sum[:])
	h.Sum(sum[:0])
	return append(dst, sum[:]...)
}

// MAC returns the HMAC-SHA256 of msg under key, appended to out[:0]. Its
// callers pass a different key from one call to the next.
//
//hashalloc:hot
func MAC(key, msg, out []byte) []byte {
	return appendHMACSHA256(out[:0], key, msg)
}

// MACWith returns the HMAC of msg under key with the hash h, which its
// caller chooses (a JWT library's HS256/384/512), appended to out[:0].
//
//hashalloc:hot
func MACWith(h crypto.Hash, key, msg, out []byte) []byte {
	return appendHMAC(h, out[:0], key, msg)
}

// appendHMACSHA1 appends to dst the HMAC of the concatenation of parts under
// key, the MAC that hmac.New(sha1.New, key) computes (RFC 2104), with its
// hasher and its pad on the stack: it allocates nothing but what dst needs. A
// copy of hashsum.AppendHMACSHA1 (github.com/hashalloc/hashalloc/runtime),
// declared by hashalloc -fix.
func appendHMACSHA1(dst, key []byte, parts ...[]byte) []byte {
	var pad [sha1.BlockSize]byte
	if len(key) > len(pad) {
		k := sha1.Sum(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= 0x36 // ipad
	}
	h := sha1.New()
	h.Write(pad[:])
	for _, part := range parts {
		h.Write(part)
	}
	var sum [20]byte
	h.Sum(sum[:0])
	for i := range pad {
		pad[i] ^= 0x36 ^ 0x5c // ipad, then opad
	}
	h.Reset()
	h.Write(pad[:])
	h.Write(sum[:])
	h.Sum(sum[:0])
	return append(dst, sum[:]...)
}

// appendHMAC appends to dst the HMAC of the concatenation of parts under key
// with the hash h, the MAC that hmac.New(h.New, key) computes: with the
// one-shot HMACs declared in this file for the hashes this package names, and
// with crypto/hmac for any other. A copy of hashsum.AppendHMAC
// (github.com/hashalloc/hashalloc/runtime), declared by hashalloc -fix.
func appendHMAC(h crypto.Hash, dst, key []byte, parts ...[]byte) []byte {
	switch h {
	case crypto.SHA1:
		return appendHMACSHA1(dst, key, parts...)
	case crypto.SHA256:
		return appendHMACSHA256(dst, key, parts...)
	}
	m := hmac.New(h.New, key) //hashalloc:ignore hmac-rekey -- a hash without a one-shot HMAC in this file
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(dst)
}

// MACChosen returns the HMAC of msg under key, with SHA-256 when v2 is set
// and SHA-1 otherwise (a presigned URL's two versions), appended to out[:0].
//
//hashalloc:hot
func MACChosen(v2 bool, key, msg, out []byte) []byte {
	var mac crypto.Hash
	if v2 {
		mac = crypto.SHA256
	} else {
		mac = crypto.SHA1
	}
	return appendHMAC(mac, out[:0], key, msg)
}

// appendHMACFunc appends to dst the HMAC of the concatenation of parts under
// key with the hash that fn makes, the MAC that hmac.New(fn, key) computes (RFC
// 2104). It calls fn once and uses its hasher for the inner and the outer hash:
// it allocates that hasher and nothing else but what dst needs. The padded key
// lives in a scratch buffer from appendHMACFuncScratch, cleared after use. A
// copy of hashsum.AppendHMACFunc (github.com/hashalloc/hashalloc/runtime),
// declared by hashalloc -fix.
func appendHMACFunc(fn func() hash.Hash, dst, key []byte, parts ...[]byte) []byte {
	h := fn()
	bs := h.BlockSize()
	need := bs + h.Size()
	sp, _ := appendHMACFuncScratch.Get().(*[]byte)
	if sp == nil || cap(*sp) < need {
		s := make([]byte, need)
		sp = &s
	}
	s := (*sp)[:need]
	pad := s[:bs]
	n := len(key)
	if n > bs {
		h.Write(key)
		n = copy(pad, h.Sum(s[:0])) // a key longer than a block is hashed first
		h.Reset()
	} else {
		copy(pad, key)
	}
	for i := n; i < bs; i++ {
		pad[i] = 0
	}
	for i := range pad {
		pad[i] ^= 0x36 // ipad
	}
	h.Write(pad)
	for _, p := range parts {
		h.Write(p)
	}
	inner := h.Sum(s[bs:bs])
	for i := range pad {
		pad[i] ^= 0x36 ^ 0x5c // ipad, then opad
	}
	h.Reset()
	h.Write(pad)
	h.Write(inner)
	dst = append(dst, h.Sum(s[:0])...)
	for i := range s {
		s[i] = 0
	}
	appendHMACFuncScratch.Put(sp)
	return dst
}

// appendHMACFuncScratch holds the scratch buffers of appendHMACFunc.
var appendHMACFuncScratch sync.Pool

// MACFunc returns the HMAC of msg under key with the hash that newHash
// makes, which its caller chooses (a JWE content cipher's), appended to
// out[:0].
//
//hashalloc:hot
func MACFunc(newHash func() hash.Hash, key, msg, out []byte) []byte {
	return appendHMACFunc(newHash, out[:0], key, msg)
}

// MACPrefix returns the first n bytes of the HMAC of msg under key with the
// hash that newHash makes, and an error when the HMAC is shorter than n, as
// a PRF with an output length is computed.
//
//hashalloc:hot
func MACPrefix(newHash func() hash.Hash, key, msg []byte, n int) ([]byte, error) {
	mac := appendHMACFunc(newHash, nil, key, msg)
	if n > len(mac) {
		return nil, fmt.Errorf("output length %d is longer than the HMAC's %d bytes", n, len(mac))
	}
	return mac[:n], nil
}

// sha256Parts returns the sha256 sum of the concatenation of parts, written one
// after another into a hasher that stays on the stack.
func sha256Parts(parts ...[]byte) (sum [32]byte) {
	h := sha256.New()
	for _, part := range parts {
		h.Write(part)
	}
	h.Sum(sum[:0])
	return sum
}

// SumPair returns the SHA-256 of a followed by b.
func SumPair(a, b []byte) [sha256.Size]byte {
	return sha256Parts(a, b)
}

// doubleSumParts returns doubleSum of the concatenation of parts, the sum of
// their sum, without building it: the parts are hashed one after another.
func doubleSumParts(parts ...[]byte) [32]byte {
	first := sha256Parts(parts...)
	return sha256Parts(first[:])
}

// DoubleSumPair returns the SHA-256 of the SHA-256 of a followed by b, as a
// block header's double hash is computed.
func DoubleSumPair(a, b []byte) [sha256.Size]byte {
	return doubleSumParts(a, b)
}

// Node is a node of a tree whose hash covers a header of every node.
type Node struct {
	ID       uint64
	Children []*Node
}

// pooledBytesPool holds the buffers of pooledBytes.
var pooledBytesPool = sync.Pool{New: func() any { return new([]byte) }}

// pooledBytes returns n zeroed bytes, like make([]byte, n), taken from
// pooledBytesPool, and the pointer to give back to it with Put once they are no
// longer used.
func pooledBytes(n int) ([]byte, *[]byte) {
	p := pooledBytesPool.Get().(*[]byte)
	if cap(*p) < n {
		*p = make([]byte, n)
	}
	b := (*p)[:n]
	for i := range b {
		b[i] = 0
	}
	return b, p
}

// WriteTree writes to h a header of size bytes for n, with its ID in the
// first eight, then the headers of its children.
func WriteTree(h hash.Hash, n *Node, size int) {
	buf, bufPtr := pooledBytes(size)
	defer pooledBytesPool.Put(bufPtr)
	binary.BigEndian.PutUint64(buf, n.ID)
	h.Write(buf)
	for _, c := range n.Children {
		WriteTree(h, c, size)
	}
}

// CountMatches hashes msg once per iteration of the loop that more drives and
// counts the digests equal to want.
func CountMatches(more func() bool, msg, want []byte) int {
	n := 0
	for more() {
		h := sha256.New()
		h.Write(msg)
		var sum [32]byte
		if bytes.Equal(h.Sum(sum[:0]), want) {
			n++
		}
	}
	return n
}

// LeafSum returns the hash of leaf, appended to out[:0], with the hasher of
// a constant crypto.Hash.
//
//hashalloc:hot
func LeafSum(leaf, out []byte) []byte {
	h := sha256.New()
	h.Write(leaf)
	return h.Sum(out[:0])
}

// NameSum returns the hash of a name in a namespace, appended to out[:0],
// with a hasher made for sumName, as a UUID's NewHash(md5.New(), ns, name).
//
//hashalloc:hot
func NameSum(ns, name, out []byte) []byte {
	h := sha256Pool.Get().(hash.Hash)
	h.Reset()
	defer sha256Pool.Put(h)
	return sumName(h, ns, name, out)
}

// sumName writes ns and name to h and returns its sum, appended to out[:0].
func sumName(h hash.Hash, ns, name, out []byte) []byte {
	h.Reset()
	h.Write(ns)
	h.Write(name)
	return h.Sum(out[:0])
}

// EntrySum returns the hash of an entry's ID followed by its body, appended
// to out[:0]: the ID is written by binary.Write.
//
//hashalloc:hot
func EntrySum(id uint64, body, out []byte) []byte {
	h := sha256.New()
	h.Write(binary.BigEndian.AppendUint64(make([]byte, 0, 8), id))
	h.Write(body)
	return h.Sum(out[:0])
}

// SignAll signs msg under key once per iteration of the loop that more
// drives, and returns the last MAC appended to out[:0].
func SignAll(more func() bool, key, msg, out []byte) []byte {
	mac := hmac.New(sha256.New, key)
	for more() {
		mac.Reset()
		mac.Write(msg)
		out = mac.Sum(out[:0])
	}
	return out
}

// SignEach signs msg under key once per iteration of the loop that more
// drives, through a helper, and returns the last MAC appended to out[:0].
func SignEach(more func() bool, key, msg, out []byte) []byte {
	var keyMAC hash.Hash
	for more() {
		out = signInto(&keyMAC, key, msg, out)
	}
	return out
}

// signInto returns the HMAC-SHA256 of msg under key, appended to out[:0].
func signInto(keyMAC *hash.Hash, key, msg, out []byte) []byte {
	// *keyMAC keeps the MAC of key across its caller's loop:
	// made by the first call, Reset by the next ones.
	mac := *keyMAC
	if mac == nil {
		mac = hmac.New(sha256.New, key)
		*keyMAC = mac
	} else {
		mac.Reset()
	}
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// MACTrimmed returns the HMAC-SHA256 of msg without its surrounding white
// space under key, appended to out[:0]. Its callers pass a different key
// from one call to the next.
//
//hashalloc:hot
func MACTrimmed(key, msg, out []byte) []byte {
	part := bytes.TrimSpace(msg)
	return appendHMACSHA256(out[:0], key, part)
}

// WritePair returns the SHA-256 of a followed by b, written to a hasher in
// one Write, appended to out[:0].
func WritePair(a, b, out []byte) []byte {
	h := sha256.New()
	h.Write(a)
	h.Write(b)
	return h.Sum(out[:0])
}

// pairBytesSum returns the sum of a followed by b, which its callers only hash.
func pairBytesSum(a, b []byte) [32]byte {
	return sha256Parts(a, b)
}

// BuiltPairSum returns the SHA-256 of a followed by b, as pairBytes builds it.
func BuiltPairSum(a, b []byte) [sha256.Size]byte {
	return pairBytesSum(a, b)
}

// BufferPairSum returns the SHA-256 of a followed by b, written to a buffer.
func BufferPairSum(a, b []byte) [sha256.Size]byte {
	return sha256Parts(a, b)
}

// nodePrefix starts the bytes of every node of a Merkle tree (RFC 6962).
const nodePrefix = 1

// NodeSum returns the hash of a tree's node whose children hash to l and r,
// after the node prefix, appended to out[:0], as transparency-dev's
// HashChildren does.
//
//hashalloc:hot
func NodeSum(l, r, out []byte) []byte {
	h := sha256.New()
	h.Write([]byte{nodePrefix})
	h.Write(l)
	h.Write(r)
	return h.Sum(out[:0])
}

// AppendDigests appends the SHA-256 of msg to dst[:0] once per iteration of
// the loop that more drives, and returns the last.
func AppendDigests(more func() bool, msg, dst []byte) []byte {
	for more() {
		h := sha256.New()
		h.Write(msg)
		dst = h.Sum(dst[:0])
	}
	return dst
}

// KeySum returns the hash of a key of a trie and a byte of its depth, built
// in a buffer whose size is known only at run time, followed by msg,
// appended to out[:0], as merkledb's hashChangedNode builds its keys.
//
//hashalloc:hot
func KeySum(key []byte, depth byte, msg, out []byte) []byte {
	var bufArray [128]byte
	var buf []byte
	if size := len(key) + 1; size <= len(bufArray) {
		buf = bufArray[:size:size]
	} else {
		buf = make([]byte, size)
	}
	n := copy(buf, key)
	buf[n] = depth
	h := sha256.New()
	h.Write(buf)
	h.Write(msg)
	return h.Sum(out[:0])
}

// digestOf returns the SHA-256 of b, written to a hasher: a helper that
// only hashes its argument.
func digestOf(b []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write(b)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// digestOfParts is digestOf of the concatenation of b, which it hashes one
// after another instead of building it.
func digestOfParts(b ...[]byte) [sha256.Size]byte {
	h := sha256.New()
	for _, part := range b {
		h.Write(part)
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// Digest256 returns the SHA-256 of b: the floor of the variadic form of a
// helper, the whole message built once.
func Digest256(b []byte) [sha256.Size]byte {
	return digestOf(b)
}

// PairDigest returns the SHA-256 of a followed by b, by digestOf.
func PairDigest(a, b []byte) [sha256.Size]byte {
	return digestOfParts(a, b)
}

// Filter derives a Bloom filter's locations from a key's hash, with the
// hasher it keeps.
type Filter struct {
	h    hash.Hash
	hSum [32]byte
}

// NewFilter returns a Filter that hashes with SHA-256.
func NewFilter() *Filter { return &Filter{h: sha256.New()} }

// Location returns the first location of key, the first eight bytes of its
// hash.
//
//hashalloc:hot
func (f *Filter) Location(key []byte) uint64 {
	f.h.Reset()
	f.h.Write(key)
	sum := f.h.Sum(f.hSum[:0])
	return binary.BigEndian.Uint64(sum)
}

// Checker checks messages' HMAC-SHA256 under a key fixed when it is built.
type Checker struct {
	key     []byte
	keyMACs hmacPool
}

// NewChecker returns a Checker that checks MACs under key.
func NewChecker(key []byte) *Checker { return &Checker{key: key} }

// sign returns the HMAC-SHA256 of msg under c.key.
func (c *Checker) sign(msg []byte) []byte {
	mac := c.keyMACs.get("sha256.New", sha256.New, c.key)
	defer c.keyMACs.put(mac)
	mac.Write(msg)
	return mac.Sum(nil)
}

// signEqual reports whether want is the MAC that sign returns, comparing in
// constant time without allocating the sum.
func (c *Checker) signEqual(msg, want []byte) bool {
	mac := c.keyMACs.get("sha256.New", sha256.New, c.key)
	defer c.keyMACs.put(mac)
	mac.Write(msg)
	return hmacPoolEqual(mac, want)
}

// Sign returns the HMAC-SHA256 of msg under c.key.
func (c *Checker) Sign(msg []byte) []byte {
	return c.sign(msg)
}

// Check reports whether sig is the HMAC-SHA256 of msg under c.key, in
// constant time.
func (c *Checker) Check(msg, sig []byte) bool {
	return c.signEqual(msg, sig)
}

// Blake2bSum returns the BLAKE2b-256 of msg, appended to out[:0], with a
// hasher made, written and summed once.
//
//hashalloc:hot
func Blake2bSum(msg, out []byte) []byte {
	sum := blake2b.Sum256(msg)
	return append(out[:0], sum[:]...)
}

// blake2bNew256Pool reuses the hashers that blake2b.New256(nil) makes: Reset
// restores each to the state the call makes it in.
var blake2bNew256Pool = sync.Pool{New: func() any { h, _ := blake2b.New256(nil); return h }}

// Blake2bDigest returns the BLAKE2b-256 of what r holds, appended to
// out[:0].
//
//hashalloc:hot
func Blake2bDigest(r io.Reader, out []byte) []byte {
	h := blake2bNew256Pool.Get().(hash.Hash)
	defer blake2bNew256Pool.Put(h)
	h.Reset()
	if _, err := io.Copy(h, r); err != nil {
		panic(err)
	}
	return h.Sum(out[:0])
}

// newBranchHasher returns a BLAKE2b-256 hasher, as kaspad's
// NewMerkleBranchHashWriter does.
func newBranchHasher() hash.Hash {
	h, _ := blake2b.New256(nil)
	return h
}

// newBranchHasherPool reuses the hashers that newBranchHasher() returns: Reset
// restores each to the state the call returns it in.
var newBranchHasherPool = sync.Pool{New: func() any { return newBranchHasher() }}

// BranchSum returns the hash of the branch whose children hash to l and r,
// appended to out[:0].
//
//hashalloc:hot
func BranchSum(l, r, out []byte) []byte {
	h := newBranchHasherPool.Get().(hash.Hash)
	defer newBranchHasherPool.Put(h)
	h.Reset()
	h.Write(l)
	h.Write(r)
	return h.Sum(out[:0])
}

// bytes32Pool reuses 32-byte buffers.
var bytes32Pool = sync.Pool{New: func() any { return new([32]byte) }}

// DigestMatches reports whether what r holds hashes to want.
//
//hashalloc:hot
func DigestMatches(r io.Reader, want []byte) bool {
	h := sha256Pool.Get().(hash.Hash)
	defer sha256Pool.Put(h)
	h.Reset()
	if _, err := io.Copy(h, r); err != nil {
		panic(err)
	}
	sum := bytes32Pool.Get().(*[32]byte)
	defer bytes32Pool.Put(sum)
	return bytes.Equal(h.Sum(sum[:0]), want)
}

// MACPrinted returns the HMAC-SHA256 of id and n printed as "id:n:", then
// msg, under key, appended to out[:0], as x/net's xsrftoken prints its parts
// into the MAC. Its callers pass a different key from one call to the next.
//
//hashalloc:hot
func MACPrinted(key []byte, id string, n int, msg, out []byte) []byte {
	part := fmt.Appendf(make([]byte, 0, 64), "%s:%d:", id, n)
	return appendHMACSHA256(out[:0], key, part, msg)
}

// HashWriter is a hasher in a struct of one field that embeds it, as
// kaspad's hashes.HashWriter.
type HashWriter struct{ hash.Hash }

// newHashWriter returns a HashWriter of a BLAKE2b-256 hasher.
func newHashWriter() HashWriter {
	h, _ := blake2b.New256(nil)
	return HashWriter{h}
}

// newHashWriterPool reuses the hashers that newHashWriter() returns: Reset
// restores each to the state the call returns it in.
var newHashWriterPool = sync.Pool{New: func() any { return newHashWriter().Hash }}

// WriterSum returns the hash of the branch whose children hash to l and r,
// written through a HashWriter, appended to out[:0].
//
//hashalloc:hot
func WriterSum(l, r, out []byte) []byte {
	w := HashWriter{Hash: newHashWriterPool.Get().(hash.Hash)}
	defer newHashWriterPool.Put(w.Hash)
	w.Reset()
	w.Write(l)
	w.Write(r)
	return w.Sum(out[:0])
}

// apiKey is the key of the package's API signatures.
var apiKey = []byte("the key of the package's API")

// apiKeyMACs reuses the HMACs keyed with apiKey.
var apiKeyMACs hmacPool

// SignAPI returns the HMAC-SHA256 of msg under apiKey, appended to out[:0].
func SignAPI(msg, out []byte) []byte {
	mac := apiKeyMACs.get("sha256.New", sha256.New, apiKey)
	defer apiKeyMACs.put(mac)
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// Truncated is a SHA-256 digest with its top two bits cleared, as the nodes
// of go-data-segment's Merkle tree.
type Truncated [sha256.Size]byte

// truncatedSum returns the truncated SHA-256 of a followed by b, as
// go-data-segment's computeNode: its callers only copy what it points to.
func truncatedSum(a, b []byte) *Truncated {
	t := truncatedSumValue(a, b)
	return &t
}

// truncatedSumValue returns by value the digest that truncatedSum returns a
// pointer to: truncatedSum, inlined into its callers, keeps it on their stack.
func truncatedSumValue(a, b []byte) (t Truncated) {
	h := sha256.New()
	h.Write(a)
	h.Write(b)
	h.Sum(t[:0])
	truncate(&t)
	return t
}

// truncate clears the top two bits of t and returns it.
func truncate(t *Truncated) *Truncated {
	t[31] &= 0x3f
	return t
}

// TruncatedPairSum returns the truncated SHA-256 of a followed by b.
//
//hashalloc:hot
func TruncatedPairSum(a, b []byte) Truncated {
	return *truncatedSum(a, b)
}

// SignFormatted returns the MAC that h computes of an ID, a timestamp and a
// payload formatted as a webhook signer formats them, appended to out[:0]:
// the string is formatted, then copied by []byte, only to be hashed.
//
//hashalloc:hot
func SignFormatted(h hash.Hash, id string, ts int64, payload, out []byte) []byte {
	h.Reset()
	fmt.Fprintf(h, "%s.%d.%s", id, ts, payload)
	return h.Sum(out[:0])
}
