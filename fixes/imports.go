package fixes

import (
	"bytes"
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Imports collects the import changes of one fix — packages the new code
// refers to, packages the removed code was the last to refer to — and turns
// them into edits that never overlap each other or the rest of the fix,
// whatever the shape of the file's imports: none, one unparenthesized import,
// several declarations, named, dot and blank imports.
//
// Names are chosen where they are used: a package already imported under a
// name that a local declaration shadows at a use (a parameter named hash) is
// imported again under a free name, which Go allows.
type Imports struct {
	f     *File
	uses  []token.Pos
	names map[string]string // import path => local name, as decided
	add   []newImport
	drop  []*ast.ImportSpec
}

type newImport struct {
	path, name string
}

// Imports starts the import changes of a fix whose new text refers to
// imported packages at the positions uses (and at package level).
func (f *File) Imports(uses ...token.Pos) *Imports {
	return &Imports{f: f, uses: uses, names: map[string]string{}}
}

// Name returns the name by which the fix's new code refers to the package
// path, importing it when the file does not, or when its name is shadowed at
// a use. want is the package's own name.
func (im *Imports) Name(path, want string) string {
	if local, ok := im.names[path]; ok {
		return local
	}
	for _, spec := range im.f.AST.Imports {
		if p, _ := strconv.Unquote(spec.Path.Value); p != path {
			continue
		}
		if obj := im.f.pkgName(spec); obj != nil && im.visible(obj) {
			im.names[path] = obj.Name()
			return obj.Name()
		}
	}
	local := want
	for i := 2; im.taken(local); i++ {
		local = want + strconv.Itoa(i)
	}
	im.names[path] = local
	im.add = append(im.add, newImport{path: path, name: local})
	return local
}

// Drop removes the import of path when every reference to it in the file
// lies inside the removed nodes, and the fix does not refer to it again.
func (im *Imports) Drop(path string, removed ...ast.Node) {
	for _, spec := range im.f.AST.Imports {
		if p, _ := strconv.Unquote(spec.Path.Value); p != path || spec.Name != nil && spec.Name.Name == "_" {
			continue
		}
		obj := im.f.pkgName(spec)
		switch {
		case obj != nil && im.names[path] == obj.Name():
			continue // the fix refers to it
		case obj != nil && im.f.usedOutside(obj, removed):
			continue
		case obj == nil && im.f.dotUsedOutside(path, removed):
			continue
		}
		im.drop = append(im.drop, spec)
	}
}

// pkgName returns the name that an import declares in the file, or nil for a
// dot or blank import.
func (f *File) pkgName(spec *ast.ImportSpec) *types.PkgName {
	if spec.Name != nil {
		if spec.Name.Name == "." || spec.Name.Name == "_" {
			return nil
		}
		obj, _ := f.Info.Defs[spec.Name].(*types.PkgName)
		return obj
	}
	obj, _ := f.Info.Implicits[spec].(*types.PkgName)
	return obj
}

// usedOutside reports whether the file refers to the import name obj outside
// the nodes.
func (f *File) usedOutside(obj types.Object, nodes []ast.Node) bool {
	return outside(f.index().names[obj], nodes)
}

// dotUsedOutside reports whether the file refers, outside the nodes, to a
// name that a dot import of path brings in: an unqualified use of one of its
// package-level objects.
func (f *File) dotUsedOutside(path string, nodes []ast.Node) bool {
	return outside(f.index().dotted[path], nodes)
}

// outside reports whether one of ids lies outside every node.
func outside(ids []*ast.Ident, nodes []ast.Node) bool {
	for _, id := range ids {
		in := false
		for _, n := range nodes {
			if n.Pos() <= id.Pos() && id.End() <= n.End() {
				in = true
				break
			}
		}
		if !in {
			return true
		}
	}
	return false
}

// importUses indexes the uses of imported names in a file.
type importUses struct {
	names  map[types.Object][]*ast.Ident // uses of each import name
	dotted map[string][]*ast.Ident       // unqualified uses of another package's objects, by path
}

// index walks the file once for the uses of its imports.
func (f *File) index() *importUses {
	if f.uses != nil {
		return f.uses
	}
	u := &importUses{names: map[types.Object][]*ast.Ident{}, dotted: map[string][]*ast.Ident{}}
	selected := map[*ast.Ident]bool{}
	ast.Inspect(f.AST, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			selected[n.Sel] = true
		case *ast.Ident:
			switch obj := f.Info.Uses[n].(type) {
			case nil:
			case *types.PkgName:
				u.names[obj] = append(u.names[obj], n)
			default:
				if !selected[n] && obj.Pkg() != nil && obj.Pkg() != f.Pkg && obj.Parent() == obj.Pkg().Scope() {
					u.dotted[obj.Pkg().Path()] = append(u.dotted[obj.Pkg().Path()], n)
				}
			}
		}
		return true
	})
	f.uses = u
	return u
}

