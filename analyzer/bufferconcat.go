package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// Concatenations built in a bytes.Buffer only to be hashed:
//
//	buf := bytes.NewBuffer(make([]byte, 0, len(l)+len(r)))
//	buf.Write(l)                                    h.Write(l)
//	buf.Write(r)                             =>     h.Write(r)
//	h.Write(buf.Bytes())
//
// The buffer (its make, or the growth of its first Write) is allocated on
// every call only to hold the parts until they are hashed. What is
// recognized: a local variable defined in the sink's block by
// bytes.NewBuffer(make([]byte, 0, n)), bytes.NewBuffer(nil), new(bytes.Buffer)
// or var buf bytes.Buffer; used by Write, WriteString and WriteByte
// statements (their results discarded) between its definition and the
// sink, and by the sink's buf.Bytes() only; the sink in no loop or function
// literal of its statement. The fix removes the buffer and its writes and
// hashes the parts at the sink, when nothing but hashers' definitions runs
// among the writes (see inert).

// bufferConcat recognizes the concatenation that sel, a buf.Bytes() call
// that the sink at sinkCur hashes, reads.
func (p *pass) bufferConcat(sinkCur inspector.Cursor, call *ast.CallExpr) (*concat, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Bytes" || len(call.Args) != 0 || !isBytesBuffer(p.TypesInfo.TypeOf(sel.X)) {
		return nil, false
	}
	l, ok := p.declaredBefore(sinkCur, sel.X)
	if !ok {
		return nil, false
	}
	v := l.v
	build, ok := p.bufferDef(l)
	if !ok {
		return nil, false
	}
	// The statements between: writes of parts into v, or statements that
	// do not mention it.
	var parts []ast.Expr
	var writes, others []ast.Stmt
	for _, s := range l.list[l.at+1 : l.end] {
		if part, ok := p.bufferWrite(s, v); ok {
			parts = append(parts, part)
			writes = append(writes, s)
			continue
		}
		others = append(others, s)
	}
	if len(parts) < 2 {
		return nil, false // one part is no concatenation
	}
	// v is used by its definition, the writes (each once, as the receiver)
	// and the sink only: no other statement, and no part, mentions it.
	if p.vals.Count(l.fn, v) != len(writes)+1 {
		return nil, false
	}
	c := &concat{expr: build, parts: parts, def: l.list[l.at], stmts: writes, what: "a bytes.Buffer filled with " + plural(len(parts), "part")}
	// The parts are evaluated at the sink instead of at their writes: the
	// statements among the writes must not change them.
	if !p.inert(others, parts) {
		c.noFix = "statements other than its writes run between the bytes.Buffer and the hash, and could change the parts"
	}
	return c, true
}

// isBytesBuffer reports whether t is bytes.Buffer or a pointer to one.
func isBytesBuffer(t types.Type) bool {
	return isNamed(t, "bytes", "Buffer", false) || isNamed(t, "bytes", "Buffer", true)
}

// bufferDef returns what allocates the buffer that l declares: an empty
// bytes.Buffer, or one around an empty make or nil.
func (p *pass) bufferDef(l local) (ast.Expr, bool) {
	if l.def != nil {
		switch rhs := ast.Unparen(l.def.Rhs[0]).(type) {
		case *ast.CallExpr:
			if p.qualifiedCallee(rhs) == "bytes.NewBuffer" && len(rhs.Args) == 1 && (p.TypesInfo.Types[rhs.Args[0]].IsNil() || p.emptyMake(rhs.Args[0])) {
				return rhs, true
			}
			if id, ok := ast.Unparen(rhs.Fun).(*ast.Ident); ok && id.Name == "new" && len(rhs.Args) == 1 && isBytesBuffer(p.TypesInfo.TypeOf(rhs.Args[0])) {
				return rhs, true
			}
		case *ast.UnaryExpr:
			if lit, ok := ast.Unparen(rhs.X).(*ast.CompositeLit); ok && rhs.Op == token.AND && len(lit.Elts) == 0 && isBytesBuffer(p.TypesInfo.TypeOf(lit)) {
				return rhs, true
			}
		}
		return nil, false
	}
	if s, ok := l.list[l.at].(*ast.DeclStmt); ok {
		gen, ok := s.Decl.(*ast.GenDecl)
		if !ok || len(gen.Specs) != 1 {
			return nil, false
		}
		spec, ok := gen.Specs[0].(*ast.ValueSpec)
		if ok && len(spec.Names) == 1 && len(spec.Values) == 0 && p.TypesInfo.Defs[spec.Names[0]] == l.v && isBytesBuffer(l.v.Type()) {
			return spec.Names[0], true
		}
	}
	return nil, false
}

// bufferWrite returns the part that stmt writes into the buffer v:
// v.Write(x), v.WriteString(s), v.WriteByte(b), alone or assigned to blanks.
func (p *pass) bufferWrite(stmt ast.Stmt, v *types.Var) (ast.Expr, bool) {
	var e ast.Expr
	switch s := stmt.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		for _, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				return nil, false
			}
		}
		if len(s.Rhs) != 1 {
			return nil, false
		}
		e = s.Rhs[0]
	default:
		return nil, false
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !p.isIdentOf(sel.X, v) {
		return nil, false
	}
	switch sel.Sel.Name {
	case "Write", "WriteString", "WriteByte":
		return call.Args[0], true
	}
	return nil, false
}
