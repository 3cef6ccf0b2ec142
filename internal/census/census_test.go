package census

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSites checks the census on one file: every kind of site, and what is
// not one.
func TestSites(t *testing.T) {
	const src = `package p

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"hash"
	"slices"
)

var registry = map[int]func() hash.Hash{1: sha256.New}

func F(a, b []byte, key []byte) []byte {
	h := sha256.New()
	h.Write(append(a, b...))
	m := hmac.New(sha256.New, key)
	m.Write(slices.Concat(a, b))
	r := registry[1]()
	r.Write(a)
	_ = sha256.Sum256(bytes.Join([][]byte{a, b}, nil))
	_ = append(a, b...) // not hashed
	_ = h.Sum(a)        // not Sum(nil)
	_ = []byte("x")     // a conversion
	return m.Sum(nil)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	_, err = (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	var got []string
	for _, s := range Sites(fset, []*ast.File{f}, info) {
		got = append(got, fmt.Sprintf("%d %s %s", fset.Position(s.Pos).Line, s.Kind, s.Text))
	}
	assert.Equal(t, []string{
		"14 constructor sha256.New()",
		"15 concatenation append(a, b...)",
		"16 hmac.New hmac.New(sha256.New, key)",
		"17 concatenation slices.Concat(a, b)",
		"18 constructor registry[1]()",
		"20 concatenation bytes.Join([][]byte{…}, nil)",
		"24 Sum(nil) m.Sum(nil)",
	}, got)
}
