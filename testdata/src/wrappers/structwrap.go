package wrappers

import (
	"fmt"
	"hash"

	"golang.org/x/crypto/blake2b"
)

// domainWriter is a hasher by the hasher it embeds, as kaspad's HashWriter.
type domainWriter struct{ hash.Hash }

const branchDomain = "MerkleBranchHash"

// newDomainWriter returns a blake2b hasher keyed with a constant, in a
// domainWriter, and panics with a wrapped error on the constructor's error:
// a wrapper still.
func newDomainWriter() domainWriter {
	h, err := blake2b.New256([]byte(branchDomain))
	if err != nil {
		panic(fmt.Errorf("key %q: %w", branchDomain, err))
	}
	return domainWriter{h}
}

func CaseStructWrapper() {
	for _, it := range items {
		w := newDomainWriter() // want `hasher-alloc: newDomainWriter\(\) returns the hasher of blake2b.New256, which always allocates once per element of items \(the loop at structwrap.go:\d+\); reuse one hasher across iterations \(no automatic fix: newDomainWriter may panic, and hoisted it would run even when the loop does not\)`
		w.Write(it)
		w.Sum(out[:0])
	}
}

// countingWriter holds more than the hasher: not a wrapper's result.
type countingWriter struct {
	hash.Hash
	n int
}

func newCountingWriter() countingWriter {
	h, _ := blake2b.New256(nil)
	return countingWriter{h, 0}
}

// The hasher of newCountingWriter is decided where it is made, and this
// loop is not in its function: nothing to report here.
func CaseTwoFields() {
	for _, it := range items {
		w := newCountingWriter()
		w.Write(it)
		w.Sum(out[:0])
	}
}

// branchHash is marked hot: the hasher of newDomainWriter, which takes no
// arguments and whose constructor's Reset restores its key, comes from a
// pool of the file that holds the hasher the struct embeds, and the struct
// is built around it (kaspad's hashMerkleBranches).
//
//hashalloc:hot
func branchHash(left, right []byte) []byte {
	w := newDomainWriter() // want `hasher-alloc: newDomainWriter\(\) returns the hasher of blake2b.New256, which always allocates once per call of branchHash \(it is marked //hashalloc:hot\); automatic fix: take w from a pool of newDomainWriter hashers`
	w.Write(left)
	w.Write(right)
	return w.Sum(nil)
}

// keyedWriter returns a blake2b hasher keyed with its argument, in a
// domainWriter.
func keyedWriter(key []byte) domainWriter {
	h, _ := blake2b.New256(key)
	return domainWriter{h}
}

var domainKey = []byte(branchDomain)

// keyedBranchHash is marked hot: its wrapper takes a key, and a pool holds
// the hashers of one (negative twin of branchHash).
//
//hashalloc:hot
func keyedBranchHash(left, right []byte) []byte {
	w := keyedWriter(domainKey) // want `hasher-alloc: keyedWriter\(domainKey\) returns the hasher of blake2b.New256, which always allocates once per call of keyedBranchHash \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: no pool serves keyedWriter, which returns the hasher of blake2b.New256: it takes arguments, and a pool holds the hashers of one set of them\)`
	w.Write(left)
	w.Write(right)
	return w.Sum(nil)
}

func CaseBranchHash() {
	for _, it := range items {
		branchHash(it, it)
	}
}

func CaseKeyedBranchHash() {
	for _, it := range items {
		keyedBranchHash(it, it)
	}
}

func ResultBranchHash() string {
	return fmt.Sprintf("%x %x %x", branchHash(items[0], items[1]), branchHash(items[1], items[2]), keyedBranchHash(items[0], items[1]))
}
