package analyzer

// How often code runs: the frequency model's question, asked the same way
// by every check.

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"golang.org/x/tools/go/ast/inspector"
)

// newModel builds the frequency model of the package: its production code,
// without test code unless -tests, with what hashes by the sites found.
func (p *pass) newModel() *frequency.Model {
	var tests inspector.Cursor
	if p.cfg.tests {
		tests = p.root
	}
	cfg := frequency.Config{
		Fset: p.Fset, Info: p.TypesInfo, Pkg: p.Pkg, Root: p.prod,
		Tests: tests,
		Calls: p.calls,
		Vals:  p.vals,
		// A package of a module; the standard library and GOPATH
		// packages have none (or an empty one).
		ExportAllocs: p.Module != nil && p.Module.Path != "",
		Test:         isTest,
		Skip: func(fn *types.Func, decl *ast.FuncDecl) bool {
			return p.suppress.skipped[p.Fset.File(decl.Pos())] || !p.cfg.tests && isTest(fn)
		},
		Hashes: func(fn *types.Func, body inspector.Cursor) bool {
			return p.hashes(body, 0)
		},
		Role: roleOf,
		Directive: func(fn *types.Func, decl *ast.FuncDecl) bool {
			return hasDirective(decl, hotDirective)
		},
		Threshold: p.cfg.threshold,
		ImportCost: func(fn *types.Func) (*frequency.CostFact, bool) {
			f := new(frequency.CostFact)
			if !p.ImportObjectFact(fn, f) {
				return nil, false
			}
			return f, true
		},
	}
	if p.cfg.profile != nil {
		cfg.Profile = p.cfg.profile
	}
	return frequency.New(cfg)
}

// hotDirective in a function's doc comment marks it hot.
const hotDirective = "//hashalloc:hot"

// hasDirective reports whether a line of decl's doc comment starts with
// directive.
func hasDirective(decl *ast.FuncDecl, directive string) bool {
	return decl.Doc != nil && slices.ContainsFunc(decl.Doc.List, func(c *ast.Comment) bool {
		return strings.HasPrefix(c.Text, directive)
	})
}

// often asks the model how often the site at cur runs, for an allocation of
// allocs there. It returns what the message says of it ("once per leaf of
// leaves (the loop at merkle.go:30)") and the loop of cur's function that
// repeats it, if any, and false when the site is not worth a finding: then
// the reason is kept for the audit. The evidence goes with the finding
// reported at cur's position.
func (p *pass) often(cur inspector.Cursor, category string, allocs int) (string, inspector.Cursor, bool) {
	return p.oftenCost(cur, category, frequency.Cost{Allocs: allocs})
}

// oftenCost is often for an allocation of cost c.
func (p *pass) oftenCost(cur inspector.Cursor, category string, c frequency.Cost) (string, inspector.Cursor, bool) {
	est := p.freq.Site(cur, c)
	if !est.PerItem {
		p.silent(cur.Node(), category, est.Why)
		return "", inspector.Cursor{}, false
	}
	if p.out.estimates == nil {
		p.out.estimates = map[ast.Node]frequency.Estimate{}
	}
	p.out.estimates[cur.Node()] = est
	return est.Text, est.Loop, true
}

// exportCosts exports the cost fact of every exported function of the
// analyzed files that costs more than an allocation per call.
func (p *pass) exportCosts() {
	for fn := range p.vals.Funcs(p.root.Inspector()) {
		if !fn.Exported() {
			continue
		}
		if fact, ok := p.freq.Cost(fn); ok {
			p.ExportObjectFact(fn, fact)
		}
	}
}
