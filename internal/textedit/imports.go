package textedit

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

// RemoveUnusedImports deletes the imports of src whose name is not the X of
// any selector X.Sel in the file, line by line, leaving the rest of the file
// byte for byte. Each fix removes the imports it alone leaves unused, but two
// fixes may each remove one use of the same package; this removes what they
// leave together, as the x/tools drivers do. pkg is the package of the file
// before the fixes: it names the packages that imports without a name refer
// to. A local variable of the same name used with a selector keeps an
// import: the rule errs on keeping imports, and an import that is really used
// is never removed. It fails when src does not parse.
func RemoveUnusedImports(src []byte, pkg *types.Package) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "fixed.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	unused := unusedImports(f, pkg)
	if len(unused) == 0 {
		return src, nil
	}
	tf := fset.File(f.FileStart)
	var edits []Edit
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			continue
		}
		left := 0
		for _, s := range gen.Specs {
			if !unused[s.(*ast.ImportSpec)] {
				left++
			}
		}
		switch {
		case left == len(gen.Specs):
		case left == 0:
			start := gen.Pos()
			if gen.Doc != nil {
				start = gen.Doc.Pos()
			}
			e, ok := deleteLines(src, tf.Offset(start), tf.Offset(gen.End()), true)
			if !ok {
				return reprint(fset, f, unused)
			}
			edits = append(edits, e)
		default:
			for _, s := range gen.Specs {
				spec := s.(*ast.ImportSpec)
				if !unused[spec] {
					continue
				}
				start := spec.Pos()
				if spec.Doc != nil {
					start = spec.Doc.Pos()
				}
				e, ok := deleteLines(src, tf.Offset(start), tf.Offset(spec.End()), false)
				if !ok {
					return reprint(fset, f, unused)
				}
				edits = append(edits, e)
			}
		}
	}
	if edits, err = Sort(edits); err != nil {
		return reprint(fset, f, unused)
	}
	return Apply(src, edits)
}

// unusedImports returns the import specs of f whose name no selector uses.
func unusedImports(f *ast.File, pkg *types.Package) map[*ast.ImportSpec]bool {
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
	unused := map[*ast.ImportSpec]bool{}
	for _, spec := range f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := names[path]
		if spec.Name != nil {
			name = spec.Name.Name
		}
		switch name {
		case "", "_", ".":
			continue // a new import, a blank or a dot import
		}
		if !used[name] {
			unused[spec] = true
		}
	}
	return unused
}

// deleteLines returns the edit that deletes src[start:end] with the rest of
// its lines: the indentation before it, a comment after it and the newline
// that ends the last line. With blank, a blank line that then follows a
// blank line goes too, so that no double blank line is left behind. It
// reports false when something else shares those lines.
func deleteLines(src []byte, start, end int, blank bool) (Edit, bool) {
	lineStart := bytes.LastIndexByte(src[:start], '\n') + 1
	if len(bytes.TrimSpace(src[lineStart:start])) > 0 {
		return Edit{}, false
	}
	stop := len(src)
	if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
		stop = end + i + 1
	}
	if rest := bytes.TrimSpace(src[end:stop]); len(rest) > 0 && !bytes.HasPrefix(rest, []byte("//")) {
		return Edit{}, false
	}
	if blank && lineStart >= 2 && src[lineStart-1] == '\n' && src[lineStart-2] == '\n' && stop < len(src) && src[stop] == '\n' {
		stop++
	}
	return Edit{lineStart, stop, ""}, true
}

// reprint deletes the unused imports from the syntax tree and prints the
// file again: for import declarations that share lines with other code,
// which no gofmt-formatted file has.
func reprint(fset *token.FileSet, f *ast.File, unused map[*ast.ImportSpec]bool) ([]byte, error) {
	for spec := range unused {
		name := ""
		if spec.Name != nil {
			name = spec.Name.Name
		}
		path, _ := strconv.Unquote(spec.Path.Value)
		astutil.DeleteNamedImport(fset, f, name, path)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
