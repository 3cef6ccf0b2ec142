package inlinepool

import (
	"fmt"
	"hash"

	"golang.org/x/crypto/blake2b"
)

// domainWriter is a hasher by the hasher it embeds, as kaspad's HashWriter.
type domainWriter struct{ hash.Hash }

// newDomainWriter returns a blake2b hasher keyed with a constant, in a
// domainWriter.
func newDomainWriter() domainWriter {
	h, err := blake2b.New256([]byte("MerkleBranchHash"))
	if err != nil {
		panic(err)
	}
	return domainWriter{h}
}

// keyedWriter returns a blake2b hasher keyed with its argument.
func keyedWriter(key []byte) domainWriter {
	h, _ := blake2b.New256(key)
	return domainWriter{h}
}

var (
	branches  = [][]byte{[]byte("left"), []byte("right")}
	domainKey = []byte("MerkleBranchHash")
)

// branchHash is marked hot: a sync.Pool of the file holds the hasher that
// newDomainWriter's struct embeds, Reset after Get.
//
//hashalloc:hot
func branchHash(left, right []byte) []byte {
	w := newDomainWriter() // want `hasher-alloc: newDomainWriter\(\) returns the hasher of blake2b.New256, which always allocates once per call of branchHash \(it is marked //hashalloc:hot\); automatic fix: take w from a pool of newDomainWriter hashers`
	w.Write(left)
	w.Write(right)
	return w.Sum(nil)
}

// keyedBranchHash is marked hot: its wrapper takes a key (negative twin of
// branchHash).
//
//hashalloc:hot
func keyedBranchHash(left, right []byte) []byte {
	w := keyedWriter(domainKey) // want `hasher-alloc: keyedWriter\(domainKey\) returns the hasher of blake2b.New256, which always allocates once per call of keyedBranchHash \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: no pool serves keyedWriter, which returns the hasher of blake2b.New256: it takes arguments, and a pool holds the hashers of one set of them\)`
	w.Write(left)
	w.Write(right)
	return w.Sum(nil)
}

func CaseBranchHash() {
	for _, b := range branches {
		branchHash(b, b)
	}
}

func CaseKeyedBranchHash() {
	for _, b := range branches {
		keyedBranchHash(b, b)
	}
}

func ResultBranchHash() string {
	return fmt.Sprintf("%x %x %x", branchHash(branches[0], branches[1]), branchHash(branches[1], branches[0]), keyedBranchHash(branches[0], branches[1]))
}
