package driver

import (
	"context"
	"fmt"
	"go/token"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/internal/resultcache"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// cached is what the result cache answers for a run: the roots it holds a
// result for, with their diagnostics, and the roots to analyze.
type cached struct {
	cache  *resultcache.Cache
	keyer  *resultcache.Keyer
	keys   map[string]resultcache.Key // by root ID
	files  *resultcache.Files
	hits   []*packages.Package // listed roots, their Fset that of files
	diags  map[*packages.Package][]analysis.Diagnostic
	misses []*packages.Package // listed roots
	// pgoNote says which default.pgo the run takes, as useDefaultPGO.
	pgoNote string
	// imports counts the packages imported by the misses, directly or not,
	// whose unit entry the cache held, and importsAnalyzed those analyzed
	// for their facts (see analyzeMisses).
	imports, importsAnalyzed int
}

// lookUp lists the packages of the run (a go list, nothing parsed), keys
// each root and reads the results the cache holds. It returns nil, with
// the reason, when the cache cannot answer: the run then analyzes
// everything as it would without a cache. A package that cannot be listed
// is one: the load without the cache says what is wrong with it.
func lookUp(o options) (*cached, error) {
	cache, err := resultcache.OpenDefault()
	if err != nil || cache == nil {
		return nil, err
	}
	listed, err := load(o.patterns, testsFlag(), o.tags)
	if err != nil {
		return nil, nil
	}
	if resultcache.HasErrors(listed) {
		return nil, nil
	}
	c := &cached{cache: cache, keys: map[string]resultcache.Key{}, diags: map[*packages.Package][]analysis.Diagnostic{}}
	if !o.profileSet {
		if c.pgoNote, err = useDefaultPGO(listed); err != nil {
			return nil, nil // the run without the cache says what is wrong
		}
	}
	toolchain, err := resultcache.GoEnv(context.Background(), "")
	if err != nil {
		return nil, err
	}
	salt, err := resultcache.RunSalt(analyzer.Analyzer, o.tags, toolchain)
	if err != nil {
		return nil, err
	}
	c.keyer = resultcache.NewKeyer(salt, toolchain)
	c.files = resultcache.NewFiles(c.keyer.Content)
	for _, p := range listed {
		key, err := c.keyer.Key(p)
		if err != nil {
			return nil, err
		}
		c.keys[p.ID] = key
		diags, ok := cache.Result(key, c.files)
		if !ok {
			c.misses = append(c.misses, p)
			continue
		}
		p.Fset = c.files.Fset
		c.hits = append(c.hits, p)
		c.diags[p] = diags
	}
	return c, nil
}

// missPatterns returns the patterns that load the roots the cache has no
// result for, or nil when the run's own patterns must: a root listed from
// files rather than an import path.
func (c *cached) missPatterns() []string {
	var pats []string
	for _, p := range c.misses {
		path := p.PkgPath
		if p.ForTest != "" {
			path = p.ForTest
		}
		if path == "" || path == "command-line-arguments" {
			return nil
		}
		if !slices.Contains(pats, path) {
			pats = append(pats, path)
		}
	}
	return pats
}

// only keeps, of loaded, the roots the cache has no result for; it reports
// false when one of them is not there.
func (c *cached) only(loaded []*packages.Package) ([]*packages.Package, bool) {
	want := map[string]bool{}
	for _, p := range c.misses {
		want[p.ID] = true
	}
	var kept []*packages.Package
	for _, p := range loaded {
		if want[p.ID] {
			kept = append(kept, p)
			delete(want, p.ID)
		}
	}
	return kept, len(want) == 0
}

// sameFiles reports whether the files of p, as loaded into fset, have the
// size they had when they were keyed.
func (c *cached) sameFiles(p *packages.Package, fset *token.FileSet) bool {
	for _, f := range p.Syntax {
		tf := fset.File(f.FileStart)
		content, err := c.keyer.Content(tf.Name())
		if err != nil || len(content) != tf.Size() {
			return false
		}
	}
	return true
}

// loadMisses loads the roots to analyze: those the cache has no result
// for, or with no cache every root. When the load does not find the roots
// the listing found, the cache answers nothing and every root is analyzed.
func loadMisses(o options, c *cached) ([]*packages.Package, error) {
	if c != nil && len(c.hits) > 0 {
		if pats := c.missPatterns(); pats != nil {
			loaded, err := load(pats, testsFlag(), o.tags)
			if err == nil {
				if kept, ok := c.only(loaded); ok {
					return kept, nil
				}
			}
		}
	}
	roots, err := load(o.patterns, testsFlag(), o.tags)
	if err != nil || c == nil {
		return roots, err
	}
	if kept, ok := c.only(roots); ok {
		return kept, nil
	}
	c.hits, c.diags = nil, map[*packages.Package][]analysis.Diagnostic{}
	return roots, nil
}

// summary says what the cache answered: how many roots, and which were
// analyzed.
func (c *cached) summary() string {
	var ids []string
	for _, p := range c.misses {
		ids = append(ids, p.ID)
	}
	s := fmt.Sprintf("%s from the cache, %d analyzed", plural(len(c.hits), "package"), len(c.misses))
	if len(ids) > 0 {
		s += ": " + strings.Join(ids, ", ")
	}
	if len(c.misses) > 0 {
		s += fmt.Sprintf("\nhashalloc: cache: %s imported from the cache, %d analyzed for their facts",
			plural(c.imports, "package"), c.importsAnalyzed)
	}
	return s
}
