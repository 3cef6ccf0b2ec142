// Package fixes builds the suggested fixes of hashalloc: one file per rewrite,
// each drawn as a before/after diagram above the code that makes it, plus the
// small editing helpers they share (imports, names, indentation).
//
// Every builder returns a single SuggestedFix whose edits all fall in one file,
// so that go vet -fix, go fix and golangci-lint --fix apply it the same way.
package fixes

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"sort"
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
	// Version is the file's Go version, as in "go1.21"; empty when unknown.
	Version string
	// Names hands out the names of the package-level declarations that
	// fixes add, the same for every file of the package.
	Names *PackageNames

	regionCache [][2]int    // see regions
	uses        *importUses // see index
	// What Check's pieces parse as, by their text (see piece).
	headersParsed, runsParsed map[string]bool
	variadicForms             map[variadicKey]variadicText // see variadicForm
}

// AtLeast reports whether the file's Go version is v or later (true when the
// version is unknown).
func (f *File) AtLeast(v string) bool {
	return f.Version == "" || version.Compare(f.Version, v) >= 0
}

// AnyType spells the empty interface as the file's Go version allows.
func (f *File) AnyType() string {
	if f.AtLeast("go1.18") {
		return "any"
	}
	return "interface{}"
}

// Text returns the source text of n.
func (f *File) Text(n ast.Node) string {
	return string(f.Src[f.offset(n.Pos()):f.offset(n.End())])
}

// Indent returns the white space that starts pos's line.
func (f *File) Indent(pos token.Pos) string {
	start := f.offset(f.LineStart(pos))
	end := start
	for end < len(f.Src) && (f.Src[end] == ' ' || f.Src[end] == '\t') {
		end++
	}
	return string(f.Src[start:end])
}

// LineStart returns the position of the first byte of pos's line.
func (f *File) LineStart(pos token.Pos) token.Pos {
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

// DeclAt returns the top-level declaration of the file that holds pos, doc
// comment aside, or nil: a binary search, not a walk of the file.
func (f *File) DeclAt(pos token.Pos) ast.Decl {
	decls := f.AST.Decls
	i := sort.Search(len(decls), func(i int) bool { return decls[i].End() > pos })
	if i < len(decls) && decls[i].Pos() <= pos {
		return decls[i]
	}
	return nil
}

// Innermost returns the innermost scope that holds pos, as the package
// scope's Innermost does, searching only the scopes of the top-level
// declaration that holds pos: in a file of many functions, the package
// scope's search walks every one of them.
func (f *File) Innermost(pos token.Pos) *types.Scope {
	if fd, ok := f.DeclAt(pos).(*ast.FuncDecl); ok {
		if s := f.Info.Scopes[fd.Type]; s != nil {
			if in := s.Innermost(pos); in != nil {
				return in
			}
		}
	}
	return f.Pkg.Scope().Innermost(pos)
}

// FreeName returns want, or want followed by a number, choosing a name that
// neither the package scope nor any scope enclosing pos declares.
func (f *File) FreeName(pos token.Pos, want string) string {
	scope := f.Innermost(pos)
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

// FreshName is FreeName that also avoids the names in taken, those the fix
// declares already, and adds the name it returns to them.
func (f *File) FreshName(pos token.Pos, want string, taken map[string]bool) string {
	name := f.FreeName(pos, want)
	for i := 2; taken[name]; i++ {
		name = f.FreeName(pos, want+strconv.Itoa(i))
	}
	taken[name] = true
	return name
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

// docComment spells text as the doc comment of a declaration that a fix
// writes: lines of "// " filled to 80 columns, broken between words, as a
// person would wrap it whatever the length of the names in it.
func docComment(text string) string {
	var b strings.Builder
	line := "//"
	for _, word := range strings.Fields(text) {
		if len(line) > len("//") && len(line)+1+len(word) > 80 {
			b.WriteString(line + "\n")
			line = "//"
		}
		line += " " + word
	}
	b.WriteString(line + "\n")
	return b.String()
}

// refill wraps again, as docComment does, each comment paragraph of decl that
// has a line longer than 80 columns: decl is written from a template with the
// names the fix chose, and a longer name (a file's copy, hmacPoolWeburl)
// pushes a line past the width that the template keeps.
func refill(decl string) string {
	var b, para strings.Builder
	long := false
	flush := func() {
		if long {
			b.WriteString(docComment(strings.ReplaceAll(para.String(), "\n// ", "\n")[len("// "):]))
		} else {
			b.WriteString(para.String())
		}
		para.Reset()
		long = false
	}
	for _, line := range strings.SplitAfter(decl, "\n") {
		if strings.HasPrefix(line, "// ") {
			para.WriteString(line)
			long = long || len(strings.TrimSuffix(line, "\n")) > 80
			continue
		}
		flush()
		b.WriteString(line)
	}
	flush()
	return b.String()
}

// TypeText spells t as the fix can write it, importing packages through im.
func (f *File) TypeText(t types.Type, im *Imports) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == f.Pkg {
			return ""
		}
		return im.Name(p.Path(), p.Name())
	})
}
