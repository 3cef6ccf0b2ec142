package main_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/bench"
	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/modfile"
)

// TestBenchSubcommand runs hashalloc bench on a few benchmarks, as a table
// and as JSON.
func TestBenchSubcommand(t *testing.T) {
	t.Parallel()
	r := run(t, repoRoot, nil, binary, "bench", "-run", "^stack-sum/size=32/", "-count", "2", "-benchtime", "50x")
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, "hashalloc bench: go")
	assert.Regexp(t, `(?m)^`+strings.Join(bench.TableHeader[:4], `\s+`)+`\s`, r.stdout)
	assert.Regexp(t, `(?m)^stack sum array\s+sum-alloc\s+32 B\s+before\s`, r.stdout)
	assert.Regexp(t, `(?m)^\s+32 B\s+after\s.*\s[+-][0-9.]+%\s+[0-9.]+x$`, r.stdout)
	assert.Empty(t, r.stderr, "no progress when stderr is not a terminal")

	r = run(t, repoRoot, nil, binary, "bench", "-json", "-run", "^pooled-buffer/size=64/", "-count", "1", "-benchtime", "50x")
	require.Equal(t, 0, r.code, "%s", r)
	var report bench.Report
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &report), "%s", r)
	require.Len(t, report.Results, 3)
	for i, code := range bench.Codes {
		res := report.Results[i]
		assert.Equal(t, "pooled-buffer", res.Kind)
		assert.Equal(t, 64, res.Size)
		assert.Equal(t, code, res.Code)
	}

	r = run(t, repoRoot, nil, binary, "bench", "-count", "0")
	assert.Equal(t, 2, r.code, "%s", r)
	assert.Contains(t, r.stderr, "-count 0")
}

// TestBenchDispatch checks that only a first argument "bench" runs the
// benchmarks: go vet's protocol (-V=full, -flags, a .cfg file), packages
// named bench and a flag before "bench" reach the analyzer.
func TestBenchDispatch(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the benchmarks of every rewrite")
	t.Parallel()
	r := run(t, repoRoot, nil, binary, "-V=full")
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, " version ")
	assert.NotContains(t, r.stdout, "ns/op")

	r = run(t, repoRoot, nil, binary, "-flags")
	require.Equal(t, 0, r.code, "%s", r)
	var flags []struct{ Name string }
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &flags), "%s", r)
	assert.True(t, slices.ContainsFunc(flags, func(f struct{ Name string }) bool { return f.Name == "pool" }), "%s", r.stdout)

	// A package directory named bench is analyzed, not benchmarked.
	r = run(t, repoRoot, nil, binary, "./bench/naive")
	assert.Equal(t, 3, r.code, "%s", r)
	assert.Contains(t, r.stderr, "hasher-alloc: ")
	assert.NotContains(t, r.stdout, "ns/op")

	r = run(t, repoRoot, nil, binary, "-pool=inline", "bench")
	assert.NotEqual(t, 0, r.code, "%s", r)
	assert.NotContains(t, r.stdout, "ns/op")

	// go vet hands the tool a .cfg file per package; bench/fixed is clean.
	r = run(t, repoRoot, nil, "go", "vet", "-vettool="+binary, "./bench/fixed")
	assert.Equal(t, 0, r.code, "%s", r)
	r = run(t, repoRoot, nil, "go", "vet", "-vettool="+binary, "./bench/naive")
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, r.stderr, "hmac-rekey: ")
}

