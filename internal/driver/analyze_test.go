package driver

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
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

// variantsModule has a finding that takes a fact across packages (b's loop
// over a's wrapper), a package whose external test imports a package that
// imports it (with -tests, b [a.test] is a dependency beside b), a package
// that does not type-check and one that imports it.
var variantsModule = map[string]string{
	"go.mod": "module example.com/variants\n\ngo 1.26.0\n",
	"a/a.go": `package a

import (
	"crypto/sha256"
	"hash"
)

// New returns the hasher of the tree's nodes.
func New() hash.Hash { return sha256.New() }

func helper() int { return 1 }

// Helped calls helper.
func Helped() int { return helper() }
`,
	"a/a_test.go": `package a_test

import (
	"io"
	"testing"

	"example.com/variants/b"
)

func TestSums(t *testing.T) {
	for range 10 {
		b.Sums([]io.Reader{})
	}
}
`,
	"b/b.go": `package b

import (
	"io"

	"example.com/variants/a"
)

// Sums hashes every reader.
func Sums(rs []io.Reader) [][]byte {
	var sums [][]byte
	for _, r := range rs {
		h := a.New()
		io.Copy(h, r)
		sums = append(sums, h.Sum(nil))
	}
	return sums
}
`,
	"c/c.go": `package c

import "example.com/variants/b"

// Sums is b.Sums.
var Sums = b.Sums
`,
	"broken/broken.go": "package broken\n\nvar X int = \"not an int\"\n",
	"blocked/blocked.go": `package blocked

import "example.com/variants/broken"

// Y is broken's X.
var Y = broken.X
`,
}

// writeModule writes files into a new directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o777))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o666))
	}
	return dir
}

// setTests sets the analyzer's -tests flag for the rest of the test.
func setTests(t *testing.T, tests bool) {
	t.Helper()
	f := analyzer.Analyzer.Flags.Lookup("tests")
	old := f.Value.String()
	require.NoError(t, f.Value.Set(strconv.FormatBool(tests)))
	t.Cleanup(func() { _ = f.Value.Set(old) })
}

// checkerAnalysis is the reference the command's analysis is checked
// against: every package loaded from source by go/packages and kept, and
// x/tools' checker run over the whole graph.
func checkerAnalysis(t *testing.T, patterns []string, tests bool) ([]*packages.Package, *analysisResult) {
	t.Helper()
	roots, err := loadWith(packages.LoadAllSyntax|packages.NeedModule|packages.NeedForTest, patterns, tests, "")
	require.NoError(t, err)
	graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.Analyzer}, roots, nil)
	require.NoError(t, err)
	res := &analysisResult{failed: map[*packages.Package]error{}, diags: map[*packages.Package][]analysis.Diagnostic{}}
	for _, act := range graph.Roots {
		if act.Err != nil {
			res.failed[act.Package] = act.Err
			continue
		}
		res.roots = append(res.roots, act.Package)
		res.diags[act.Package] = act.Diagnostics
	}
	return roots, res
}

// output is what the command says of an analysis with -json: the errors of
// the packages that could not be analyzed, as text, then the JSON tree of
// every finding with its fixes and related information.
func output(t *testing.T, roots []*packages.Package, res *analysisResult) string {
	t.Helper()
	tree := jsonTree{}
	var b strings.Builder
	reportProblems(roots, res, tree, true, &b)
	res.collect()
	for _, f := range res.findings {
		tree.add(f, true)
	}
	require.NoError(t, tree.print(&b))
	return b.String()
}

// sameAsChecker checks that the command's analysis says what x/tools'
// checker says on the same packages, loaded whole: the same findings, fixes
// and related information at the same positions, and the same errors. Each
// run loads patterns in dir, with test files when tests is set.
func sameAsChecker(t *testing.T, runs ...checkRun) {
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	for _, r := range runs {
		t.Run(r.name+"/tests="+strconv.FormatBool(r.tests), func(t *testing.T) {
			t.Chdir(r.dir)
			setTests(t, r.tests)
			wantRoots, wantRes := checkerAnalysis(t, r.patterns, r.tests)
			want := output(t, wantRoots, wantRes)

			roots, err := load(r.patterns, r.tests, "")
			require.NoError(t, err)
			res, err := analyze(roots, nil, nil)
			require.NoError(t, err)
			assert.Equal(t, want, output(t, roots, res))
			if !r.quiet {
				assert.Contains(t, want, `"posn"`, "the run has findings to compare")
			}
		})
	}
}

