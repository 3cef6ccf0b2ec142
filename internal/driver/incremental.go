package driver

import (
	"fmt"
	"go/token"
	"io"
	"runtime/debug"
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
// after those it imports (see analyzePlan), their unit entries stored as
// they are made. So a change to one file costs the analysis of its package
// and of the packages that import it, as with the go command's vet.
//
//	package:    root miss   dependency    dependency
//	unit entry: -           held          not held
//	            source      export data   source
//	            analyzed    its facts     analyzed, for its facts

// planMisses plans the analysis of the misses: a package they import, not
// a root, is read from the unit entry the cache holds for it, when every
// package it imports is too (see newPlan).
func (c *cached) planMisses(a *analysis.Analyzer) *plan {
	return newPlan(a, c.misses, c.unit)
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

// isHit reports whether the cache answers for the root p: never when c is
// nil, a run without the cache.
func (c *cached) isHit(p *packages.Package) bool {
	if c == nil {
		return false
	}
	_, hit := c.diags[p]
	return hit
}

// store writes what the analysis of p into fset gave, with out, when c is
// not nil: its unit entry, unit (nil when it has none), and, if p is a root,
// its result. Neither is written when p or a package it imports has errors,
// or when a file of p has changed since it was keyed; one that cannot be
// written is only not cached. mu guards the keyer.
func (c *cached) store(p *packages.Package, root bool, fset *token.FileSet, out *passes.Output, unit []byte, mu *sync.Mutex) {
	if c == nil || out.Err != nil || p.IllTyped {
		return
	}
	mu.Lock()
	// A package of the standard library or the module cache is keyed by
	// its files' paths: they cannot have changed.
	same := c.keyer.Pinned(p) || c.sameFiles(p, fset)
	unitKey, keyed := c.keyer.Known(p)
	resultKey, listed := c.keys[p.ID]
	var result []byte
	if same && root && listed {
		result, _ = resultcache.Encode(fset, out.Diags, c.keyer.ContentSum)
	}
	mu.Unlock()
	if same && keyed && unit != nil {
		_ = c.cache.Put(resultcache.UnitKey(unitKey), unit)
	}
	if result != nil {
		_ = c.cache.Put(resultKey, result)
	}
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
	res, err := analyzePlan(analyzer.Analyzer, pl, c, done)
	if err != nil {
		if prog != nil {
			prog.clear()
		}
		fmt.Fprintf(stderr, "hashalloc: the result cache is not used: %v\n", err)
		return nil, nil, false
	}
	c.imports = len(pl.units)
	c.importsAnalyzed = len(pl.source)
	for _, p := range c.misses {
		if pl.source[p] {
			c.importsAnalyzed--
		}
	}
	return c.misses, res, true
}
