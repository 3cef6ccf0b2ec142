package concathash

import (
	"crypto"
	"crypto/sha256"
	"encoding/hex"
	"hash"
)

// Parts made per call only to hold a byte, beside the parts they are
// concatenated with (transparency-dev's HashChildren).

const nodeHashPrefix = 1

// hashChildren writes the prefix from a package variable declared in the
// file: as a literal, it would escape through the interface's Write.
//
//hashalloc:hot
func hashChildren(h hash.Hash, l, r []byte) []byte {
	b := append(append(append( // want `concat-hash: b := append\(...\) builds a buffer only to hash it with h.Write once per call of hashChildren \(it is marked //hashalloc:hot\); automatic fix: write the parts one after another`
		make([]byte, 0, 1+len(l)+len(r)),
		nodeHashPrefix),
		l...),
		r...)
	h.Write(b)
	return h.Sum(nil)
}

var children = crypto.SHA256.New()

func CaseLiteralVar() {
	children.Reset()
	outSlice = hashChildren(children, left, right)
}

func ResultLiteralVar() string {
	children.Reset()
	return hex.EncodeToString(hashChildren(children, left, right))
}

// Its negative twin: a byte that is not constant has no variable to hold it.
//
//hashalloc:hot
func hashTagged(h hash.Hash, tag byte, l, r []byte) []byte {
	b := append(append(append(make([]byte, 0, 1+len(l)+len(r)), tag), l...), r...) // want `concat-hash: b := append\(...\) builds a buffer only to hash it with h.Write once per call of hashTagged \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: a part, append\(...\), is a buffer made per call too, of bytes that are not constant: a literal of them would escape through h.Write\)`
	h.Write(b)
	return h.Sum(nil)
}

func CaseLiteralNotConstant() {
	children.Reset()
	outSlice = hashTagged(children, 2, left, right)
}

// A hasher on the stack, and a sum: the literal stays on the stack.
//
//hashalloc:hot
func hashTaggedLocal(tag byte, l, r []byte) ([]byte, [32]byte) {
	h := sha256.New()
	h.Write(append(append(append(make([]byte, 0, 1+len(l)+len(r)), tag), l...), r...))                          // want `concat-hash: append\(...\) builds a buffer only to hash it with h.Write once per call of hashTaggedLocal \(it is marked //hashalloc:hot\); automatic fix: write the parts one after another`
	return h.Sum(nil), sha256.Sum256(append(append(append(make([]byte, 0, 1+len(l)+len(r)), tag), l...), r...)) // want `concat-hash: append\(...\) builds a buffer only to hash it with sha256.Sum256 once per call of hashTaggedLocal \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
}

var taggedSum [32]byte

func CaseLiteralLocal() { outSlice, taggedSum = hashTaggedLocal(3, left, right) }

func ResultLiteralLocal() string {
	s, sum := hashTaggedLocal(3, left, right)
	return hex.EncodeToString(s) + hex.EncodeToString(sum[:])
}
