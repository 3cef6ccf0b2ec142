package fixes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/textedit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
)

// TestPlaceHelpers moves a helper that two fixes of a file declare alike,
// at the end of the file, to just before the function of the first finding
// in source order (the second reported), and one that a fix declares after
// the imports to before its own function; each fix alone, and both merged,
// then declare each helper once and type-check.
func TestPlaceHelpers(t *testing.T) {
	const src = `package p

import "strings"

var out int

// A is the first user.
func A() { _ = 1 }

func B() { _ = 2 }
`
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	f := &File{Fset: fset, AST: af, Src: []byte(src)}
	stmt := func(fn string) ast.Stmt {
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == fn {
				return fd.Body.List[0]
			}
		}
		t.Fatal(fn)
		return nil
	}
	shared := "\n// helper is shared.\nfunc helper() int { return len(strings.Fields(\"a b\")) }\n"
	own := "// twice is B's own.\nfunc twice() int { return 2 * helper() }\n\n"
	fix := func(fn, text string, decls ...analysis.TextEdit) *analysis.SuggestedFix {
		s := stmt(fn)
		return &analysis.SuggestedFix{Message: fn, TextEdits: append([]analysis.TextEdit{{Pos: s.Pos(), End: s.End(), NewText: []byte(text)}}, decls...)}
	}
	end, top := af.FileEnd, f.firstDecl()
	b := fix("B", "out = twice()", analysis.TextEdit{Pos: top, End: top, NewText: []byte(own)}, analysis.TextEdit{Pos: end, End: end, NewText: []byte(shared)})
	a := fix("A", "out = helper()", analysis.TextEdit{Pos: end, End: end, NewText: []byte(shared)})
	PlaceHelpers(fset, []*ast.File{af}, func(*token.File) ([]byte, error) { return []byte(src), nil },
		[]*analysis.SuggestedFix{b, a}, []token.Pos{stmt("B").Pos(), stmt("A").Pos()})

	apply := func(fixes ...*analysis.SuggestedFix) string {
		var lists [][]textedit.Edit
		for _, fix := range fixes {
			l, err := textedit.FromAnalysis(fset, fset.File(af.FileStart), fix.TextEdits)
			require.NoError(t, err)
			lists = append(lists, l)
		}
		out, applied, err := textedit.Compose([]byte(src), lists, nil)
		require.NoError(t, err)
		for _, ok := range applied {
			require.True(t, ok)
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "p.go", out, 0)
		require.NoError(t, err, "%s", out)
		_, err = (&types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
			p := types.NewPackage(path, "strings")
			p.Scope().Insert(types.NewFunc(token.NoPos, p, "Fields", types.NewSignatureType(nil, nil, nil,
				types.NewTuple(types.NewParam(token.NoPos, p, "s", types.Typ[types.String])),
				types.NewTuple(types.NewParam(token.NoPos, p, "", types.NewSlice(types.Typ[types.String]))), false)))
			p.MarkComplete()
			return p, nil
		})}).Check("p", fset, []*ast.File{file}, nil)
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	helperBeforeA := "var out int\n\n// helper is shared.\nfunc helper() int { return len(strings.Fields(\"a b\")) }\n\n// A is the first user."
	twiceBeforeB := "// twice is B's own.\nfunc twice() int { return 2 * helper() }\n\nfunc B()"
	alone := apply(a)
	assert.Contains(t, alone, helperBeforeA)
	assert.Equal(t, 1, strings.Count(alone, "func helper"))
	alone = apply(b)
	assert.Contains(t, alone, helperBeforeA, "B's fix alone declares the helper before A too, where A's fix does")
	assert.Contains(t, alone, twiceBeforeB)
	for _, fixes := range [][]*analysis.SuggestedFix{{a, b}, {b, a}} {
		both := apply(fixes...)
		assert.Contains(t, both, helperBeforeA)
		assert.Contains(t, both, twiceBeforeB)
		assert.Equal(t, 1, strings.Count(both, "func helper"), "%s", both)
	}
}

// TestFileWord checks the words that name a file's own copy of a helper.
func TestFileWord(t *testing.T) {
	for path, want := range map[string]string{
		"a/signer.go":     "Signer",
		"signer_v4.go":    "SignerV4",
		"url.go":          "URL",
		"presign_url.go":  "PresignURL",
		"hmac-sha256.go":  "HMACSHA256",
		"_underscore.go":  "Underscore",
		"2fa.go":          "",
		"zone_windows.go": "ZoneWindows",
	} {
		assert.Equal(t, want, fileWord(path), path)
	}
}
