package driver

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/internal/passes"
	"github.com/hashalloc/hashalloc/internal/resultcache"
	"golang.org/x/tools/go/analysis"
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

// This file analyzes the graph of packages that load lists package by
// package, as go vet and staticcheck do, rather than loading every package
// whole and keeping it to the end, as x/tools' checker does. Each package is
// parsed, type-checked and analyzed after the packages it imports, at most
// GOMAXPROCS at once, and its syntax and type information then go. A
// dependency (a package that is not a root) is read back from its unit, the
// export data and facts that the result cache stores (see
// resultcache.EncodeUnit), and its importers see those types: its types from
// source, with the scopes and objects of every function body, go too. A root
// keeps its types from source, which the roots that import it see, as with
// x/tools' checker.
//
//	package:           root          dependency
//	syntax, type info  dropped       dropped
//	types              from source   from its unit
//	facts              as analyzed   from its unit
//
// A dependency keeps its types from source when it has errors, or when it
// imports a package whose types are from source (a root, or a package with
// errors): export data read against a package type-checked from source
// could add objects to that package's scope.

// plan is the work of an analysis: the packages of the roots' graph,
// dependencies first, and how each is had.
type plan struct {
	roots  []*packages.Package                     // the packages to report on
	order  []*packages.Package                     // the graph under roots, dependencies first
	units  map[*packages.Package]*resultcache.Unit // read from the cache
	source map[*packages.Package]bool              // type-checked and analyzed
	facts  []*analysis.Analyzer                    // the analyzers that have facts
}

// newPlan plans the analysis of the graph under roots with a. A package is
// read from the unit entry that unit returns for it, when unit is not nil,
// if it is not a root, is not a test variant (whose path another package
// has) and every package it imports is read from the cache too: a package
// read from export data never refers to one type-checked in this run. Every
// other package but unsafe is type-checked and analyzed.
func newPlan(a *analysis.Analyzer, roots []*packages.Package, unit func(*packages.Package, []*analysis.Analyzer) *resultcache.Unit) *plan {
	pl := &plan{roots: roots, units: map[*packages.Package]*resultcache.Unit{}, source: map[*packages.Package]bool{}, facts: passes.FactAnalyzers(a)}
	root := map[*packages.Package]bool{}
	for _, p := range roots {
		root[p] = true
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		pl.order = append(pl.order, p)
		if p.PkgPath == "unsafe" {
			return
		}
		fromCache := unit != nil && !root[p] && p.ForTest == ""
		for _, imp := range p.Imports {
			fromCache = fromCache && !pl.source[imp]
		}
		if fromCache {
			if u := unit(p, pl.facts); u != nil {
				pl.units[p] = u
				return
			}
		}
		pl.source[p] = true
	})
	return pl
}

// analyze runs hashalloc on roots, listed by load, and on the packages they
// import, for their facts, counting in done, when it is not nil, the
// packages analyzed so far. With the result cache c (nil without one) it
// stores the result of each root and the unit of each package analyzed
// without an error.
func analyze(roots []*packages.Package, c *cached, done *atomic.Int64) (*analysisResult, error) {
	return analyzePlan(analyzer.Analyzer, newPlan(analyzer.Analyzer, roots, nil), c, done)
}

