package analyzer_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/fixes"
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

func TestConcatHash(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "concathash")
}

func TestInlinePool(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolInline}), "inlinepool")
}

func TestSuppress(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "suppress")
}

func TestTestsFlag(t *testing.T) {
	analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{Tests: true}), "testsflag")
}

func TestBadOptions(t *testing.T) {
	_, err := analyzer.New(analyzer.Options{Pool: "global"})
	require.EqualError(t, err, `-pool: "global" is not a pool mode (want runtime or inline)`)
	_, err = analyzer.New(analyzer.Options{Constructors: []string{"NoDot"}})
	require.EqualError(t, err, `-constructors: "NoDot" is not of the form importpath.Func`)
}

func TestSumAlloc(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "sumalloc")
}

func TestHotBuffer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "hotbuffer")
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolInline}), "hotbufferinline")
}

func TestFixImports(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{}), "fiximports")
	analysistest.RunWithSuggestedFixes(t, testdata, newAnalyzer(t, analyzer.Options{Pool: analyzer.PoolInline}), "fiximportsinline")
}

// TestGoVersion checks that fixes follow the Go version of the file they edit.
func TestGoVersion(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join(testdata, "mod", "goversion"), newAnalyzer(t, analyzer.Options{}), "./...")
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
