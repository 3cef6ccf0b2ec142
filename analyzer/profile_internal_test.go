package analyzer

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSymbolName checks that the runtime's spelling of function names in a
// profile is normalized into what symbolOf spells from type information.
func TestSymbolName(t *testing.T) {
	for _, tc := range []struct{ in, name, pkg string }{
		{"example.com/p.F", "example.com/p.F", "example.com/p"},
		{"example.com/p.(*T).M", "example.com/p.(*T).M", "example.com/p"},
		{"example.com/p.T.M", "example.com/p.T.M", "example.com/p"},
		{"example.com/p.F[...]", "example.com/p.F", "example.com/p"},
		{"example.com/p.(*T[...]).M", "example.com/p.(*T).M", "example.com/p"},
		{"example.com/p.F.func1", "example.com/p.F.func1", "example.com/p"},
		{"gopkg.in/yaml%2ev3.(*parser).parse", "gopkg.in/yaml.v3.(*parser).parse", "gopkg.in/yaml.v3"},
		{"main.main", "main.main", "main"},
		{"runtime.mallocgc", "runtime.mallocgc", "runtime"},
	} {
		name, pkg := symbolName(tc.in)
		assert.Equal(t, tc.name, name, tc.in)
		assert.Equal(t, tc.pkg, pkg, tc.in)
	}

	const src = `package p
type T struct{}
func F() {}
func (*T) M() {}
func (T) V() {}
type G[E any] struct{}
func (*G[E]) M() {}
func H[E any]() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("gopkg.in/yaml.v3", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	lookup := func(typ, name string) *types.Func {
		if typ == "" {
			return pkg.Scope().Lookup(name).(*types.Func)
		}
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(pkg.Scope().Lookup(typ).Type()), true, pkg, name)
		return obj.(*types.Func)
	}
	assert.Equal(t, "gopkg.in/yaml.v3.F", symbolOf(lookup("", "F")))
	assert.Equal(t, "gopkg.in/yaml.v3.(*T).M", symbolOf(lookup("T", "M")))
	assert.Equal(t, "gopkg.in/yaml.v3.T.V", symbolOf(lookup("T", "V")))
	assert.Equal(t, "gopkg.in/yaml.v3.(*G).M", symbolOf(lookup("G", "M")))
	assert.Equal(t, "gopkg.in/yaml.v3.H", symbolOf(lookup("", "H")))
}

func TestParseThreshold(t *testing.T) {
	for in, want := range map[string]float64{"0.01": 0.01, "1%": 0.01, "25%": 0.25, "1": 1} {
		got, err := ParseThreshold(in)
		require.NoError(t, err, in)
		assert.InDelta(t, want, got, 1e-12, in)
	}
	for _, in := range []string{"0", "-1", "101%", "x", "NaN", ""} {
		_, err := ParseThreshold(in)
		assert.Error(t, err, in)
	}
}

func TestPercent(t *testing.T) {
	for share, want := range map[float64]string{0: "0%", 0.3125: "31%", 0.025: "2.5%", 0.0004: "0.04%", 1: "100%"} {
		assert.Equal(t, want, Percent(share))
	}
}
