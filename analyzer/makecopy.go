package analyzer

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"

	"golang.org/x/tools/go/ast/inspector"
)

// Concatenations built by make and copy, right before they are hashed:
//
//	data := make([]byte, len(a)+len(b)+len(c))
//	n := copy(data, a)                         copy(data, a)
//	n += copy(data[n:], b)              or     copy(data[len(a):], b)
//	copy(data[n:], c)                          copy(data[len(a)+len(b):], c)
//	return sha256.Sum256(data)                 return sha256.Sum256(data)
//
// and by one copy loop over a list of parts:
//
//	size := 0
//	for _, p := range parts {
//		size += len(p)
//	}
//	data := make([]byte, size)
//	n := 0
//	for _, p := range parts {
//		n += copy(data[n:], p)
//	}
//	return sha256.Sum256(data)
//
// The fix hashes the parts one after another instead (sha256.Sum256(data)
// becomes hashsum.SHA256(a, b, c), or hashsum.SHA256(parts...)), which is
// the same only when the buffer is the parts, in order, and nothing else.
// What is proved first:
//
//   - order, no gap, no overlap: every offset (a copy's low and high bound,
//     the values of the offset variables) is computed as a linear form, a
//     count per len(x) and a constant (len of an array is its constant);
//     the first copy is at 0 and each next one at the sum of the lengths of
//     the parts before it, and a high bound, when given, is the end of its
//     part;
//   - coverage: the buffer's size is the sum of the parts' lengths, so it
//     holds no byte beyond them (make's zeros would be hashed too), and each
//     copy copies its whole part: copy copies min(len(dst), len(src)), and
//     the room left at a copy is the length of its part and of the parts
//     after it, so copy's result, added into the running offset, is the
//     part's length;
//   - the parts run no code when evaluated (variables, fields, elements and
//     slices with plain bounds), and mention neither the buffer nor an
//     offset variable: evaluating them once at the sink, instead of in the
//     size and in the copies, gives the same bytes; the statements are
//     consecutive, and copies into the fresh buffer write nothing else, so
//     nothing changes the parts between their copies and the sink;
//   - the buffer is used by the copies and the sink only, and the offset and
//     size variables by these statements only, so removing them changes
//     nothing else;
//   - a copy loop ranges over a plain list with one statement, the copy at
//     the running offset (or the copy, then the offset advanced by the
//     part's length); its size is the sum of len over the same list, in a
//     loop of the same shape right before the make: the list is not written
//     in between.

// linear is a sum of lengths and a constant: len(a)+len(b)+1 is
// {a: 1, b: 1} and 1.
type linear struct {
	terms map[string]int
	c     int64
}

func (l linear) plus(o linear) linear {
	sum := linear{terms: maps.Clone(l.terms), c: l.c + o.c}
	if sum.terms == nil {
		sum.terms = map[string]int{}
	}
	for t, n := range o.terms {
		sum.terms[t] += n
		if sum.terms[t] == 0 {
			delete(sum.terms, t)
		}
	}
	return sum
}

func (l linear) equal(o linear) bool { return l.c == o.c && maps.Equal(l.terms, o.terms) }

// partLen is the length of the byte slice e as a linear form: the constant
// length of an array or of a slice of a whole array, else len(e).
func (p *pass) partLen(e ast.Expr) linear {
	if arr := p.wholeArray(e); arr != nil {
		return linear{c: arr.Len()} // h[:] of a [32]byte
	}
	return linear{terms: map[string]int{types.ExprString(ast.Unparen(e)): 1}}
}

// wholeArray returns the array that e is, or that e slices whole (a[:] of
// an array or of a pointer to one): its length is its capacity. Or nil.
func (p *pass) wholeArray(e ast.Expr) *types.Array {
	t := p.TypesInfo.TypeOf(e)
	if s, ok := ast.Unparen(e).(*ast.SliceExpr); ok && s.Low == nil && s.High == nil && !s.Slice3 {
		t = unpointer(p.TypesInfo.TypeOf(s.X).Underlying())
	}
	arr, _ := t.Underlying().(*types.Array)
	return arr
}

