package analyzer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/fixes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// testdata is the repository's testdata directory, shared by every check.
var testdata = func() string {
	dir, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		panic(err)
	}
	return dir
}()

func newAnalyzer(t *testing.T, opts analyzer.Options) *analysis.Analyzer {
	t.Helper()
	a, err := analyzer.New(opts)
	require.NoError(t, err)
	return a
}

// The checks' testdata packages are analyzed in a few runs, one per set of
// options, rather than one per package: each run analyzes the standard
// library packages they import too (for facts), which costs more than the
// packages themselves.

// TestFixes checks the findings and fixes of every check with the default
// options: the diagnostics against the // want comments, the fixes against
// the .golden files.
func TestFixes(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}),
		"hasheralloc",
		"keptimport", // fixes that keep an import a function they do not change still uses (go-square's hash helper)
		"fieldapi",   // a keyed pool fix adds only an unexported field, and none to a struct built with a positional literal
		"valuerecv",  // keys held in types with value receivers (seed 003, cristalhq/jwt), and the compare form of a signing helper
		"hmacrekey",
		"concathash",
		"sumalloc",
		"hotbuffer", "hotbuffervar",
		"hotbufferhelper",                                   // buffers handed to helpers of their package, merkledb's shape among them (seed 002)
		"fiximports",                                        // imports added and removed by fixes
		"suppress",                                          // //hashalloc:ignore, //nolint:hashalloc, generated files
		"suppress/integration",                              // directives in integration tests
		"escape",                                            // hashers passed to functions of the package: the model's parameter summaries
		"roles",                                             // methods and functions the standard library calls in loops, and look-alikes
		"atomickey",                                         // HMAC keys loaded from atomic fields, which their holder may rotate
		"hmaconce",                                          // one-shot HMACs with statements between hmac.New, the Writes and the Sum
		"makecopy",                                          // make+copy concatenations with offsets spelled in any way, and copy loops
		"digestvalues",                                      // function values of a hash's shape, and full slices of arrays
		"ringhash",                                          // strings converted to be hashed through a function value (a hash ring's)
		"example.com/hashing", "funcvars", "funcvarswriter", // sums reached through package variables of function type
		"dynsinks",                                                      // concatenations hashed through calls whose targets the package knows
		"fieldsum",                                                      // Sum(nil) on hashers held in struct fields (a Bloom filter's)
		"wrappers", "example.com/wrapperlib", "example.com/wrapperuser", // constructor wrappers, in their package and through facts
		"writers",                        // hashers given to writer wrappers (io.MultiWriter, bufio, compressors), which keep them
		"dyntargets",                     // hashers made per node in targets of an interface or a function value that the package knows
		"derivedkey", "derivedkey/loops", // key derivations repeated with values that do not change, and the negative cases beside them
		"joins",      // hashers and MACs assigned in branches, merged where the branches join
		"helperloop", // helpers that make, write and sum a MAC, called in loops that keep their key
		"funcctors",  // hashers made by calls of function values: registries, fields, parameters, interface methods
		"catalogued", // CRC tables made per call, KDFs given a constructor as a value, strings converted to be written into a hasher
	)
}

// TestInlinePool checks the fixes of -pool=inline.
func TestInlinePool(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolInline}),
		"inlinepool", "hotbufferinline", "fiximportsinline",
		"concathashinline", // multi-part sums declared in the file, for a helper of another file
		"reserved",         // no declared name that the package's tests or its files for other platforms declare
	)
}

// TestFindings checks diagnostics whose fixes other tests check, or that
// have none, with the default options, and the related information that
// lists the evidence of each finding, for tools.
func TestFindings(t *testing.T) {
	t.Parallel()
	results := analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{}),
		"dyntargets",                     // hashers made per node in targets of an interface or a function value that the package knows
		"derivedkey", "derivedkey/loops", // key derivations repeated with values that do not change, and the negative cases beside them
		"hotness",
		"example.com/hashlib", "example.com/hashuser", // per-call facts, and what a caller is told at its calls
		"example.com/escapelib", "example.com/escapeuser", // parameter facts, and what a caller passing hashers is told
		"roles",
	)
	var picked []*analysistest.Result
	for _, r := range results {
		if p := r.Pass.Pkg.Path(); p == "example.com/hashuser" || p == "roles" {
			picked = append(picked, r)
		}
	}
	checkEvidence(t, picked)
}

// TestTestsOption checks -tests: test files analyzed, and what they say
// about hotness.
func TestTestsOption(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{Tests: true}), "testsflag", "hotnesstests")
}

