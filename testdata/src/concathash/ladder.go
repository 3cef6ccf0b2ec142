package concathash

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"hash"
	"time"
)

// The rungs of the ladder that the shapes of real trees and signers reach:
// each positive case beside its negative twin.

// newNodeHasher returns the hasher of the tree's nodes.
func newNodeHasher() hash.Hash { return tree.New() }

// A Write whose error is checked (cbergoon/merkletree's calculateNodeHash):
// a hasher's Write never returns an error, so the parts but the last are
// written before the check, and the last is checked.
//
//hashalloc:hot
func checkedWrite(h hash.Hash, l, r []byte) ([]byte, error) {
	if _, err := h.Write(append(l, r...)); err != nil { // want `concat-hash: append\(l, r...\) builds a buffer only to hash it with h.Write once per call of checkedWrite \(it is marked //hashalloc:hot\) \(and may write into the spare capacity of l, overwriting the caller's data\); automatic fix: write the parts one after another \(a hasher's Write never returns an error: the last one's check stands for all\)`
		return nil, err
	}
	return h.Sum(nil), nil
}

func CaseCheckedWrite() { outSlice, _ = checkedWrite(newNodeHasher(), left[:32:32], right) }

func ResultCheckedWrite() string {
	sum, _ := checkedWrite(newNodeHasher(), left[:32:32], right)
	return hex.EncodeToString(sum)
}

// The same, the concatenation in a variable defined before the check.
//
//hashalloc:hot
func checkedWriteVar(h hash.Hash, l, r []byte) ([]byte, error) {
	chash := append(l, r...) // want `concat-hash: chash := append\(l, r...\) builds a buffer only to hash it with h.Write once per call of checkedWriteVar \(it is marked //hashalloc:hot\) \(and may write into the spare capacity of l, overwriting the caller's data\); automatic fix: write the parts one after another \(a hasher's Write never returns an error: the last one's check stands for all\)`
	if _, err := h.Write(chash); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

func CaseCheckedWriteVar() { outSlice, _ = checkedWriteVar(newNodeHasher(), left[:32:32], right) }

func ResultCheckedWriteVar() string {
	sum, _ := checkedWriteVar(newNodeHasher(), left[:32:32], right)
	return hex.EncodeToString(sum)
}

// The count the Write returns is kept: it would be the last part's length.
//
//hashalloc:hot
//go:noinline
func countedWrite(h hash.Hash, l, r []byte) int {
	n, _ := h.Write(append(l, r...)) // want `concat-hash: append\(l, r...\) builds a buffer only to hash it with h.Write once per call of countedWrite \(it is marked //hashalloc:hot\) \(and may write into the spare capacity of l, overwriting the caller's data\); hash the parts one after another \(no automatic fix: the result of Write is used\)`
	return n
}

var count int

func CaseCountedWrite() { count = countedWrite(newNodeHasher(), left[:32:32], right) }

// A webhook signer's shape (svix, standard-webhooks): the hasher is made
// between the formatting and the Write. The argument that runs code is
// evaluated where the string was formatted; the hasher's definition changes
// nothing the others read.
//
//hashalloc:hot
func (m *Hasher) signAt(msgID string, at time.Time, body []byte) string {
	toSign := fmt.Sprintf("%s.%d.%s", msgID, at.Unix(), body) // want `concat-hash: toSign := fmt.Sprintf\(...\) formats a string, copied again by \[\]byte, only to hash it with h.Write once per call of signAt \(it is marked //hashalloc:hot\); automatic fix: format into h with fmt.Fprintf`
	h := m.New()
	h.Write([]byte(toSign))
	return hex.EncodeToString(h.Sum(nil))
}

var signedAt = time.Unix(1700000000, 0)

func CaseSprintfHasherBetween() { signature = tree.signAt(msgID, signedAt, payload) }

func ResultSprintfHasherBetween() string { return tree.signAt(msgID, signedAt, payload) }

// Another statement between the formatting and the Write, which may change
// what is formatted.
//
//hashalloc:hot
func (m *Hasher) signCounted(msgID string, body []byte) string {
	toSign := fmt.Sprintf("%s.%d.%s", msgID, count, body) // want `concat-hash: toSign := fmt.Sprintf\(...\) formats a string, copied again by \[\]byte, only to hash it with h.Write once per call of signCounted \(it is marked //hashalloc:hot\); format the parts into a hasher with fmt.Fprintf \(no automatic fix: statements between the formatting and h.Write would run before the arguments are evaluated\)`
	count++
	h := m.New()
	h.Write([]byte(toSign))
	return hex.EncodeToString(h.Sum(nil))
}

func CaseSprintfCounted() { signature = tree.signCounted(msgID, payload) }

// A bytes.Buffer with another statement among its writes, which may change
// the parts before the hash.
//
//hashalloc:hot
func (m *Hasher) hashCounted(l, r []byte) []byte {
	buf := bytes.NewBuffer(make([]byte, 0, 32+len(l)+len(r))) // want `concat-hash: a bytes.Buffer filled with 2 parts builds a buffer only to hash it with h.Write once per call of hashCounted \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: statements other than its writes run between the bytes.Buffer and the hash, and could change the parts\)`
	buf.Write(l)
	count++
	buf.Write(r)
	h := m.New() // want `hasher-alloc: m.New\(\) always allocates its hasher once per call of hashCounted`
	h.Write(buf.Bytes())
	return h.Sum(nil)
}

func CaseBufferCounted() { outSlice = tree.hashCounted(left, right) }

// A helper of the package declared in another file (fastssz's hashFn):
// every edit stays in this file, the same sum of the parts computed at the
// call.
//
//hashalloc:hot
func CaseOtherFileHelper() {
	sink = sumOtherFile(append(leafPrefix, left...)) // want `concat-hash: append\(leafPrefix, left...\) builds a buffer only to hash it with sumOtherFile once per call of CaseOtherFileHelper \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.AppendSHA256`
}

func ResultOtherFileHelper() string {
	return hex.EncodeToString(sumOtherFile(append(leafPrefix, left...)))
}

// A helper in another file that hashes more than its argument.
//
//hashalloc:hot
func CaseOtherFileSalted() {
	sink = saltedOtherFile(append(leafPrefix, left...)) // want `concat-hash: append\(leafPrefix, left...\) builds a buffer only to hash it with saltedOtherFile once per call of CaseOtherFileSalted \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: saltedOtherFile is declared in another file, and returns more than a standard sum of its argument\)`
}
