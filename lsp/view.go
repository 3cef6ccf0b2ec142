package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashalloc/hashalloc/internal/passes"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/packages"
)

// A view is what the server keeps of the packages of one module, or of one
// go.work workspace, from one analysis to the next: every package loaded
// (those of the directories analyzed and all they import), type-checked
// once, with the analyzer's facts and findings on it. An analysis then
// re-checks and re-analyzes only the packages whose files changed and those
// that import them. A change that the go command must see loads the view
// anew: a file's imports, package clause or build constraints, the Go files
// of a directory, go.mod or go.work, a file of a cgo package or of one the go
// command reported errors about.
//
// A view is used by one analysis at a time (the server's semaphore), and
// stays consistent when an analysis is canceled: a package re-checked makes
// every package that imports it stale, to be re-checked before it is used.
type view struct {
	ws   workspace
	a    *analysis.Analyzer
	opts loadOptions
	fset *token.FileSet

	dirs      []string            // the directories analyzed, in the order first asked for
	roots     map[string][]string // per directory analyzed: the IDs of its packages, in the go command's order
	nodes     map[string]*node    // by package ID
	importers map[string][]string // by package ID: the packages that import it
	stale     map[string]bool     // packages to re-check: a package they import was re-checked after them
	dirty     map[string]bool     // directories whose packages changed since their last result
	// listings are, per directory of a package that may change, the Go
	// files that the go command saw there.
	listings map[string][]string
	modFiles map[string][]byte // go.mod and go.work files, as loaded (nil: missing)
}

// loadOptions are what the server loads packages with.
type loadOptions struct {
	tests      bool
	buildFlags []string
}

// node is one package of a view.
type node struct {
	id, path, name string
	goFiles        []string
	compiledFiles  []string // the files type-checked: GoFiles, or what cgo made of them
	otherFiles     []string
	ignoredFiles   []string
	imports        map[string]string // the ID of each package imported, by import path
	module         *packages.Module
	sizes          types.Sizes
	// mutable is false for a package of the module cache or the build cache,
	// or of GOROOT when the view is not GOROOT's: its files are not checked
	// for changes.
	mutable bool
	cgo     bool
	// listErrors: the go command reported errors about the package, which
	// only the go command can tell are gone.
	listErrors bool
	// sources are the Go files and the ignored Go files of a mutable
	// package, as read (the ignored ones without content).
	sources map[string]*source

	types    *types.Package
	errors   []packages.Error
	illTyped bool
	// infoSizes are those of the maps of the type information it was
	// checked with, the sizes that the next check starts them at.
	infoSizes passes.InfoSizes
	out       *passes.Output
	// parsed are the files of the view's file set that the package was
	// checked from, which go when it is checked again (but those it is
	// checked from again).
	parsed []*token.File
	// syntax are, for a package whose files changed since the view was
	// loaded, the files it was checked from that parsed without error, by
	// name: the next check parses anew only the files that changed.
	syntax map[string]*ast.File
}

// source is a file as it was when its package was loaded or re-checked.
type source struct {
	content []byte
	header  string // its package clause and build constraints
	overlay bool   // the content came from an editor's buffer
	// size and mtime are those of the file on disk when content was read
	// from it; mtime is zero when unknown.
	size  int64
	mtime time.Time
}

// workspace is what the go command says about one directory.
type workspace struct {
	root                      string // the directory of go.work or go.mod; the directory itself without either
	gowork, gomod             string // their paths, "" when none
	goroot, modcache, gocache string
}

// readWorkspace asks the go command about dir.
func readWorkspace(ctx context.Context, dir string) workspace {
	ws := workspace{root: dir}
	cmd := exec.CommandContext(ctx, "go", "env", "-json", "GOWORK", "GOMOD", "GOROOT", "GOMODCACHE", "GOCACHE")
	cmd.Dir = dir
	out, err := cmd.Output()
	var vars map[string]string
	if err != nil || json.Unmarshal(out, &vars) != nil {
		return ws // every file may then change
	}
	ws.goroot, ws.modcache, ws.gocache = vars["GOROOT"], vars["GOMODCACHE"], vars["GOCACHE"]
	if w := vars["GOWORK"]; w != "" && w != "off" {
		ws.gowork, ws.root = w, filepath.Dir(w)
	}
	if m := vars["GOMOD"]; m != "" && m != os.DevNull {
		ws.gomod = m
		if ws.gowork == "" {
			ws.root = filepath.Dir(m)
		}
	}
	return ws
}