// visible reports whether obj is what its name refers to at every use.
func (im *Imports) visible(obj types.Object) bool {
	for _, pos := range im.uses {
		if scope := im.f.Innermost(pos); scope != nil {
			if _, found := scope.LookupParent(obj.Name(), pos); found != obj {
				return false
			}
		}
	}
	return true
}

// taken reports whether a new import may not be called name: something of
// the package or the file has that name, or it is declared at a use.
func (im *Imports) taken(name string) bool {
	if im.f.Pkg.Scope().Lookup(name) != nil || im.f.fileScopeHas(name) {
		return true
	}
	for _, a := range im.add {
		if a.name == name {
			return true
		}
	}
	for _, pos := range im.uses {
		if scope := im.f.Innermost(pos); scope != nil {
			if _, found := scope.LookupParent(name, pos); found != nil {
				return true
			}
		}
	}
	return false
}

func (f *File) fileScopeHas(name string) bool {
	if scope := f.Info.Scopes[f.AST]; scope != nil {
		return scope.Lookup(name) != nil
	}
	return false
}

// specText spells an import: "path", or name "path" when the name is not the
// one the path suggests.
func (a newImport) specText() string {
	if a.name == pathName(a.path) {
		return strconv.Quote(a.path)
	}
	return a.name + " " + strconv.Quote(a.path)
}

// sameEdit reports whether a and b make the same change.
func sameEdit(a, b analysis.TextEdit) bool {
	return a.Pos == b.Pos && a.End == b.End && string(a.NewText) == string(b.NewText)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// std reports whether a is a package of the standard library.
func (a newImport) std() bool { return isStd(a.path) }

// isStd reports whether path is a standard library package: its first
// element has no dot.
func isStd(path string) bool {
	return !strings.Contains(strings.SplitN(path, "/", 2)[0], ".")
}

// Edits returns the edits that make the import changes.
//
// Deletions take whole lines (a declaration left without imports goes with
// them); additions are lines placed in sorted order within the first group
// of their kind (standard library or not) of the first parenthesized
// declaration, or in a new group of that kind, so that they merge with the
// same addition made by another fix (see placeSpec). A file without a
// parenthesized declaration has its last single declaration parenthesized,
// or a new declaration, in place of a deleted one when there is one.
func (im *Imports) Edits() []analysis.TextEdit {
	f := im.f
	sort.Slice(im.add, func(i, j int) bool { return im.add[i].path < im.add[j].path })
	dropped := map[*ast.ImportSpec]bool{}
	for _, s := range im.drop {
		dropped[s] = true
	}
	var decls, emptied []*ast.GenDecl
	var target *ast.GenDecl // the parenthesized declaration that takes additions
	var edits []analysis.TextEdit
	for _, decl := range f.AST.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			break // imports come first
		}
		decls = append(decls, gen)
		left := 0
		for _, s := range gen.Specs {
			if !dropped[s.(*ast.ImportSpec)] {
				left++
			}
		}
		switch {
		case left == 0:
			emptied = append(emptied, gen)
		case len(gen.Specs) > left:
			for _, s := range gen.Specs {
				if dropped[s.(*ast.ImportSpec)] {
					edits = append(edits, f.deleteSpec(s.(*ast.ImportSpec)))
				}
			}
		}
		if left > 0 && target == nil && gen.Lparen.IsValid() {
			target = gen
		}
	}

	var single *ast.GenDecl // the last single declaration that keeps its import
	for _, gen := range decls {
		if !slices.Contains(emptied, gen) {
			single = gen
		}
	}
	switch {
	case len(im.add) == 0:
	case target != nil:
		for _, a := range im.add {
			for _, e := range f.placeSpec(target, a, dropped) {
				if !slices.ContainsFunc(edits, func(o analysis.TextEdit) bool { return sameEdit(o, e) }) { // a new group's blank line, once
					edits = append(edits, e)
				}
			}
		}
	case single != nil:
		spec := single.Specs[0].(*ast.ImportSpec)
		p, _ := strconv.Unquote(spec.Path.Value)
		edits = append(edits, f.parenthesize(single, im.add, false, !isStd(p) && slices.ContainsFunc(im.add, newImport.std))...)
	case len(emptied) > 0:
		// Replace the first emptied declaration with the new one.
		gen := emptied[0]
		emptied = emptied[1:]
		edits = append(edits, analysis.TextEdit{Pos: gen.Pos(), End: gen.End(), NewText: []byte(importDecl(im.add))})
	case len(decls) > 0:
		at := f.NextLine(decls[len(decls)-1].End())
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(importDecl(im.add) + "\n")})
	default:
		at := f.LineEnd(f.AST.Name.End())
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte("\n\n" + importDecl(im.add))})
	}
	for _, gen := range emptied {
		edits = append(edits, f.deleteDecl(gen))
	}
	return edits
}

