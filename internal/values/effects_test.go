package values

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

const effectsSrc = `package p

import (
	"bytes"
	"crypto/sha256"
	"hash"
)

type T struct {
	a   [4]byte
	b   []byte
	s   string
	ptr *T
}

const c = "k"

func f() []byte { return nil }

func exprs(t T, p *T, v [4]byte, b []byte, s string, h hash.Hash) {
	_ = c
	_ = t.a
	_ = t.s
	_ = []byte(t.s)
	_ = string(b)
	_ = v[:]
	_ = t.a[:]
	_ = p.a
	_ = b[1:]
	_ = b[0]
	_ = [4]byte(b)
	_ = []byte(f())
	_ = f()
}

func calls(b []byte, h hash.Hash) {
	_ = len(b) + copy(b, b)
	_ = string(b)
	_ = bytes.Equal(b, b)
	_ = h.Size()
	_ = sha256.Sum256(b)
	_ = bytes.Equal(f(), b)
}
`

// TestCannotPanic checks expressions whose evaluation runs no code and
// cannot panic, and those that may: a pointer, an index, a slice with
// bounds, a conversion to an array, a call.
func TestCannotPanic(t *testing.T) {
	f := loadSource(t, effectsSrc)
	body := f.decl(t, f.obj("exprs").(*types.Func)).Node().(*ast.FuncDecl).Body
	var got []bool
	for _, s := range body.List {
		got = append(got, CannotPanic(f.info, s.(*ast.AssignStmt).Rhs[0]))
	}
	assert.Equal(t, []bool{
		true, true, true, true, true, true, true, // c, t.a, t.s, []byte(t.s), string(b), v[:], t.a[:]
		false, false, false, false, false, false, // p.a, b[1:], b[0], [4]byte(b), []byte(f()), f()
	}, got)
}

// TestConversionOf checks conversions T(x), plain or not, and calls that
// are not conversions.
func TestConversionOf(t *testing.T) {
	f := loadSource(t, effectsSrc)
	body := f.decl(t, f.obj("exprs").(*types.Func)).Node().(*ast.FuncDecl).Body
	rhs := func(i int) ast.Expr { return body.List[i].(*ast.AssignStmt).Rhs[0] }
	x, ok := ConversionOf(f.info, rhs(3))
	assert.True(t, ok)
	assert.Equal(t, "t.s", types.ExprString(x))
	assert.True(t, PlainConversion(f.info, rhs(3)), "[]byte(t.s)")
	_, ok = ConversionOf(f.info, rhs(11))
	assert.True(t, ok, "[]byte(f())")
	assert.False(t, PlainConversion(f.info, rhs(11)), "[]byte(f())")
	_, ok = ConversionOf(f.info, rhs(12))
	assert.False(t, ok, "f()")
}

// TestSomeCall checks the calls that may run code of their own: not
// builtins, conversions, functions of CheapStd packages or a hasher's Size.
func TestSomeCall(t *testing.T) {
	f := loadSource(t, effectsSrc)
	body := f.decl(t, f.obj("calls").(*types.Func)).Node().(*ast.FuncDecl).Body
	var got []string
	for _, s := range body.List {
		if call := SomeCall(f.info, s); call != nil {
			got = append(got, types.ExprString(call))
		} else {
			got = append(got, "-")
		}
	}
	assert.Equal(t, []string{"-", "-", "-", "-", "sha256.Sum256(b)", "f()"}, got)
	assert.True(t, CheapStd("bytes"))
	assert.False(t, CheapStd("crypto/sha256"))
}
