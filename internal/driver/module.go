package driver

import (
	"fmt"
	"go/version"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/hashalloc/hashalloc/fixes"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/tools/go/packages"
)

// moduleProblem explains, in one line, why the go command could not list
// the packages of a run when the reason is the module rather than a
// package: the working directory is in no module, or the go.mod needs an
// update (a requirement's go line is newer than its own). msg is what the
// go command said. It returns nil for any other problem, which the go
// command's own words explain.
func moduleProblem(msg string) error {
	outside := strings.Contains(msg, "go.mod file not found") || strings.Contains(msg, "does not contain main module")
	update := strings.Contains(msg, "updates to go.mod needed")
	if !outside && !update {
		return nil
	}
	gomod, modcache, err := goEnv()
	if err != nil {
		return nil
	}
	switch {
	case outside && (gomod == os.DevNull || gomod == ""):
		dir := cwd
		if dir == "" {
			dir = "the working directory"
		}
		return fmt.Errorf("%s is not in a Go module (no go.mod in it or in a directory above it): run hashalloc in a module, or create one with go mod init", dir)
	case update && gomod != "" && gomod != os.DevNull:
		return goModUpdate(gomod, modcache)
	}
	return nil
}

// goModUpdate explains "updates to go.mod needed": most often a go line
// older than a requirement's (the runtime module's is go 1.21), which Go
// 1.21 and later refuse to load. It names the requirement when it finds
// one in the module cache or a local replacement.
func goModUpdate(gomod, modcache string) error {
	name := shortPath(gomod)
	data, err := os.ReadFile(gomod)
	if err != nil {
		return fmt.Errorf("%s needs updates before its packages load: go mod tidy makes them", name)
	}
	f, err := modfile.Parse(gomod, data, nil) // ParseLax leaves out replacements
	if err != nil || f.Go == nil {
		return fmt.Errorf("%s needs updates before its packages load: go mod tidy makes them", name)
	}
	for _, r := range f.Require {
		v := requiredGo(f, filepath.Dir(gomod), modcache, r.Mod)
		if v != "" && version.Compare("go"+v, "go"+f.Go.Version) > 0 {
			return fmt.Errorf("%s needs updates before its packages load: its go line (go %s) is older than that of %s (go %s): run go mod edit -go=%s (or go mod tidy)%s", name, f.Go.Version, r.Mod.Path, v, v, dropRuntime(r.Mod.Path))
		}
	}
	return fmt.Errorf("%s needs updates before its packages load: go mod tidy makes them", name)
}

// dropRuntime is the alternative to raising the go line when the
// requirement is the runtime module: fixes can declare their pools.
func dropRuntime(path string) string {
	if path != fixes.RuntimeModule {
		return ""
	}
	return ", or drop the requirement and let -pool=auto declare the pools in the fixed files"
}

// requiredGo returns the go line of the module m that the go.mod f (in dir)
// requires, read from its local replacement or the module cache, or "".
func requiredGo(f *modfile.File, dir, modcache string, m module.Version) string {
	var gomod string
	for _, r := range f.Replace {
		if r.Old.Path == m.Path && (r.Old.Version == "" || r.Old.Version == m.Version) {
			m = r.New
			if m.Version == "" {
				if !filepath.IsAbs(m.Path) {
					m.Path = filepath.Join(dir, m.Path)
				}
				gomod = filepath.Join(m.Path, "go.mod")
			}
		}
	}
	if gomod == "" {
		p, err1 := module.EscapePath(m.Path)
		v, err2 := module.EscapeVersion(m.Version)
		if err1 != nil || err2 != nil || modcache == "" {
			return ""
		}
		gomod = filepath.Join(modcache, "cache", "download", p, "@v", v+".mod")
	}
	data, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	rf, err := modfile.ParseLax(gomod, data, nil)
	if err != nil || rf.Go == nil {
		return ""
	}
	return rf.Go.Version
}

// goEnv returns the go.mod of the working directory as the go command sees
// it (os.DevNull outside a module, "" in GOPATH mode) and the module cache.
func goEnv() (gomod, modcache string, err error) {
	out, err := exec.Command("go", "env", "GOMOD", "GOMODCACHE").Output()
	if err != nil {
		return "", "", err
	}
	gomod, modcache, _ = strings.Cut(strings.TrimSpace(string(out)), "\n")
	return gomod, modcache, nil
}

// listErrors returns the errors of the roots that the go command reported
// when it listed them, joined: the ones that say a pattern or a module
// could not be listed at all.
func listErrors(roots []*packages.Package) string {
	var msgs []string
	for _, p := range roots {
		for _, e := range p.Errors {
			if e.Kind == packages.ListError {
				msgs = append(msgs, e.Msg)
			}
		}
	}
	return strings.Join(msgs, "\n")
}
