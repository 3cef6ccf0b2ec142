package norelated_test

import (
	"go/ast"
	"reflect"
	"testing"

	"github.com/hashalloc/hashalloc/internal/norelated"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// reporter reports every function declaration, with a related entry at its
// body.
var reporter = &analysis.Analyzer{
	Name:       "reporter",
	Doc:        "reports every function declaration",
	ResultType: reflect.TypeFor[string](),
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, decl := range f.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok {
					pass.Report(analysis.Diagnostic{
						Pos:     fd.Pos(),
						Message: "func " + fd.Name.Name,
						Related: []analysis.RelatedInformation{{Pos: fd.Body.Pos(), Message: "evidence: body"}},
					})
				}
			}
		}
		return "done", nil
	},
}

func TestWrap(t *testing.T) {
	files := map[string]string{"p/p.go": "package p\n\nfunc F() {} // want `func F`\n\nfunc G() {} // want `func G`\n"}
	testdata, cleanup, err := analysistest.WriteFiles(files)
	require.NoError(t, err)
	defer cleanup()

	plain := analysistest.Run(t, testdata, reporter, "p")
	require.Len(t, plain, 1)
	require.Len(t, plain[0].Diagnostics, 2)
	assert.NotEmpty(t, plain[0].Diagnostics[0].Related, "the analyzer itself reports related information")

	wrapped := norelated.Wrap(reporter)
	assert.Equal(t, reporter.Name, wrapped.Name)
	results := analysistest.Run(t, testdata, wrapped, "p")
	require.Len(t, results, 1)
	require.Len(t, results[0].Diagnostics, 2)
	for _, d := range results[0].Diagnostics {
		assert.Empty(t, d.Related, "%s", d.Message)
	}
	assert.Equal(t, "done", results[0].Result, "the wrapped analyzer returns the analyzer's result")
}