// mutable reports whether a file at path may change while the server runs.
func (e workspace) mutable(path string) bool {
	for _, dir := range []string{e.modcache, e.gocache} {
		if within(dir, path) {
			return false
		}
	}
	return !within(e.goroot, path) || within(e.goroot, e.root)
}

// within reports whether path is dir or inside it.
func within(dir, path string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// loadStats say what an analysis did to bring a view up to date.
type loadStats struct {
	full     bool   // the view was loaded anew
	reason   string // why, when it was not the first load
	packages int    // in the view
	checked  int    // packages type-checked
	load     time.Duration
	analysis time.Duration
	// cached is the number of packages whose results came from the
	// result cache, when the cache answered (see fromCache).
	cached int
}

func (st loadStats) String() string {
	if st.cached > 0 {
		return fmt.Sprintf("%d packages from the result cache", st.cached)
	}
	if st.full {
		s := fmt.Sprintf("loaded %d packages", st.packages)
		if st.reason != "" {
			s += " (" + st.reason + ")"
		}
		return s
	}
	return fmt.Sprintf("re-checked %d of %d packages", st.checked, st.packages)
}

// loadView loads the packages of dirs with the go command, run in ws.root,
// type-checks them and everything they import, and analyzes every package
// with a, dependencies first. overlay holds the editors' buffers that differ
// from the files on disk.
func loadView(ctx context.Context, ws workspace, a *analysis.Analyzer, opts loadOptions, dirs []string, overlay map[string][]byte, st *loadStats) (*view, error) {
	start := time.Now()
	st.full = true
	v := &view{
		ws: ws, a: a, opts: opts, fset: token.NewFileSet(),
		dirs: slices.Clone(dirs), roots: map[string][]string{}, nodes: map[string]*node{}, importers: map[string][]string{},
		stale: map[string]bool{}, dirty: map[string]bool{}, listings: map[string][]string{}, modFiles: map[string][]byte{},
	}
	patterns := make([]string, len(dirs))
	for i, dir := range dirs {
		rel, err := filepath.Rel(ws.root, dir)
		if err != nil || !filepath.IsLocal(rel) && rel != "." {
			patterns[i] = dir
			continue
		}
		patterns[i] = "./" + filepath.ToSlash(rel)
	}
	var mu sync.Mutex
	parsed := map[string][]byte{} // the content of the mutable files, as parsed
	cfg := &packages.Config{
		Mode:       packages.LoadAllSyntax | packages.NeedModule,
		Context:    ctx,
		Fset:       v.fset,
		Dir:        ws.root,
		Tests:      opts.tests,
		BuildFlags: opts.buildFlags,
		Overlay:    overlay,
		ParseFile: func(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
			if ws.mutable(name) {
				mu.Lock()
				parsed[name] = src
				mu.Unlock()
			}
			return parser.ParseFile(fset, name, src, parseMode)
		},
	}
	for _, path := range []string{ws.gomod, ws.gowork} {
		if path != "" {
			v.modFiles[path], _ = os.ReadFile(path)
		}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		st.load = time.Since(start)
		return nil, err
	}

	// The nodes, dependencies first; the units to analyze.
	var order []*node
	units := map[*node]*passes.Unit{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		n := newNode(p, ws, overlay, parsed)
		for _, f := range p.Syntax {
			n.parsed = append(n.parsed, p.Fset.File(f.FileStart))
		}
		v.nodes[n.id] = n
		order = append(order, n)
		units[n] = &passes.Unit{
			Fset: p.Fset, Files: p.Syntax, OtherFiles: p.OtherFiles, IgnoredFiles: p.IgnoredFiles,
			Pkg: p.Types, Info: p.TypesInfo, Sizes: p.TypesSizes, TypeErrors: p.TypeErrors, IllTyped: p.IllTyped,
			Module: p.Module, ReadFile: n.readFile,
		}
	})
	for _, n := range order {
		for _, id := range n.imports {
			v.importers[id] = append(v.importers[id], n.id)
		}
		if n.mutable && n.module != nil && n.module.GoMod != "" {
			if _, ok := v.modFiles[n.module.GoMod]; !ok {
				v.modFiles[n.module.GoMod], _ = os.ReadFile(n.module.GoMod)
			}
		}
	}
	v.mapRoots(pkgs)
	v.recordListings()
	st.load = time.Since(start)

	start = time.Now()
	if err := v.analyzeAll(ctx, order, units); err != nil {
		return nil, err
	}
	st.analysis = time.Since(start)
	st.packages, st.checked = len(v.nodes), len(v.nodes)
	return v, nil
}

