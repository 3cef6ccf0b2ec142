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
	"crypto/hkdf"
	"crypto/sha256"
	"hash"
	"hash/crc32"
	"slices"
	"strings"
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
	_ = m.Sum(nil)
	prk, _ := hkdf.Extract(sha256.New, key, nil)
	_ = crc32.MakeTable(crc32.IEEE)
	r.Write([]byte(string(a)))
	r.Write(a[:1])               // not a conversion
	_ = sha256.Sum256([]byte("")) // a conversion of a constant: no copy per call
	return prk
}

type Digester interface {
	Hash() hash.Hash
	Size() int
}

func NewDigester() Digester { return nil }

func G(s string, d Digester) {
	_ = sha256.Sum256([]byte(s))
	_ = NewDigester()
	_ = d.Hash()
	key := built(s)
	_ = sha256.Sum256([]byte(key))
	var b strings.Builder
	_ = sha256.Sum256([]byte(b.String()))
	_ = sha256.Sum256([]byte(s[1:] + key)) // not a buffer's contents
	again := b.String()
	again += s
	_ = sha256.Sum256([]byte(again)) // assigned again: not a buffer's contents
	_ = sha256.Sum256([]byte(orEmpty(s))) // one of its returns is not a buffer's contents
	_ = SumSlice([]byte(s))               // its result is not a digest: not a sum function
}

func orEmpty(s string) string {
	if s == "" {
		return ""
	}
	var sb strings.Builder
	return sb.String()
}

func SumSlice(b []byte) []byte { return b }

func built(s string) string {
	var sb strings.Builder
	sb.WriteString(s)
	return sb.String()
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
		"17 constructor sha256.New()",
		"18 concatenation append(a, b...)",
		"19 hmac.New hmac.New(sha256.New, key)",
		"20 concatenation slices.Concat(a, b)",
		"21 constructor registry[1]()",
		"23 concatenation bytes.Join([][]byte{…}, nil)",
		"27 Sum(nil) m.Sum(nil)",
		"28 constructor value hkdf.Extract(sha256.New, key, nil)",
		"29 table crc32.MakeTable(crc32.IEEE)",
		"30 conversion []byte(string(a))",
		"44 conversion []byte(s)",
		"45 constructor value NewDigester()",
		"46 constructor d.Hash()",
		"48 buffer []byte(key)",
		"50 buffer []byte(b.String())",
		"51 conversion []byte(s[1:] + key)",
		"54 conversion []byte(again)",
		"55 conversion []byte(orEmpty(s))",
	}, got)
}
