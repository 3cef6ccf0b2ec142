package hotnesstests

import (
	"testing"

	"golang.org/x/crypto/blake2b"
)

var inputs = [][]byte{[]byte("a"), []byte("b")}

func TestDigest(t *testing.T) {
	for _, in := range inputs {
		if len(digest(in)) != 32 {
			t.Fatal("bad size")
		}
		check(t, in)
	}
}

// check is a helper of tests, called in a test's loop: not hot.
func check(t *testing.T, in []byte) {
	t.Helper()
	h, _ := blake2b.New256(nil) // silent: not hot
	h.Write(in)
	h.Sum(out[:0])
}

// A benchmark's loop is no evidence either: test files are never evidence of
// hotness, so that a package and its test variant, which alone sees them,
// give one verdict at every position.
func BenchmarkSum(b *testing.B) {
	for b.Loop() {
		sum(inputs[0])
	}
}

func sum(in []byte) []byte {
	h, _ := blake2b.New256(nil) // silent: a benchmark's loop is no evidence
	h.Write(in)
	return h.Sum(out[:0])
}

// In a test's own loop, a hasher is still reported under -tests.
func TestLoop(t *testing.T) {
	for _, in := range inputs {
		h, _ := blake2b.New256(nil) // want `hasher-alloc: blake2b.New256\(nil\) always allocates its hasher once per .* \(the loop at hotnesstests_test.go:\d+\)`
		h.Write(in)
		h.Sum(out[:0])
	}
}
