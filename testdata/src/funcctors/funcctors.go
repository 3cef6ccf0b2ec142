// Package funcctors holds hashers made by calls of function values: a
// registry of hash functions, a field, a parameter, an interface method. The
// compiler does not inline such a call, so each hasher reaches the heap.
package funcctors

import (
	"crypto"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"fmt"
	"hash"
)

// algos is a registry of hash functions that only the package fills.
var algos = map[crypto.Hash]func() hash.Hash{
	crypto.SHA1:   sha1.New,
	crypto.SHA256: sha256.New,
}

// Registry is an exported registry: another package may put anything in it.
var Registry = map[string]func() hash.Hash{"md5": md5.New}

var items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}

// DigestAll looks the hash function up and calls it for every item: hoisted
// out of the loop, one hasher Reset per item serves them all.
func DigestAll(items [][]byte) [][]byte {
	var out [][]byte
	for _, it := range items {
		h := algos[crypto.SHA256]() // want `hasher-alloc: algos\[crypto.SHA256\]\(\) always allocates its hasher once per element of items \(the loop at funcctors.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(it)
		out = append(out, h.Sum(nil))
	}
	return out
}

// DigestExported does the same with the exported registry: what its entry
// calls is not known, so the call is not moved.
func DigestExported(items [][]byte) [][]byte {
	var out [][]byte
	for _, it := range items {
		h := Registry["md5"]() // want `hasher-alloc: Registry\["md5"\]\(\) always allocates its hasher once per element of items \(the loop at funcctors.go:\d+\); reuse one hasher across iterations \(no automatic fix: what Registry\["md5"\] calls is not known, and hoisted it would run once instead of once per iteration; no pool serves the hashers of a function value: which constructor Registry\["md5"\] calls is not known, and it is not a field, beside which a pool could be kept\)`
		h.Write(it)
		out = append(out, h.Sum(nil))
	}
	return out
}

// Tree hashes with the hash function it was built with, which only its
// composite literals set, each to a standard constructor, and is reached
// through a pointer: a pool kept beside newHash holds the hashers it makes,
// which Reset restores.
type Tree struct {
	newHash func() hash.Hash
}

// NewTree returns a tree that hashes with SHA-256, or MD5 when short.
func NewTree(short bool) *Tree {
	if short {
		return &Tree{newHash: md5.New}
	}
	return &Tree{newHash: sha256.New}
}

// UserTree hashes with a function its caller gives (negative twin of Tree):
// one that writes a prefix makes hashers whose Reset would lose it, so no
// pool is kept beside it.
type UserTree struct {
	newHash func() hash.Hash
}

// NewUserTree returns a tree that hashes with newHash.
func NewUserTree(newHash func() hash.Hash) *UserTree { return &UserTree{newHash: newHash} }

//hashalloc:hot
func (t *UserTree) node(l, r []byte) []byte {
	h := t.newHash() // want `hasher-alloc: t.newHash\(\) always allocates its hasher once per call of node \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: which functions newHash holds is not known \(a caller may give one\), and Reset would not restore what a function that writes a prefix makes\)`
	h.Write(l)
	h.Write(r)
	return h.Sum(nil)
}

// Root hashes the leaves pairwise up to the root: node runs once per inner
// node of the tree.
func (t *Tree) Root(leaves [][]byte) []byte {
	if len(leaves) == 1 {
		return leaves[0]
	}
	mid := len(leaves) / 2
	return t.node(t.Root(leaves[:mid]), t.Root(leaves[mid:]))
}

func (t *Tree) node(l, r []byte) []byte {
	h := t.newHash() // want `hasher-alloc: t.newHash\(\) always allocates its hasher once per call of node, which Root calls \(Root recurses: Root → Root, once per node it walks\); automatic fix: take h from a pool kept beside t.newHash \(field newHashPool\)`
	h.Write(l)
	h.Write(r)
	return h.Sum(nil)
}