func TestBadOptions(t *testing.T) {
	t.Parallel()
	_, err := analyzer.New(analyzer.Options{Pool: "global"})
	require.EqualError(t, err, `-pool: "global" is not a pool mode (want auto, runtime or inline)`)
	_, err = analyzer.New(analyzer.Options{Constructors: []string{"NoDot"}})
	require.EqualError(t, err, `-constructors: "NoDot" is not of the form importpath.Func`)
	_, err = analyzer.New(analyzer.Options{Sums: []string{"example.com/h.Sum256=sha256,NoDot=sha256"}})
	require.EqualError(t, err, `-sums: "NoDot=sha256" is not of the form importpath.Func or importpath.Func=ALGORITHM`)
	_, err = analyzer.New(analyzer.Options{Sums: []string{"example.com/h.Sum256=sha257"}})
	require.EqualError(t, err, `-sums: "example.com/h.Sum256=sha257": unknown algorithm "sha257" (want one of md5, sha1, sha224, sha256, sha384, sha3_224, sha3_256, sha3_384, sha3_512, sha512, sha512_224, sha512_256)`)
	_, err = analyzer.New(analyzer.Options{Sums: []string{"example.com/h.Sum256="}})
	require.Error(t, err)
}

// TestCostFacts checks that a package of a module exports what its
// exported functions allocate, and that its callers in another package
// count it beside their sites (the standard library and GOPATH packages
// export no such fact: see TestModel's testdata for the rules).
func TestCostFacts(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, filepath.Join(testdata, "mod", "costfacts"), newAnalyzer(t, analyzer.Options{}), "./...")
}

// TestGoVersion checks that fixes follow the Go version of the file they
// edit: in a module older than the runtime module, which cannot require it,
// -pool=runtime and the default pool mode declare the pools in the fixed
// file, as -pool=inline does, rather than offer no fix.
func TestGoVersion(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, filepath.Join(testdata, "mod", "goversion"), newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolRuntime}), "./...")
	analysistest.RunWithSuggestedFixes(t, filepath.Join(testdata, "mod", "goversioninline"), newAnalyzer(t, analyzer.Options{}), "./...")
	analysistest.RunWithSuggestedFixes(t, filepath.Join(testdata, "mod", "goversioninline"), newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolInline}), "./...")
}

// TestRuntimeGoLine checks that fixes.RuntimeGo is the runtime module's go
// line: a fix that imports the module is offered only to files that can take it.
func TestRuntimeGoLine(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "runtime", "go.mod"))
	require.NoError(t, err)
	var line string
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "go "); ok {
			line = "go" + strings.TrimSpace(v)
		}
	}
	require.Equal(t, fixes.RuntimeGo, line)
}

// checkEvidence checks the related information that lists the evidence of
// each finding of example.com/hashuser and roles.
func checkEvidence(t *testing.T, results []*analysistest.Result) {
	t.Helper()
	var diags []analysis.Diagnostic
	evidence := map[string]string{} // by the position of the finding: "roles.go:129"
	for _, r := range results {
		diags = append(diags, r.Diagnostics...)
		for _, d := range r.Diagnostics {
			var lines []string
			for _, rel := range d.Related {
				lines = append(lines, rel.Message)
			}
			pos := r.Pass.Fset.Position(d.Pos)
			evidence[fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line)] = strings.Join(lines, "\n")
		}
	}
	for at, want := range map[string]string{
		"hashuser.go:29": "evidence: caller-chain: lockIndex is called in a loop by LocksFor",
		"roles.go:134": "evidence: caller-chain: digestOf is called by Less\n" +
			"evidence: role: Less is Less of a sort.Interface, which sort.Sort calls O(n log n) times",
		"roles.go:142": "evidence: role: Swap is Swap of a sort.Interface, which sort.Sort calls O(n log n) times",
		"roles.go:160": "evidence: hashing-function: Read returns a hash of what it is given, which its callers call it for once per item",
	} {
		assert.Equal(t, want, evidence[at], at)
	}
	var recursion, directive bool
	for _, d := range diags {
		for _, r := range d.Related {
			recursion = recursion || r.Message == "evidence: recursion: walk → walk"
			directive = directive || r.Message == "evidence: directive: Marked is marked //hashalloc:hot"
		}
	}
	assert.True(t, recursion, "no recursion evidence")
	assert.True(t, directive, "no directive evidence")
}

// sumsOption names the testdata's customhash sums, as -sums does.
var sumsOption = []string{"example.com/customhash.Sum256=sha256,example.com/customhash.Digest", "example.com/customhash.New=sha256"}

// TestSums checks the sums outside the standard library, known from facts,
// the catalog and -sums, in both pool modes.
func TestSums(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{Sums: sumsOption}), "example.com/fork/sha256", "sums")
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{Sums: sumsOption, Pool: analyzer.PoolInline}), "sumsinline")
}

// TestPoolAuto checks the default pool mode: the runtime module's pools in a
// module that requires it, pools declared in the fixed file in one that does
// not; and that -pool=runtime offers no fix that would import a module the
// fixed module cannot resolve.
func TestPoolAuto(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, filepath.Join(testdata, "mod", "autopool"), newAnalyzer(t, analyzer.Options{}), "./...")
	analysistest.RunWithSuggestedFixes(t, filepath.Join(testdata, "mod", "autopoolrequired"), newAnalyzer(t, analyzer.Options{}), "./...")
	analysistest.Run(t, filepath.Join(testdata, "mod", "autopoolruntime"), newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolRuntime}), "./...")
}
