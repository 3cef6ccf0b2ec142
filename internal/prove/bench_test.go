package prove

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBenchmarkFuncs checks which functions of test files are benchmarks:
// those the testing package runs.
func TestBenchmarkFuncs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a_test.go": `package p

import (
	"testing"
	tst "testing"
)

func BenchmarkHash(b *testing.B)       {}
func Benchmark(b *testing.B)           {}
func BenchmarkΔ(b *tst.B)              {}
func Benchmark_under(b *testing.B)     {}
func Benchmarklower(b *testing.B)      {}
func BenchmarkTwo(b *testing.B, x int) {}
func BenchmarkT(t *testing.T)          {}
func helper(b *testing.B)              {}

type s struct{}

func (s) BenchmarkMethod(b *testing.B) {}
`,
		"b_test.go": "package p_test\n\nimport \"testing\"\n\nfunc BenchmarkX(b *testing.B) {}\nfunc BenchmarkHash(b *testing.B) {}\n",
	})
	names, err := benchmarkFuncs(dir, []string{"a_test.go", "b_test.go"})
	require.NoError(t, err)
	assert.Equal(t, []string{"BenchmarkHash", "Benchmark", "BenchmarkΔ", "Benchmark_under", "BenchmarkX"}, names)

	_, err = benchmarkFuncs(dir, []string{"missing_test.go"})
	assert.Error(t, err)
}

// TestBenchPattern checks that -bench is split into levels as the testing
// package splits it, and that a top-level benchmark is run alone with the
// sub-benchmarks the pattern selects.
func TestBenchPattern(t *testing.T) {
	assert.Equal(t, []string{"."}, splitRegexp("."))
	assert.Equal(t, []string{"A", "b", "c"}, splitRegexp("A/b/c"))
	assert.Equal(t, []string{"A[/]", "(x/y)"}, splitRegexp("A[/]/(x/y)"))
	assert.Equal(t, []string{`A\/b`}, splitRegexp(`A\/b`))

	p, err := parseBenchPattern("Hash/recursive")
	require.NoError(t, err)
	assert.True(t, p.matches("BenchmarkHashAlternatives"))
	assert.False(t, p.matches("BenchmarkSign"))
	assert.Equal(t, "^BenchmarkHashAlternatives$/recursive", p.only("BenchmarkHashAlternatives"))

	_, err = parseBenchPattern("a/(")
	assert.ErrorContains(t, err, "-bench")
}

// TestParseResults reads the output of a test binary.
func TestParseResults(t *testing.T) {
	out := `goos: linux
goarch: amd64
pkg: example.com/m/merkle
cpu: AMD EPYC
BenchmarkHashAlternatives/recursive-2         	    2433	     58799 ns/op	   25424 B/op	     497 allocs/op
some output of the benchmark
BenchmarkHashAlternatives/iterative-2         	    2976	     56559 ns/op	   28112 B/op	     498 allocs/op	        12.00 leaves/op
PASS
`
	results, cfg, err := parseResults([]byte(out))
	require.NoError(t, err)
	require.Len(t, results, 2)
	assert.Equal(t, "HashAlternatives/recursive-2", results[0].name)
	assert.Equal(t, 497.0, results[0].values["allocs/op"])
	assert.InDelta(t, 58799e-9, results[0].values["sec/op"], 1e-12)
	assert.Equal(t, []string{"sec/op", "B/op", "allocs/op", "leaves/op"}, results[1].units)
	assert.Equal(t, resultConfig{"goos": "linux", "goarch": "amd64", "cpu": "AMD EPYC", "pkg": "example.com/m/merkle"}, cfg)
}

// allocProfile writes an allocation profile of one benchmark: each stack
// (innermost first, "function@file") allocates bytes.
func allocProfile(t *testing.T, name string, stacks map[string][]string, bytes map[string]int64) string {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"},
	}
	funcs := map[string]*profile.Function{}
	for key, stack := range stacks {
		s := &profile.Sample{Value: []int64{1, bytes[key]}}
		for _, frame := range stack {
			fn := funcs[frame]
			if fn == nil {
				name, file, _ := strings.Cut(frame, "@")
				fn = &profile.Function{ID: uint64(len(funcs) + 1), Name: name, SystemName: name, Filename: file}
				funcs[frame] = fn
				p.Function = append(p.Function, fn)
			}
			loc := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn, Line: 10}}}
			p.Location = append(p.Location, loc)
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	require.NoError(t, p.CheckValid())
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, p.Write(f))
	require.NoError(t, f.Close())
	return path
}

// TestMergeProfiles checks the profile that the analysis gets: only what
// the benchmarks allocate, test frames hidden, a package main's functions
// named main.F, and every benchmark weighing the same.
func TestMergeProfiles(t *testing.T) {
	heavy := allocProfile(t, "heavy.pprof", map[string][]string{
		"hot":   {"example.com/m/p.leafHash@/m/p/p.go", "example.com/m/p.BenchmarkHeavy@/m/p/p_test.go", "testing.(*B).runN@testing/benchmark.go"},
		"setup": {"example.com/m/p.BenchmarkHeavy@/m/p/p_test.go", "main.main@/tmp/b001/_testmain.go"},
		"init":  {"regexp.Compile@regexp/regexp.go", "testing.runBenchmarks@testing/benchmark.go", "main.main@/tmp/b001/_testmain.go"},
	}, map[string]int64{"hot": 3000, "setup": 1000, "init": 100000})
	light := allocProfile(t, "light.pprof", map[string][]string{
		"hot": {"example.com/m/cmd/tool.digest@/m/cmd/tool/main.go", "example.com/m/cmd/tool.BenchmarkDigest@/m/cmd/tool/main_test.go"},
	}, map[string]int64{"hot": 10})
	out := filepath.Join(t.TempDir(), "merged.pprof")
	require.NoError(t, mergeProfiles([]string{heavy, light}, []string{"example.com/m/cmd/tool"}, out))

	merged, err := readProfile(out)
	require.NoError(t, err)
	byFunc := map[string]int64{}
	var total int64
	for _, s := range merged.Sample {
		total += s.Value[1]
		seen := map[string]bool{}
		for _, loc := range s.Location {
			for _, l := range loc.Line {
				if !seen[l.Function.Name] {
					seen[l.Function.Name] = true
					byFunc[l.Function.Name] += s.Value[1]
				}
			}
		}
	}
	assert.NotContains(t, byFunc, "example.com/m/p.BenchmarkHeavy", "a benchmark is not code of its package")
	assert.NotContains(t, byFunc, "main.main", "nor is the test main")
	assert.NotContains(t, byFunc, "regexp.Compile", "what the testing package allocates is not the benchmarks'")
	assert.NotContains(t, byFunc, "example.com/m/cmd/tool.digest")
	assert.InDelta(t, 0.5, float64(byFunc["main.digest"])/float64(total), 0.01, "a package main's function, as hashalloc names it; each benchmark weighs half")
	assert.InDelta(t, 0.375, float64(byFunc["example.com/m/p.leafHash"])/float64(total), 0.01, "3/4 of the other half")

	empty := allocProfile(t, "empty.pprof", nil, nil)
	assert.ErrorIs(t, mergeProfiles([]string{empty}, nil, out), errNoSamples)
}
