package fixes

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashalloc/hashalloc/internal/textedit"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
)

// Verifier proves fixes before they are offered: it applies them to the
// package's source and type-checks the package again, with the packages it
// already imports, the runtime module's API as hashalloc was built with it,
// and the standard library. A fix that parses can still break the build —
// remove an import that a function it keeps still uses, add a field to a
// struct that a positional literal builds — and only the type checker sees
// it.
//
// A package of the standard library that the fixed code imports and the
// package did not is type-checked from source, against the packages the
// package's types already hold; but when those types were read from export
// data, as under go vet -vettool and go fix -fixtool, the packages they hold
// beyond the package's imports are incomplete (only what the export data
// needed of them), and a package type-checked from source next to them
// would have types of its own (a second hash.Hash). Then the standard
// library's packages are read from the go command's export data instead
// (go list -export), into the same packages.
type Verifier struct {
	Fset  *token.FileSet
	Files []*ast.File // the package's files, as analyzed
	Pkg   *types.Package
	Info  *types.Info // of Files: it maps their imports to packages
	Sizes types.Sizes
	// Source returns the content of one of the files.
	Source func(tf *token.File) ([]byte, error)

	imp *verifierImporter
	// The package's files parsed again, in a file set of the verifier's
	// own, by name: the fixed files are parsed into it, so that the type
	// checker has one for the whole package and the analysis's file set
	// (which a language server keeps across edits) does not grow.
	fset   *token.FileSet
	parsed map[string]*ast.File
}

// ErrOverlap is the error of Check when two of the fixes change the same
// bytes differently: no driver applies them together.
var ErrOverlap = errors.New("the fixes overlap")

// Check applies fixes together, as a driver applies the fixes of several
// findings (an edit two fixes share is made once; with clean, the imports
// they leave unused together are removed, as -fix and go fix do), and
// reports why the package does not type-check after them, or nil. A fix
// offered alone (an editor's quick fix) is checked without clean: it must
// remove what it alone leaves unused.
func (v *Verifier) Check(clean bool, fixes ...*analysis.SuggestedFix) error {
	lists := map[*token.File][][]textedit.Edit{}
	for _, fix := range fixes {
		perFile := map[*token.File][]analysis.TextEdit{}
		for _, e := range fix.TextEdits {
			perFile[v.Fset.File(e.Pos)] = append(perFile[v.Fset.File(e.Pos)], e)
		}
		for tf, edits := range perFile {
			if tf == nil {
				return errors.New("the fix has an edit at an invalid position")
			}
			sorted, err := textedit.FromAnalysis(v.Fset, tf, edits)
			if err != nil {
				return err
			}
			lists[tf] = append(lists[tf], sorted)
		}
	}
	byFile := map[*token.File][]textedit.Edit{}
	for tf, l := range lists {
		merged, bad := textedit.MergeAll(l)
		if bad >= 0 {
			return ErrOverlap
		}
		byFile[tf] = merged
	}

	if v.fset == nil {
		v.fset, v.parsed = token.NewFileSet(), map[string]*ast.File{}
	}
	files := make([]*ast.File, 0, len(v.Files))
	for _, f := range v.Files {
		tf := v.Fset.File(f.FileStart)
		edits, fixed := byFile[tf]
		if !fixed {
			if f := v.parsed[tf.Name()]; f != nil {
				files = append(files, f)
				continue
			}
		}
		src, err := v.Source(tf)
		if err != nil {
			return err
		}
		if fixed {
			if src, err = textedit.Apply(src, edits); err == nil && clean {
				src, err = textedit.RemoveUnusedImports(src, v.Pkg)
			}
			if err != nil {
				return err
			}
		}
		// Without comments: the type checker needs none of them (the parser
		// reads a //go:build line, which sets the file's Go version, in
		// every mode).
		f, err := parser.ParseFile(v.fset, tf.Name(), src, parser.SkipObjectResolution)
		if err != nil {
			if fixed {
				return fmt.Errorf("the fixed file would not parse: %v", err)
			}
			return fmt.Errorf("%s does not parse again: %v", filepath.Base(tf.Name()), err)
		}
		if !fixed {
			v.parsed[tf.Name()] = f
		}
		files = append(files, f)
	}
	return v.typeCheck(files)
}

// typeCheck type-checks the package made of files and returns its first
// error.
func (v *Verifier) typeCheck(files []*ast.File) error {
	if v.imp == nil {
		v.imp = newVerifierImporter(v.Pkg, v.importsOf())
		v.imp.sizes = v.Sizes
	}
	if v.imp.partial {
		// One go command for the packages the files import that the
		// export data has not brought whole.
		v.imp.listExports(importPaths(files))
	}
	var first error
	conf := types.Config{
		Importer:    v.imp,
		Sizes:       v.Sizes,
		GoVersion:   v.Pkg.GoVersion(),
		FakeImportC: importsC(files),
		Error: func(err error) {
			if first == nil {
				first = err
			}
		},
	}
	_, _ = conf.Check(v.Pkg.Path(), v.fset, files, nil)
	if first == nil {
		return nil
	}
	var terr types.Error
	if errors.As(first, &terr) {
		posn := v.fset.Position(terr.Pos)
		return fmt.Errorf("%s:%d:%d: %s", filepath.Base(posn.Filename), posn.Line, posn.Column, terr.Msg)
	}
	return first
}

