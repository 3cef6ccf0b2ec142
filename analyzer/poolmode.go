package analyzer

import (
	"fmt"
	"go/version"
	"os"
	"path/filepath"
	"sync"

	"github.com/hashalloc/hashalloc/fixes"
	"golang.org/x/mod/modfile"
)

// Pool modes: where a pooled hasher comes from in a suggested fix.
const (
	// PoolAuto, the default, takes the runtime module's pools in a module
	// that requires github.com/hashalloc/hashalloc/runtime (or a workspace
	// that uses it), and declares them in the fixed file (PoolInline)
	// everywhere else: a fix never imports a module that the user's build
	// cannot resolve.
	PoolAuto = "auto"
	// PoolRuntime imports the pools of github.com/hashalloc/hashalloc/runtime/hashpool,
	// except in a module whose Go version is older than the runtime
	// module's, which cannot require it without raising its go line: there
	// the fixes declare their pools in the fixed file, as PoolInline does,
	// rather than offer none.
	PoolRuntime = "runtime"
	// PoolInline declares a sync.Pool in the fixed file itself.
	PoolInline = "inline"
)

// poolMode is the value of the -pool flag.
type poolMode string

func (p *poolMode) String() string { return string(*p) }

func (p *poolMode) Set(s string) error {
	switch s {
	case PoolAuto, PoolRuntime, PoolInline:
		*p = poolMode(s)
		return nil
	}
	return fmt.Errorf("-pool: %q is not a pool mode (want %s, %s or %s)", s, PoolAuto, PoolRuntime, PoolInline)
}

// inlinePools reports whether the fixes of the package declare their pools
// and sums in the fixed file instead of importing the runtime module: with
// -pool=inline, in a module whose Go version is older than the runtime
// module's (whatever the mode: the next rung of each fix's ladder, rather
// than no fix), and by default in a module that cannot import the runtime
// module (see runtimeResolvable).
func (p *pass) inlinePools() bool {
	v := p.Pkg.GoVersion()
	return p.cfg.pool == PoolInline || v != "" && version.Compare(v, fixes.RuntimeGo) < 0 || p.cfg.pool != PoolRuntime && p.runtimeMissing() != ""
}

// runtimeMissing returns the path of the package's module when its build
// cannot import the runtime module (see runtimeResolvable), or "".
func (p *pass) runtimeMissing() string {
	if len(p.Files) == 0 {
		return ""
	}
	dir := filepath.Dir(p.Fset.File(p.Files[0].FileStart).Name())
	return resolvable.module(dir)
}

// RuntimeMissing returns the path of the module of the directory dir when
// its build cannot import the runtime module (its go.mod does not require
// it and no go.work that applies uses it), or "".
func RuntimeMissing(dir string) string { return resolvable.module(dir) }

// resolvable remembers, per directory, which module's go.mod cannot import
// the runtime module: packages of one module are analyzed in parallel.
var resolvable = &runtimeResolver{byDir: map[string]string{}}

type runtimeResolver struct {
	mu    sync.Mutex
	byDir map[string]string
}

// module returns the path of the module of dir when it cannot import the
// runtime module, or "": its go.mod requires it (any version, replaced or
// not), it is the runtime module, or a go.work that applies uses it. A
// package outside any module (GOPATH mode) imports what its GOPATH holds:
// "".
func (r *runtimeResolver) module(dir string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m, ok := r.byDir[dir]; ok {
		return m
	}
	m := ""
	if gomod := findUp(dir, "go.mod"); gomod != "" {
		m = missingIn(gomod)
	}
	r.byDir[dir] = m
	return m
}

// missingIn returns the module path of gomod when neither it nor the
// workspace it belongs to can import the runtime module, or "".
func missingIn(gomod string) string {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "" // the go command will say what is wrong with it
	}
	f, err := modfile.ParseLax(gomod, data, nil)
	if err != nil || f.Module == nil || f.Module.Mod.Path == fixes.RuntimeModule {
		return ""
	}
	for _, r := range f.Require {
		if r.Mod.Path == fixes.RuntimeModule {
			return ""
		}
	}
	work := os.Getenv("GOWORK")
	switch work {
	case "off":
		return f.Module.Mod.Path
	case "":
		work = findUp(filepath.Dir(gomod), "go.work")
	}
	if work != "" && usesRuntime(work, filepath.Dir(gomod)) {
		return ""
	}
	return f.Module.Mod.Path
}

// usesRuntime reports whether the go.work file work uses both the module in
// dir and the runtime module. A go.work above a module that it does not use
// does not apply to it: the go command refuses to build the module there (a
// testdata module inside a repository with a go.work, say).
func usesRuntime(work, dir string) bool {
	data, err := os.ReadFile(work)
	if err != nil {
		return false
	}
	wf, err := modfile.ParseWork(work, data, nil)
	if err != nil {
		return false
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return false
	}
	var applies, runtime bool
	for _, u := range wf.Use {
		used := u.Path
		if !filepath.IsAbs(used) {
			used = filepath.Join(filepath.Dir(work), used)
		}
		if abs, err := filepath.Abs(used); err == nil && abs == dir {
			applies = true
		}
		data, err := os.ReadFile(filepath.Join(used, "go.mod"))
		if err == nil && modfile.ModulePath(data) == fixes.RuntimeModule {
			runtime = true
		}
	}
	return applies && runtime
}

// findUp returns the file name in dir or the nearest directory above it
// that has one, or "".
func findUp(dir, name string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return filepath.Join(dir, name)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