// linearOf computes e, an int expression, as a linear form: constants,
// len(x) of a plain x, the offset variables of vars, and their sums; nil
// (an omitted low bound, no initial value) is 0.
func (p *pass) linearOf(e ast.Expr, vars map[*types.Var]linear) (linear, bool) {
	if e == nil {
		return linear{}, true
	}
	e = ast.Unparen(e)
	if tv := p.TypesInfo.Types[e]; tv.Value != nil {
		n, exact := constant.Int64Val(constant.ToInt(tv.Value))
		return linear{c: n}, exact
	}
	switch e := e.(type) {
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return linear{}, false
		}
		x, ok := p.linearOf(e.X, vars)
		y, ok2 := p.linearOf(e.Y, vars)
		return x.plus(y), ok && ok2
	case *ast.CallExpr:
		if p.builtin(e) == "len" && len(e.Args) == 1 && sigOperand(e.Args[0]) {
			return p.partLen(e.Args[0]), true
		}
	case *ast.Ident:
		if v, ok := p.TypesInfo.Uses[e].(*types.Var); ok {
			l, ok := vars[v]
			return l, ok
		}
	}
	return linear{}, false
}

// makeCopy recognizes l, v := make([]byte, size), filled by the statements
// up to the sink's (copies, or one copy loop), with parts that cover it
// exactly, in order (see above).
func (p *pass) makeCopy(l local) (*concat, bool) {
	list, at, v, def := l.list, l.at, l.v, l.def
	mk, ok := ast.Unparen(def.Rhs[0]).(*ast.CallExpr)
	if !ok || len(mk.Args) != 2 || p.builtin(mk) != "make" {
		return nil, false
	}
	// A constant size stays on the stack.
	if p.TypesInfo.Types[mk.Args[1]].Value != nil {
		return nil, false
	}
	fill := list[at+1 : l.end]
	if len(fill) == 0 {
		return nil, false
	}
	c := &concat{expr: mk, def: def, stmts: fill, what: v.Name() + " := make+copy"}
	vars := map[*types.Var]linear{} // the offset variables, at each statement
	if loop, ok := fill[len(fill)-1].(*ast.RangeStmt); ok {
		// A copy loop, after the offset's definition.
		if len(fill) > 2 || len(fill) == 2 && !p.offsetDef(fill[0], vars) {
			return nil, false
		}
		_, n, ok := p.copyLoop(loop, v, vars)
		if !ok {
			return nil, false
		}
		stmts, ok := p.sizeLoop(list, at, mk.Args[1], loop.X)
		if !ok {
			return nil, false
		}
		// The size variable goes with the make when it serves its own
		// statements and the make only.
		if size := p.TypesInfo.Uses[identOf(mk.Args[1])].(*types.Var); !p.usedOutside(l.fn, size, stmts[0].Pos(), def.End()) {
			c.stmts = append(stmts, c.stmts...)
		}
		c.parts, c.spread = []ast.Expr{loop.X}, true
		vars[n] = linear{} // used by the loop only, checked below
	} else {
		offset := linear{}
		for _, stmt := range fill {
			if p.offsetDef(stmt, vars) {
				continue
			}
			part, ok := p.copyAt(stmt, v, offset, vars)
			if !ok {
				return nil, false
			}
			offset = offset.plus(p.partLen(part))
			c.parts = append(c.parts, part)
		}
		total, ok := p.linearOf(mk.Args[1], nil)
		if !ok || !total.equal(offset) || len(c.parts) < 2 {
			return nil, false
		}
	}
	if p.vals.Count(l.fn, v) != len(c.parts)+1 {
		return nil, false // v is used for more than the copies and the sink (a part mentions it, say)
	}
	for _, part := range c.parts {
		if !sigOperand(part) {
			return nil, false
		}
		for n := range vars {
			if p.mentions(part, n) {
				return nil, false
			}
		}
	}
	// The offset variables serve these statements only.
	first, last := fill[0].Pos(), fill[len(fill)-1].End()
	for n := range vars {
		if p.usedOutside(l.fn, n, first, last) {
			return nil, false
		}
	}
	return c, true
}

