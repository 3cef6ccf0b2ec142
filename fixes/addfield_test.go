package fixes

import (
	"go/ast"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAddFieldOneLine checks that a field added to a struct declared on one
// line spreads the struct over lines, one field a line, as gofmt formats
// it; and that a one-line struct with a comment in it, which AddField could
// not keep in place, is told apart.
func TestAddFieldOneLine(t *testing.T) {
	f := parseFile(t, "package p\n\ntype S struct{ name, key string; n int `json:\"n\"` }\n\ntype C struct{ key []byte /* set once */ }\n")
	structs := map[string]*ast.StructType{}
	ast.Inspect(f.AST, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok {
			structs[ts.Name.Name] = ts.Type.(*ast.StructType)
		}
		return true
	})
	s, c := structs["S"], structs["C"]
	assert.True(t, f.OneLine(s))
	assert.False(t, f.OneLineComment(s))
	assert.True(t, f.OneLineComment(c))
	edit := f.AddField(s, "keyMACs hashpool.HMAC")
	assert.Equal(t, "struct {\n\tname, key string\n\tn         int `json:\"n\"`\n\tkeyMACs   hashpool.HMAC\n}", string(edit.NewText))
	assert.Equal(t, s.Pos(), edit.Pos)
	assert.Equal(t, s.End(), edit.End)
}
