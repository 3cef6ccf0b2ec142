package values

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestJoins checks what calls concatenate: appends of slices, flattened,
// with their bases; slices.Concat of byte slices; bytes.Join of a literal
// list with an empty separator; and the calls that concatenate nothing the
// parts say.
func TestJoins(t *testing.T) {
	f := loadSource(t, `package p

import (
	"bytes"
	"slices"
)

var a, b, c []byte
var list [][]byte
var sep = []byte(",")

var (
	nested  = append(append(a, b...), c...)
	right   = append(a, append(b, c...)...)
	concat  = slices.Concat(a, b, c)
	joined  = bytes.Join([][]byte{a, b}, nil)
	joinedS = bytes.Join([][]byte{a, b}, []byte(""))

	single   = append(a, 1)
	spread   = slices.Concat(list...)
	oneConc  = slices.Concat(a)
	words    = slices.Concat([]string{"x"}, []string{"y"})
	withSep  = bytes.Join([][]byte{a, b}, sep)
	builtOut = bytes.Join(list, nil)
	onePart  = bytes.Join([][]byte{a}, nil)
)
`)
	spell := func(es []ast.Expr) []string {
		var out []string
		for _, e := range es {
			out = append(out, types.ExprString(e))
		}
		return out
	}
	joins := func(name string) (Joined, bool) {
		call := f.x.Value(f.in, f.obj(name).(*types.Var)).(*ast.CallExpr)
		return Joins(f.info, call)
	}
	for _, tc := range []struct {
		name         string
		parts, bases []string
		join         bool
	}{
		{"nested", []string{"a", "b", "c"}, []string{"append(a, b...)", "a"}, false},
		{"right", []string{"a", "b", "c"}, []string{"a", "b"}, false},
		{"concat", []string{"a", "b", "c"}, nil, false},
		{"joined", []string{"a", "b"}, nil, true},
		{"joinedS", []string{"a", "b"}, nil, true},
	} {
		j, ok := joins(tc.name)
		if assert.True(t, ok, tc.name) {
			assert.Equal(t, tc.parts, spell(j.Parts), tc.name)
			assert.Equal(t, tc.bases, spell(j.Bases), tc.name)
			assert.Equal(t, tc.join, j.Join, tc.name)
		}
	}
	for _, name := range []string{"single", "spread", "oneConc", "words", "withSep", "builtOut", "onePart"} {
		_, ok := joins(name)
		assert.False(t, ok, name)
	}
}
