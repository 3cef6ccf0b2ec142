package analyzer_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// loadTestdata loads the testdata package pkg (GOPATH mode) with its syntax
// and that of its dependencies, for analyze.
func loadTestdata(t *testing.T, pkg string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  testdata,
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, pkg)
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	require.Empty(t, pkgs[0].Errors)
	return pkgs
}

// analyze runs a on packages loaded by loadTestdata and returns the root's
// diagnostics. The packages can be analyzed again, by other analyzers.
func analyze(t *testing.T, a *analysis.Analyzer, pkgs []*packages.Package) []analysis.Diagnostic {
	t.Helper()
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	require.NoError(t, err)
	for act := range graph.All() {
		require.NoError(t, act.Err, "%s", act)
	}
	return graph.Roots[0].Diagnostics
}

// workloadProfiles builds and runs testdata's example.com/profiled/workload,
// which runs profiled.HashHot for 300 ms and profiled.HashCold once, and
// returns the CPU and the allocation profile it writes (runtime/pprof).
func workloadProfiles(t *testing.T) (cpu, mem string) {
	t.Helper()
	dir := t.TempDir()
	cpu, mem = filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	cmd := exec.Command("go", "run", "example.com/profiled/workload", "-cpuprofile="+cpu, "-memprofile="+mem)
	cmd.Dir = testdata
	cmd.Env = append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return cpu, mem
}

// findings spells diagnostics as "Func: category" by the function they are
// in, for comparison.
func hasherFindings(diags []analysis.Diagnostic) []string {
	var got []string
	for _, d := range diags {
		if d.Category != "hasher-alloc" {
			continue
		}
		fn := "?"
		for _, name := range []string{"HashHot", "HashCold"} {
			if strings.Contains(d.Message, "once per call of "+name+" ") {
				fn = name
			}
		}
		got = append(got, fn)
	}
	return got
}

func related(d analysis.Diagnostic) string {
	var lines []string
	for _, r := range d.Related {
		lines = append(lines, r.Message)
	}
	return strings.Join(lines, "\n")
}

// TestProfile checks that a CPU profile and an allocation profile of a real
// run tell two identical recursive hashers apart: without a profile both are
// reported, with either only the one the workload runs, with its share.
func TestProfile(t *testing.T) {
	testenv.SkipUnlessSlow(t, "builds and runs a workload under the profiler")
	t.Parallel()
	cpu, mem := workloadProfiles(t)
	profiled := loadTestdata(t, "example.com/profiled")

	static := analyze(t, newAnalyzer(t, analyzer.Options{}), profiled)
	assert.ElementsMatch(t, []string{"HashHot", "HashCold"}, hasherFindings(static))
	for _, d := range static {
		assert.NotContains(t, d.Message, "profile:")
		assert.Contains(t, related(d), "evidence: recursion: ")
	}

	for _, tc := range []struct {
		profile, unit string
		line          bool // the share at the finding's line is known
	}{
		{cpu, "sampled CPU time", false},
		{mem, "sampled allocation bytes", true},
	} {
		t.Run(tc.unit, func(t *testing.T) {
			diags := analyze(t, newAnalyzer(t, analyzer.Options{Profile: tc.profile}), profiled)
			require.Equal(t, []string{"HashHot"}, hasherFindings(diags), "%v", diags)
			d := diags[0]
			assert.Regexp(t, `once per call of HashHot \(it recurses: HashHot → HashHot, once per node it walks\) \(profile: \d+% of `+tc.unit+` in HashHot`, d.Message)
			if tc.line {
				assert.Regexp(t, `\d+% at this line\)`, d.Message)
			}
			assert.Regexp(t, `(?m)^share: [01]\.\d{4} of `+tc.unit+` in HashHot$`, related(d))
			share, ok := analyzer.Share(d)
			require.True(t, ok)
			assert.Greater(t, share, 0.5)
			assert.Contains(t, related(d), "evidence: recursion: HashHot → HashHot")

			if tc.line {
				// Every allocation is sampled: at a tiny threshold HashCold
				// is hot too, and comes second, by share.
				both := analyze(t, newAnalyzer(t, analyzer.Options{Profile: tc.profile, ProfileThreshold: 1e-9}), profiled)
				assert.Equal(t, []string{"HashHot", "HashCold"}, hasherFindings(both))
			}

			// Above HashHot's share (rounded to 4 digits), nothing is hot.
			if share+0.0001 <= 1 {
				none := analyze(t, newAnalyzer(t, analyzer.Options{Profile: tc.profile, ProfileThreshold: share + 0.0001}), profiled)
				assert.Empty(t, hasherFindings(none))
			}
		})
	}
}

// TestBadProfile checks that a missing, unreadable or foreign profile, and
// a bad threshold, are one clear error each.
func TestBadProfile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(text, []byte("not a profile\n"), 0o644))
	goroutines := filepath.Join(dir, "goroutine.pprof")
	f, err := os.Create(goroutines)
	require.NoError(t, err)
	require.NoError(t, pprof.Lookup("goroutine").WriteTo(f, 0))
	require.NoError(t, f.Close())

	for _, tc := range []struct {
		opts analyzer.Options
		want string
	}{
		{analyzer.Options{Profile: filepath.Join(dir, "missing.pgo")}, `-profile: open ` + filepath.Join(dir, "missing.pgo") + `: no such file or directory`},
		{analyzer.Options{Profile: text}, `-profile: ` + text + ` is not a pprof profile: `},
		{analyzer.Options{Profile: goroutines}, `-profile: ` + goroutines + `: not a CPU or allocation profile (its samples are goroutine/count)`},
		{analyzer.Options{ProfileThreshold: 2}, `-profile-threshold: "2" is not a share above 0 and at most 1 (0.01 or 1%)`},
		{analyzer.Options{ProfileThreshold: -0.5}, `-profile-threshold: "-0.5" is not a share above 0 and at most 1 (0.01 or 1%)`},
	} {
		_, err := analyzer.New(tc.opts)
		if assert.Error(t, err) {
			assert.Contains(t, err.Error(), tc.want)
		}
	}
	a := analyzer.Analyzer
	assert.NoError(t, a.Flags.Lookup("profile-threshold").Value.Set("5%"))
	assert.Equal(t, "0.05", a.Flags.Lookup("profile-threshold").Value.String())
	assert.NoError(t, a.Flags.Lookup("profile-threshold").Value.Set("0.01"))
}
