package lsp

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestPassesAsChecker checks that runPasses, run on every package after
// those it imports, gives the diagnostics and the facts that
// golang.org/x/tools/go/analysis/checker gives on the same packages: on
// testdata/incremental, whose findings depend on facts across packages, and
// on a copy of examples/, with their tests.
func TestPassesAsChecker(t *testing.T) {
	t.Parallel()
	a, err := Settings{Tests: true}.analyzer()
	require.NoError(t, err)
	for _, dir := range []string{filepath.Join("testdata", "incremental"), copyExamples(t)} {
		// GOWORK=off: testdata/incremental is a module of its own, inside
		// the repository's workspace but not in it.
		cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir, Tests: true, Env: append(os.Environ(), "GOWORK=off")}
		pkgs, err := packages.Load(cfg, "./...")
		require.NoError(t, err)
		require.Empty(t, loadErrorsOf(pkgs))

		outs := map[*packages.Package]*passOutput{}
		packages.Visit(pkgs, nil, func(p *packages.Package) {
			var imports []imported
			for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
				imp := p.Imports[path]
				imports = append(imports, imported{pkg: imp.Types, facts: outs[imp].facts})
			}
			outs[p] = runPasses(a, &unit{
				fset: p.Fset, files: p.Syntax, otherFiles: p.OtherFiles, ignoredFiles: p.IgnoredFiles,
				pkg: p.Types, info: p.TypesInfo, sizes: p.TypesSizes, typeErrors: p.TypeErrors, illTyped: p.IllTyped,
				module: p.Module, readFile: os.ReadFile,
			}, imports)
		})

		graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
		require.NoError(t, err)
		diags, facts := 0, 0
		for act := range graph.All() {
			if act.Analyzer != a {
				continue
			}
			out := outs[act.Package]
			require.NotNil(t, out, "%s", act.Package)
			require.NoError(t, act.Err)
			require.NoError(t, out.err, "%s", act.Package)
			assert.Equal(t, describeDiags(act.Package, act.Diagnostics), describeDiags(act.Package, out.diags), "%s", act.Package)
			want := describeFacts(act.AllObjectFacts())
			var got []analysis.ObjectFact
			for k, f := range out.facts[a].objects {
				got = append(got, analysis.ObjectFact{Object: k.obj, Fact: f})
			}
			assert.Equal(t, want, describeFacts(got), "%s", act.Package)
			diags += len(act.Diagnostics)
			facts += len(want)
		}
		t.Logf("%s: %d diagnostics, %d facts", dir, diags, facts)
		assert.NotZero(t, diags)
		assert.NotZero(t, facts)
	}
}

func loadErrorsOf(pkgs []*packages.Package) []packages.Error {
	var errs []packages.Error
	packages.Visit(pkgs, nil, func(p *packages.Package) { errs = append(errs, p.Errors...) })
	return errs
}

// describeDiags spells diagnostics for comparison: position, message,
// fixes.
func describeDiags(p *packages.Package, diags []analysis.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		s := fmt.Sprintf("%s-%s: %s", p.Fset.Position(d.Pos), p.Fset.Position(d.End), d.Message)
		for _, f := range d.SuggestedFixes {
			s += "\n\tfix: " + f.Message
			// The checker sorts a fix's edits when it validates them.
			edits := slices.Clone(f.TextEdits)
			slices.SortStableFunc(edits, func(a, b analysis.TextEdit) int { return cmp.Compare(a.Pos, b.Pos) })
			for _, e := range edits {
				s += fmt.Sprintf("\n\t\t%s-%s: %q", p.Fset.Position(e.Pos), p.Fset.Position(e.End), e.NewText)
			}
		}
		out = append(out, s)
	}
	return out
}

// describeFacts spells facts for comparison, sorted.
func describeFacts(facts []analysis.ObjectFact) []string {
	var out []string
	for _, f := range facts {
		out = append(out, fmt.Sprintf("%s: %T %v", types.ObjectString(f.Object, nil), f.Fact, f.Fact))
	}
	slices.Sort(out)
	return out
}

// seen is a fact of the analyzers of TestPassErrors.
type seen struct{}

func (*seen) AFact() {}

// TestPassErrors checks that an analyzer that panics, or exports a fact
// about another package's object, gives an error and not a crash, and that
// the packages importing one where it failed fail too, as in the checker.
func TestPassErrors(t *testing.T) {
	fset := token.NewFileSet()
	check := func(path, src string, imports ...*types.Package) *unit {
		f, err := parser.ParseFile(fset, path+".go", src, 0)
		require.NoError(t, err)
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
		cfg := &types.Config{Importer: packageList(imports)}
		pkg, err := cfg.Check(path, fset, []*ast.File{f}, info)
		require.NoError(t, err)
		return &unit{fset: fset, files: []*ast.File{f}, pkg: pkg, info: info, readFile: os.ReadFile}
	}
	lib := check("lib", "package lib\n\nfunc F() {}\n")
	user := check("user", "package user\n\nimport \"lib\"\n\nvar _ = lib.F\n", lib.pkg)

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
	out := runPasses(marks, lib, nil)
	require.NoError(t, out.err)
	out = runPasses(marks, user, []imported{{pkg: lib.pkg, facts: out.facts}})
	require.NoError(t, out.err)
	require.Len(t, out.diags, 1)
	assert.Equal(t, "F has the fact", out.diags[0].Message)

	panics := &analysis.Analyzer{Name: "panics", Doc: "panics", FactTypes: []analysis.Fact{new(seen)}, Run: func(pass *analysis.Pass) (any, error) {
		panic("at the disco")
	}}
	out = runPasses(panics, lib, nil)
	assert.ErrorContains(t, out.err, "internal error: panics panicked on package lib: at the disco")
	out = runPasses(panics, user, []imported{{pkg: lib.pkg, facts: out.facts}})
	assert.ErrorContains(t, out.err, "failed prerequisites: panics on a package that user imports")

	foreign := &analysis.Analyzer{Name: "foreign", Doc: "foreign", FactTypes: []analysis.Fact{new(seen)}, Run: func(pass *analysis.Pass) (any, error) {
		pass.ExportObjectFact(lib.pkg.Scope().Lookup("F"), new(seen))
		return nil, nil
	}}
	out = runPasses(foreign, user, []imported{{pkg: lib.pkg, facts: map[*analysis.Analyzer]*factSet{foreign: {}}}})
	assert.ErrorContains(t, out.err, "foreign exported a fact about func lib.F(), which is not of package user")

	requires := &analysis.Analyzer{Name: "requires", Doc: "requires", Requires: []*analysis.Analyzer{panics}, Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	out = runPasses(requires, lib, nil)
	assert.ErrorContains(t, out.err, "failed prerequisites: panics")

	badResult := &analysis.Analyzer{Name: "badresult", Doc: "badresult", ResultType: reflect.TypeOf(0), Run: func(*analysis.Pass) (any, error) { return "one", nil }}
	out = runPasses(badResult, lib, nil)
	assert.ErrorContains(t, out.err, "returned a result of type string, but declared ResultType int")

	ill := *lib
	ill.illTyped = true
	out = runPasses(marks, &ill, nil)
	assert.ErrorContains(t, out.err, "analysis skipped due to errors in package")
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
