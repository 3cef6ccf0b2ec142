package values

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const copiesSrc = `package p

func sum(b []byte) int { return len(b) }

func f() []byte { return nil }

func offsets(a, b, c []byte) int {
	data := make([]byte, len(a)+len(b)+len(c))
	n := copy(data, a)
	n += copy(data[n:], b)
	copy(data[n:], c)
	return sum(data)
}

func bounds(a, b []byte) int {
	data := make([]byte, len(b)+len(a))
	copy(data, a)
	copy(data[len(a):len(a)+len(b)], b)
	return sum(data)
}

func array(h [32]byte, b []byte) int {
	data := make([]byte, 32+len(b))
	copy(data, h[:])
	copy(data[len(h):], b)
	return sum(data)
}

func loop(parts [][]byte) int {
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	data := make([]byte, size)
	var n int
	for _, p := range parts {
		copy(data[n:], p)
		n += len(p)
	}
	return sum(data)
}

func sizeKept(parts [][]byte) int {
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	data := make([]byte, size)
	n := 0
	for _, p := range parts {
		n += copy(data[n:], p)
	}
	return sum(data) + size
}

func gap(a, b []byte) int {
	data := make([]byte, len(a)+len(b)+1)
	copy(data, a)
	copy(data[len(a):], b)
	return sum(data)
}

func overlap(a, b []byte) int {
	data := make([]byte, len(a)+len(b))
	copy(data, a)
	copy(data[1:], b)
	return sum(data)
}

func reread(a, b []byte) int {
	data := make([]byte, len(a)+len(b))
	copy(data, a)
	copy(data[len(a):], b)
	return sum(data) + int(data[0])
}

func runsCode(a []byte) int {
	data := make([]byte, len(a)+len(f()))
	copy(data, a)
	copy(data[len(a):], f())
	return sum(data)
}

func offsetKept(a, b []byte) int {
	data := make([]byte, len(a)+len(b))
	n := copy(data, a)
	copy(data[n:], b)
	return sum(data) + n
}

func onePart(a []byte) int {
	data := make([]byte, len(a))
	copy(data, a)
	return sum(data)
}
`

// TestCopied checks the parts that copies fill a slice made by make with,
// read by the last statement of each function: found when they cover it
// exactly, in order, and the slice and the offsets serve the copies only.
func TestCopied(t *testing.T) {
	f := loadSource(t, copiesSrc)
	copied := func(name string) (Copied, bool) {
		decl := f.decl(t, f.obj(name).(*types.Func))
		list := decl.Node().(*ast.FuncDecl).Body.List
		at := 0
		for i, s := range list {
			if as, ok := s.(*ast.AssignStmt); ok && types.ExprString(as.Lhs[0]) == "data" {
				at = i
			}
		}
		return f.x.Copied(decl, list, at, len(list)-1)
	}
	spell := func(es []ast.Expr) []string {
		var out []string
		for _, e := range es {
			out = append(out, types.ExprString(e))
		}
		return out
	}
	for name, want := range map[string][]string{
		"offsets": {"a", "b", "c"},
		"bounds":  {"a", "b"},
		"array":   {"h[:]", "b"},
	} {
		c, ok := copied(name)
		require.True(t, ok, name)
		assert.Equal(t, want, spell(c.Parts), name)
		assert.False(t, c.Spread, name)
		assert.Equal(t, "make([]byte, "+types.ExprString(c.Make.Args[1])+")", types.ExprString(c.Make), name)
	}
	c, ok := copied("loop")
	require.True(t, ok)
	assert.Equal(t, []string{"parts"}, spell(c.Parts))
	assert.True(t, c.Spread)
	assert.Len(t, c.Stmts, 4, "the size's statements go with the copies")
	c, ok = copied("sizeKept")
	require.True(t, ok)
	assert.Len(t, c.Stmts, 2, "the size is used after: its statements stay")
	for _, name := range []string{"gap", "overlap", "reread", "runsCode", "offsetKept", "onePart"} {
		_, ok := copied(name)
		assert.False(t, ok, name)
	}
}

