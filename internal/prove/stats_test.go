package prove

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func repeat(v float64, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// TestCompareSeedTable checks the statistics on the figures of the go-square
// seed's pull request: 497 -> 199 allocs/op in 6 runs each is -59.96% with
// the smallest p-value six runs allow.
func TestCompareSeedTable(t *testing.T) {
	c := compare("m", "HashAlternatives/recursive-2", "allocs/op", repeat(497, 6), repeat(199, 6))
	assert.InDelta(t, -0.5996, c.Delta, 0.0001)
	assert.InDelta(t, 0.002, c.P, 0.0005)
	assert.True(t, c.Significant)
	assert.Equal(t, 497.0, c.Before.Median)
	assert.Equal(t, "-59.96%", c.deltaString())
	assert.Equal(t, "(p=0.002 n=6)", c.pString())
	assert.False(t, c.Worse(0))
}

// TestCompareNotSignificant checks benchstat's "~": overlapping samples,
// and equal ones, do not differ.
func TestCompareNotSignificant(t *testing.T) {
	c := compare("m", "B", "sec/op", []float64{10, 12, 11, 13, 9, 10}, []float64{11, 10, 12, 9, 13, 11})
	assert.False(t, c.Significant)
	assert.Equal(t, "~", c.deltaString())
	assert.False(t, c.Worse(0))

	same := compare("m", "B", "allocs/op", repeat(5, 6), repeat(5, 6))
	assert.Equal(t, "~", same.deltaString())
	assert.Equal(t, 0.0, same.Delta)
	assert.False(t, same.Worse(0))
}

// TestWorse checks when a benchmark counts as worse after the fixes: a
// significant increase beyond the tolerance, or, with too few runs for a
// U-test, every run after above every run before.
func TestWorse(t *testing.T) {
	assert.True(t, compare("m", "B", "allocs/op", repeat(0, 6), repeat(1, 6)).Worse(0))
	assert.False(t, compare("m", "B", "B/op", repeat(1000, 6), repeat(1005, 6)).Worse(0.01), "within the tolerance")
	assert.True(t, compare("m", "B", "B/op", repeat(1000, 6), repeat(1100, 6)).Worse(0.01))
	assert.True(t, compare("m", "B", "allocs/op", []float64{2}, []float64{3}).Worse(0), "one run each")
	assert.False(t, compare("m", "B", "allocs/op", []float64{2, 4}, []float64{3, 3}).Worse(0), "overlapping runs")

	zero := compare("m", "B", "allocs/op", repeat(0, 6), repeat(1, 6))
	assert.True(t, math.IsNaN(zero.Delta))
	assert.Equal(t, "?", zero.deltaString())
}

// TestWriteTables checks the layout of benchstat's text tables: a header of
// two rows, one row per benchmark with its median, the range of its
// confidence interval, the change and its p-value, and the geomean. The
// text wanted is what cmd/benchstat prints on the same figures (cometbft's
// HashAlternatives before and after hashalloc -fix, six runs each).
func TestWriteTables(t *testing.T) {
	rows := []Comparison{
		compare("m", "HashAlternatives/recursive-2", "allocs/op", repeat(497, 6), repeat(199, 6)),
		compare("m", "HashAlternatives/iterative-2", "allocs/op", repeat(498, 6), repeat(200, 6)),
		compare("m", "HashAlternatives/recursive-2", "B/op", repeat(25424, 6), repeat(6368, 6)),
		compare("m", "HashAlternatives/iterative-2", "B/op", repeat(28112, 6), repeat(9056, 6)),
	}
	var b strings.Builder
	writeTables(&b, rows)
	want := `
                             │    before     │                after                │
                             │     B/op      │     B/op      vs base               │
HashAlternatives/recursive-2   24.828Ki ± 0%   6.219Ki ± 0%  -74.95% (p=0.002 n=6)
HashAlternatives/iterative-2   27.453Ki ± 0%   8.844Ki ± 0%  -67.79% (p=0.002 n=6)
geomean                         26.11Ki        7.416Ki       -71.59%

                             │   before   │               after               │
                             │ allocs/op  │ allocs/op   vs base               │
HashAlternatives/recursive-2   497.0 ± 0%   199.0 ± 0%  -59.96% (p=0.002 n=6)
HashAlternatives/iterative-2   498.0 ± 0%   200.0 ± 0%  -59.84% (p=0.002 n=6)
geomean                        497.5        199.5       -59.90%
`
	assert.Equal(t, want[1:], b.String(), "the layout of benchstat's tables on the same figures")
}
