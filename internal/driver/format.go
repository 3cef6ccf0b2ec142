package driver

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"
)

// formatFixed formats a fixed file as gofmt does, as the x/tools drivers do
// after applying fixes, and removes the imports that the fixes together left
// unused (each fix removes those it alone leaves unused, but two fixes may
// each remove one use of the same package). pkg is the package of the file
// before the fixes: it names the packages that imports without a name refer
// to. It fails when the fixed file does not parse.
func formatFixed(pkg *types.Package, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "fixed.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	ast.SortImports(fset, f)
	removeUnusedImports(fset, f, pkg)
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// removeUnusedImports deletes the imports of f whose name is not the X of
// any selector X.Sel in the file. A local variable of the same name used
// with a selector keeps an import: the rule errs on keeping imports, and an
// import that is really used is never removed.
func removeUnusedImports(fset *token.FileSet, f *ast.File, pkg *types.Package) {
	names := map[string]string{} // import path => package name
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if _, ok := names[p.Path()]; ok {
			return
		}
		names[p.Path()] = p.Name()
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	if pkg != nil {
		for _, imp := range pkg.Imports() {
			visit(imp)
		}
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	type unused struct{ name, path string }
	var drop []unused
	for _, spec := range f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		explicit := ""
		if spec.Name != nil {
			explicit = spec.Name.Name
		}
		name := explicit
		if name == "" {
			name = names[path]
		}
		switch name {
		case "", "_", ".":
			continue // a new import, a blank or a dot import
		}
		if !used[name] {
			drop = append(drop, unused{explicit, path})
		}
	}
	for _, u := range drop {
		astutil.DeleteNamedImport(fset, f, u.name, u.path)
	}
}
