package values

// What a byte slice made by make holds when copies fill it: its parts, in
// order, covering it exactly.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"

	"golang.org/x/tools/go/ast/inspector"
)

// Copies made by make and copy, right before they are read:
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
// The slice is its parts, in order, and nothing else; what is proved:
//
//   - order, no gap, no overlap: every offset (a copy's low and high bound,
//     the values of the offset variables) is computed as a Length, a count
//     per len(x) and a constant (len of an array is its constant); the
//     first copy is at 0 and each next one at the sum of the lengths of the
//     parts before it, and a high bound, when given, is the end of its part;
//   - coverage: the slice's size is the sum of the parts' lengths, so it
//     holds no byte beyond them (make's zeros would be read too), and each
//     copy copies its whole part: copy copies min(len(dst), len(src)), and
//     the room left at a copy is the length of its part and of the parts
//     after it, so copy's result, added into the running offset, is the
//     part's length;
//   - the parts run no code when evaluated (variables, fields, elements and
//     slices with plain bounds), and mention neither the slice nor an
//     offset variable: evaluating them once where the slice is read,
//     instead of in the size and in the copies, gives the same bytes; the
//     statements are consecutive, and copies into the fresh slice write
//     nothing else, so nothing changes the parts between their copies and
//     the read;
//   - the slice is used by the copies and the one read only, and the offset
//     and size variables by these statements only, so removing them changes
//     nothing else;
//   - a copy loop ranges over a plain list with one statement, the copy at
//     the running offset (or the copy, then the offset advanced by the
//     part's length); its size is the sum of len over the same list, in a
//     loop of the same shape right before the make: the list is not written
//     in between.

// Copied is what the statements after make([]byte, size) copy into it.
type Copied struct {
	// Make is the call that makes the slice.
	Make *ast.CallExpr
	// Parts are what the slice holds, in order; with Spread, Parts is one
	// list of byte slices whose elements are the parts (a copy loop).
	Parts  []ast.Expr
	Spread bool
	// Stmts are the statements that compute the size, when they serve the
	// make only, and that fill the slice.
	Stmts []ast.Stmt
}

// Copied returns what the statements list[at+1:end] of the function at fn
// copy into the byte slice that list[at], v := make([]byte, size), makes,
// when they fill it with parts that cover it exactly, in order (see above),
// and v is used by them and once more only, where it is read.
func (x *Index) Copied(fn inspector.Cursor, list []ast.Stmt, at, end int) (Copied, bool) {
	def, ok := list[at].(*ast.AssignStmt)
	if !ok || def.Tok != token.DEFINE || len(def.Lhs) != 1 || len(def.Rhs) != 1 {
		return Copied{}, false
	}
	v, ok := x.info.Defs[IdentOf(def.Lhs[0])].(*types.Var)
	mk, isCall := ast.Unparen(def.Rhs[0]).(*ast.CallExpr)
	if !ok || !isCall || len(mk.Args) != 2 || Builtin(x.info, mk) != "make" {
		return Copied{}, false
	}
	fill := list[at+1 : end]
	if len(fill) == 0 {
		return Copied{}, false
	}
	c := Copied{Make: mk, Stmts: fill}
	vars := map[*types.Var]Length{} // the offset variables, at each statement
	if loop, ok := fill[len(fill)-1].(*ast.RangeStmt); ok {
		// A copy loop, after the offset's definition.
		if len(fill) > 2 || len(fill) == 2 && !x.offsetDef(fill[0], vars) {
			return Copied{}, false
		}
		n, ok := x.copyLoop(loop, v, vars)
		if !ok {
			return Copied{}, false
		}
		stmts, ok := x.sizeLoop(list, at, mk.Args[1], loop.X)
		if !ok {
			return Copied{}, false
		}
		// The size variable goes with the make when it serves its own
		// statements and the make only.
		if size := x.info.Uses[IdentOf(mk.Args[1])].(*types.Var); !x.usedOutside(fn, size, stmts[0].Pos(), def.End()) {
			c.Stmts = append(stmts, c.Stmts...)
		}
		c.Parts, c.Spread = []ast.Expr{loop.X}, true
		vars[n] = Length{} // used by the loop only, checked below
	} else {
		offset := Length{}
		for _, stmt := range fill {
			if x.offsetDef(stmt, vars) {
				continue
			}
			part, ok := x.copyAt(stmt, v, offset, vars)
			if !ok {
				return Copied{}, false
			}
			offset = offset.Plus(x.partLen(part))
			c.Parts = append(c.Parts, part)
		}
		total, ok := x.LengthOf(mk.Args[1], nil)
		if !ok || !total.Equal(offset) || len(c.Parts) < 2 {
			return Copied{}, false
		}
	}
	if x.Count(fn, v) != len(c.Parts)+1 {
		return Copied{}, false // v is used for more than the copies and the read (a part mentions it, say)
	}
	for _, part := range c.Parts {
		if !Operand(part) {
			return Copied{}, false
		}
		for n := range vars {
			if Mentions(x.info, part, n) {
				return Copied{}, false
			}
		}
	}
	// The offset variables serve these statements only.
	first, last := fill[0].Pos(), fill[len(fill)-1].End()
	for n := range vars {
		if x.usedOutside(fn, n, first, last) {
			return Copied{}, false
		}
	}
	return c, true
}