// Level hashes the nodes pairwise, a hasher per pair in the loop, as
// cbergoon/merkletree's buildIntermediate: the function value only ever
// holds standard constructors, so one hasher hoisted out of the loop and
// Reset per iteration serves it.
func (t *Tree) Level(nodes [][]byte) [][]byte {
	var out [][]byte
	for i := 0; i+1 < len(nodes); i += 2 {
		h := t.newHash() // want `hasher-alloc: t.newHash\(\) always allocates its hasher once per .* \(the loop at funcctors.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(nodes[i])
		h.Write(nodes[i+1])
		out = append(out, h.Sum(nil))
	}
	return out
}

// LevelChecked is Level with the Write's error checked, as
// cbergoon/merkletree's buildIntermediate: hoisted too.
func (t *Tree) LevelChecked(nodes [][]byte) ([][]byte, error) {
	var out [][]byte
	for i := 0; i+1 < len(nodes); i += 2 {
		h := t.newHash() // want `hasher-alloc: t.newHash\(\) always allocates its hasher once per .* \(the loop at funcctors.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(nodes[i])
		if _, err := h.Write(nodes[i+1]); err != nil {
			return nil, err
		}
		out = append(out, h.Sum(nil))
	}
	return out, nil
}

// LevelLater sums in a function literal called in the iteration: hoisted
// too.
func (t *Tree) LevelLater(nodes [][]byte) [][]byte {
	var out [][]byte
	for i := 0; i+1 < len(nodes); i += 2 {
		h := t.newHash() // want `hasher-alloc: t.newHash\(\) always allocates its hasher once per .* \(the loop at funcctors.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		h.Write(nodes[i])
		sum := func() []byte { return h.Sum(nil) }
		out = append(out, sum())
	}
	return out
}

// Rehasher's hash function may change after it is built (negative twin of
// Tree): a pool beside it would hand out the hashers of the old one.
type Rehasher struct {
	newHash func() hash.Hash
}

// Use changes the hash function.
func (r *Rehasher) Use(newHash func() hash.Hash) { r.newHash = newHash }

// sum is marked hot.
//
//hashalloc:hot
func (r *Rehasher) sum(b []byte) []byte {
	h := r.newHash() // want `hasher-alloc: r.newHash\(\) always allocates its hasher once per call of sum \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: newHash is assigned at funcctors.go:\d+, after its struct is built: a pool beside it would hand out the hashers of an older function\)`
	h.Write(b)
	return h.Sum(nil)
}

// Copied is copied by its value receiver's method (negative twin of Tree):
// a pool in it would be copied too.
type Copied struct {
	newHash func() hash.Hash
}

// Name is a method with a value receiver.
func (c Copied) Name() string { return "copied" }

// sum is marked hot.
//
//hashalloc:hot
func (c *Copied) sum(b []byte) []byte {
	h := c.newHash() // want `hasher-alloc: c.newHash\(\) always allocates its hasher once per call of sum \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: the method Name of Copied has a value receiver, which would copy the pool\)`
	h.Write(b)
	return h.Sum(nil)
}

// factory makes hashers.
type factory interface{ New() hash.Hash }

type sha1Factory struct{}

func (sha1Factory) New() hash.Hash { return sha1.New() }

// countAll makes a hasher per item through an interface.
func countAll(f factory, items [][]byte) int {
	n := 0
	for _, it := range items {
		h := f.New() // want `hasher-alloc: f.New\(\) always allocates its hasher once per element of items \(the loop at funcctors.go:\d+\); reuse one hasher across iterations \(no automatic fix: what f.New calls is not known, and hoisted it would run once instead of once per iteration; no pool serves the hashers of a function value: which constructor f.New calls is not known, and it is not a field, beside which a pool could be kept\)`
		h.Write(it)
		n += h.Size()
	}
	return n
}

// suite embeds hashFunc, whose implementation calls the hash function it
// holds: the promoted NewHash makes a hasher per call.
type suite interface {
	hashFunc
	Name() string
}

type hashFunc interface{ NewHash() hash.Hash }

type hashFn struct{ fn func() hash.Hash }

func (h hashFn) NewHash() hash.Hash { return h.fn() }

type cipherSuite struct{ hashFunc }

func (cipherSuite) Name() string { return "suite" }