// newNode makes the node of a package just loaded. parsed holds the content
// of the files of mutable packages, as parsed.
func newNode(p *packages.Package, ws workspace, overlay map[string][]byte, parsed map[string][]byte) *node {
	n := &node{
		id: p.ID, path: p.PkgPath, name: p.Name,
		goFiles: p.GoFiles, compiledFiles: p.CompiledGoFiles, otherFiles: p.OtherFiles, ignoredFiles: p.IgnoredFiles,
		imports: map[string]string{}, module: p.Module, sizes: p.TypesSizes,
		cgo:   !slices.Equal(p.GoFiles, p.CompiledGoFiles),
		types: p.Types, errors: p.Errors, illTyped: p.IllTyped, infoSizes: passes.SizesOf(p.TypesInfo),
	}
	for path, imp := range p.Imports {
		n.imports[path] = imp.ID
	}
	for _, e := range p.Errors {
		if e.Kind == packages.ListError || e.Kind == packages.UnknownError {
			n.listErrors = true
		}
	}
	for _, name := range p.GoFiles {
		n.mutable = n.mutable || ws.mutable(name)
	}
	if !n.mutable {
		return n
	}
	// The Go files, which are the files compiled but in a cgo package (whose
	// compiled files the go command makes from them, in its cache).
	n.sources = map[string]*source{}
	for _, name := range n.goFiles {
		content, fromOverlay := overlay[name]
		if parsedContent, ok := parsed[name]; ok {
			content = parsedContent
		} else if !fromOverlay {
			var err error
			if content, err = os.ReadFile(name); err != nil {
				continue // unreadable: the next analysis loads the view anew
			}
		}
		n.sources[name] = newSource(name, content, fromOverlay)
	}
	for _, name := range n.ignoredFiles {
		if strings.HasSuffix(name, ".go") {
			content, fromOverlay := overlay[name]
			if !fromOverlay {
				content, _ = os.ReadFile(name)
			}
			src := newSource(name, content, fromOverlay)
			src.content = nil // never parsed: only its header matters
			n.sources[name] = src
		}
	}
	return n
}

// newSource records content, the content of the file name as read from an
// editor's buffer or from disk. For a file on disk, it records the file's
// size and time only if the file still holds content, so that a change made
// after the read is seen.
func newSource(name string, content []byte, fromOverlay bool) *source {
	src := &source{content: content, header: header(content), overlay: fromOverlay}
	if fromOverlay {
		return src
	}
	if fi, err := os.Stat(name); err == nil {
		if now, err := os.ReadFile(name); err == nil && bytes.Equal(now, content) {
			src.size, src.mtime = fi.Size(), fi.ModTime()
		}
	}
	return src
}

// current returns the content of the file name now, the editor's buffer or
// the file on disk, and whether it differs from src.
func (src *source) current(name string, overlay map[string][]byte) ([]byte, bool, error) {
	if content, ok := overlay[name]; ok {
		return content, !bytes.Equal(content, src.content), nil
	}
	fi, err := os.Stat(name)
	if err != nil {
		return nil, true, err
	}
	if !src.overlay && !src.mtime.IsZero() && fi.Size() == src.size && fi.ModTime().Equal(src.mtime) {
		return src.content, false, nil
	}
	content, err := os.ReadFile(name)
	if err != nil {
		return nil, true, err
	}
	return content, !bytes.Equal(content, src.content), nil
}

// header returns what of a Go file the go command reads to select it: its
// package clause and build constraints, "" when it has no package clause.
func header(content []byte) string {
	f, err := parser.ParseFile(token.NewFileSet(), "", content, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil || f.Name == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("package " + f.Name.Name + "\n")
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if constraint.IsGoBuild(c.Text) || constraint.IsPlusBuild(c.Text) {
				b.WriteString(c.Text + "\n")
			}
		}
	}
	return b.String()
}

