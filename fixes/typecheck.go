package fixes

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/hashalloc/hashalloc/internal/textedit"
	"golang.org/x/tools/go/analysis"
)

// Verifier proves fixes before they are offered: it applies them to the
// package's source and type-checks the package again, with the packages it
// already imports, the runtime module's API as hashalloc was built with it,
// and the standard library. A fix that parses can still break the build —
// remove an import that a function it keeps still uses, add a field to a
// struct that a positional literal builds — and only the type checker sees
// it.
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
		// With comments: a //go:build line sets the file's Go version.
		f, err := parser.ParseFile(v.fset, tf.Name(), src, parser.ParseComments|parser.SkipObjectResolution)
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
// GOROOT's source. Packages it type-checks itself import their dependencies
// through it, so that a type they share with the package is one type.
type verifierImporter struct {
	known  map[string]*types.Package // by import path
	sizes  types.Sizes
	fset   *token.FileSet
	failed map[string]error
}

func newVerifierImporter(pkg *types.Package, direct map[string]*types.Package) *verifierImporter {
	im := &verifierImporter{known: map[string]*types.Package{"unsafe": types.Unsafe}, fset: token.NewFileSet(), failed: map[string]error{}}
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		// A package read from export data for what its importers use of
		// it is incomplete: the type checker takes no import of it.
		if p.Complete() {
			im.known[p.Path()] = p
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
	p, err := im.load(path, bp)
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