// mixAll makes a hasher per item through the suite's promoted NewHash.
func mixAll(s suite, items [][]byte) int {
	n := 0
	for _, it := range items {
		h := s.NewHash() // want `hasher-alloc: s.NewHash\(\) always allocates its hasher once per element of items \(the loop at funcctors.go:\d+\); reuse one hasher across iterations \(no automatic fix: .*\)`
		h.Write(it)
		n += h.Size()
	}
	return n
}

// digester hands out the hasher of a stream.
type digester interface{ Hash() hash.Hash }

// streamDigester holds one hasher, and Hash returns it: an accessor, not a
// constructor.
type streamDigester struct{ h hash.Hash }

func (d *streamDigester) Hash() hash.Hash { return d.h }

// writeAll writes every item into the hasher the digester holds: no type of
// the package implements Hash by making a hasher, so d.Hash() makes none
// per item (the twin of countAll).
func writeAll(d digester, items [][]byte) int {
	for _, it := range items {
		d.Hash().Write(it)
	}
	return d.Hash().Size()
}

// Signer keeps the hasher it makes: made once for what keeps it.
type Signer struct{ h hash.Hash }

// NewSigner builds a signer with a hasher of newHash.
func NewSigner(newHash func() hash.Hash) *Signer { return &Signer{h: newHash()} }

// keyed hash functions take arguments: they are not constructors of this kind.
func keyedAll(newMAC func(key []byte) hash.Hash, key []byte, items [][]byte) int {
	n := 0
	for _, it := range items {
		m := newMAC(key)
		m.Write(it)
		n += m.Size()
	}
	return n
}

func CaseDigestAll() { DigestAll(items) }

func CaseDigestExported() { DigestExported(items) }

// tree is built once and hashes on every case: its pool outlives a call.
var tree = NewTree(false)

func CaseTree() { tree.Root(items) }

func CaseCountAll() { countAll(sha1Factory{}, items) }

func CaseFactoryNew() { _ = sha1Factory{}.New().Size() }

func newStream() *streamDigester { return &streamDigester{h: sha256.New()} }

func CaseMixAll() { mixAll(cipherSuite{hashFn{sha256.New}}, items) }

func CaseHashFn() { _ = hashFn{sha256.New}.NewHash().Size() }

func CaseWriteAll() { writeAll(newStream(), items) }

func ResultWriteAll() string {
	d := newStream()
	writeAll(d, items)
	return fmt.Sprintf("%x", d.Hash().Sum(nil))
}

var signer *Signer

func CaseSigner() { signer = NewSigner(sha256.New) }

func CaseKeyedAll() {
	keyedAll(func(key []byte) hash.Hash { return md5.New() }, nil, items)
}

func ResultDigestAll() string { return string(DigestAll(items)[2]) }

func ResultTree() string {
	return string(NewTree(false).Root(items)) + string(NewTree(true).Root(items))
}

// prefixed writes a domain-separation prefix first: Reset would lose it.
func prefixed() hash.Hash {
	h := sha256.New()
	h.Write([]byte("leaf:"))
	return h
}

func CaseUserTree() { NewUserTree(prefixed).node(items[0], items[1]) }

func CasePrefixed() { prefixed() }

// level has two pairs of nodes: hoisted, one hasher serves both.
var level = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma"), []byte("delta")}

func CaseLevel() { tree.Level(level) }

func CaseLevelChecked() { tree.LevelChecked(level) }

func CaseLevelLater() { tree.LevelLater(level) }

func CaseRehasher() {
	r := &Rehasher{newHash: sha256.New}
	r.Use(sha1.New)
	for _, it := range items {
		r.sum(it)
	}
}

func CaseCopied() {
	c := &Copied{newHash: sha256.New}
	for _, it := range items {
		c.sum(it)
	}
}

func ResultLevel() string {
	t := NewTree(false)
	r := &Rehasher{newHash: md5.New}
	c := &Copied{newHash: sha1.New}
	checked, err := t.LevelChecked(items)
	return fmt.Sprintf("%x %x %x %x %s %x %v %x", t.Level(items), t.Level(items[1:]), r.sum(items[0]), c.sum(items[1]), c.Name(), checked, err, t.LevelLater(items))
}
