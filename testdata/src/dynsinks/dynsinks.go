// Package dynsinks hashes concatenations through calls whose possible
// targets the package knows: a field or a parameter of function type whose
// only values are hashing functions of the package, a registry of them, an
// interface with one implementation. They are reported, naming the targets, without a fix.
// Every exported func CaseX() is measured by the oracle test; the negative
// cases, whose concatenations allocate too, are not cases.
package dynsinks

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
)

var (
	leafPrefix = []byte{0}
	left       = bytes.Repeat([]byte{2}, 32)
	right      = bytes.Repeat([]byte{3}, 32)
	nodes      = [][]byte{left[:32:32], right[:32:32], left[:32:32], right[:32:32]}
	digest     []byte
	level      [][]byte
)

func getSha256Parent(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

func getSha512Parent(b []byte) []byte {
	s := sha512.Sum512_256(b)
	return s[:]
}

// treeHasher has one implementation in the package.
type treeHasher interface {
	hashLeaf(b []byte) []byte
}

type sha256Hasher struct{}

func (*sha256Hasher) hashLeaf(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

type tree struct {
	hash   func([]byte) []byte
	hasher treeHasher
}

func newTree(wide bool) *tree {
	t := &tree{hasher: &sha256Hasher{}}
	t.hash = getSha256Parent
	if wide {
		t.hash = getSha512Parent
	}
	return t
}

// A field whose values are two hashing functions of the package.
//
//hashalloc:hot
func (t *tree) parent(l, r []byte) []byte {
	return t.hash(append(l, r...)) // want `concat-hash: append\(l, r...\) builds a buffer only to hash it with t.hash, whose values are getSha256Parent \(dynsinks.go:\d+\), getSha512Parent \(dynsinks.go:\d+\) once per call of parent \(it is marked //hashalloc:hot\) \(and may write into the spare capacity of l, overwriting the caller's data\); hash the parts one after another \(no automatic fix: the call goes through t.hash, which a fix does not replace by its target\)`
}

// An interface with one implementation.
//
//hashalloc:hot
func (t *tree) leaf(data []byte) []byte {
	return t.hasher.hashLeaf(append(leafPrefix, data...)) // want `concat-hash: append\(leafPrefix, data...\) builds a buffer only to hash it with t.hasher.hashLeaf, whose only implementation is \(\*dynsinks.sha256Hasher\).hashLeaf \(dynsinks.go:\d+\) once per call of leaf \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: the call goes through t.hasher.hashLeaf, which a fix does not replace by its target\)`
}

var theTree = newTree(false)

func CaseField() { digest = theTree.parent(left[:32:32], right) }

func CaseInterface() { digest = theTree.leaf(left) }

// A parameter whose every argument is a hashing function.
func levels(list [][]byte, hash func([]byte) []byte) [][]byte {
	var next [][]byte
	for i := 0; i+1 < len(list); i += 2 {
		next = append(next, hash(append(list[i], list[i+1]...))) // want `concat-hash: append\(list\[i\], list\[i \+ 1\]...\) builds a buffer only to hash it with hash, whose only argument is getSha256Parent \(dynsinks.go:\d+\) once per element of list \(the loop at dynsinks.go:\d+\) \(and may write into the spare capacity of list\[i\], overwriting the caller's data\); hash the parts one after another \(no automatic fix: the call goes through hash, which a fix does not replace by its target\)`
	}
	return next
}

func CaseParam() { level = levels(nodes, getSha256Parent) }

// A registry: a package map whose values are hashing functions of the package.
var parents = map[int]func([]byte) []byte{256: getSha256Parent, 512: getSha512Parent}

//hashalloc:hot
func registryParent(bits int, l, r []byte) []byte {
	return parents[bits](append(l, r...)) // want `concat-hash: append\(l, r...\) builds a buffer only to hash it with parents\[bits\], whose values are getSha256Parent \(dynsinks.go:\d+\), getSha512Parent \(dynsinks.go:\d+\) once per call of registryParent \(it is marked //hashalloc:hot\) \(and may write into the spare capacity of l, overwriting the caller's data\); hash the parts one after another \(no automatic fix: the call goes through parents\[bits\], which a fix does not replace by its target\)`
}

func CaseRegistry() { digest = registryParent(256, left[:32:32], right) }

// ---- Negative cases. ----

// A field that also holds a function that does not hash.
type mixed struct{ hash func([]byte) []byte }

func identity(b []byte) []byte { return b }

var mixedValue = mixed{hash: identity}

func viaMixed() []byte {
	mixedValue.hash = getSha256Parent
	return mixedValue.hash(append(leafPrefix, left...))
}

// A field set from a parameter: its values are not known.
type open struct{ hash func([]byte) []byte }

func newOpen(h func([]byte) []byte) *open { return &open{hash: h} }

func (o *open) sum(l, r []byte) []byte { return o.hash(append(l, r...)) }

// A registry that also holds a function that does not hash.
var mixedParents = map[int]func([]byte) []byte{0: identity, 256: getSha256Parent}

func viaMixedRegistry() []byte { return mixedParents[0](append(leafPrefix, left...)) }

// An exported function: other packages may pass anything.
func Levels(list [][]byte, hash func([]byte) []byte) []byte {
	return hash(append(list[0], list[1]...))
}

// A function used as a value: where it is called from is not known.
func walk(list [][]byte, hash func([]byte) []byte) []byte {
	return hash(append(list[0], list[1]...))
}

var walker = walk

// Two implementations.
type twoHasher interface{ hashPair(b []byte) []byte }

type sha256Pair struct{}

func (sha256Pair) hashPair(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

type sha512Pair struct{}

func (sha512Pair) hashPair(b []byte) []byte {
	s := sha512.Sum512(b)
	return s[:]
}

func viaTwo(h twoHasher) []byte { return h.hashPair(append(leafPrefix, left...)) }

// An interface that values of other packages may come through.
type exposedHasher interface{ hashNode(b []byte) []byte }

type node struct{}

func (node) hashNode(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

// Root takes any value with the method.
func Root(h exposedHasher) []byte { return h.hashNode(append(leafPrefix, left...)) }

func Negatives() {
	viaMixed()
	viaMixedRegistry()
	newOpen(getSha256Parent).sum(left, right)
	Levels(nodes, getSha256Parent)
	walker(nodes, getSha256Parent)
	viaTwo(sha256Pair{})
	viaTwo(sha512Pair{})
	Root(node{})
}