// Length is a sum of lengths and a constant: len(a)+len(b)+1 is {a: 1,
// b: 1} and 1, each length keyed by the spelling of its operand.
type Length struct {
	Terms map[string]int
	Const int64
}

// Plus returns l + o.
func (l Length) Plus(o Length) Length {
	sum := Length{Terms: maps.Clone(l.Terms), Const: l.Const + o.Const}
	if sum.Terms == nil {
		sum.Terms = map[string]int{}
	}
	for t, n := range o.Terms {
		sum.Terms[t] += n
		if sum.Terms[t] == 0 {
			delete(sum.Terms, t)
		}
	}
	return sum
}

// Equal reports whether l and o are the same sum.
func (l Length) Equal(o Length) bool { return l.Const == o.Const && maps.Equal(l.Terms, o.Terms) }

// partLen is the length of the byte slice e as a Length: the constant
// length of an array or of a slice of a whole array, else len(e).
func (x *Index) partLen(e ast.Expr) Length {
	if arr := WholeArray(x.info, e); arr != nil {
		return Length{Const: arr.Len()} // h[:] of a [32]byte
	}
	return Length{Terms: map[string]int{types.ExprString(ast.Unparen(e)): 1}}
}

// WholeArray returns the array that e is, or that e slices whole (a[:] of
// an array or of a pointer to one): its length is its capacity. Or nil.
func WholeArray(info *types.Info, e ast.Expr) *types.Array {
	t := info.TypeOf(e)
	if s, ok := ast.Unparen(e).(*ast.SliceExpr); ok && s.Low == nil && s.High == nil && !s.Slice3 {
		t = info.TypeOf(s.X).Underlying()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
	}
	arr, _ := t.Underlying().(*types.Array)
	return arr
}

// LengthOf computes e, an int expression, as a Length: constants, len(x)
// of an x whose evaluation runs no code (see Operand), the variables of
// vars, and their sums; nil (an omitted low bound, no initial value) is 0.
func (x *Index) LengthOf(e ast.Expr, vars map[*types.Var]Length) (Length, bool) {
	if e == nil {
		return Length{}, true
	}
	e = ast.Unparen(e)
	if tv := x.info.Types[e]; tv.Value != nil {
		n, exact := constant.Int64Val(constant.ToInt(tv.Value))
		return Length{Const: n}, exact
	}
	switch e := e.(type) {
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return Length{}, false
		}
		l, ok := x.LengthOf(e.X, vars)
		r, ok2 := x.LengthOf(e.Y, vars)
		return l.Plus(r), ok && ok2
	case *ast.CallExpr:
		if Builtin(x.info, e) == "len" && len(e.Args) == 1 && Operand(e.Args[0]) {
			return x.partLen(e.Args[0]), true
		}
	case *ast.Ident:
		if v, ok := x.info.Uses[e].(*types.Var); ok {
			l, ok := vars[v]
			return l, ok
		}
	}
	return Length{}, false
}

