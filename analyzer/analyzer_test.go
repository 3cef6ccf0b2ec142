package analyzer_test

import (
	"path/filepath"
	"testing"

	"github.com/hashalloc/hashalloc/analyzer"
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

func TestHotness(t *testing.T) {
	analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{}), "hotness")
	analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{Tests: true}), "hotnesstests")
}