// offsetDef matches the definition or update of an offset variable between
// the copies, n := len(a), n += len(b), var n int, and records its value in
// vars.
func (p *pass) offsetDef(stmt ast.Stmt, vars map[*types.Var]linear) bool {
	var id *ast.Ident
	var rhs ast.Expr // nil for var n int
	tok := token.DEFINE
	switch s := stmt.(type) {
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 || ast.Unparen(s.Lhs[0]) != identOf(s.Lhs[0]) {
			return false
		}
		id, rhs, tok = identOf(s.Lhs[0]), s.Rhs[0], s.Tok
	case *ast.DeclStmt:
		gen, ok := s.Decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.VAR || len(gen.Specs) != 1 {
			return false
		}
		vs := gen.Specs[0].(*ast.ValueSpec)
		if len(vs.Names) != 1 || len(vs.Values) > 1 {
			return false
		}
		id = vs.Names[0]
		if len(vs.Values) == 1 {
			rhs = vs.Values[0]
		}
	default:
		return false
	}
	n, ok := p.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || !types.Identical(n.Type(), types.Typ[types.Int]) {
		return false
	}
	value, ok := p.linearOf(rhs, vars)
	return ok && assignLinear(vars, n, tok, value)
}

// copyAt matches a copy of a part into v at offset, as a statement, or
// whose result defines or advances an offset variable (n := copy(...), n +=
// copy(...)); it returns the part. The destination is v at offset 0, or
// v[lo:] or v[lo:hi] with lo the offset and hi the part's end.
func (p *pass) copyAt(stmt ast.Stmt, v *types.Var, offset linear, vars map[*types.Var]linear) (ast.Expr, bool) {
	var call ast.Expr
	var n *types.Var
	var tok token.Token
	switch s := stmt.(type) {
	case *ast.ExprStmt:
		call = s.X
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 || ast.Unparen(s.Lhs[0]) != identOf(s.Lhs[0]) {
			return nil, false
		}
		n, _ = p.TypesInfo.ObjectOf(identOf(s.Lhs[0])).(*types.Var)
		call, tok = s.Rhs[0], s.Tok
	default:
		return nil, false
	}
	cp, ok := ast.Unparen(call).(*ast.CallExpr)
	if !ok || p.builtin(cp) != "copy" || len(cp.Args) != 2 {
		return nil, false
	}
	dst, part := ast.Unparen(cp.Args[0]), cp.Args[1]
	length := p.partLen(part)
	switch d := dst.(type) {
	case *ast.Ident:
		if p.TypesInfo.Uses[d] != v || !offset.equal(linear{}) {
			return nil, false
		}
	case *ast.SliceExpr:
		if !p.isIdentOf(d.X, v) || d.Slice3 {
			return nil, false
		}
		if lo, ok := p.linearOf(d.Low, vars); !ok || !lo.equal(offset) {
			return nil, false
		}
		if d.High != nil {
			hi, ok := p.linearOf(d.High, vars)
			if !ok || !hi.equal(offset.plus(length)) {
				return nil, false
			}
		}
	default:
		return nil, false
	}
	// What copy returns is the part's length: see coverage above.
	return part, n == nil || assignLinear(vars, n, tok, length)
}

// assignLinear records in vars the value of n after n := value or n +=
// value (tok), and reports whether it is one of them.
func assignLinear(vars map[*types.Var]linear, n *types.Var, tok token.Token, value linear) bool {
	old, ok := vars[n]
	switch {
	case tok == token.DEFINE:
		vars[n] = value
	case tok == token.ADD_ASSIGN && ok:
		vars[n] = old.plus(value)
	default:
		return false
	}
	return true
}

