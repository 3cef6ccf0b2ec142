package passes

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// seen is a fact of the analyzers of TestPassErrors.
type seen struct{}

func (*seen) AFact() {}

// TestPassErrors checks that an analyzer that panics, or exports a fact
// about another package's object, gives an error and not a crash, and that
// the packages importing one where it failed fail too, as in the checker.
func TestPassErrors(t *testing.T) {
	fset := token.NewFileSet()
	check := func(path, src string, imports ...*types.Package) *Unit {
		f, err := parser.ParseFile(fset, path+".go", src, 0)
		require.NoError(t, err)
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
		cfg := &types.Config{Importer: packageList(imports)}
		pkg, err := cfg.Check(path, fset, []*ast.File{f}, info)
		require.NoError(t, err)
		return &Unit{Fset: fset, Files: []*ast.File{f}, Pkg: pkg, Info: info, ReadFile: os.ReadFile}
	}
	lib := check("lib", "package lib\n\nfunc F() {}\n")
	user := check("user", "package user\n\nimport \"lib\"\n\nvar _ = lib.F\n", lib.Pkg)

	marks := &analysis.Analyzer{Name: "marks", Doc: "marks", FactTypes: []analysis.Fact{new(seen)}, Run: func(pass *analysis.Pass) (any, error) {
		for _, obj := range pass.TypesInfo.Defs {
			if fn, ok := obj.(*types.Func); ok {
				pass.ExportObjectFact(fn, new(seen))
			}
		}
		for _, obj := range pass.TypesInfo.Uses {
			if fn, ok := obj.(*types.Func); ok && pass.ImportObjectFact(fn, new(seen)) {
				pass.Reportf(pass.Files[0].Pos(), "%s has the fact", fn.Name())
			}
		}
		return nil, nil
	}}
	out := Run(marks, lib, nil)
	require.NoError(t, out.Err)
	out = Run(marks, user, []Imported{{Pkg: lib.Pkg, Facts: out.Facts}})
	require.NoError(t, out.Err)
	require.Len(t, out.Diags, 1)
	assert.Equal(t, "F has the fact", out.Diags[0].Message)

	panics := &analysis.Analyzer{Name: "panics", Doc: "panics", FactTypes: []analysis.Fact{new(seen)}, Run: func(pass *analysis.Pass) (any, error) {
		panic("at the disco")
	}}
	out = Run(panics, lib, nil)
	assert.ErrorContains(t, out.Err, "internal error: panics panicked on package lib: at the disco")
	out = Run(panics, user, []Imported{{Pkg: lib.Pkg, Facts: out.Facts}})
	assert.ErrorContains(t, out.Err, "failed prerequisites: panics on a package that user imports")

	foreign := &analysis.Analyzer{Name: "foreign", Doc: "foreign", FactTypes: []analysis.Fact{new(seen)}, Run: func(pass *analysis.Pass) (any, error) {
		pass.ExportObjectFact(lib.Pkg.Scope().Lookup("F"), new(seen))
		return nil, nil
	}}
	out = Run(foreign, user, []Imported{{Pkg: lib.Pkg, Facts: map[*analysis.Analyzer]*FactSet{foreign: NewFactSet()}}})
	assert.ErrorContains(t, out.Err, "foreign exported a fact about func lib.F(), which is not of package user")

	requires := &analysis.Analyzer{Name: "requires", Doc: "requires", Requires: []*analysis.Analyzer{panics}, Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	out = Run(requires, lib, nil)
	assert.ErrorContains(t, out.Err, "failed prerequisites: panics")

	badResult := &analysis.Analyzer{Name: "badresult", Doc: "badresult", ResultType: reflect.TypeOf(0), Run: func(*analysis.Pass) (any, error) { return "one", nil }}
	out = Run(badResult, lib, nil)
	assert.ErrorContains(t, out.Err, "returned a result of type string, but declared ResultType int")

	ill := *lib
	ill.IllTyped = true
	out = Run(marks, &ill, nil)
	assert.ErrorContains(t, out.Err, "analysis skipped due to errors in package")
}

// packageList imports the packages it lists.
type packageList []*types.Package

func (l packageList) Import(path string) (*types.Package, error) {
	for _, p := range l {
		if p.Path() == path {
			return p, nil
		}
	}
	return nil, fmt.Errorf("no package %s", path)
}

// TestResultsGiven checks that Run takes the result of a required analyzer
// from Unit.Results, as the language server gives the inspector it built
// while the package was type-checked, rather than running that analyzer.
func TestResultsGiven(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", "package p\n", 0)
	require.NoError(t, err)
	info := &types.Info{}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	built := inspector.New([]*ast.File{f})
	var got any
	a := &analysis.Analyzer{Name: "uses", Doc: "uses", Requires: []*analysis.Analyzer{inspect.Analyzer}, Run: func(pass *analysis.Pass) (any, error) {
		got = pass.ResultOf[inspect.Analyzer]
		return nil, nil
	}}
	u := &Unit{Fset: fset, Files: []*ast.File{f}, Pkg: pkg, Info: info, ReadFile: os.ReadFile}
	require.NoError(t, Run(a, u, nil).Err)
	require.NotSame(t, built, got, "without Results, inspect runs")
	u.Results = map[*analysis.Analyzer]any{inspect.Analyzer: built}
	require.NoError(t, Run(a, u, nil).Err)
	require.Same(t, built, got)
}

// TestCheckSized checks that a package checked with the sizes of an
// earlier check gets the same type information.
func TestCheckSized(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", "package p\n\nfunc F(s []int) (n int) {\n\tfor _, v := range s {\n\t\tn += v\n\t}\n\treturn n\n}\n", 0)
	require.NoError(t, err)
	noImports := func(path string) (*types.Package, error) { return nil, fmt.Errorf("no %s", path) }
	first := Check(fset, "p", "p", []*ast.File{f}, nil, noImports, nil, nil)
	require.Empty(t, first.Errors)
	sizes := SizesOf(first.Info)
	require.Equal(t, len(first.Info.Types), sizes.types)
	again := CheckSized(sizes, fset, "p", "p", []*ast.File{f}, nil, noImports, nil, nil)
	require.Empty(t, again.Errors)
	require.Equal(t, sizes, SizesOf(again.Info))
	require.Equal(t, InfoSizes{}, SizesOf(nil))
}
