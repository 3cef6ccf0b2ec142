package lsp

import (
	"cmp"
	"fmt"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hashalloc/hashalloc/internal/passes"
	"github.com/hashalloc/hashalloc/internal/testenv"
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
	testenv.SkipUnlessSlow(t, "analyzes packages with the checker and the server")
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

		outs := map[*packages.Package]*passes.Output{}
		packages.Visit(pkgs, nil, func(p *packages.Package) {
			var imports []passes.Imported
			for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
				imp := p.Imports[path]
				imports = append(imports, passes.Imported{Pkg: imp.Types, Facts: outs[imp].Facts})
			}
			outs[p] = passes.Run(a, &passes.Unit{
				Fset: p.Fset, Files: p.Syntax, OtherFiles: p.OtherFiles, IgnoredFiles: p.IgnoredFiles,
				Pkg: p.Types, Info: p.TypesInfo, Sizes: p.TypesSizes, TypeErrors: p.TypeErrors, IllTyped: p.IllTyped,
				Module: p.Module, ReadFile: os.ReadFile,
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
			require.NoError(t, out.Err, "%s", act.Package)
			assert.Equal(t, describeDiags(act.Package, act.Diagnostics), describeDiags(act.Package, out.Diags), "%s", act.Package)
			want := describeFacts(act.AllObjectFacts())
			assert.Equal(t, want, describeFacts(out.Facts[a].Objects()), "%s", act.Package)
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
