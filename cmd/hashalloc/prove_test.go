package main_test

// End-to-end tests of hashalloc prove, on the testdata module
// testdata/prove (which replaces example.com/provedep by ../provedep, a
// relative directory that the copy must still find) and on two modules of
// the real-world corpus. Every test that runs benchmarks is a slow test
// (HASHALLOC_SLOW=1, the slow step of .ci/test).

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hashalloc/hashalloc/internal/prove"
	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// proveEnv runs the go commands outside the repository's workspace: its
// go.work does not list the testdata modules.
var proveEnv = []string{"GOWORK=off"}

// proveModule is the testdata module of hashalloc prove.
func proveModule() string { return filepath.Join(repoRoot, "testdata", "prove") }

// quick are the flags of a run whose figures only need to exist: one run on
// each side, long enough for the profile to see the benchmark's own
// allocations.
var quick = []string{"-count=1", "-benchtime=10ms"}

// treeFiles returns the contents of the files under dir, by path.
func treeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		files[path] = string(data)
		return err
	}))
	return files
}

// noCrash checks that a run printed no panic or stack trace.
func noCrash(t *testing.T, r result) {
	t.Helper()
	for _, out := range []string{r.stdout, r.stderr} {
		assert.NotRegexp(t, `(?m)^(panic: |goroutine \d+ \[|fatal error: )`, out, "%s", r)
	}
}

// TestProveHotOnlyByProfile runs prove on the package whose hot site only
// the benchmarks' profile reveals: the plain analysis reports the recursive
// Tree.Sum and not Digest, which a Pipeline calls through an interface of
// another package; prove reports Digest with the share of the profile that
// made it hot, keeps Tree.Sum (which the benchmarks never run) silent, fixes
// Digest on the copy and prints the saving in benchstat's table, and leaves
// the tree alone.
func TestProveHotOnlyByProfile(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs benchmarks")
	t.Parallel()
	dir := proveModule()
	before := treeFiles(t, dir)

	r := run(t, dir, proveEnv, binary, "./hot")
	require.Equal(t, 3, r.code, "%s", r)
	assert.Contains(t, r.stderr, "hot/hot.go:52:7: hasher-alloc: ", "static evidence: Tree.Sum is recursive")
	assert.NotContains(t, r.stderr, "hot.go:23:", "static evidence does not show Digest hot")

	r = run(t, dir, proveEnv, binary, "prove", "-benchtime=20ms", "./hot")
	noCrash(t, r)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Empty(t, r.stderr, "no progress and no error without a terminal")
	assert.Regexp(t, `(?m)^Pipeline(-\d+)?\s+32\.00 ± 0%\s+16\.00 ± 0%\s+-50\.00% \(p=0\.002 n=6\)$`, r.stdout, "the allocs/op table")
	// B/op is an average over b.N: a run in which the runtime allocates
	// a few bytes of its own reads 512.0 ± 1%; the medians do not move.
	assert.Regexp(t, `(?m)^Pipeline(-\d+)?\s+2560\.0 ± \d+%\s+512\.0 ± \d+%\s+-80\.00% \(p=0\.002 n=6\)$`, r.stdout, "the B/op table")
	assert.Regexp(t, `(?m)^\s+│\s+sec/op\s+│\s+sec/op\s+vs base\s+│$`, r.stdout, "the sec/op table")
	assert.Regexp(t, `(?m)^ +\d+%  hot/hot\.go:23:7: hasher-alloc: .*\(it is hot in the profile\).*\n +fixed$`, r.stdout)
	assert.NotContains(t, r.stdout, "hot.go:52", "a site the benchmarks do not run stays silent")
	assert.Contains(t, r.stdout, "tested on the fixed copy (go test -count=1): ./hot: ok")
	assert.Contains(t, r.stdout, "the fixes hold")
	assert.Equal(t, before, treeFiles(t, dir), "without -fix, prove changes nothing in the tree")
}

