package driver

import (
	"fmt"
	"go/token"
	"go/types"
	"io"
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

// This file analyzes the roots the result cache has no result for, and
// nothing else: a dependency whose unit entry the cache holds (its export
// data and facts, see resultcache.UnitKey) is read from it, and only the
// packages without one are type-checked from source and analyzed, each
// after those it imports. So a change to one file costs the analysis of its
// package and of the packages that import it, as with the go command's vet.
//
//	package:    root miss   dependency    dependency
//	unit entry: -           held          not held
//	            source      export data   source
//	            analyzed    its facts     analyzed, for its facts

// plan is the work of an incremental analysis: the packages of the misses'
// graph, dependencies first, and how each is had.
type plan struct {
	order  []*packages.Package
	units  map[*packages.Package]*resultcache.Unit // read from the cache
	source map[*packages.Package]bool              // type-checked and analyzed
	facts  []*analysis.Analyzer                    // the analyzers that have facts
}

// planMisses decides which packages of the misses' graph the cache answers
// with a unit entry. A package is read from its entry when it is not a root
// to analyze, is not a test variant (whose path another package has) and
// every package it imports is read from the cache too: a package read from
// export data never refers to one type-checked in this run.
func (c *cached) planMisses(a *analysis.Analyzer) *plan {
	pl := &plan{units: map[*packages.Package]*resultcache.Unit{}, source: map[*packages.Package]bool{}, facts: passes.FactAnalyzers(a)}
	miss := map[*packages.Package]bool{}
	for _, p := range c.misses {
		miss[p] = true
	}
	packages.Visit(c.misses, nil, func(p *packages.Package) {
		pl.order = append(pl.order, p)
		if p.PkgPath == "unsafe" {
			return
		}
		fromCache := !miss[p] && p.ForTest == ""
		for _, imp := range p.Imports {
			fromCache = fromCache && !pl.source[imp]
		}
		if fromCache {
			if u := c.unit(p, pl.facts); u != nil {
				pl.units[p] = u
				return
			}
		}
		pl.source[p] = true
	})
	return pl
}

// unit returns the unit entry of p the cache holds, or nil.
func (c *cached) unit(p *packages.Package, analyzers []*analysis.Analyzer) *resultcache.Unit {
	key, ok := c.keyer.Known(p)
	if !ok {
		return nil
	}
	data, ok := c.cache.Get(resultcache.UnitKey(key))
	if !ok {
		return nil
	}
	u, err := resultcache.DecodeUnit(data, analyzers)
	if err != nil {
		return nil
	}
	return u
}

// analyzeMisses runs a on the roots the cache has no result for, as planned
// by pl, counting the packages analyzed in done when it is not nil. The
// misses, and the packages analyzed with them, get their syntax, types and
// errors as a load from source gives them. It stores the unit entry of every
// package analyzed without an error. It fails when an entry's export data
// cannot be read: the run then analyzes as it would without the cache.
func (c *cached) analyzeMisses(a *analysis.Analyzer, pl *plan, done *atomic.Int64) (*analysisResult, error) {
	fset := token.NewFileSet()
	facts := map[*packages.Package]map[*analysis.Analyzer]*passes.FactSet{}
	imported := func(p *packages.Package) []passes.Imported {
		imports := make([]passes.Imported, 0, len(p.Imports))
		for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
			imp := p.Imports[path]
			imports = append(imports, passes.Imported{Pkg: imp.Types, Facts: facts[imp]})
		}
		return imports
	}

	// The packages the cache answers, read in order (export data refers
	// to the packages read before it).
	byPath := map[string]*types.Package{}
	for _, p := range pl.order {
		if _, hit := c.diags[p]; !hit {
			p.Fset = fset // a hit keeps the file set its results' positions are in
		}
		switch {
		case p.PkgPath == "unsafe":
			p.Types = types.Unsafe
			facts[p] = emptyFacts(pl.facts)
		case pl.units[p] != nil:
			u := pl.units[p]
			pkg, err := u.Types(fset, byPath, p.PkgPath)
			if err != nil {
				return nil, fmt.Errorf("export data of %s: %v", p.ID, err)
			}
			p.Types = pkg
			sets := map[*analysis.Analyzer]*passes.FactSet{}
			for _, fa := range pl.facts {
				set, ok := passes.Inherit(fa, imported(p))
				if !ok {
					return nil, fmt.Errorf("facts of %s: an import has none", p.ID)
				}
				sets[fa] = set
			}
			u.AddFacts(pkg, sets)
			facts[p] = sets
		}
	}

	// The others, each after the packages it imports, at most GOMAXPROCS
	// at once.
	outs := map[*packages.Package]*passes.Output{}
	var mu sync.Mutex // guards outs, facts, failure and the keyer
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
			mu.Unlock()
			out := c.check(a, p, fset, imports)
			mu.Lock()
			outs[p], facts[p] = out, out.Facts
			mu.Unlock()
			if done != nil {
				done.Add(1)
			}
			c.storeUnit(p, fset, out, &mu)
		})
	}
	wg.Wait()
	if failure != nil {
		return nil, failure
	}

	res := &analysisResult{failed: map[*packages.Package]error{}, diags: map[*packages.Package][]analysis.Diagnostic{}}
	for _, p := range c.misses {
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
func (c *cached) check(a *analysis.Analyzer, p *packages.Package, fset *token.FileSet, imports []passes.Imported) *passes.Output {
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

// storeUnit writes the unit entry of p, parsed into fset and analyzed with
// out, when p and what it imports have no error and its files are those
// keyed; one that cannot be written is only not cached. mu guards the keyer.
func (c *cached) storeUnit(p *packages.Package, fset *token.FileSet, out *passes.Output, mu *sync.Mutex) {
	if out.Err != nil || p.IllTyped {
		return
	}
	key, same := func() (resultcache.Key, bool) {
		mu.Lock()
		defer mu.Unlock()
		key, ok := c.keyer.Known(p)
		// A package of the standard library or the module cache is keyed
		// by its files' paths: they cannot have changed.
		return key, ok && (c.keyer.Pinned(p) || c.sameFiles(p, fset))
	}()
	if !same {
		return
	}
	data, err := resultcache.EncodeUnit(fset, p.Types, out.Facts)
	if err != nil {
		return
	}
	_ = c.cache.Put(resultcache.UnitKey(key), data)
}

// analyzeFromCache analyzes the misses of c incrementally, showing progress
// on prog when it is not nil, and stores their results. It returns false
// when it could not: the run then loads and analyzes the misses from source.
func analyzeFromCache(c *cached, prog *progress, stderr io.Writer) (roots []*packages.Package, res *analysisResult, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "hashalloc: the result cache is not used: internal error: %v\n%s", r, debug.Stack())
			roots, res, ok = nil, nil, false
		}
	}()
	pl := c.planMisses(analyzer.Analyzer)
	var done *atomic.Int64
	if prog != nil {
		prog.analyzing(len(pl.source))
		done = prog.done
	}
	res, err := c.analyzeMisses(analyzer.Analyzer, pl, done)
	if err != nil {
		if prog != nil {
			prog.clear()
		}
		fmt.Fprintf(stderr, "hashalloc: the result cache is not used: %v\n", err)
		return nil, nil, false
	}
	c.store(c.misses, res)
	c.imports = len(pl.units)
	c.importsAnalyzed = len(pl.source)
	for _, p := range c.misses {
		if pl.source[p] {
			c.importsAnalyzed--
		}
	}
	return c.misses, res, true
}