// TestLengthOf checks lengths computed as sums of len(x) and constants.
func TestLengthOf(t *testing.T) {
	f := loadSource(t, copiesSrc)
	decl := f.decl(t, f.obj("offsets").(*types.Func))
	mk := decl.Node().(*ast.FuncDecl).Body.List[0].(*ast.AssignStmt).Rhs[0].(*ast.CallExpr)
	l, ok := f.x.LengthOf(mk.Args[1], nil)
	require.True(t, ok)
	assert.Equal(t, map[string]int{"a": 1, "b": 1, "c": 1}, l.Terms)
	assert.Zero(t, l.Const)
	assert.True(t, l.Equal(Length{Terms: map[string]int{"c": 1}}.Plus(Length{Terms: map[string]int{"a": 1, "b": 1}})))
	assert.False(t, l.Equal(l.Plus(Length{Const: 1})))
	decl = f.decl(t, f.obj("array").(*types.Func))
	mk = decl.Node().(*ast.FuncDecl).Body.List[0].(*ast.AssignStmt).Rhs[0].(*ast.CallExpr)
	l, ok = f.x.LengthOf(mk.Args[1], nil)
	require.True(t, ok)
	assert.True(t, l.Equal(Length{Terms: map[string]int{"b": 1}, Const: 32}))
	call := decl.Node().(*ast.FuncDecl).Body.List[1].(*ast.ExprStmt).X.(*ast.CallExpr)
	require.NotNil(t, WholeArray(f.info, call.Args[1]), "h[:]")
	assert.Equal(t, int64(32), WholeArray(f.info, call.Args[1]).Len())
	assert.Nil(t, WholeArray(f.info, call.Args[0]), "data")
	decl = f.decl(t, f.obj("runsCode").(*types.Func))
	mk = decl.Node().(*ast.FuncDecl).Body.List[0].(*ast.AssignStmt).Rhs[0].(*ast.CallExpr)
	_, ok = f.x.LengthOf(mk.Args[1], nil)
	assert.False(t, ok, "len(f()) runs code")
}

// TestRangeElem checks the element variable of a range loop: none when the
// loop keeps its key or has no value.
func TestRangeElem(t *testing.T) {
	f := loadSource(t, `package p

func loops(xs [][]byte) {
	for _, x := range xs {
		_ = x
	}
	for i, x := range xs {
		_, _ = i, x
	}
	for i := range xs {
		_ = i
	}
}
`)
	decl := f.decl(t, f.obj("loops").(*types.Func))
	var got []string
	for cur := range decl.Preorder((*ast.RangeStmt)(nil)) {
		v := RangeElem(f.info, cur.Node().(*ast.RangeStmt))
		if v == nil {
			got = append(got, "-")
		} else {
			got = append(got, v.Name())
		}
	}
	assert.Equal(t, []string{"x", "-", "-"}, got)
}

// TestMentions checks whether code mentions a variable: its uses, not
// another variable of the same name.
func TestMentions(t *testing.T) {
	f := loadSource(t, copiesSrc)
	decl := f.decl(t, f.obj("offsetKept").(*types.Func))
	body := decl.Node().(*ast.FuncDecl).Body
	n := f.info.Defs[body.List[1].(*ast.AssignStmt).Lhs[0].(*ast.Ident)].(*types.Var)
	assert.True(t, Mentions(f.info, body.List[2], n), "copy(data[n:], b)")
	assert.True(t, Mentions(f.info, body.List[3], n), "return sum(data) + n")
	assert.False(t, Mentions(f.info, body.List[0], n), "data := make(...)")
	other := f.decl(t, f.obj("offsets").(*types.Func)).Node().(*ast.FuncDecl).Body
	assert.False(t, Mentions(f.info, other, n), "another function's n")
}

// TestBuiltinLen checks calls of builtins and len(v): a function that
// shadows a builtin's name, another variable or a parenthesized argument.
func TestBuiltinLen(t *testing.T) {
	f := loadSource(t, `package p

import "unsafe"

func lens(b, c []byte, s *byte) {
	_ = len(b)
	_ = len(c)
	_ = len((b))
	_ = unsafe.String(s, 1)
	_ = cap(b)
	_ = b
}

func shadow(b []byte) {
	len := func([]byte) int { return 0 }
	_ = len(b)
}
`)
	lens := f.decl(t, f.obj("lens").(*types.Func)).Node().(*ast.FuncDecl)
	body := lens.Body
	rhs := func(body *ast.BlockStmt, i int) ast.Expr { return body.List[i].(*ast.AssignStmt).Rhs[0] }
	b := f.info.Defs[lens.Type.Params.List[0].Names[0]].(*types.Var)
	assert.True(t, LenOf(f.info, rhs(body, 0), b), "len(b)")
	assert.False(t, LenOf(f.info, rhs(body, 1), b), "len(c)")
	assert.True(t, LenOf(f.info, rhs(body, 2), b), "len((b))")
	assert.False(t, LenOf(f.info, rhs(body, 4), b), "cap(b)")
	assert.Equal(t, "String", Builtin(f.info, rhs(body, 3).(*ast.CallExpr)), "unsafe.String")
	assert.Equal(t, "cap", Builtin(f.info, rhs(body, 4).(*ast.CallExpr)))
	assert.True(t, IsIdentOf(f.info, rhs(body, 5), b), "b")
	assert.False(t, IsIdentOf(f.info, rhs(body, 0), b), "len(b) is no identifier")
	sh := f.decl(t, f.obj("shadow").(*types.Func)).Node().(*ast.FuncDecl)
	call := rhs(sh.Body, 1).(*ast.CallExpr)
	assert.Empty(t, Builtin(f.info, call), "a local func named len")
	assert.False(t, LenOf(f.info, call, f.info.Defs[sh.Type.Params.List[0].Names[0]].(*types.Var)), "a local func named len")
}
