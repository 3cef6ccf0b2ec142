package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashalloc/hashalloc/internal/resultcache"
	"golang.org/x/tools/go/packages"
)

// fromCache answers the first analysis of a directory in a session from
// hashalloc's result cache (see resultcache), which the command fills: when
// no document is open with changes, and the cache holds the result of every
// package of the directory under the key of this build, these settings and
// the files as they are on disk. It reports false when it does not; the
// directory is then loaded and analyzed.
func fromCache(ctx context.Context, j *job, docURL string) (*result, bool) {
	if len(j.overlay) > 0 {
		return nil, false
	}
	cache, err := resultcache.OpenDefault()
	if err != nil || cache == nil {
		return nil, false
	}
	start := time.Now()
	cfg := &packages.Config{Context: ctx, Mode: resultcache.ListMode, Dir: j.dir, Tests: j.tests, BuildFlags: j.buildFlags}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, false
	}
	roots := resultcache.AnalyzedRoots(pkgs, j.tests)
	if len(roots) == 0 {
		return nil, false
	}
	if resultcache.HasErrors(roots) {
		return nil, false
	}
	toolchain, err := resultcache.GoEnv(ctx, j.dir)
	if err != nil {
		return nil, false
	}
	tags := ""
	for _, f := range j.buildFlags {
		if t, ok := strings.CutPrefix(f, "-tags="); ok {
			tags = t
		}
	}
	salt, err := resultcache.RunSalt(j.analyzer, tags, toolchain)
	if err != nil {
		return nil, false
	}
	keyer := resultcache.NewKeyer(salt, toolchain)
	files := resultcache.NewFiles(keyer.Content)
	res := &result{files: map[string]*fileResult{}}
	for _, p := range roots {
		for _, name := range p.GoFiles {
			if filepath.Dir(name) == j.dir && res.files[name] == nil {
				res.files[name] = &fileResult{path: name}
			}
		}
	}
	for _, p := range roots {
		key, err := keyer.Key(p)
		if err != nil {
			return nil, false
		}
		diags, ok := cache.Result(key, files)
		if !ok {
			return nil, false
		}
		for _, d := range diags {
			res.add(files.Fset, d, docURL, keyer.Content)
		}
	}
	res.stats = loadStats{cached: len(roots), load: time.Since(start)}
	return res, true
}