// readFile returns the content of a file of n as it was analyzed.
func (n *node) readFile(name string) ([]byte, error) {
	if src := n.sources[name]; src != nil && src.content != nil {
		return src.content, nil
	}
	return os.ReadFile(name)
}

// mapRoots records the packages that the go command gave for each
// directory of the view, in its order: the directory's package, and with
// tests its test variants and test main.
func (v *view) mapRoots(pkgs []*packages.Package) {
	testMain := func(p *packages.Package) bool { return strings.HasSuffix(p.ID, ".test") && p.ID == p.PkgPath }
	dirOf := map[string]string{} // package path => directory
	for _, p := range pkgs {
		if dir, ok := v.dirOf(p); ok && !testMain(p) {
			dirOf[p.PkgPath] = dir
		}
	}
	for _, p := range pkgs {
		dir, ok := v.dirOf(p)
		if testMain(p) {
			dir, ok = dirOf[strings.TrimSuffix(p.PkgPath, ".test")]
		}
		if ok && slices.Contains(v.dirs, dir) {
			v.roots[dir] = append(v.roots[dir], p.ID)
		}
	}
}

// dirOf returns the directory of a package: that of its files, or where its
// module puts it.
func (v *view) dirOf(p *packages.Package) (string, bool) {
	for _, files := range [][]string{p.GoFiles, p.IgnoredFiles} {
		for _, f := range files {
			if dir := filepath.Dir(f); !within(v.ws.gocache, dir) {
				return dir, true
			}
		}
	}
	if m := p.Module; m != nil && m.Dir != "" && (p.PkgPath == m.Path || strings.HasPrefix(p.PkgPath, m.Path+"/")) {
		return filepath.Join(m.Dir, filepath.FromSlash(strings.TrimPrefix(p.PkgPath, m.Path))), true
	}
	if dir := filepath.Join(v.ws.root, filepath.FromSlash(p.ID)); strings.HasPrefix(p.ID, ".") {
		return dir, true // a pattern that matched no package
	}
	return "", false
}

// recordListings records, for the directories analyzed and those of mutable
// packages, the Go files that the go command saw there.
func (v *view) recordListings() {
	for _, dir := range v.dirs {
		v.listings[dir] = []string{}
	}
	for _, n := range v.nodes {
		if !n.mutable {
			continue
		}
		for _, f := range n.goFiles {
			if dir := filepath.Dir(f); !within(v.ws.gocache, dir) {
				v.listings[dir] = []string{}
			}
		}
	}
	for _, n := range v.nodes {
		for _, files := range [][]string{n.goFiles, n.ignoredFiles} {
			for _, f := range files {
				dir := filepath.Dir(f)
				if names, ok := v.listings[dir]; ok && v.listed(dir, filepath.Base(f)) && !slices.Contains(names, filepath.Base(f)) {
					v.listings[dir] = append(names, filepath.Base(f))
				}
			}
		}
	}
	for _, names := range v.listings {
		slices.Sort(names)
	}
}

// listed reports whether a file named name counts in the listing of dir: a
// Go file that the go command does not skip by its name, and not a test file
// unless tests are loaded for dir's package (only for those analyzed).
func (v *view) listed(dir, name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasPrefix(name, "_") && !strings.HasPrefix(name, ".") &&
		(!strings.HasSuffix(name, "_test.go") || v.opts.tests && slices.Contains(v.dirs, dir))
}

// listing returns the Go files of dir now, on disk and in overlay.
func (v *view) listing(dir string, overlay map[string][]byte) []string {
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() && v.listed(dir, e.Name()) {
			names = append(names, e.Name())
		}
	}
	for path := range overlay {
		if filepath.Dir(path) == dir && v.listed(dir, filepath.Base(path)) && !slices.Contains(names, filepath.Base(path)) {
			names = append(names, filepath.Base(path))
		}
	}
	slices.Sort(names)
	return names
}

