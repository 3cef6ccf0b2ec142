package realworld

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashalloc/hashalloc/internal/census"
	"golang.org/x/tools/go/packages"
)

// unaccounted lists the sites of the census (see package census) in the
// packages of m, in its copy dir, that the audit has no line for: no
// finding and no audit entry at their position; with the number of sites
// the census counts. flags are the flags hashalloc ran with (their -tags
// count).
func unaccounted(dir string, pkgs, flags []string, diags []Diagnostic) ([]string, int, error) {
	cfg := &packages.Config{Dir: dir, Env: goEnv(), Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	for _, f := range flags {
		if strings.HasPrefix(f, "-tags=") {
			cfg.BuildFlags = append(cfg.BuildFlags, f)
		}
	}
	loaded, err := packages.Load(cfg, pkgs...)
	if err != nil {
		return nil, 0, fmt.Errorf("census: %v", err)
	}
	// By line: the runner keeps one diagnostic per file, line and check
	// (parseJSON), so that two sites on one line share their lines.
	type at struct {
		file string
		line int
	}
	lines := map[at]bool{}
	for _, d := range diags {
		lines[at{d.Filename, d.Line}] = true
	}
	var missing []string
	total := 0
	seen := map[at]bool{}
	packages.Visit(loaded, nil, func(p *packages.Package) {
		if p.TypesInfo == nil || !inModule(p, loaded) {
			return
		}
		for _, s := range census.Sites(p.Fset, p.Syntax, p.TypesInfo) {
			total++
			posn := p.Fset.Position(s.Pos)
			key := at{posn.Filename, posn.Line}
			if lines[key] || seen[key] {
				continue
			}
			seen[key] = true
			rel, err := filepath.Rel(dir, posn.Filename)
			if err != nil {
				rel = posn.Filename
			}
			missing = append(missing, fmt.Sprintf("%s:%d:%d: %s %s", filepath.ToSlash(rel), posn.Line, posn.Column, s.Kind, s.Text))
		}
	})
	return missing, total, nil
}

// inModule reports whether p is one of the packages loaded by name, not a
// dependency.
func inModule(p *packages.Package, roots []*packages.Package) bool {
	for _, r := range roots {
		if r == p {
			return true
		}
	}
	return false
}