// analyzePlan runs a on the roots of pl, as planned, counting the packages
// analyzed in done when it is not nil. The packages analyzed get their
// types and errors as a load from source gives them, and a file set of the
// run's (but for the roots the cache c answers, whose results' positions
// are in a file set of their own). With c, not nil, it stores the result of
// each root analyzed and the unit of each package analyzed without an
// error. It fails when the export data of a unit cannot be read: the run
// then analyzes as it would without the cache.
func analyzePlan(a *analysis.Analyzer, pl *plan, c *cached, done *atomic.Int64) (*analysisResult, error) {
	fset := token.NewFileSet()
	var mu sync.Mutex // guards facts, fromExport, outs, failure and the cache's keyer
	facts := map[*packages.Package]map[*analysis.Analyzer]*passes.FactSet{}
	fromExport := map[*packages.Package]bool{} // the packages whose types were read from export data
	imported := func(p *packages.Package) []passes.Imported {
		imports := make([]passes.Imported, 0, len(p.Imports))
		for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
			imp := p.Imports[path]
			imports = append(imports, passes.Imported{Pkg: imp.Types, Facts: facts[imp]})
		}
		return imports
	}
	root := map[*packages.Package]bool{}
	for _, p := range pl.roots {
		root[p] = true
	}

	// The packages the cache answers, read in order (export data refers
	// to the packages read before it).
	for _, p := range pl.order {
		if !c.isHit(p) {
			p.Fset = fset // a hit keeps the file set its results' positions are in
		}
		switch {
		case p.PkgPath == "unsafe":
			p.Types = types.Unsafe
			facts[p] = emptyFacts(pl.facts)
			fromExport[p] = true
		case pl.units[p] != nil:
			sets, err := readUnit(pl.units[p], p, fset, pl.facts, imported(p))
			if err != nil {
				return nil, err
			}
			facts[p] = sets
			fromExport[p] = true
		}
	}

	// The others, each after the packages it imports, at most GOMAXPROCS
	// at once.
	outs := map[*packages.Package]*passes.Output{} // of the roots
	var failure error
	ready := map[*packages.Package]chan struct{}{}
	for p := range pl.source {
		ready[p] = make(chan struct{})
	}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, p := range pl.order {
		if !pl.source[p] {
			continue
		}
		wg.Go(func() {
			defer close(ready[p])
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					if failure == nil {
						failure = fmt.Errorf("internal error on %s: %v\n%s", p.ID, r, debug.Stack())
					}
					outs[p] = &passes.Output{Err: failure}
					mu.Unlock()
				}
			}()
			for _, imp := range p.Imports {
				if ch := ready[imp]; ch != nil {
					<-ch
				}
			}
			sem <- struct{}{}
			defer func() { <-sem }()
			mu.Lock()
			imports := imported(p)
			swap := !root[p] // let its source types go
			for _, imp := range p.Imports {
				swap = swap && fromExport[imp]
			}
			mu.Unlock()
			out := check(a, p, fset, imports)
			if done != nil {
				done.Add(1)
			}
			var unit []byte // nil when p has errors or cannot be encoded
			if out.Err == nil && !p.IllTyped && (swap || c != nil) {
				unit, _ = resultcache.EncodeUnit(fset, p.Types, out.Facts)
			}
			c.store(p, root[p], fset, out, unit, &mu)
			sets := out.Facts
			swapped := false
			if swap && unit != nil {
				if u, err := resultcache.DecodeUnit(unit, pl.facts); err == nil {
					if s, err := readUnit(u, p, fset, pl.facts, imports); err == nil {
						sets, swapped = s, true
					}
				}
			}
			p.Syntax, p.TypesInfo = nil, nil
			mu.Lock()
			facts[p], fromExport[p] = sets, swapped
			if root[p] {
				outs[p] = out
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if failure != nil {
		return nil, failure
	}

	res := &analysisResult{failed: map[*packages.Package]error{}, diags: map[*packages.Package][]analysis.Diagnostic{}}
	for _, p := range pl.roots {
		out := outs[p]
		if out == nil { // unsafe, which has no files: nothing to say
			out = &passes.Output{}
		}
		if out.Err != nil {
			res.failed[p] = out.Err
			continue
		}
		res.roots = append(res.roots, p)
		res.diags[p] = out.Diags
	}
	return res, nil
}

// readUnit reads the types of p from the export data of u, against the
// types of the packages it imports, directly or not, and returns the facts
// of each analyzer of analyzers at p: those it inherits from imports and
// those of u.
func readUnit(u *resultcache.Unit, p *packages.Package, fset *token.FileSet, analyzers []*analysis.Analyzer, imports []passes.Imported) (map[*analysis.Analyzer]*passes.FactSet, error) {
	byPath := map[string]*types.Package{}
	packages.Visit(slices.Collect(maps.Values(p.Imports)), nil, func(imp *packages.Package) {
		byPath[imp.PkgPath] = imp.Types
	})
	pkg, err := u.Types(fset, byPath, p.PkgPath)
	if err != nil {
		return nil, fmt.Errorf("export data of %s: %v", p.ID, err)
	}
	sets := map[*analysis.Analyzer]*passes.FactSet{}
	for _, fa := range analyzers {
		set, ok := passes.Inherit(fa, imports)
		if !ok {
			return nil, fmt.Errorf("facts of %s: an import has none", p.ID)
		}
		sets[fa] = set
	}
	u.AddFacts(pkg, sets)
	p.Types = pkg
	return sets, nil
}

// emptyFacts returns a fact set for each of analyzers, all empty.
func emptyFacts(analyzers []*analysis.Analyzer) map[*analysis.Analyzer]*passes.FactSet {
	sets := map[*analysis.Analyzer]*passes.FactSet{}
	for _, a := range analyzers {
		sets[a] = passes.NewFactSet()
	}
	return sets
}

// check parses and type-checks p from its compiled Go files, against the
// types of the packages it imports, records in p what a load from source
// records, and runs a on it.
func check(a *analysis.Analyzer, p *packages.Package, fset *token.FileSet, imports []passes.Imported) *passes.Output {
	files, parseErrs := passes.Parse(fset, p.CompiledGoFiles, os.ReadFile)
	checked := passes.Check(fset, p.PkgPath, p.Name, files, parseErrs, func(path string) (*types.Package, error) {
		imp := p.Imports[path]
		if imp == nil {
			return nil, fmt.Errorf("no metadata for %s", path)
		}
		if imp.Types == nil || !imp.Types.Complete() {
			return nil, fmt.Errorf("could not import %s", path)
		}
		return imp.Types, nil
	}, p.TypesSizes, p.Module)
	p.Syntax, p.Types, p.TypesInfo, p.TypeErrors = files, checked.Pkg, checked.Info, checked.TypeErrors
	p.Errors = append(p.Errors, checked.Errors...)
	p.IllTyped = len(p.Errors) > 0
	for _, imp := range p.Imports {
		p.IllTyped = p.IllTyped || imp.IllTyped
	}
	return passes.Run(a, &passes.Unit{
		Fset: fset, Files: files, OtherFiles: p.OtherFiles, IgnoredFiles: p.IgnoredFiles,
		Pkg: p.Types, Info: p.TypesInfo, Sizes: p.TypesSizes, TypeErrors: p.TypeErrors, IllTyped: p.IllTyped,
		Module: p.Module, ReadFile: os.ReadFile,
	}, imports)
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
