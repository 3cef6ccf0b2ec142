package driver

import (
	"slices"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/internal/defaultpgo"
	"golang.org/x/tools/go/packages"
)

// useDefaultPGO makes the default.pgo of the main packages of the modules
// that roots belong to the analysis's profile, as go build -pgo=auto takes
// it, when -profile is not given; it returns the note that says so, or ""
// when there is none.
func useDefaultPGO(roots []*packages.Package) (string, error) {
	var dirs []string
	for _, p := range roots {
		if m := p.Module; m != nil && m.Main && m.Dir != "" && !slices.Contains(dirs, m.Dir) {
			dirs = append(dirs, m.Dir)
		}
	}
	return defaultpgo.Use(dirs, cwd, analyzer.Analyzer.Flags.Lookup("profile").Value.Set)
}