// offsetDef matches the definition or update of an offset variable between
// the copies, n := len(a), n += len(b), var n int, and records its value in
// vars.
func (x *Index) offsetDef(stmt ast.Stmt, vars map[*types.Var]Length) bool {
	var id *ast.Ident
	var rhs ast.Expr // nil for var n int
	tok := token.DEFINE
	switch s := stmt.(type) {
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 || ast.Unparen(s.Lhs[0]) != IdentOf(s.Lhs[0]) {
			return false
		}
		id, rhs, tok = IdentOf(s.Lhs[0]), s.Rhs[0], s.Tok
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
	n, ok := x.info.ObjectOf(id).(*types.Var)
	if !ok || !types.Identical(n.Type(), types.Typ[types.Int]) {
		return false
	}
	value, ok := x.LengthOf(rhs, vars)
	return ok && assignLength(vars, n, tok, value)
}

// copyAt matches a copy of a part into v at offset, as a statement, or
// whose result defines or advances an offset variable (n := copy(...), n +=
// copy(...)); it returns the part. The destination is v at offset 0, or
// v[lo:] or v[lo:hi] with lo the offset and hi the part's end.
func (x *Index) copyAt(stmt ast.Stmt, v *types.Var, offset Length, vars map[*types.Var]Length) (ast.Expr, bool) {
	var call ast.Expr
	var n *types.Var
	var tok token.Token
	switch s := stmt.(type) {
	case *ast.ExprStmt:
		call = s.X
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 || ast.Unparen(s.Lhs[0]) != IdentOf(s.Lhs[0]) {
			return nil, false
		}
		n, _ = x.info.ObjectOf(IdentOf(s.Lhs[0])).(*types.Var)
		call, tok = s.Rhs[0], s.Tok
	default:
		return nil, false
	}
	cp, ok := ast.Unparen(call).(*ast.CallExpr)
	if !ok || Builtin(x.info, cp) != "copy" || len(cp.Args) != 2 {
		return nil, false
	}
	dst, part := ast.Unparen(cp.Args[0]), cp.Args[1]
	length := x.partLen(part)
	switch d := dst.(type) {
	case *ast.Ident:
		if x.info.Uses[d] != v || !offset.Equal(Length{}) {
			return nil, false
		}
	case *ast.SliceExpr:
		if !IsIdentOf(x.info, d.X, v) || d.Slice3 {
			return nil, false
		}
		if lo, ok := x.LengthOf(d.Low, vars); !ok || !lo.Equal(offset) {
			return nil, false
		}
		if d.High != nil {
			hi, ok := x.LengthOf(d.High, vars)
			if !ok || !hi.Equal(offset.Plus(length)) {
				return nil, false
			}
		}
	default:
		return nil, false
	}
	// What copy returns is the part's length: see coverage above.
	return part, n == nil || assignLength(vars, n, tok, length)
}

// assignLength records in vars the value of n after n := value or n +=
// value (tok), and reports whether it is one of them.
func assignLength(vars map[*types.Var]Length, n *types.Var, tok token.Token, value Length) bool {
	old, ok := vars[n]
	switch {
	case tok == token.DEFINE:
		vars[n] = value
	case tok == token.ADD_ASSIGN && ok:
		vars[n] = old.Plus(value)
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
// It returns n.
func (x *Index) copyLoop(loop *ast.RangeStmt, v *types.Var, vars map[*types.Var]Length) (*types.Var, bool) {
	elem := RangeElem(x.info, loop)
	if elem == nil || !types.Identical(elem.Type().Underlying(), byteSlice) || !Operand(loop.X) || len(vars) != 1 {
		return nil, false
	}
	var n *types.Var
	for v, value := range vars {
		if !value.Equal(Length{}) {
			return nil, false
		}
		n = v
	}
	// copy(v[n:], p), as a statement or in n += copy(v[n:], p).
	copyOf := func(e ast.Expr) bool {
		cp, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || Builtin(x.info, cp) != "copy" || len(cp.Args) != 2 || x.info.Uses[IdentOf(cp.Args[1])] != elem {
			return false
		}
		d, ok := ast.Unparen(cp.Args[0]).(*ast.SliceExpr)
		return ok && IsIdentOf(x.info, d.X, v) && d.High == nil && d.Low != nil && IsIdentOf(x.info, d.Low, n)
	}
	body := loop.Body.List
	switch len(body) {
	case 1:
		if !x.advances(body[0], n, copyOf) {
			return nil, false
		}
	case 2:
		es, ok := body[0].(*ast.ExprStmt)
		if !ok || !copyOf(es.X) || !x.advances(body[1], n, func(e ast.Expr) bool { return LenOf(x.info, e, elem) }) {
			return nil, false
		}
	default:
		return nil, false
	}
	return n, true
}

// sizeLoop matches the statements right before list[at] that compute size
// as the sum of the lengths of the elements of parts, and returns them:
//
//	size := 0              (or var size int)
//	for _, p := range parts {
//		size += len(p)
//	}
func (x *Index) sizeLoop(list []ast.Stmt, at int, size, parts ast.Expr) ([]ast.Stmt, bool) {
	sv, ok := x.info.Uses[IdentOf(size)].(*types.Var)
	if !ok || ast.Unparen(size) != IdentOf(size) || at < 2 {
		return nil, false
	}
	vars := map[*types.Var]Length{}
	if !x.offsetDef(list[at-2], vars) || len(vars) != 1 || !vars[sv].Equal(Length{}) {
		return nil, false
	}
	loop, ok := list[at-1].(*ast.RangeStmt)
	if !ok || len(loop.Body.List) != 1 || types.ExprString(loop.X) != types.ExprString(parts) {
		return nil, false
	}
	elem := RangeElem(x.info, loop)
	if elem == nil || !x.advances(loop.Body.List[0], sv, func(e ast.Expr) bool { return LenOf(x.info, e, elem) }) {
		return nil, false
	}
	return []ast.Stmt{list[at-2], list[at-1]}, true
}

// advances reports whether s is n += e, with value(e).
func (x *Index) advances(s ast.Stmt, n *types.Var, value func(ast.Expr) bool) bool {
	as, ok := s.(*ast.AssignStmt)
	return ok && as.Tok == token.ADD_ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 &&
		IsIdentOf(x.info, as.Lhs[0], n) && value(as.Rhs[0])
}

// RangeElem returns v of for _, v := range x, or nil.
func RangeElem(info *types.Info, loop *ast.RangeStmt) *types.Var {
	if loop.Key != nil && IdentOf(loop.Key).Name != "_" || loop.Value == nil {
		return nil
	}
	v, _ := info.Defs[IdentOf(loop.Value)].(*types.Var)
	return v
}

// LenOf reports whether e is len(v), len being the builtin.
func LenOf(info *types.Info, e ast.Expr, v *types.Var) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && len(call.Args) == 1 && IsIdentOf(info, call.Args[0], v) && Builtin(info, call) == "len"
}

// IsIdentOf reports whether e is an identifier (in parentheses or not) that
// uses v.
func IsIdentOf(info *types.Info, e ast.Expr, v types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == v
}

// usedOutside reports whether the function at fn declares or uses v
// outside the positions [from, to).
func (x *Index) usedOutside(fn inspector.Cursor, v *types.Var, from, to token.Pos) bool {
	def, ok := x.Def(fn, v)
	_, outside := x.UsedOutside(fn, v, from, to)
	return outside || ok && (def.Node().Pos() < from || def.Node().End() > to)
}

// Mentions reports whether the code of n mentions v.
func Mentions(info *types.Info, n ast.Node, v *types.Var) bool {
	for n := range ast.Preorder(n) {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			return true
		}
	}
	return false
}

// byteSlice is []byte.
var byteSlice = types.NewSlice(types.Typ[types.Byte])

// Builtin returns the name of the builtin function that call calls, or "":
// a builtin of the universe (len), or of package unsafe (unsafe.String).
func Builtin(info *types.Info, call *ast.CallExpr) string {
	id := IdentOf(call.Fun)
	if _, ok := info.Uses[id].(*types.Builtin); !ok {
		return ""
	}
	return id.Name
}

// IdentOf returns the identifier that e names: x in x, Sel in pkg.Sel.
func IdentOf(e ast.Expr) *ast.Ident {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e
	case *ast.SelectorExpr:
		return e.Sel
	}
	return nil
}

// Operand reports whether e is a value whose evaluation runs no code: a
// variable, a field, a constant, or an index or slice of those with plain
// bounds (see Plain).
func Operand(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		return Plain(e.X) && Plain(e.Index)
	case *ast.SliceExpr:
		for _, b := range []ast.Expr{e.Low, e.High, e.Max} {
			if b != nil && !Plain(b) {
				return false
			}
		}
		return Plain(e.X)
	}
	return Plain(e)
}

// Plain reports whether e is a name, a field selection chain or a literal:
// something that can be evaluated twice at no cost and with no side effect.
func Plain(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		return Plain(e.X)
	}
	return false
}