// TestBenchFixedIsFixOfNaive checks the benchmarks' claim that their after
// code is what hashalloc makes of the before code: hashalloc reports each
// function of bench/naive that a kind says it checks, with the kind's check,
// -fix turns naive.go into bench/fixed/fixed.go exactly (double.go, the
// helper of another file, stays as it is), and -pool=inline -fix turns it
// into bench/fixedinline/fixedinline.go.
func TestBenchFixedIsFixOfNaive(t *testing.T) {
	testenv.SkipUnlessSlow(t, "fixes a copy of bench/naive")
	t.Parallel()
	dir := t.TempDir()
	// naive.go hashes with x/crypto's BLAKE2b too: the copy requires the
	// version that hashalloc's module does, whose sums its go.sum holds.
	gomod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	require.NoError(t, err)
	mf, err := modfile.Parse("go.mod", gomod, nil)
	require.NoError(t, err)
	var xcrypto string
	for _, r := range mf.Require {
		if r.Mod.Path == "golang.org/x/crypto" {
			xcrypto = r.Mod.Version
		}
	}
	require.NotEmpty(t, xcrypto, "hashalloc's go.mod requires golang.org/x/crypto")
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/benchfix\n\ngo 1.26.0\n\n"+
		"require (\n\tgithub.com/hashalloc/hashalloc/runtime v0.0.0\n\tgolang.org/x/crypto "+xcrypto+"\n)\n\n"+
		"replace github.com/hashalloc/hashalloc/runtime => "+filepath.Join(repoRoot, "runtime")+"\n")
	gosum, err := os.ReadFile(filepath.Join(repoRoot, "go.sum"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, "go.sum"), string(gosum))
	naive, err := os.ReadFile(filepath.Join(repoRoot, "bench", "naive", "naive.go"))
	require.NoError(t, err)
	src, ok := strings.CutPrefix(string(naive), "package naive\n")
	require.True(t, ok, "naive.go starts with its package clause")
	// The helper that another file declares, for the fixes that stay in
	// their own file.
	double, err := os.ReadFile(filepath.Join(repoRoot, "bench", "naive", "double.go"))
	require.NoError(t, err)
	helper, ok := strings.CutPrefix(string(double), "package naive\n")
	require.True(t, ok, "double.go starts with its package clause")
	for _, pkg := range []string{"fixed", "fixedinline"} {
		require.NoError(t, os.Mkdir(filepath.Join(dir, pkg), 0o755))
		writeFile(t, filepath.Join(dir, pkg, pkg+".go"), "package "+pkg+"\n"+src)
		writeFile(t, filepath.Join(dir, pkg, "double.go"), "package "+pkg+"\n"+helper)
	}
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"}

	r := run(t, dir, env, binary, "./fixed")
	require.Equal(t, 3, r.code, "%s", r)
	got := parseFindingsAnywhere(t, r.stderr)
	var want []string
	for _, k := range bench.Kinds {
		// An inline kind's before code is another kind's.
		if !k.ByHand && !k.Inline {
			want = append(want, k.Check)
			if k.AlsoCheck != "" {
				want = append(want, k.AlsoCheck)
			}
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	assert.Equal(t, want, got, "one finding per kind fixed by hashalloc, of the kind's check\n%s", r)

	for _, pkg := range []struct{ name, pool string }{{"fixed", ""}, {"fixedinline", "inline"}} {
		args := []string{"-fix", "./" + pkg.name}
		if pkg.pool != "" {
			args = append([]string{"-pool=" + pkg.pool}, args...)
		}
		r = run(t, dir, env, binary, args...)
		require.Contains(t, []int{0, 3}, r.code, "%s", r)
		fixed, err := os.ReadFile(filepath.Join(dir, pkg.name, pkg.name+".go"))
		require.NoError(t, err)
		committed, err := os.ReadFile(filepath.Join(repoRoot, "bench", pkg.name, pkg.name+".go"))
		require.NoError(t, err)
		assert.Equal(t, string(fixed), string(committed),
			"bench/%s/%s.go is not naive.go after hashalloc %s: run go generate ./bench/%s", pkg.name, pkg.name, strings.Join(args, " "), pkg.name)
	}
}

// parseFindingsAnywhere returns the category of every finding in hashalloc's
// text output, wherever the files are.
func parseFindingsAnywhere(t *testing.T, output string) []string {
	t.Helper()
	var cats []string
	for line := range strings.SplitSeq(output, "\n") {
		if line == "" {
			continue
		}
		m := textFinding.FindStringSubmatch(line)
		if assert.NotNil(t, m, "not a finding: %q", line) {
			cats = append(cats, m[4])
		}
	}
	return cats
}

// TestExamplesBenchmarks fixes a copy of examples/, runs every benchmark of
// the naive and the fixed copy briefly, and checks the allocations per
// operation against the seeds' hand-made fixes: the fixed merkle tree makes
// no more than go-square's 199 and 200, the token verifier no more than
// jwt's 1, and no fix adds an allocation. The figures of docs/rewrites.md
// come from the same comparison with more runs (go run ./bench/cmd/readme).
func TestExamplesBenchmarks(t *testing.T) {
	testenv.SkipUnlessSlow(t, "fixes a copy of examples/ and benchmarks both")
	t.Parallel()
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"}
	allocs := map[string]map[string]int{}
	for _, name := range []string{"naive", "fixed"} {
		dir := copyExamples(t, true)
		if name == "fixed" {
			r := run(t, dir, env, binary, "-fix", "./...")
			require.Contains(t, []int{0, 3}, r.code, "%s", r)
		}
		r := run(t, dir, env, "go", "test", "-run", "^$", "-bench", ".", "-benchmem", "-benchtime", "100x", "./...")
		require.Equal(t, 0, r.code, "%s", r)
		allocs[name] = benchAllocs(t, r.stdout)
	}
	t.Logf("allocs/op, naive → fixed:")
	for _, bench := range slices.Sorted(maps.Keys(allocs["naive"])) {
		naive := allocs["naive"][bench]
		fixed, ok := allocs["fixed"][bench]
		require.True(t, ok, "%s: not run on the fixed copy", bench)
		t.Logf("  %s: %d → %d", bench, naive, fixed)
		assert.LessOrEqual(t, fixed, naive, "%s: the fix adds allocations", bench)
	}
	for bench, limit := range map[string]int{
		"merkle/HashAlternatives/recursive":    199,
		"merkle/HashAlternatives/iterative":    200,
		"tokensigner/HS/Verify-HS256":          0,
		"tokensigner/HS/Sign-HS256":            13,
		"trie/HashChangedNodes/key=32B/n=1000": 0,
		"trie/HashChangedNodes/key=48B/n=1000": 148, // the seed's by hand
	} {
		got, ok := allocs["fixed"][bench]
		if assert.True(t, ok, "no benchmark %s", bench) {
			assert.LessOrEqual(t, got, limit, "%s after the fix", bench)
		}
	}
	assert.Less(t, allocs["fixed"]["treehash/RootOfReaders"], allocs["naive"]["treehash/RootOfReaders"])
}

// benchAllocs returns the allocs/op of every benchmark in go test -bench
// output, by package (last element) and benchmark name without its
// Benchmark prefix and GOMAXPROCS suffix.
func benchAllocs(t *testing.T, out string) map[string]int {
	t.Helper()
	line := regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+.*\s(\d+) allocs/op`)
	allocs := map[string]int{}
	pkg := ""
	for l := range strings.SplitSeq(out, "\n") {
		if p, ok := strings.CutPrefix(l, "pkg: "); ok {
			pkg = p[strings.LastIndex(p, "/")+1:]
		}
		if m := line.FindStringSubmatch(l); m != nil {
			n, err := strconv.Atoi(m[2])
			require.NoError(t, err)
			allocs[pkg+"/"+m[1]] = n
		}
	}
	require.NotEmpty(t, allocs, "no benchmark in\n%s", out)
	return allocs
}
