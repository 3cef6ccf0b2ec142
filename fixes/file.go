// Package fixes builds the suggested fixes of hashalloc: one file per rewrite,
// each drawn as a before/after diagram above the code that makes it, plus the
// small editing helpers they share (imports, names, indentation).
//
// Every builder returns a single SuggestedFix whose edits all fall in one file,
// so that go vet -fix, go fix and golangci-lint --fix apply it the same way.
package fixes

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// File is the file a fix edits, with what the builders need to know about it.
type File struct {
	Fset *token.FileSet
	AST  *ast.File
	Src  []byte
	Info *types.Info
	Pkg  *types.Package
}

// Text returns the source text of n.
func (f *File) Text(n ast.Node) string {
	return string(f.Src[f.offset(n.Pos()):f.offset(n.End())])
}

// Indent returns the white space that starts pos's line.
func (f *File) Indent(pos token.Pos) string {
	start := f.offset(f.lineStart(pos))
	end := start
	for end < len(f.Src) && (f.Src[end] == ' ' || f.Src[end] == '\t') {
		end++
	}
	return string(f.Src[start:end])
}

// lineStart returns the position of the first byte of pos's line.
func (f *File) lineStart(pos token.Pos) token.Pos {
	start := bytes.LastIndexByte(f.Src[:f.offset(pos)], '\n') + 1
	return f.Fset.File(f.AST.FileStart).Pos(start)
}

// LineEnd returns the position of the newline that ends pos's line, after any
// trailing comment: statements added after a statement go there.
func (f *File) LineEnd(pos token.Pos) token.Pos {
	off := f.offset(pos)
	if i := bytes.IndexByte(f.Src[off:], '\n'); i >= 0 {
		off += i
	} else {
		off = len(f.Src)
	}
	return f.Fset.File(f.AST.FileStart).Pos(off)
}

func (f *File) offset(pos token.Pos) int {
	return f.Fset.File(f.AST.FileStart).Offset(pos)
}

// FreeName returns want, or want followed by a number, choosing a name that
// neither the package scope nor any scope enclosing pos declares.
func (f *File) FreeName(pos token.Pos, want string) string {
	scope := f.Pkg.Scope().Innermost(pos)
	if scope == nil {
		scope = f.Pkg.Scope()
	}
	name := want
	for i := 2; ; i++ {
		if _, obj := scope.LookupParent(name, pos); obj == nil && f.Pkg.Scope().Lookup(name) == nil {
			return name
		}
		name = want + strconv.Itoa(i)
	}
}

// ImportName returns the name under which the file imports path, if it does.
func (f *File) ImportName(path string) (string, bool) {
	for _, spec := range f.AST.Imports {
		if p, _ := strconv.Unquote(spec.Path.Value); p == path {
			if spec.Name != nil {
				if spec.Name.Name == "_" || spec.Name.Name == "." {
					continue
				}
				return spec.Name.Name, true
			}
			if pkg := f.importedPackage(spec); pkg != nil {
				return pkg.Name(), true
			}
			return pathName(path), true
		}
	}
	return "", false
}

func (f *File) importedPackage(spec *ast.ImportSpec) *types.Package {
	if obj, ok := f.Info.Implicits[spec].(*types.PkgName); ok {
		return obj.Imported()
	}
	return nil
}

// pathName is the name a package is imported under by default, as far as its
// path tells: the last element.
func pathName(path string) string {
	return path[strings.LastIndex(path, "/")+1:]
}