// analyzeAll analyzes the packages of order, which lists every package
// after those it imports, with the units of their syntax and types: at most
// GOMAXPROCS at once, each after the packages it imports.
func (v *view) analyzeAll(ctx context.Context, order []*node, units map[*node]*passes.Unit) error {
	done := make(map[string]chan struct{}, len(order))
	for _, n := range order {
		done[n.id] = make(chan struct{})
	}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, n := range order {
		wg.Go(func() {
			defer close(done[n.id])
			for _, id := range n.imports {
				<-done[id]
			}
			if ctx.Err() != nil {
				return
			}
			sem <- struct{}{}
			n.out = passes.Run(v.a, units[n], v.importsOf(n))
			<-sem
		})
	}
	wg.Wait()
	return ctx.Err()
}

// importsOf returns the packages that n imports, in the order of their
// import paths, as analysis takes them.
func (v *view) importsOf(n *node) []passes.Imported {
	imports := make([]passes.Imported, 0, len(n.imports))
	for _, path := range slices.Sorted(maps.Keys(n.imports)) {
		dep := v.nodes[n.imports[path]]
		var facts map[*analysis.Analyzer]*passes.FactSet
		if dep.out != nil {
			facts = dep.out.Facts
		}
		imports = append(imports, passes.Imported{Pkg: dep.types, Facts: facts})
	}
	return imports
}

// rootsOf returns the packages of dir, or false when dir is not in the view
// yet. A directory whose package the view holds as a dependency joins it
// now, unless test variants are loaded (they are not, for a dependency).
func (v *view) rootsOf(dir string) ([]*node, bool) {
	if !slices.Contains(v.dirs, dir) {
		if v.opts.tests {
			return nil, false
		}
		var found *node
		for _, n := range v.nodes {
			if len(n.goFiles) > 0 && filepath.Dir(n.goFiles[0]) == dir && n.id == n.path && !strings.HasSuffix(n.id, ".test") {
				found = n
			}
		}
		if found == nil {
			return nil, false
		}
		v.dirs = append(v.dirs, dir)
		v.roots[dir] = []string{found.id}
	}
	var roots []*node
	for _, id := range v.roots[dir] {
		roots = append(roots, v.nodes[id])
	}
	return roots, true
}

// errReload is the reason for loading a view anew.
type errReload struct{ reason string }

func (e *errReload) Error() string { return e.reason }

func reload(format string, args ...any) error { return &errReload{fmt.Sprintf(format, args...)} }

