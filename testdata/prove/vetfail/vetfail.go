// Package vetfail has a finding and a benchmark, and a test file that go
// vet rejects (a malformed example suffix) although it compiles: prove runs
// its benchmarks and tests with -vet=off and says why.
package vetfail

import (
	"crypto/sha256"
	"io"
)

func DigestAll(rs []io.Reader) (sums [][]byte) {
	for _, r := range rs {
		h := sha256.New()
		io.Copy(h, r)
		sums = append(sums, h.Sum(nil))
	}
	return sums
}

func BuildSimple() {}
