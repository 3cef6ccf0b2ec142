package driver

import (
	"fmt"
	"strings"

	"github.com/hashalloc/hashalloc/internal/resultcache"

	"golang.org/x/tools/go/packages"
)

// load lists the packages that patterns name and the packages they import,
// directly or not, with go list: nothing is parsed or type-checked (analyze
// does, package by package). Test files are loaded only when tests is set;
// tags are the build tags, as go build -tags takes them. It returns the
// packages to analyze (see resultcache.AnalyzedRoots).
func load(patterns []string, tests bool, tags string) ([]*packages.Package, error) {
	return loadWith(resultcache.ListMode, patterns, tests, tags)
}

// loadWith is load with the given mode.
func loadWith(mode packages.LoadMode, patterns []string, tests bool, tags string) ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: mode, Tests: tests}
	if tags != "" {
		cfg.BuildFlags = []string{"-tags=" + tags}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		if why := moduleProblem(err.Error()); why != nil {
			return nil, why
		}
		return nil, err
	}
	if why := moduleProblem(listErrors(pkgs)); why != nil {
		return nil, why
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	return resultcache.AnalyzedRoots(pkgs, tests), nil
}