// importsC reports whether one of files imports "C": a cgo file that the
// driver did not process (the processed ones declare what C.x names).
func importsC(files []*ast.File) bool {
	for _, f := range files {
		for _, spec := range f.Imports {
			if spec.Path.Value == `"C"` {
				return true
			}
		}
	}
	return false
}

// importsOf maps every import path that the package's files name to the
// package it denotes (a vendored path may differ from the import path).
func (v *Verifier) importsOf() map[string]*types.Package {
	m := map[string]*types.Package{}
	for _, f := range v.Files {
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				continue
			}
			var obj types.Object
			if spec.Name != nil {
				obj = v.Info.Defs[spec.Name]
			} else {
				obj = v.Info.Implicits[spec]
			}
			if pn, ok := obj.(*types.PkgName); ok {
				m[path] = pn.Imported()
			}
		}
	}
	return m
}

// verifierImporter imports what a fixed package may import: the packages the
// package already depends on, as they were type-checked; the runtime
// module's packages from their API (runtimeAPI); the standard library from
// GOROOT's source, or, when the package's types came from export data
// (partial), from the go command's export data. Packages it type-checks
// itself import their dependencies through it, so that a type they share
// with the package is one type.
type verifierImporter struct {
	known  map[string]*types.Package // by import path
	sizes  types.Sizes
	fset   *token.FileSet
	failed map[string]error

	// partial is set when a package the package's types reach is
	// incomplete: they were read from export data. universe then holds
	// every package they reach, complete or not, by path: the export data
	// of a package of the standard library is read into it, completing the
	// package that is already there, so that its types stay the ones the
	// package's types refer to. (Only go vet's protocol gives a package
	// incomplete ones, and it analyzes one package per process, whose
	// analysis has done with them when its fixes are checked. The command
	// and the language server read every package a package reaches whole.)
	partial  bool
	universe map[string]*types.Package
	exports  map[string]string // export data files of the standard library, by path
	listErr  map[string]error  // why go list gave no export data for a path
}

func newVerifierImporter(pkg *types.Package, direct map[string]*types.Package) *verifierImporter {
	im := &verifierImporter{
		known: map[string]*types.Package{"unsafe": types.Unsafe}, fset: token.NewFileSet(), failed: map[string]error{},
		universe: map[string]*types.Package{}, exports: map[string]string{}, listErr: map[string]error{},
	}
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		im.universe[p.Path()] = p
		// A package read from export data for what its importers use of
		// it is incomplete: the type checker takes no import of it.
		if p.Complete() {
			im.known[p.Path()] = p
		} else {
			im.partial = true
		}
		for _, dep := range p.Imports() {
			visit(dep)
		}
	}
	if pkg != nil {
		for _, dep := range pkg.Imports() {
			visit(dep)
		}
	}
	for path, p := range direct {
		im.known[path] = p
	}
	return im
}

// Import implements types.Importer.
func (im *verifierImporter) Import(path string) (*types.Package, error) {
	return im.ImportFrom(path, "", 0)
}

// ImportFrom implements types.ImporterFrom: dir, the directory of the
// importing file, resolves the standard library's vendored packages.
func (im *verifierImporter) ImportFrom(path, dir string, _ types.ImportMode) (*types.Package, error) {
	if p, ok := im.known[path]; ok {
		return p, nil
	}
	var bp *build.Package
	if _, ok := runtimeAPI[path]; !ok {
		if !isStd(path) && !strings.HasPrefix(dir, build.Default.GOROOT) {
			return nil, fmt.Errorf("importing %s: the package does not import it", path)
		}
		var err error
		if bp, err = build.Default.Import(path, dir, 0); err != nil {
			return nil, fmt.Errorf("importing %s: %v", path, err)
		}
		if p, ok := im.known[bp.ImportPath]; ok {
			return p, nil // a vendored package, by its real path
		}
		path = bp.ImportPath
	}
	if err, ok := im.failed[path]; ok {
		return nil, err
	}
	var p *types.Package
	var err error
	if bp != nil && im.partial {
		p, err = im.readExport(path)
	} else {
		p, err = im.load(path, bp)
	}
	if err != nil {
		err = fmt.Errorf("importing %s: %v", path, err)
		im.failed[path] = err
		return nil, err
	}
	im.known[path] = p
	return p, nil
}

