package fixes

import (
	"go/ast"
	"go/format"
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

// TestPlaceHelpersOrder places helpers that different fixes declare before
// one declaration at offsets of their own, in the order of the fixes: every
// order of merging the fixes (each driver has its own) writes them alike,
// and each fix alone, or any of them together, leaves the file as gofmt
// writes it. Two helpers that the same fix declares go as one text.
func TestPlaceHelpersOrder(t *testing.T) {
	for _, sep := range []string{"\n\n", "\n"} {
		src := "package p\n\nvar out int" + sep + "var run = func() {\n\t_ = 1\n\t_ = 2\n\t_ = 3\n}\n"
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
		require.NoError(t, err)
		body := af.Decls[1].(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values[0].(*ast.FuncLit).Body.List
		end := af.FileEnd
		fix := func(i int, helpers ...string) *analysis.SuggestedFix {
			edits := []analysis.TextEdit{{Pos: body[i].Pos(), End: body[i].End(), NewText: []byte("out = 0")}}
			for _, h := range helpers {
				edits = append(edits, analysis.TextEdit{Pos: end, End: end, NewText: []byte("\n// " + h + " is a helper.\nvar " + h + " = 1\n")})
			}
			return &analysis.SuggestedFix{Message: helpers[0], TextEdits: edits}
		}
		a, b, c := fix(0, "ha"), fix(1, "hb"), fix(2, "hc", "hd")
		fixes := []*analysis.SuggestedFix{a, b, c}
		if sep == "\n" {
			// A declaration right after another has two offsets before
			// it: the end of the previous line, and its own start.
			fixes = fixes[:2]
		}
		PlaceHelpers(fset, []*ast.File{af}, func(*token.File) ([]byte, error) { return []byte(src), nil },
			fixes, []token.Pos{body[0].Pos(), body[1].Pos(), body[2].Pos()}[:len(fixes)])

		apply := func(fixes ...*analysis.SuggestedFix) string {
			var merged []textedit.Edit
			for _, fix := range fixes {
				l, err := textedit.FromAnalysis(fset, fset.File(af.FileStart), fix.TextEdits)
				require.NoError(t, err)
				var ok bool
				merged, ok = textedit.Merge(merged, l)
				require.True(t, ok)
			}
			out, err := textedit.Apply([]byte(src), merged)
			require.NoError(t, err)
			formatted, err := format.Source(out)
			require.NoError(t, err)
			// b alone, after a declaration without a blank line, takes the
			// declaration's own start, as every helper did before, and
			// the driver formats it.
			if !(sep == "\n" && len(fixes) == 1 && fixes[0] == b) {
				assert.Equal(t, string(formatted), string(out), "as gofmt writes it")
			}
			return string(out)
		}
		for _, alone := range fixes {
			apply(alone)
		}
		assert.Contains(t, apply(a), "var out int\n\n// ha is a helper.\nvar ha = 1\n\nvar run")
		if sep == "\n" {
			want := "var out int\n\n// ha is a helper.\nvar ha = 1\n\n// hb is a helper.\nvar hb = 1\n\nvar run"
			assert.Contains(t, apply(a, b), want)
			assert.Contains(t, apply(b, a), want)
			continue
		}
		want := "var out int\n\n// ha is a helper.\nvar ha = 1\n\n// hb is a helper.\nvar hb = 1\n\n// hc is a helper.\nvar hc = 1\n\n// hd is a helper.\nvar hd = 1\n\nvar run"
		for _, order := range [][]*analysis.SuggestedFix{{a, b, c}, {a, c, b}, {b, a, c}, {b, c, a}, {c, a, b}, {c, b, a}} {
			assert.Contains(t, apply(order...), want)
		}
		assert.Contains(t, apply(c, a), "var ha = 1\n\n// hc is a helper.")
		assert.Contains(t, apply(b, c), "var out int\n\n// hb is a helper.\nvar hb = 1\n\n// hc is a helper.")
	}
}
