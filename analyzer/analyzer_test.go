package analyzer_test

import (
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

func TestHasherAlloc(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "hasheralloc")
}

func TestHMACRekey(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "hmacrekey")
}

// TestAtomicKey checks HMAC keys loaded from atomic fields, which their
// holder may rotate.
func TestAtomicKey(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "atomickey")
}

// TestHMACOnce checks one-shot HMACs with statements between hmac.New, the
// Writes and the Sum, and what stops the fix when something does.
func TestHMACOnce(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "hmaconce")
}

// TestDerivedKey checks key derivations repeated with values that do not
// change, and the negative cases beside them.
func TestDerivedKey(t *testing.T) {
	analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{}), "derivedkey", "derivedkey/loops")
}

func TestConcatHash(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "concathash")
}

// TestMakeCopy checks concatenations built by make and copy with offsets
// spelled in any way and with copy loops, and the shapes that are not one.
func TestMakeCopy(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "makecopy")
}

// TestFuncVars checks sums reached through package variables of function
// type, of the package and, by their facts, of another, and a package that
// writes another's variable.
func TestFuncVars(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "example.com/hashing", "funcvars", "funcvarswriter")
}

// TestDynamicSinks checks concatenations hashed through calls whose
// targets the package knows: fields and parameters of function type, an
// interface with one implementation.
func TestDynamicSinks(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "dynsinks")
}

// TestKeptImport checks fixes that must keep an import a function they do
// not change still uses (go-square's hash helper), in a file with one
// unparenthesized import and in one with a parenthesized declaration.
func TestKeptImport(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "keptimport")
}

// TestFieldAPI checks that a keyed pool fix adds only an unexported field,
// and none to a struct built with a positional literal, here, in the
// package's tests, or possibly outside the package.
func TestFieldAPI(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "fieldapi")
}

// TestValueReceivers checks keys held in types with value receivers (seed
// 003, cristalhq/jwt), and the compare form of a signing helper.
func TestValueReceivers(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "valuerecv")
}

func TestInlinePool(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolInline}), "inlinepool")
}

func TestSuppress(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "suppress", "suppress/integration")
}

func TestTestsFlag(t *testing.T) {
	analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{Tests: true}), "testsflag")
}

func TestBadOptions(t *testing.T) {
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

func TestSumAlloc(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "sumalloc")
}

// TestFieldSum checks Sum(nil) on hashers held in struct fields (a Bloom
// filter's).
func TestFieldSum(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "fieldsum")
}

// TestHotBufferHelper checks buffers handed to helpers of their package,
// merkledb's shape among them (seed 002).
func TestHotBufferHelper(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "hotbufferhelper")
}

func TestHotBuffer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "hotbuffer")
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolInline}), "hotbufferinline")
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "hotbuffervar")
}

func TestFixImports(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "fiximports")
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolInline}), "fiximportsinline")
}

// TestGoVersion checks that fixes follow the Go version of the file they
// edit: -pool=runtime offers no fix to a file older than the runtime module,
// and the default pool mode declares the pools in such a module's files (it
// does not require the runtime module either), as -pool=inline does.
func TestGoVersion(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join(testdata, "mod", "goversion"), newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolRuntime}), "./...")
	analysistest.RunWithSuggestedFixes(t, filepath.Join(testdata, "mod", "goversioninline"), newAnalyzer(t, analyzer.Options{}), "./...")
	analysistest.RunWithSuggestedFixes(t, filepath.Join(testdata, "mod", "goversioninline"), newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolInline}), "./...")
}

// TestRuntimeGoLine checks that fixes.RuntimeGo is the runtime module's go
// line: a fix that imports the module is offered only to files that can take it.
func TestRuntimeGoLine(t *testing.T) {
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

func TestHotness(t *testing.T) {
	analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{}), "hotness")
	analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{Tests: true}), "hotnesstests")
}

// TestCrossPackage checks the per-call facts of example.com/hashlib and what
// example.com/hashuser is told at its calls of them.
func TestCrossPackage(t *testing.T) {
	analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{}), "example.com/hashlib", "example.com/hashuser")
}

// TestEscape checks hashers passed to functions of the package: the
// parameter summaries of the allocation model.
func TestEscape(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "escape")
}

// TestWrappers checks constructor wrappers: functions that return the
// hasher of a known constructor, in their package and, through their facts,
// in others.
func TestWrappers(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "wrappers")
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "example.com/wrapperlib", "example.com/wrapperuser")
}

// TestWriters checks hashers given to writer wrappers (io.MultiWriter,
// bufio, compressors, encoders), which keep them.
func TestWriters(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "writers")
}

// TestEscapeFacts checks the parameter facts of example.com/escapelib and
// what example.com/escapeuser is told when it passes hashers to them.
func TestEscapeFacts(t *testing.T) {
	analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{}), "example.com/escapelib", "example.com/escapeuser")
}

// TestRoles checks the methods and functions that the standard library
// calls in loops, and their look-alikes.
func TestRoles(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "roles")
}

// TestEvidence checks the related information that lists the evidence of
// each finding, for tools.
func TestEvidence(t *testing.T) {
	var diags []analysis.Diagnostic
	for _, r := range analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{}), "example.com/hashuser", "roles") {
		diags = append(diags, r.Diagnostics...)
	}
	evidence := map[string]string{} // by the first words of the message
	for _, d := range diags {
		var lines []string
		for _, r := range d.Related {
			lines = append(lines, r.Message)
		}
		evidence[d.Message[:strings.Index(d.Message, ", ")]] = strings.Join(lines, "\n")
	}
	for prefix, want := range map[string]string{
		"hasher-alloc: lockIndex allocates on every call": "evidence: loop: repeated by the loop at hashuser.go:18",
		"hasher-alloc: crypto.SHA256.New() always allocates its hasher on every call of digestOf": "evidence: caller-chain: digestOf is called by Less\n" +
			"evidence: role: Less is Less of a sort.Interface, which sort.Sort calls O(n log n) times",
		"hasher-alloc: crypto.SHA256.New() always allocates its hasher on every call of RoundTrip": "evidence: role: RoundTrip is RoundTrip of an http.RoundTripper, which http.Client calls once per request",
	} {
		assert.Equal(t, want, evidence[prefix], prefix)
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
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{Sums: sumsOption}), "example.com/fork/sha256", "sums")
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{Sums: sumsOption, Pool: analyzer.PoolInline}), "sumsinline")
}

// TestPoolAuto checks the default pool mode: the runtime module's pools in a
// module that requires it, pools declared in the fixed file in one that does
// not; and that -pool=runtime offers no fix that would import a module the
// fixed module cannot resolve.
func TestPoolAuto(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join(testdata, "mod", "autopool"), newAnalyzer(t, analyzer.Options{}), "./...")
	analysistest.RunWithSuggestedFixes(t, filepath.Join(testdata, "mod", "autopoolrequired"), newAnalyzer(t, analyzer.Options{}), "./...")
	analysistest.Run(t, filepath.Join(testdata, "mod", "autopoolruntime"), newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolRuntime}), "./...")
}
