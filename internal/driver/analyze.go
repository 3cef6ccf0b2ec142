package driver

import (
	"cmp"
	"go/token"
	"slices"
	"sync/atomic"

	"github.com/hashalloc/hashalloc/analyzer"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// finding is one diagnostic of a package that was analyzed.
type finding struct {
	pkg       *packages.Package
	diag      analysis.Diagnostic
	posn, end token.Position
}

// isAudit reports whether the finding is a line of the audit (-audit): a
// site left silent, not a finding.
func (f *finding) isAudit() bool { return f.diag.Category == analyzer.AuditCategory }

// countFindings counts the findings of fs that are not audit lines.
func countFindings(fs []*finding) int {
	n := 0
	for _, f := range fs {
		if !f.isAudit() {
			n++
		}
	}
	return n
}

// hasFix reports whether the finding comes with a fix.
func (f *finding) hasFix() bool { return len(f.diag.SuggestedFixes) > 0 }

// analysisResult is what the analysis of the root packages gave.
type analysisResult struct {
	findings []*finding                  // in position order, each once
	failed   map[*packages.Package]error // roots whose analysis failed
	// roots are the roots analyzed without a failure, or answered by the
	// cache, in order, and diags each one's diagnostics.
	roots []*packages.Package
	diags map[*packages.Package][]analysis.Diagnostic
}

// analyze runs hashalloc on roots (and on their dependencies, for facts),
// counting in done, when it is not nil, the packages analyzed so far.
func analyze(roots []*packages.Package, done *atomic.Int64) (*analysisResult, error) {
	a := analyzer.Analyzer
	if done != nil {
		counted, run := *a, a.Run
		counted.Run = func(pass *analysis.Pass) (any, error) {
			defer done.Add(1)
			return run(pass)
		}
		a = &counted
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, roots, nil)
	if err != nil {
		return nil, err
	}
	res := &analysisResult{failed: map[*packages.Package]error{}, diags: map[*packages.Package][]analysis.Diagnostic{}}
	for _, act := range graph.Roots {
		if act.Err != nil {
			res.failed[act.Package] = act.Err
			continue
		}
		res.roots = append(res.roots, act.Package)
		res.diags[act.Package] = act.Diagnostics
	}
	return res, nil
}

// collect makes the findings of the diagnostics of res's roots: each once,
// in order.
func (res *analysisResult) collect() {
	type key struct {
		posn, end token.Position
		msg       string
	}
	seen := map[key]bool{}
	res.findings = nil
	for _, p := range res.roots {
		fset := p.Fset
		for _, d := range res.diags[p] {
			f := &finding{pkg: p, diag: d, posn: fset.Position(d.Pos), end: fset.Position(cmp.Or(d.End, d.Pos))}
			k := key{f.posn, f.end, d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			res.findings = append(res.findings, f)
		}
	}
	// With a profile, the largest measured share first (analyzer.Share);
	// without one, every finding has the same share.
	share := func(f *finding) float64 {
		if s, ok := analyzer.Share(f.diag); ok {
			return s
		}
		return -1
	}
	slices.SortStableFunc(res.findings, func(x, y *finding) int {
		return cmp.Or(cmp.Compare(share(y), share(x)),
			cmp.Compare(x.posn.Filename, y.posn.Filename),
			cmp.Compare(x.posn.Line, y.posn.Line),
			cmp.Compare(x.posn.Column, y.posn.Column))
	})
}