// TestProveJSON checks prove -json: the comparisons, the findings with
// their shares, what was fixed and tested; and, on a failure (a fix that
// makes a benchmark allocate more), the error and the fix to blame, with
// exit code 1.
func TestProveJSON(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs benchmarks")
	t.Parallel()
	r := run(t, proveModule(), proveEnv, binary, append(append([]string{"prove", "-json"}, quick...), "./hot")...)
	noCrash(t, r)
	require.Equal(t, 0, r.code, "%s", r)
	var rep prove.Report
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), "%s", r.stdout)
	assert.Equal(t, "example.com/prove", rep.Module)
	assert.Equal(t, []string{"example.com/prove/hot"}, rep.Packages)
	var allocs *prove.Comparison
	for i, c := range rep.Benchmarks {
		if c.Unit == "allocs/op" {
			allocs = &rep.Benchmarks[i]
		}
	}
	require.NotNil(t, allocs, "%s", r.stdout)
	assert.Equal(t, 32.0, allocs.Before.Median)
	assert.Equal(t, 16.0, allocs.After.Median)
	assert.Equal(t, 1, allocs.Before.N)
	require.Len(t, rep.Findings, 1, "%s", r.stdout)
	f := rep.Findings[0]
	assert.Equal(t, filepath.Join(proveModule(), "hot", "hot.go")+":23:7", f.Posn)
	assert.Equal(t, "hasher-alloc", f.Category)
	require.NotNil(t, f.Share)
	assert.Greater(t, *f.Share, 0.5)
	assert.True(t, f.HotByProfile)
	assert.True(t, f.Fixed)
	assert.Equal(t, []prove.FixedFile{{File: filepath.Join(proveModule(), "hot", "hot.go"), Findings: 1}}, rep.Fixed)
	assert.Equal(t, []string{"example.com/prove/hot"}, rep.Tested)
	assert.Empty(t, rep.Error)

	r = run(t, proveModule(), proveEnv, binary, append(append([]string{"prove", "-json"}, quick...), "./allocmore")...)
	noCrash(t, r)
	require.Equal(t, 1, r.code, "%s", r)
	rep = prove.Report{}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), "%s", r.stdout)
	assert.Contains(t, rep.Error, "allocates more")
	require.Len(t, rep.Blame, 1, "%s", r.stdout)
	assert.Equal(t, filepath.Join(proveModule(), "allocmore", "allocmore.go")+":16:8", rep.Blame[0].Posn)
	assert.Equal(t, "hasher-alloc", rep.Blame[0].Category)
	for _, want := range []string{
		"hashalloc prove: BenchmarkSumNone of ./allocmore allocates more after the fixes",
		"allocs/op: 0 → 1",
		"the fix of allocmore/allocmore.go:16:8 (hasher-alloc) makes BenchmarkSumNone allocate more (measured with this fix alone): Hoist h out of the loop",
	} {
		assert.Contains(t, r.stderr, want, "the error is on stderr, as without -json")
	}
}

// TestProveFailures checks the ways prove fails on bad input, each with a
// clear message naming the package, the flag or the fix, a non-zero exit
// code and no stack trace (a fix that makes a benchmark allocate more:
// TestProveJSON).
func TestProveFailures(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs benchmarks")
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no benchmarks", []string{"./nobench"}, 1, []string{"hashalloc prove: no benchmarks: ./nobench has none"}},
		{"no benchmark matches", []string{"-bench=Nothing", "./hot"}, 1, []string{"no benchmarks match -bench=Nothing in ./hot (they have BenchmarkPipeline)"}},
		{"benchmarks do not build", []string{"./broken"}, 1, []string{
			"the benchmarks of ./broken do not build on the copy of the module",
			"broken_test.go:7:18: cannot use Sum(nil)",
		}},
		{"tests fail after the fix", []string{"./testfail"}, 1, []string{
			"the tests of ./testfail fail on the copy after the fixes",
			"Digest allocates 1 times, want 3",
			"the fix of testfail/testfail.go:13:7 (hasher-alloc) makes the tests of ./testfail fail (measured with this fix alone): Call sha256.New directly",
		}},
		{"standard library", []string{"crypto/sha256"}, 1, []string{"package crypto/sha256 is in the standard library"}},
		{"missing package", []string{"./missing"}, 1, []string{"hashalloc prove: ", "missing"}},
		{"no packages", nil, 2, []string{"hashalloc prove: no packages to prove"}},
		{"bad -count", []string{"-count=0", "./hot"}, 2, []string{"-count: 0 is not a number of runs"}},
		{"bad -bench", []string{"-bench=(", "./hot"}, 2, []string{"-bench: \"(\" is not a regular expression"}},
		{"bad -run", []string{"-run=[", "./hot"}, 2, []string{"-run: \"[\" is not a regular expression"}},
		{"bad -benchtime", []string{"-benchtime=fast", "./hot"}, 2, []string{"-benchtime: \"fast\" is not a duration"}},
		{"bad analyzer flag", []string{"-pool=nowhere", "./hot"}, 2, []string{"-pool"}},
		{"-profile is not prove's", []string{"-profile=x.pprof", "./hot"}, 2, []string{"flag provided but not defined: -profile"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"prove"}, quick...), tc.args...)
			if tc.args == nil {
				args = []string{"prove"}
			}
			r := run(t, proveModule(), proveEnv, binary, args...)
			noCrash(t, r)
			assert.Equal(t, tc.code, r.code, "%s", r)
			for _, want := range tc.want {
				assert.Contains(t, r.stderr, want, "%s", r)
			}
		})
	}
}

