package driver

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// loadMode loads every package from source, dependencies too: the analyzer's
// facts must be computed on them.
const loadMode = packages.LoadAllSyntax | packages.NeedModule | packages.NeedForTest

// load loads the packages that patterns name. Test files are loaded only
// when tests is set; tags are the build tags, as go build -tags takes them.
// It returns the packages to analyze: with tests, a package's test variant
// ("p [p.test]") stands for the package, whose files it holds with the test
// files, so that every file is analyzed once; generated test mains are left
// out.
func load(patterns []string, tests bool, tags string) ([]*packages.Package, error) {
	return loadWith(loadMode, patterns, tests, tags)
}

// loadWith is load with the given mode.
func loadWith(mode packages.LoadMode, patterns []string, tests bool, tags string) ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: mode, Tests: tests}
	if tags != "" {
		cfg.BuildFlags = []string{"-tags=" + tags}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	if !tests {
		return pkgs, nil
	}
	hasVariant := map[string]bool{} // package path => it has an internal test variant
	for _, p := range pkgs {
		if p.ForTest != "" && p.PkgPath == p.ForTest {
			hasVariant[p.PkgPath] = true
		}
	}
	return slices.DeleteFunc(pkgs, func(p *packages.Package) bool {
		switch {
		case p.ForTest == "" && hasVariant[p.PkgPath]:
			return true // its test variant is analyzed instead
		case p.Name == "main" && strings.HasSuffix(p.ID, ".test") && !strings.Contains(p.ID, " "):
			return true // the test main that go test generates
		}
		return false
	}), nil
}