// update brings the packages of dir up to date with the files on disk and
// overlay: it re-checks and re-analyzes those that changed and every
// package that imports one. It returns an *errReload when the view must be
// loaded anew, ctx.Err() when canceled.
func (v *view) update(ctx context.Context, dir string, overlay map[string][]byte, st *loadStats) error {
	start := time.Now()
	parsed := map[string]*syntax{} // the packages that changed, parsed
	defer func() {
		st.load = time.Since(start) - st.analysis
		// The files parsed for packages not checked, if the update stopped.
		for _, syn := range parsed {
			for _, f := range syn.fresh {
				v.fset.RemoveFile(v.fset.File(f.FileStart))
			}
		}
	}()
	roots, ok := v.rootsOf(dir)
	if !ok {
		return reload("%s was not loaded yet", dir)
	}
	for path, was := range v.modFiles {
		if now, _ := os.ReadFile(path); !bytes.Equal(now, was) {
			return reload("%s changed", filepath.Base(path))
		}
	}
	closure := v.closure(roots)
	checkDirs := map[string]bool{dir: true}
	for _, n := range closure {
		if n.mutable {
			for _, f := range n.goFiles {
				checkDirs[filepath.Dir(f)] = true
			}
		}
	}
	for d := range checkDirs {
		if was, ok := v.listings[d]; ok && !slices.Equal(v.listing(d, overlay), was) {
			return reload("the Go files of %s changed", d)
		}
	}

	// What changed, and whether it is more than the go command saw.
	sources := map[string]map[string]*source{}
	for _, n := range closure {
		if !n.mutable {
			continue
		}
		current := map[string][]byte{}
		edited := map[string]bool{}
		for _, name := range n.goFiles {
			src := n.sources[name]
			if src == nil {
				return reload("%s could not be read", name)
			}
			content, diff, err := src.current(name, overlay)
			if err != nil {
				return reload("%s could not be read", name)
			}
			current[name] = content
			if diff {
				edited[name] = true
				if header(content) != src.header {
					return reload("the package clause or build constraints of %s changed", filepath.Base(name))
				}
			}
		}
		for _, name := range n.ignoredFiles {
			if src := n.sources[name]; src != nil {
				if content, diff, err := src.current(name, overlay); err == nil && diff && header(content) != src.header {
					return reload("the build constraints of %s changed", filepath.Base(name))
				}
			}
		}
		if len(edited) == 0 {
			continue
		}
		switch {
		case n.cgo:
			return reload("%s, which uses cgo, changed", n.path)
		case n.listErrors:
			return reload("%s, which has errors only the go command can tell are gone, changed", n.path)
		}
		syn := v.parseFiles(n, current, edited)
		parsed[n.id] = syn
		if imports := importsOf(syn.files); !slices.Equal(imports, slices.Sorted(maps.Keys(n.imports))) {
			return reload("the imports of %s changed", n.path)
		}
		sources[n.id] = map[string]*source{}
		for name, content := range current {
			_, fromOverlay := overlay[name]
			if src := n.sources[name]; !edited[name] && src.overlay == fromOverlay {
				sources[n.id][name] = src // as read: no need to read it again
				continue
			}
			sources[n.id][name] = newSource(name, content, fromOverlay)
		}
		for _, name := range n.ignoredFiles {
			if src := n.sources[name]; src != nil {
				sources[n.id][name] = src
			}
		}
	}

	// Re-check what changed and what is stale, dependencies first.
	for _, n := range closure {
		id := n.id
		syn, changed := parsed[id]
		if !changed && !v.stale[id] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		delete(parsed, id) // checked below: its files are the package's now
		n = v.nodes[id]
		srcs := n.sources
		if changed {
			srcs = sources[id]
		} else {
			contents := map[string][]byte{}
			for _, name := range n.compiledFiles {
				if n.syntax[name] != nil {
					continue
				}
				content, err := n.readFile(name)
				if err != nil {
					return reload("%s could not be read", name)
				}
				contents[name] = content
			}
			syn = v.parseFiles(n, contents, nil)
		}
		checked := v.check(n, syn, srcs, changed || n.syntax != nil, st)
		v.nodes[id] = checked
		// Nothing refers to the files n was checked from any more but the
		// packages that import it, which are stale now and checked again
		// before they are used, and the new node, when it was checked from
		// some of them again.
		kept := map[*token.File]bool{}
		for _, tf := range checked.parsed {
			kept[tf] = true
		}
		for _, tf := range n.parsed {
			if !kept[tf] {
				v.fset.RemoveFile(tf)
			}
		}
		delete(v.stale, id)
		v.touch(id)
		v.invalidate(id)
		st.checked++
	}
	st.packages = len(v.nodes)
	return nil
}

// closure returns roots and every package they import, each after the
// packages it imports.
func (v *view) closure(roots []*node) []*node {
	var order []*node
	seen := map[string]bool{}
	var visit func(id string)
	visit = func(id string) {
		if seen[id] {
			return
		}
		seen[id] = true
		n := v.nodes[id]
		for _, path := range slices.Sorted(maps.Keys(n.imports)) {
			visit(n.imports[path])
		}
		order = append(order, n)
	}
	for _, n := range roots {
		visit(n.id)
	}
	return order
}

// syntax is the syntax of a package's files, in the order of its compiled
// files.
type syntax struct {
	files []*ast.File
	errs  []error // of parsing them
	// fresh are the files parsed anew, into the view's file set; the others
	// are those the package was checked from last.
	fresh []*ast.File
	// clean are the files that parsed without error, by name.
	clean map[string]*ast.File
}

// parseMode is how the view parses Go files: as the go/packages loader does,
// but without the objects of package go/ast (Ident.Obj, File.Scope), which
// are deprecated and which neither go/types nor the analyzer uses (gopls
// parses so too; TestIncrementalEdits compares the view's findings with the
// checker's, on files parsed as go/packages does). Resolving them took 60%
// of the time parsing takes.
const parseMode = parser.AllErrors | parser.ParseComments | parser.SkipObjectResolution