// TestProveVetFails checks a module whose test files go vet rejects before
// any fix, although they compile: prove says so and runs the benchmarks and
// tests with -vet=off.
func TestProveVetFails(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs benchmarks")
	t.Parallel()
	r := run(t, proveModule(), proveEnv, binary, append(append([]string{"prove"}, quick...), "./vetfail")...)
	noCrash(t, r)
	assert.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stderr, "hashalloc prove: go vet fails on ./vetfail before any fix, so its benchmarks and tests run with -vet=off:\n", "%s", r)
	assert.Contains(t, r.stderr, "Example_BuildSimple has malformed example suffix", "%s", r)
	assert.Contains(t, r.stdout, "tested on the fixed copy (go test -count=1 -vet=off): ./vetfail: ok\n", "%s", r)
	assert.Contains(t, r.stdout, "the fixes hold", "%s", r)
}

// TestProveFixDoesNotBuild checks the failure of a fix that the analysis
// cannot see: the module pins an old release of the runtime module, without
// the package the fix imports, and the fixed copy does not build.
func TestProveFixDoesNotBuild(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs benchmarks")
	t.Parallel()
	r := run(t, filepath.Join(repoRoot, "testdata", "provepinned"), proveEnv, binary, append(append([]string{"prove"}, quick...), "./pinned")...)
	noCrash(t, r)
	assert.Equal(t, 1, r.code, "%s", r)
	for _, want := range []string{
		"the tests of ./pinned fail on the copy after the fixes",
		"no required module provides package github.com/hashalloc/hashalloc/runtime/hashsum",
		"the fix of pinned/pinned.go:14:23 (concat-hash) makes the tests of ./pinned fail",
	} {
		assert.Contains(t, r.stderr, want, "%s", r)
	}
}

// TestProveTestNames checks a fix whose helper would take a name that the
// package's tests declare: it takes another, and the fixed copy's tests
// build and pass.
func TestProveTestNames(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs benchmarks")
	t.Parallel()
	r := run(t, proveModule(), proveEnv, binary, append(append([]string{"prove", "-pool=inline"}, quick...), "./redeclare")...)
	noCrash(t, r)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, "tested on the fixed copy (go test -count=1): ./redeclare: ok")
}

// copyProveModule copies testdata/prove and testdata/provedep, side by
// side as the replace directive wants them, into a new directory and
// returns the copy of testdata/prove.
func copyProveModule(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	for _, name := range []string{"prove", "provedep"} {
		src := filepath.Join(repoRoot, "testdata", name)
		require.NoError(t, filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, path)
			to := filepath.Join(dst, name, rel)
			if d.IsDir() {
				return os.MkdirAll(to, 0o755)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(to, data, 0o644)
		}))
	}
	return filepath.Join(dst, "prove")
}

// TestProveFix checks that -fix writes the fixes into the tree once
// everything has passed on the copy, and nothing when prove fails.
func TestProveFix(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs benchmarks")
	t.Parallel()
	dir := copyProveModule(t)
	hot := filepath.Join(dir, "hot", "hot.go")
	r := run(t, dir, proveEnv, binary, append(append([]string{"prove", "-fix"}, quick...), "./hot")...)
	noCrash(t, r)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, "applied to hot/hot.go")
	data, err := os.ReadFile(hot)
	require.NoError(t, err)
	assert.Contains(t, string(data), "h := sha256.New()")
	assert.NotContains(t, string(data), "h := crypto.SHA256.New()\n\th.Write(msg)")
	r = run(t, dir, proveEnv, "go", "test", "./hot")
	assert.Equal(t, 0, r.code, "the fixed package passes its tests: %s", r)

	before := treeFiles(t, filepath.Join(dir, "allocmore"))
	r = run(t, dir, proveEnv, binary, append(append([]string{"prove", "-fix"}, quick...), "./allocmore")...)
	require.Equal(t, 1, r.code, "%s", r)
	assert.Equal(t, before, treeFiles(t, filepath.Join(dir, "allocmore")), "a failed proof writes nothing")
}

// TestProveProgress runs prove under a terminal (script(1)): it shows which
// package and benchmark it is on and the time left.
func TestProveProgress(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs benchmarks")
	if _, err := exec.LookPath("script"); err != nil || runtime.GOOS != "linux" {
		t.Skip("needs script(1) from util-linux")
	}
	t.Parallel()
	r := run(t, proveModule(), append([]string{"TERM=xterm"}, proveEnv...), "script", "-qefc", binary+" prove -count=2 -benchtime=200ms ./hot", "/dev/null")
	require.Equal(t, 0, r.code, "%s", r)
	assert.Regexp(t, `hashalloc prove: measuring \./hot BenchmarkPipeline \(run [12] of 2, (before|after) the fixes\) · about \d+s left`, r.stdout)
	assert.Contains(t, r.stdout, "\r\033[K", "the line is rewritten in place")
	assert.Contains(t, r.stdout, "the fixes hold")
}