// checkRun is a run of sameAsChecker.
type checkRun struct {
	name, dir string
	patterns  []string
	tests     bool
	quiet     bool // it has no finding
}

// repoRoot returns the directory of the repository.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	return root
}

// TestAnalyzeSameAsChecker compares the analysis with the checker's on the
// examples and on a module of test variants and broken packages.
func TestAnalyzeSameAsChecker(t *testing.T) {
	sameAsChecker(t,
		checkRun{name: "examples", dir: repoRoot(t), patterns: []string{"./examples/..."}, tests: true},
		checkRun{name: "variants", dir: writeModule(t, variantsModule), patterns: []string{"./..."}},
		checkRun{name: "variants", dir: writeModule(t, variantsModule), patterns: []string{"./..."}, tests: true},
	)
}

// TestAnalyzeSameAsCheckerTestdata compares the analysis with the
// checker's on the repository's testdata modules (example.com/prove has a
// package that does not build) and on the examples without test files.
func TestAnalyzeSameAsCheckerTestdata(t *testing.T) {
	testenv.SkipUnlessSlow(t, "loads and analyzes nine modules twice")
	root := repoRoot(t)
	runs := []checkRun{{name: "examples", dir: root, patterns: []string{"./examples/..."}}}
	mods, err := filepath.Glob(filepath.Join(root, "testdata", "mod", "*"))
	require.NoError(t, err)
	for _, m := range mods {
		runs = append(runs, checkRun{name: filepath.Base(m), dir: m, patterns: []string{"./..."}, tests: true})
	}
	for _, m := range []string{"prove", "provedep", "provepinned"} {
		runs = append(runs, checkRun{name: m, dir: filepath.Join(root, "testdata", m), patterns: []string{"./..."}, tests: true, quiet: m != "provepinned"})
	}
	sameAsChecker(t, runs...)
}

// TestAnalyzeLetsGo checks what the analysis keeps of each package: no
// syntax or type information, the types of a root from source, and those
// of a dependency from its export data (no file scopes, no unexported
// function), but where it imports a root, whose types from source it
// refers to. Facts still cross packages: b's finding takes a's fact.
func TestAnalyzeLetsGo(t *testing.T) {
	t.Chdir(writeModule(t, variantsModule))
	t.Setenv("GOWORK", "off")
	for _, tc := range []struct {
		patterns   []string
		fromSource []string // the packages of the graph whose types are from source
	}{
		{[]string{"./b"}, []string{"example.com/variants/b"}},
		{[]string{"./a", "./c"}, []string{"example.com/variants/a", "example.com/variants/b", "example.com/variants/c"}},
	} {
		roots, err := load(tc.patterns, false, "")
		require.NoError(t, err)
		res, err := analyze(roots, nil, nil)
		require.NoError(t, err)
		var fromSource []string
		packages.Visit(roots, nil, func(p *packages.Package) {
			assert.Nil(t, p.Syntax, p.ID)
			assert.Nil(t, p.TypesInfo, p.ID)
			require.NotNil(t, p.Types, p.ID)
			if p.Types.Scope().NumChildren() > 0 {
				fromSource = append(fromSource, p.ID)
			}
			if p.ID == "example.com/variants/a" {
				assert.Equal(t, slices.Contains(tc.fromSource, p.ID), p.Types.Scope().Lookup("helper") != nil, "a's unexported helper")
				assert.NotNil(t, p.Types.Scope().Lookup("New"))
			}
		})
		slices.Sort(fromSource)
		assert.Equal(t, tc.fromSource, fromSource, "%v", tc.patterns)
		assert.Empty(t, res.failed)
		res.collect()
		var msgs []string
		for _, f := range res.findings {
			msgs = append(msgs, f.pkg.ID+": "+f.diag.Message)
		}
		if slices.Contains(tc.patterns, "./b") {
			assert.Contains(t, strings.Join(msgs, "\n"), "example.com/variants/b: hasher-alloc: a.New() returns the hasher of sha256.New")
		}
	}
}
