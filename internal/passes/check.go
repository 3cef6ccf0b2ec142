package passes

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// Parse parses the files names into fset, reading each with read, as the
// go/packages loader parses a package's compiled Go files. It returns the
// files parsed (with a syntax error, as far as they parse) and the errors.
func Parse(fset *token.FileSet, names []string, read func(name string) ([]byte, error)) ([]*ast.File, []error) {
	var files []*ast.File
	var errs []error
	for _, name := range names {
		src, err := read(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments)
		if f != nil {
			files = append(files, f)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return files, errs
}

// Checked is a package type-checked by Check.
type Checked struct {
	Pkg        *types.Package
	Info       *types.Info
	TypeErrors []types.Error
	// Errors are the parse and type errors as go/packages reports them.
	Errors []packages.Error
}

// Check type-checks the package path, named name, from files, which parsing
// gave with parseErrs, as the go/packages loader type-checks a package it
// loads from source: import resolves an import path, as the package's
// imports map it; sizes and module are the package's.
func Check(fset *token.FileSet, path, name string, files []*ast.File, parseErrs []error, imports func(path string) (*types.Package, error), sizes types.Sizes, module *packages.Module) *Checked {
	return CheckSized(InfoSizes{}, fset, path, name, files, parseErrs, imports, sizes, module)
}

// InfoSizes are the number of entries of the maps of a types.Info.
type InfoSizes struct {
	types, defs, uses, implicits, instances, scopes, selections int
}

// SizesOf returns the sizes of the maps of info, nil or not.
func SizesOf(info *types.Info) InfoSizes {
	if info == nil {
		return InfoSizes{}
	}
	return InfoSizes{len(info.Types), len(info.Defs), len(info.Uses), len(info.Implicits), len(info.Instances), len(info.Scopes), len(info.Selections)}
}

// CheckSized is Check with the maps of the package's types.Info made of the
// sizes hint, those of an earlier check of the package: a package edited
// keeps about the same sizes, and maps made that large do not grow step by
// step while the checker fills them, which took a tenth of the time of
// checking a large package again.
func CheckSized(hint InfoSizes, fset *token.FileSet, path, name string, files []*ast.File, parseErrs []error, imports func(path string) (*types.Package, error), sizes types.Sizes, module *packages.Module) *Checked {
	c := &Checked{}
	for _, err := range parseErrs {
		var list scanner.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				c.Errors = append(c.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
			continue
		}
		c.Errors = append(c.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.ParseError})
	}
	if hint == (InfoSizes{}) {
		hint = estimateSizes(files)
	}
	c.Info = &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue, hint.types),
		Defs:         make(map[*ast.Ident]types.Object, hint.defs),
		Uses:         make(map[*ast.Ident]types.Object, hint.uses),
		Implicits:    make(map[ast.Node]types.Object, hint.implicits),
		Instances:    make(map[*ast.Ident]types.Instance, hint.instances),
		Scopes:       make(map[ast.Node]*types.Scope, hint.scopes),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection, hint.selections),
		FileVersions: make(map[*ast.File]string, len(files)),
	}
	cfg := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			return imports(path)
		}),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				c.TypeErrors = append(c.TypeErrors, te)
				c.Errors = append(c.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
				return
			}
			c.Errors = append(c.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
		},
		Sizes: sizes,
	}
	if module != nil && module.GoVersion != "" {
		cfg.GoVersion = "go" + module.GoVersion
	}
	c.Pkg = types.NewPackage(path, name)
	if err := types.NewChecker(cfg, fset, c.Pkg, c.Info).Files(files); err != nil && len(c.Errors) == 0 {
		c.Errors = append(c.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
	}
	return c
}

// estimateSizes estimates the sizes of the maps of the types.Info of files
// from their code's length, comments left out: in nine in ten of the
// standard library's larger packages the checker records a type for an
// expression at least every 10 bytes of code (every 8 in the median), a use
// every 24, a definition and a scope every 128, a selection every 256. Maps
// made that large at once grow from there, not from nothing, while the
// checker fills them, and are seldom larger than the package needs (which
// would raise the peak memory of a run).
func estimateSizes(files []*ast.File) InfoSizes {
	n := 0
	for _, f := range files {
		n += int(f.FileEnd - f.FileStart)
		for _, g := range f.Comments {
			n -= int(g.End() - g.Pos())
		}
	}
	return InfoSizes{types: n / 10, defs: n / 128, uses: n / 24, implicits: n / 1000, scopes: n / 128, selections: n / 256}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