// parseFiles parses the compiled files of n into the view's file set, with
// parseMode, from contents; but a file that is not edited and that n was
// checked from last, without a syntax error, is taken as it was parsed then.
// contents holds the files parsed anew.
func (v *view) parseFiles(n *node, contents map[string][]byte, edited map[string]bool) *syntax {
	syn := &syntax{clean: map[string]*ast.File{}}
	for _, name := range n.compiledFiles {
		if f := n.syntax[name]; f != nil && !edited[name] {
			syn.files = append(syn.files, f)
			syn.clean[name] = f
			continue
		}
		content, ok := contents[name]
		if !ok {
			syn.errs = append(syn.errs, fmt.Errorf("%s was not read", name)) // never so: the caller reads them
			continue
		}
		f, err := parser.ParseFile(v.fset, name, content, parseMode)
		if f != nil {
			syn.files = append(syn.files, f)
			syn.fresh = append(syn.fresh, f)
		}
		if err != nil {
			syn.errs = append(syn.errs, err)
		} else {
			syn.clean[name] = f
		}
	}
	return syn
}

// importsOf returns the paths that files import, sorted, each once.
func importsOf(files []*ast.File) []string {
	var paths []string
	for _, f := range files {
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, "`\"")
			if !slices.Contains(paths, path) {
				paths = append(paths, path)
			}
		}
	}
	slices.Sort(paths)
	return paths
}

// check type-checks the package of n from the syntax of its files,
// against the packages it imports as the view holds them, and analyzes it.
// It returns the node that replaces n, with the sources it was checked
// from, and with keep the syntax of those that parsed without error.
func (v *view) check(n *node, syn *syntax, sources map[string]*source, keep bool, st *loadStats) *node {
	files, parseErrs := syn.files, syn.errs
	c := *n
	c.sources = sources
	c.errors = nil
	c.parsed = nil
	c.syntax = nil
	if keep {
		c.syntax = syn.clean
	}
	for _, f := range files {
		c.parsed = append(c.parsed, v.fset.File(f.FileStart))
	}
	// The inspector, which needs no types, is built on another core while
	// the package is type-checked.
	ins := make(chan *inspector.Inspector, 1)
	go func() { ins <- inspector.New(files) }()
	checked := passes.CheckSized(n.infoSizes, v.fset, n.path, n.name, files, parseErrs, func(path string) (*types.Package, error) {
		id, ok := n.imports[path]
		if !ok {
			return nil, fmt.Errorf("no metadata for %s", path)
		}
		dep := v.nodes[id]
		if dep.types == nil || !dep.types.Complete() {
			return nil, fmt.Errorf("could not import %s", path)
		}
		return dep.types, nil
	}, n.sizes, n.module)
	c.types, c.errors, c.infoSizes = checked.Pkg, checked.Errors, passes.SizesOf(checked.Info)
	c.illTyped = len(c.errors) > 0
	for _, id := range n.imports {
		c.illTyped = c.illTyped || v.nodes[id].illTyped
	}

	start := time.Now()
	u := &passes.Unit{
		Fset: v.fset, Files: files, OtherFiles: n.otherFiles, IgnoredFiles: n.ignoredFiles,
		Pkg: c.types, Info: checked.Info, Sizes: n.sizes, TypeErrors: checked.TypeErrors, IllTyped: c.illTyped,
		Module: n.module, ReadFile: c.readFile, Results: map[*analysis.Analyzer]any{inspect.Analyzer: <-ins},
	}
	c.out = passes.Run(v.a, u, v.importsOf(&c))
	st.analysis += time.Since(start)
	return &c
}

// invalidate makes stale every package that imports the package id,
// directly or not, after it was re-checked.
func (v *view) invalidate(id string) {
	for _, imp := range v.importers[id] {
		if !v.stale[imp] {
			v.stale[imp] = true
			v.touch(imp)
			v.invalidate(imp)
		}
	}
}

// touch marks dirty the directories that the package id is one of.
func (v *view) touch(id string) {
	for dir, ids := range v.roots {
		if slices.Contains(ids, id) {
			v.dirty[dir] = true
		}
	}
}

// takeDirty returns the directories whose packages changed since their last
// result, but dir, and forgets them.
func (v *view) takeDirty(dir string) []string {
	delete(v.dirty, dir)
	dirs := slices.Sorted(maps.Keys(v.dirty))
	clear(v.dirty)
	return dirs
}

// others returns the directories of the view but dir.
func (v *view) others(dir string) []string {
	return slices.DeleteFunc(slices.Clone(v.dirs), func(d string) bool { return d == dir })
}
