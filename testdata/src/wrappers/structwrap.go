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
