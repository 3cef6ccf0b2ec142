package values

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const buffersSrc = `package p

import "bytes"

func sum(b []byte) int { return len(b) }

func made(a, b []byte) int {
	buf := bytes.NewBuffer(make([]byte, 0, len(a)+len(b)))
	buf.Write(a)
	n := 1
	_, _ = buf.Write(b)
	buf.WriteByte(0)
	return sum(buf.Bytes()) + n
}

func declared(a []byte, s string) int {
	var buf bytes.Buffer
	buf.Write(a)
	buf.WriteString(s)
	return sum(buf.Bytes())
}

func allocated(a, b []byte) int {
	buf := new(bytes.Buffer)
	buf.Write(a)
	buf.Write(b)
	return sum(buf.Bytes())
}

func filled(a, b []byte) int {
	buf := bytes.NewBuffer(a)
	buf.Write(b)
	buf.Write(a)
	return sum(buf.Bytes())
}

func onePart(a []byte) int {
	buf := &bytes.Buffer{}
	buf.Write(a)
	return sum(buf.Bytes())
}

func countKept(a, b []byte) int {
	buf := new(bytes.Buffer)
	buf.Write(a)
	n, _ := buf.Write(b)
	return sum(buf.Bytes()) + n
}

func readTwice(a, b []byte) int {
	buf := new(bytes.Buffer)
	buf.Write(a)
	buf.Write(b)
	return sum(buf.Bytes()) + buf.Len()
}
`

// TestBufferWrites checks the parts written into an empty bytes.Buffer
// declared first in each function and read by its last statement: found
// when the buffer serves the writes and the read only.
func TestBufferWrites(t *testing.T) {
	f := loadSource(t, buffersSrc)
	written := func(name string) (Written, bool) {
		decl := f.decl(t, f.obj(name).(*types.Func))
		list := decl.Node().(*ast.FuncDecl).Body.List
		var v *types.Var
		for id, obj := range f.info.Defs {
			if id.Name == "buf" && decl.Node().Pos() <= id.Pos() && id.Pos() < decl.Node().End() {
				v = obj.(*types.Var)
			}
		}
		require.NotNil(t, v, name)
		return f.x.BufferWrites(decl, v, list, 0, len(list)-1)
	}
	spell := func(es []ast.Expr) []string {
		var out []string
		for _, e := range es {
			out = append(out, types.ExprString(e))
		}
		return out
	}
	w, ok := written("made")
	require.True(t, ok)
	assert.Equal(t, []string{"a", "b", "0"}, spell(w.Parts))
	assert.Len(t, w.Writes, 3)
	assert.Len(t, w.Others, 1, "n := 1")
	assert.Equal(t, "bytes.NewBuffer(make([]byte, 0, len(a) + len(b)))", types.ExprString(w.Made))
	w, ok = written("declared")
	require.True(t, ok)
	assert.Equal(t, []string{"a", "s"}, spell(w.Parts))
	assert.Equal(t, "buf", types.ExprString(w.Made))
	w, ok = written("allocated")
	require.True(t, ok)
	assert.Equal(t, "new(bytes.Buffer)", types.ExprString(w.Made))
	for _, name := range []string{"filled", "onePart", "countKept", "readTwice"} {
		_, ok := written(name)
		assert.False(t, ok, name)
	}
}

// TestEmptyMake checks the makes of empty byte slices.
func TestEmptyMake(t *testing.T) {
	f := loadSource(t, `package p

var (
	a = make([]byte, 0)
	b = make([]byte, 0, 8)
	c = make([]byte, 8)
	d = append([]byte{}, 1)
)
`)
	for name, want := range map[string]bool{"a": true, "b": true, "c": false, "d": false} {
		v := f.obj(name).(*types.Var)
		assert.Equal(t, want, EmptyMake(f.info, f.x.Value(f.in, v)), name)
	}
}