// copyLoop matches a loop that copies each element of a list into v at a
// running offset n, 0 before the loop (vars holds n's definition):
//
//	for _, p := range parts { n += copy(v[n:], p) }
//	for _, p := range parts { copy(v[n:], p); n += len(p) }
//
// It returns the list and n.
func (p *pass) copyLoop(loop *ast.RangeStmt, v *types.Var, vars map[*types.Var]linear) (ast.Expr, *types.Var, bool) {
	elem := p.rangeElem(loop)
	if elem == nil || !types.Identical(elem.Type().Underlying(), byteSlice) || !sigOperand(loop.X) || len(vars) != 1 {
		return nil, nil, false
	}
	var n *types.Var
	for v, value := range vars {
		if !value.equal(linear{}) {
			return nil, nil, false
		}
		n = v
	}
	// copy(v[n:], p), as a statement or in n += copy(v[n:], p).
	copyOf := func(e ast.Expr) bool {
		cp, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || p.builtin(cp) != "copy" || len(cp.Args) != 2 || p.TypesInfo.Uses[identOf(cp.Args[1])] != elem {
			return false
		}
		d, ok := ast.Unparen(cp.Args[0]).(*ast.SliceExpr)
		return ok && p.isIdentOf(d.X, v) && d.High == nil && d.Low != nil && p.isIdentOf(d.Low, n)
	}
	body := loop.Body.List
	switch len(body) {
	case 1:
		if !p.advances(body[0], n, copyOf) {
			return nil, nil, false
		}
	case 2:
		es, ok := body[0].(*ast.ExprStmt)
		if !ok || !copyOf(es.X) || !p.advances(body[1], n, func(e ast.Expr) bool { return p.lenOf(e, elem) }) {
			return nil, nil, false
		}
	default:
		return nil, nil, false
	}
	return loop.X, n, true
}

// sizeLoop matches the statements right before list[at] that compute size
// as the sum of the lengths of the elements of parts, and returns them:
//
//	size := 0              (or var size int)
//	for _, p := range parts {
//		size += len(p)
//	}
func (p *pass) sizeLoop(list []ast.Stmt, at int, size, parts ast.Expr) ([]ast.Stmt, bool) {
	sv, ok := p.TypesInfo.Uses[identOf(size)].(*types.Var)
	if !ok || ast.Unparen(size) != identOf(size) || at < 2 {
		return nil, false
	}
	vars := map[*types.Var]linear{}
	if !p.offsetDef(list[at-2], vars) || len(vars) != 1 || !vars[sv].equal(linear{}) {
		return nil, false
	}
	loop, ok := list[at-1].(*ast.RangeStmt)
	if !ok || len(loop.Body.List) != 1 || types.ExprString(loop.X) != types.ExprString(parts) {
		return nil, false
	}
	elem := p.rangeElem(loop)
	if elem == nil {
		return nil, false
	}
	if !p.advances(loop.Body.List[0], sv, func(e ast.Expr) bool { return p.lenOf(e, elem) }) {
		return nil, false
	}
	return []ast.Stmt{list[at-2], list[at-1]}, true
}

// advances reports whether s is n += x, with value(x).
func (p *pass) advances(s ast.Stmt, n *types.Var, value func(ast.Expr) bool) bool {
	as, ok := s.(*ast.AssignStmt)
	return ok && as.Tok == token.ADD_ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 &&
		p.isIdentOf(as.Lhs[0], n) && value(as.Rhs[0])
}

// mentions reports whether the code of n mentions v.
func (p *pass) mentions(n ast.Node, v *types.Var) bool {
	for n := range ast.Preorder(n) {
		if id, ok := n.(*ast.Ident); ok && p.TypesInfo.Uses[id] == v {
			return true
		}
	}
	return false
}

// usedOutside reports whether the function at fn mentions v outside the
// positions [from, to).
func (p *pass) usedOutside(fn inspector.Cursor, v *types.Var, from, to token.Pos) bool {
	outside := func(cur inspector.Cursor) bool { return cur.Node().Pos() < from || cur.Node().End() > to }
	if def, ok := p.vals.Def(fn, v); ok && outside(def) {
		return true
	}
	for cur := range p.vals.Uses(fn, v) {
		if outside(cur) {
			return true
		}
	}
	return false
}