// load type-checks the package path from source: the runtime module's API,
// or bp, a package of the standard library.
func (im *verifierImporter) load(path string, bp *build.Package) (*types.Package, error) {
	var files []*ast.File
	if bp == nil {
		f, err := parser.ParseFile(im.fset, path+"/api.go", runtimeAPI[path], parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	} else {
		names := append(bp.GoFiles, bp.CgoFiles...)
		sort.Strings(names)
		for _, name := range names {
			f, err := parser.ParseFile(im.fset, filepath.Join(bp.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
	}
	var first error
	conf := types.Config{
		Importer:         im,
		Sizes:            im.sizes,
		IgnoreFuncBodies: true,
		FakeImportC:      true,
		Error: func(err error) {
			if first == nil && !strings.Contains(err.Error(), "declared and not used") {
				first = err
			}
		},
	}
	p, _ := conf.Check(path, im.fset, files, nil)
	if first != nil {
		return nil, first
	}
	return p, nil
}

// importPaths returns the paths that files import, each once, in order.
func importPaths(files []*ast.File) []string {
	var paths []string
	for _, f := range files {
		for _, spec := range f.Imports {
			if path, err := strconv.Unquote(spec.Path.Value); err == nil && !slices.Contains(paths, path) {
				paths = append(paths, path)
			}
		}
	}
	return paths
}

// listExports asks the go command, once, for the export data of the
// packages of the standard library among paths, and among the imports of
// the runtime module's packages among paths, that the importer does not
// have whole yet.
func (im *verifierImporter) listExports(paths []string) {
	var want []string
	add := func(path string) {
		if _, ok := im.known[path]; ok || !isStd(path) || path == "C" {
			return
		}
		if _, ok := im.exports[path]; ok {
			return
		}
		if _, ok := im.listErr[path]; ok || slices.Contains(want, path) {
			return
		}
		want = append(want, path)
	}
	for _, path := range paths {
		if src, ok := runtimeAPI[path]; ok {
			if f, err := parser.ParseFile(token.NewFileSet(), "api.go", src, parser.ImportsOnly); err == nil {
				for _, spec := range f.Imports {
					if p, err := strconv.Unquote(spec.Path.Value); err == nil {
						add(p)
					}
				}
			}
			continue
		}
		add(path)
	}
	if len(want) == 0 {
		return
	}
	files, err := listExportFiles(want)
	for _, path := range want {
		switch {
		case err != nil:
			im.listErr[path] = err
		case files[path] != "":
			im.exports[path] = files[path]
		default:
			im.listErr[path] = errors.New("go list gave no export data")
		}
	}
}

// readExport reads the package path of the standard library from the go
// command's export data into the importer's universe.
func (im *verifierImporter) readExport(path string) (*types.Package, error) {
	if _, ok := im.exports[path]; !ok {
		if _, ok := im.listErr[path]; !ok {
			im.listExports([]string{path})
		}
	}
	file, ok := im.exports[path]
	if !ok {
		return nil, fmt.Errorf("no export data: %v", im.listErr[path])
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReader(f)
	if head, _ := r.(*bufio.Reader).Peek(8); string(head) == "!<arch>\n" {
		// The compiler's archive, as go list -export writes it today: its
		// export data is a section that NewReader finds. (Read alone
		// takes the export data files that later go commands write.)
		//lint:ignore SA1019 go list -export writes archives in the Go versions hashalloc supports
		if r, err = gcexportdata.NewReader(r); err != nil {
			return nil, fmt.Errorf("reading export data %s: %v", file, err)
		}
	}
	p, err := gcexportdata.Read(r, im.fset, im.universe, path)
	if err != nil {
		return nil, fmt.Errorf("reading export data %s: %v", file, err)
	}
	return p, nil
}

// listExportFiles runs go list -export on paths, packages of the standard
// library, and returns their export data files by path. It runs in GOROOT's
// source tree, outside any module or workspace of the user's, with the
// environment's build tags.
func listExportFiles(paths []string) (map[string]string, error) {
	goCmd := filepath.Join(build.Default.GOROOT, "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		goCmd = "go"
	}
	cmd := exec.Command(goCmd, append([]string{"list", "-e", "-export", "-json=ImportPath,Export,Error", "--"}, paths...)...)
	cmd.Dir = filepath.Join(build.Default.GOROOT, "src")
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if flags, ok := os.LookupEnv("GOFLAGS"); ok {
		// A -modfile of the user's module means nothing in GOROOT.
		var keep []string
		for _, f := range strings.Fields(flags) {
			if !strings.HasPrefix(strings.TrimLeft(f, "-"), "modfile") {
				keep = append(keep, f)
			}
		}
		cmd.Env = append(cmd.Env, "GOFLAGS="+strings.Join(keep, " "))
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	files := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Export string
			Error              *struct{ Err string }
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list -export: %v", err)
		}
		if p.Error == nil && p.Export != "" {
			files[p.ImportPath] = p.Export
		}
	}
	return files, nil
}