// importDecl spells an import declaration of the new imports, sorted by
// path: the standard library's group, then the others'.
func importDecl(add []newImport) string {
	add = slices.Clone(add)
	slices.SortStableFunc(add, func(a, b newImport) int {
		return cmp.Or(-cmp.Compare(boolInt(a.std()), boolInt(b.std())), cmp.Compare(a.path, b.path))
	})
	if len(add) == 1 {
		return "import " + add[0].specText()
	}
	text := "import ("
	for i, a := range add {
		if i > 0 && a.std() != add[i-1].std() {
			text += "\n"
		}
		text += "\n\t" + a.specText()
	}
	return text + "\n)"
}

// specStart is where an import's line starts to matter: its doc comment, if
// any, else the spec.
func specStart(is *ast.ImportSpec) token.Pos {
	if is.Doc != nil {
		return is.Doc.Pos()
	}
	return is.Pos()
}

// NextLine returns the start of the line after pos's line (after a trailing
// comment), or the end of the file.
func (f *File) NextLine(pos token.Pos) token.Pos {
	end := f.LineEnd(pos)
	if f.offset(end) < len(f.Src) {
		return end + 1
	}
	return end
}

// deleteSpec deletes the line of an import of a parenthesized declaration,
// doc comment and line comment included, from the newline that ends the line
// before it to the one that ends its own: a line added at the end of its
// line (after it, or after the line before it) or a blank line made by
// replacing its newline touch the deletion and merge with it. An import that
// does not have a line of its own has its text deleted as DeleteLine does.
func (f *File) deleteSpec(is *ast.ImportSpec) analysis.TextEdit {
	start, end := f.LineStart(specStart(is)), f.LineEnd(is.End())
	alone := f.offset(start) > 0 && len(bytes.TrimSpace(f.Src[f.offset(start):f.offset(specStart(is))])) == 0
	rest := bytes.TrimSpace(f.Src[f.offset(is.End()):f.offset(end)])
	if !alone || len(rest) > 0 && !bytes.HasPrefix(rest, []byte("//")) {
		return f.DeleteLine(specStart(is), is.End())
	}
	return analysis.TextEdit{Pos: start - 1, End: end}
}

// deleteDecl deletes a whole declaration with its line, and a blank line
// after it when a blank line also precedes it, so that no double blank line
// is left behind.
func (f *File) deleteDecl(gen *ast.GenDecl) analysis.TextEdit {
	start := gen.Pos()
	if gen.Doc != nil {
		start = gen.Doc.Pos()
	}
	e := f.DeleteLine(start, gen.End())
	before := f.offset(f.LineStart(start))
	after := f.offset(e.End)
	if before >= 2 && f.Src[before-1] == '\n' && f.Src[before-2] == '\n' && after < len(f.Src) && f.Src[after] == '\n' {
		e.End++
	}
	return e
}

// pathName is the name a package is imported under by default, as far as its
// path tells: the last element, or the one before a major version's suffix
// (xxhash for github.com/cespare/xxhash/v2), as goimports assumes.
func pathName(path string) string {
	dir, base := "", path
	if i := strings.LastIndex(path, "/"); i >= 0 {
		dir, base = path[:i], path[i+1:]
	}
	if v, ok := strings.CutPrefix(base, "v"); ok && dir != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 2 {
			return pathName(dir)
		}
	}
	return base
}