// TestProveHelp checks hashalloc help prove, prove -help and the command's
// usage.
func TestProveHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"help", "prove"}, {"prove", "-help"}} {
		r := run(t, repoRoot, nil, binary, args...)
		require.Equal(t, 0, r.code, "%s", r)
		assert.Contains(t, r.stdout, "usage: hashalloc prove [flags] packages...")
		for _, f := range []string{"-bench", "-benchtime", "-count", "-run", "-fix", "-json", "-profile-threshold"} {
			assert.Regexp(t, `(?m)^  `+f+`( |$)`, r.stdout, "help prove documents %s", f)
		}
	}
	r := run(t, repoRoot, nil, binary, "-help")
	assert.Contains(t, r.stderr, "hashalloc prove [flags] packages...")
}

// corpusModule copies a module of the real-world corpus from the module
// cache (downloading it through the module proxy if needed) into a new
// directory, writable; it skips the test when the module cannot be had.
func corpusModule(t *testing.T, query string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", query)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	var info struct{ Dir string }
	if err != nil || json.Unmarshal(out, &info) != nil || info.Dir == "" {
		t.Skipf("go mod download %s: %v %s", query, err, out)
	}
	dir := filepath.Join(t.TempDir(), "module")
	r := run(t, t.TempDir(), nil, "cp", "-r", info.Dir, dir)
	require.Equal(t, 0, r.code, "%s", r)
	r = run(t, dir, proveEnv, "chmod", "-R", "u+w", ".")
	require.Equal(t, 0, r.code, "%s", r)
	return dir
}

// TestProveCorpus runs prove, with its default -benchtime and -count, on
// two modules of the corpus with benchmarks: cometbft's crypto/merkle,
// where it prints the table of the go-square seed's pull request (497 ->
// 199 and 498 -> 200 allocs/op), and aws-sdk-go-v2's v4 signer, whose hot
// sites only its benchmarks reveal (the plain analysis finds nothing).
func TestProveCorpus(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the benchmarks of real modules")
	t.Run("cometbft", func(t *testing.T) {
		t.Parallel()
		dir := corpusModule(t, "github.com/cometbft/cometbft@v0.37.18")
		r := run(t, dir, []string{"GOFLAGS=-mod=mod"}, binary, "prove", "-bench=HashAlternatives", "./crypto/merkle")
		noCrash(t, r)
		require.Equal(t, 0, r.code, "%s", r)
		t.Logf("\n%s", r.stdout)
		assert.Regexp(t, `(?m)^HashAlternatives/recursive(-\d+)?\s+497\.0 ± 0%\s+199\.0 ± 0%\s+-59\.96% \(p=0\.002 n=6\)$`, r.stdout)
		assert.Regexp(t, `(?m)^HashAlternatives/iterative(-\d+)?\s+498\.0 ± 0%\s+200\.0 ± 0%\s+-59\.84% \(p=0\.002 n=6\)$`, r.stdout)
		assert.Contains(t, r.stdout, "tested on the fixed copy (go test -count=1): ./crypto/merkle: ok")
	})
	t.Run("aws-sdk-go-v2", func(t *testing.T) {
		t.Parallel()
		dir := corpusModule(t, "github.com/aws/aws-sdk-go-v2@v1.48.0")
		env := []string{"GOFLAGS=-mod=mod"}
		r := run(t, dir, env, binary, "prove", "./aws/signer/...")
		noCrash(t, r)
		require.Equal(t, 0, r.code, "%s", r)
		t.Logf("\n%s", r.stdout)
		assert.Regexp(t, `(?m)^SignRequest(-\d+)?\s+48\.00 ± 0%\s+42\.00 ± 0%\s+-12\.50% \(p=0\.002 n=6\)$`, r.stdout)
		assert.Regexp(t, `(?m)^ +[\d.]+%  aws/signer/internal/v4/hmac\.go:10:10: hmac-rekey: .*it is hot in the profile.*\n +fixed$`, r.stdout)
		assert.Regexp(t, `(?m)^ +[\d.]+%  aws/signer/v4/v4\.go:495:31: hasher-alloc: .*take the hasher passed on from a pool.*\n +fixed$`, r.stdout)
		assert.Contains(t, r.stdout, "./aws/signer/v4: ok", "the signer's tests pass on the fixed copy")
	})
}
