package values

// What an empty bytes.Buffer holds when writes fill it: its parts, in order.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
)

// Written is what the statements after the declaration of an empty
// bytes.Buffer write into it.
type Written struct {
	// Made is what makes the buffer: bytes.NewBuffer(make([]byte, 0, n)),
	// bytes.NewBuffer(nil), new(bytes.Buffer), &bytes.Buffer{}, or the name
	// that var buf bytes.Buffer declares.
	Made ast.Expr
	// Parts are what the writes write, in order, and Writes the statements
	// that write them; Others are the statements among them that do not
	// mention the buffer.
	Parts          []ast.Expr
	Writes, Others []ast.Stmt
}

// BufferWrites returns what the statements list[at+1:end] of the function
// at fn write into the bytes.Buffer v that list[at] declares empty, when
// they write two parts or more and v is used by the writes (Write,
// WriteString and WriteByte statements, their results discarded) and once
// more only, where it is read.
func (x *Index) BufferWrites(fn inspector.Cursor, v *types.Var, list []ast.Stmt, at, end int) (Written, bool) {
	made, ok := x.emptyBuffer(list[at], v)
	if !ok {
		return Written{}, false
	}
	w := Written{Made: made}
	for _, s := range list[at+1 : end] {
		if part, ok := x.bufferWrite(s, v); ok {
			w.Parts = append(w.Parts, part)
			w.Writes = append(w.Writes, s)
			continue
		}
		w.Others = append(w.Others, s)
	}
	// One part is no concatenation; no other statement, and no part,
	// mentions v.
	if len(w.Parts) < 2 || x.Count(fn, v) != len(w.Writes)+1 {
		return Written{}, false
	}
	return w, true
}

// IsBytesBuffer reports whether t is bytes.Buffer or a pointer to one.
func IsBytesBuffer(t types.Type) bool {
	return IsNamed(t, "bytes", "Buffer", false) || IsNamed(t, "bytes", "Buffer", true)
}

// emptyBuffer returns what allocates the buffer v that stmt declares: an
// empty bytes.Buffer, or one around an empty make or nil.
func (x *Index) emptyBuffer(stmt ast.Stmt, v *types.Var) (ast.Expr, bool) {
	switch s := stmt.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE || len(s.Lhs) != 1 || len(s.Rhs) != 1 || x.info.Defs[IdentOf(s.Lhs[0])] != v {
			return nil, false
		}
		switch rhs := ast.Unparen(s.Rhs[0]).(type) {
		case *ast.CallExpr:
			if fn, ok := x.info.Uses[IdentOf(rhs.Fun)].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "bytes" && fn.Name() == "NewBuffer" &&
				len(rhs.Args) == 1 && (x.info.Types[rhs.Args[0]].IsNil() || EmptyMake(x.info, rhs.Args[0])) {
				return rhs, true
			}
			if id, ok := ast.Unparen(rhs.Fun).(*ast.Ident); ok && id.Name == "new" && len(rhs.Args) == 1 && IsBytesBuffer(x.info.TypeOf(rhs.Args[0])) {
				return rhs, true
			}
		case *ast.UnaryExpr:
			if lit, ok := ast.Unparen(rhs.X).(*ast.CompositeLit); ok && rhs.Op == token.AND && len(lit.Elts) == 0 && IsBytesBuffer(x.info.TypeOf(lit)) {
				return rhs, true
			}
		}
	case *ast.DeclStmt:
		gen, ok := s.Decl.(*ast.GenDecl)
		if !ok || len(gen.Specs) != 1 {
			return nil, false
		}
		spec, ok := gen.Specs[0].(*ast.ValueSpec)
		if ok && len(spec.Names) == 1 && len(spec.Values) == 0 && x.info.Defs[spec.Names[0]] == v && IsBytesBuffer(v.Type()) {
			return spec.Names[0], true
		}
	}
	return nil, false
}

// bufferWrite returns the part that stmt writes into the buffer v:
// v.Write(x), v.WriteString(s), v.WriteByte(b), alone or assigned to blanks.
func (x *Index) bufferWrite(stmt ast.Stmt, v *types.Var) (ast.Expr, bool) {
	var n ast.Node = stmt
	if s, ok := stmt.(*ast.AssignStmt); ok {
		if len(s.Rhs) != 1 || slices.ContainsFunc(s.Lhs, func(l ast.Expr) bool { id, ok := l.(*ast.Ident); return !ok || id.Name != "_" }) {
			return nil, false
		}
		n = ast.Unparen(s.Rhs[0])
	}
	if es, ok := n.(*ast.ExprStmt); ok {
		n = es.X
	}
	call, ok := n.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || x.info.Uses[IdentOf(sel.X)] != v || !slices.Contains([]string{"Write", "WriteString", "WriteByte"}, sel.Sel.Name) {
		return nil, false
	}
	return call.Args[0], true
}

// EmptyMake reports whether e is make([]byte, 0) or make([]byte, 0, n).
func EmptyMake(info *types.Info, e ast.Expr) bool {
	mk, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || Builtin(info, mk) != "make" || len(mk.Args) < 2 {
		return false
	}
	v := info.Types[mk.Args[1]].Value
	return v != nil && v.String() == "0"
}