// AddImport returns the name by which the file can refer to the package path,
// and the edits that import it when the file does not already. The import
// joins the first import group of its kind (standard library or not), in
// sorted order, so that the file stays gofmt-clean.
func (f *File) AddImport(path, name string) (string, []analysis.TextEdit) {
	if local, ok := f.ImportName(path); ok {
		return local, nil
	}
	local := name
	if obj := f.Pkg.Scope().Lookup(local); obj != nil || f.fileScopeHas(local) {
		local = f.FreeName(f.AST.Package, name)
	}
	spec := strconv.Quote(path)
	if local != name {
		spec = local + " " + spec
	}
	std := !strings.Contains(strings.SplitN(path, "/", 2)[0], ".")

	// Find an import block with a group of the same kind.
	for _, decl := range f.AST.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			break
		}
		if !gen.Lparen.IsValid() {
			continue
		}
		var last *ast.ImportSpec
		for _, s := range gen.Specs {
			is := s.(*ast.ImportSpec)
			p, _ := strconv.Unquote(is.Path.Value)
			isStd := !strings.Contains(strings.SplitN(p, "/", 2)[0], ".")
			if isStd != std {
				if last != nil {
					break
				}
				continue
			}
			if last != nil && f.Fset.Position(is.Pos()).Line > f.Fset.Position(last.End()).Line+1 {
				break // a blank line ends the group
			}
			if p > path {
				return local, []analysis.TextEdit{{
					Pos:     is.Pos(),
					End:     is.Pos(),
					NewText: []byte(spec + "\n" + f.Indent(is.Pos())),
				}}
			}
			last = is
		}
		if last != nil {
			return local, []analysis.TextEdit{{
				Pos:     last.End(),
				End:     last.End(),
				NewText: []byte("\n" + f.Indent(last.Pos()) + spec),
			}}
		}
		// No group of this kind: start one at the end of the block.
		return local, []analysis.TextEdit{{
			Pos:     gen.Rparen,
			End:     gen.Rparen,
			NewText: []byte("\n\t" + spec + "\n"),
		}}
	}
	// No import block: add a declaration after the package clause or the
	// last single import.
	after := f.AST.Name.End()
	for _, decl := range f.AST.Decls {
		if gen, ok := decl.(*ast.GenDecl); ok && gen.Tok == token.IMPORT {
			after = gen.End()
		}
	}
	return local, []analysis.TextEdit{{
		Pos:     after,
		End:     after,
		NewText: fmt.Appendf(nil, "\n\nimport %s", spec),
	}}
}

func (f *File) fileScopeHas(name string) bool {
	if scope := f.Info.Scopes[f.AST]; scope != nil {
		return scope.Lookup(name) != nil
	}
	return false
}

// RemoveImport returns the edits that delete the import of path when every
// reference to it in the file lies inside one of the removed nodes.
func (f *File) RemoveImport(path string, removed ...ast.Node) []analysis.TextEdit {
	var spec *ast.ImportSpec
	for _, s := range f.AST.Imports {
		if p, _ := strconv.Unquote(s.Path.Value); p == path && (s.Name == nil || s.Name.Name != "_") {
			spec = s
		}
	}
	if spec == nil {
		return nil
	}
	var pkgName types.Object
	if spec.Name != nil {
		pkgName = f.Info.Defs[spec.Name]
	} else {
		pkgName = f.Info.Implicits[spec]
	}
	if pkgName == nil {
		return nil
	}
	for id, obj := range f.Info.Uses {
		if obj != pkgName || id.Pos() < f.AST.FileStart || id.Pos() > f.AST.FileEnd {
			continue
		}
		inside := false
		for _, n := range removed {
			if n.Pos() <= id.Pos() && id.End() <= n.End() {
				inside = true
			}
		}
		if !inside {
			return nil
		}
	}
	// Delete the spec with its line, or the whole declaration when it is alone.
	for _, decl := range f.AST.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			continue
		}
		for _, s := range gen.Specs {
			if s != spec {
				continue
			}
			if len(gen.Specs) == 1 {
				return []analysis.TextEdit{f.DeleteLine(gen.Pos(), gen.End())}
			}
			return []analysis.TextEdit{f.DeleteLine(spec.Pos(), spec.End())}
		}
	}
	return nil
}

// DeleteLine deletes [pos, end) together with the indentation before it, a
// line comment after it and the newline that ends its line.
func (f *File) DeleteLine(pos, end token.Pos) analysis.TextEdit {
	tf := f.Fset.File(f.AST.FileStart)
	start := f.offset(pos)
	for start > 0 && (f.Src[start-1] == ' ' || f.Src[start-1] == '\t') {
		start--
	}
	stop := f.offset(end)
	// Take a trailing line comment with it: it belonged to what is deleted.
	rest := stop
	for rest < len(f.Src) && (f.Src[rest] == ' ' || f.Src[rest] == '\t') {
		rest++
	}
	if bytes.HasPrefix(f.Src[rest:], []byte("//")) {
		stop = f.offset(f.LineEnd(f.Fset.File(f.AST.FileStart).Pos(rest)))
	}
	if stop < len(f.Src) && f.Src[stop] == '\n' {
		stop++
	}
	return analysis.TextEdit{Pos: tf.Pos(start), End: tf.Pos(stop)}
}

// TypeText spells t as the file can write it, importing packages as needed.
func (f *File) TypeText(t types.Type) (string, []analysis.TextEdit) {
	var edits []analysis.TextEdit
	text := types.TypeString(t, func(p *types.Package) string {
		if p == f.Pkg {
			return ""
		}
		name, e := f.AddImport(p.Path(), p.Name())
		edits = append(edits, e...)
		return name
	})
	return text, edits
}
