package resultcache

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/hashalloc/hashalloc/internal/passes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
)

// mark is a fact of TestUnitRoundTrip.
type mark struct{ Note string }

func (*mark) AFact() {}

func TestUnitRoundTrip(t *testing.T) {
	// A unit entry gives back the package's types, and its facts about
	// the package and the objects an importer can name; a fact about an
	// object no importer reaches is not kept.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "lib.go", `package lib

type T struct{ n int }

func (t *T) Sum() int { return t.n }

func F() int { return helper() }

func helper() int { return 1 }
`, 0)
	require.NoError(t, err)
	pkg, err := (&types.Config{}).Check("example.com/lib", fset, []*ast.File{f}, nil)
	require.NoError(t, err)

	a := &analysis.Analyzer{Name: "marks", Doc: "marks", FactTypes: []analysis.Fact{new(mark)}, Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	other := &analysis.Analyzer{Name: "other", Doc: "other", FactTypes: []analysis.Fact{new(mark)}, Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	set := passes.NewFactSet()
	set.SetPackage(pkg, &mark{"the package"})
	set.SetObject(pkg.Scope().Lookup("F"), &mark{"F"})
	set.SetObject(pkg.Scope().Lookup("helper"), &mark{"helper"})
	tname := pkg.Scope().Lookup("T").(*types.TypeName)
	sum, _, _ := types.LookupFieldOrMethod(tname.Type(), true, pkg, "Sum")
	set.SetObject(sum, &mark{"Sum"})
	data, err := EncodeUnit(fset, pkg, map[*analysis.Analyzer]*passes.FactSet{a: set})
	require.NoError(t, err)
	again, err := EncodeUnit(fset, pkg, map[*analysis.Analyzer]*passes.FactSet{a: set})
	require.NoError(t, err)
	assert.Equal(t, data, again, "the same facts make the same entry")

	u, err := DecodeUnit(data, []*analysis.Analyzer{a})
	require.NoError(t, err)
	read := token.NewFileSet()
	imported := map[string]*types.Package{}
	got, err := u.Types(read, imported, "example.com/lib")
	require.NoError(t, err)
	assert.Equal(t, "lib", got.Name())
	assert.NotNil(t, got.Scope().Lookup("F"))
	assert.Nil(t, got.Scope().Lookup("helper"), "export data holds what importers see")
	assert.Same(t, got, imported["example.com/lib"])

	sets := map[*analysis.Analyzer]*passes.FactSet{a: passes.NewFactSet(), other: passes.NewFactSet()}
	u.AddFacts(got, sets)
	objects, pkgFacts := sets[a].Own(got)
	notes := map[string]string{}
	for _, f := range objects {
		notes[f.Object.Name()] = f.Fact.(*mark).Note
	}
	assert.Equal(t, map[string]string{"F": "F", "Sum": "Sum"}, notes)
	require.Len(t, pkgFacts, 1)
	assert.Equal(t, "the package", pkgFacts[0].(*mark).Note)
	objects, pkgFacts = sets[other].Own(got)
	assert.Empty(t, objects, "facts go to the analyzer that exported them")
	assert.Empty(t, pkgFacts)

	_, err = DecodeUnit([]byte("not an entry"), []*analysis.Analyzer{a})
	assert.Error(t, err)
}
