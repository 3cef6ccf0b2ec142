package values

import (
	"fmt"
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/ast/inspector"
)

const joinsSrc = `package p

func use(int) {}

func chosen(n int) int {
	var h int
	switch n {
	case 1:
		h = 10
		use(h) // in its own case: the other case's value is not read
	case 2:
		h = 20
	}
	return h
}

func replaced(c bool) int {
	h := 1
	if c {
		h = 2
	}
	return h
}

func chain(a, b bool) int {
	var h int
	if a {
		h = 1
	} else if b {
		h = 2
	} else {
		h = 3
	}
	return h
}

func sequence() int {
	h := 1
	use(h) // the first value, read before the second is made
	h = 2
	return h
}

func nested(a, b bool) int {
	var h int
	if a {
		if b {
			h = 1
		}
		use(h) // in a's branch, which the other assignment is not in
	} else {
		h = 2
	}
	return h
}
`

// assignsIn returns the identifiers that assign h in the function named
// fn, in source order, with the function and h.
func (f *fixture) assignsIn(t *testing.T, fn string) (inspector.Cursor, *types.Var, []inspector.Cursor) {
	t.Helper()
	decl := f.decl(t, f.obj(fn).(*types.Func))
	var v *types.Var
	var at []inspector.Cursor
	for cur := range decl.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if id.Name != "h" {
			continue
		}
		if obj, ok := f.info.Defs[id].(*types.Var); ok {
			v = obj
		}
		if _, ok := DefinedWith(cur); ok || IsWritten(cur) {
			at = append(at, cur)
		}
	}
	require.NotNil(t, v, fn)
	return decl, v, at
}

// TestJoined checks which assignments of a variable give it one value
// chosen where branches join, and the statement that chooses.
func TestJoined(t *testing.T) {
	f := loadSource(t, joinsSrc)
	for _, tc := range []struct {
		fn     string
		joined bool
		join   string // the statement that chooses, by its kind
	}{
		{"chosen", true, "*ast.SwitchStmt"},
		{"replaced", true, "*ast.IfStmt"},
		{"chain", true, "*ast.IfStmt"},
		{"sequence", false, ""},
		{"nested", true, "*ast.IfStmt"},
	} {
		fn, v, at := f.assignsIn(t, tc.fn)
		if tc.fn == "replaced" {
			require.Len(t, at, 2, "h := 1 and h = 2")
		}
		assert.Equal(t, tc.joined, f.x.Joined(fn, v, at), tc.fn)
		assert.False(t, f.x.Joined(fn, v, at[:1]), "%s: one assignment is no choice", tc.fn)
		if tc.join == "" {
			continue
		}
		join, ok := Join(at)
		require.True(t, ok, tc.fn)
		assert.Equal(t, tc.join, fmt.Sprintf("%T", join.Node()), tc.fn)
		if tc.fn == "chain" {
			assert.Same(t, f.outermostIf(fn), join.Node(), "the if whose branches hold all three")
		}
	}
}

func (f *fixture) outermostIf(fn inspector.Cursor) ast.Node {
	for cur := range fn.Preorder((*ast.IfStmt)(nil)) {
		return cur.Node()
	}
	return nil
}

// TestChoices checks the groups of expressions that are one value: the
// constructors of one variable, of one kind, chosen in branches; not those
// of two variables, of two kinds, or of one variable one after the other.
func TestChoices(t *testing.T) {
	f := loadSource(t, `package p

func n(int) int { return 0 }

func g(c bool) (int, int) {
	a := n(1)
	if c {
		a = n(2)
	}
	b := n(3)
	if c {
		b = n(4)
	}
	d := n(5)
	_ = d
	d = n(6)
	return a + b, d
}
`)
	var exprs []ast.Expr
	for cur := range f.in.Root().Preorder((*ast.CallExpr)(nil)) {
		if call := cur.Node().(*ast.CallExpr); len(call.Args) == 1 {
			if _, ok := call.Args[0].(*ast.BasicLit); ok {
				exprs = append(exprs, call)
			}
		}
	}
	require.Len(t, exprs, 6)
	kind := func(i int) string { return "k" }
	choices := f.x.Choices(f.in.Root(), exprs, kind)
	require.Len(t, choices, 2, "a and b; d holds two values one after the other")
	assert.Equal(t, "a", choices[0].Var.Name())
	assert.Equal(t, []int{0, 1}, choices[0].At)
	assert.Equal(t, "b", choices[1].Var.Name())
	assert.Equal(t, []int{2, 3}, choices[1].At)
	assert.IsType(t, &ast.IfStmt{}, choices[0].Join.Node())
	// Of two kinds: no group of two.
	assert.Empty(t, f.x.Choices(f.in.Root(), exprs, func(i int) string { return fmt.Sprint(i % 2) }))
}
