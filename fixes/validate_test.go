package fixes

import (
	"crypto/sha256"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
)

const checkSrc = `package p

import "fmt"

// A is first.
func A() { fmt.Println("a") }

// B is second.
func B() { fmt.Println("b") }

var C = 1
`

// parseFile type-checks src as a one-file package.
func parseFile(t *testing.T, src string) *File {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Scopes: map[ast.Node]*types.Scope{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return &File{Fset: fset, AST: f, Src: []byte(src), Info: info, Pkg: pkg}
}

// at returns the position of the n-th occurrence of s in the file.
func at(f *File, s string, n int) token.Pos {
	off := -1
	for range n + 1 {
		off += 1 + strings.Index(string(f.Src[off+1:]), s)
	}
	return f.Fset.File(f.AST.FileStart).Pos(off)
}

func TestCheck(t *testing.T) {
	f := parseFile(t, checkSrc)
	edit := func(from, to token.Pos, text string) analysis.TextEdit {
		return analysis.TextEdit{Pos: from, End: to, NewText: []byte(text)}
	}
	a, b := at(f, `"a"`, 0), at(f, `"b"`, 0)
	for _, tc := range []struct {
		name  string
		edits []analysis.TextEdit
		want  string // the error's beginning; empty: valid
	}{
		{"one edit", []analysis.TextEdit{edit(a, a+3, `"x"`)}, ""},
		{"edits in two declarations and the imports, out of order", []analysis.TextEdit{
			edit(b, b+3, `"y"`), edit(a, a+3, `"x"`), edit(at(f, `"fmt"`, 0), at(f, `"fmt"`, 0)+5, "(\n\t\"fmt\"\n\t\"os\"\n)"),
		}, ""},
		{"an insertion at the end of the file", []analysis.TextEdit{edit(f.AST.FileEnd, f.AST.FileEnd, "\nvar D = 2\n")}, ""},
		{"an edit across two declarations", []analysis.TextEdit{edit(a, b+3, `"x") }; func B() { fmt.Println("y"`)}, ""},
		{"an import that breaks the header", []analysis.TextEdit{edit(at(f, `"fmt"`, 0), at(f, `"fmt"`, 0), "\"os\"\n\t")}, "the fixed file would not parse"},
		{"overlapping edits", []analysis.TextEdit{edit(a, a+3, `"x"`), edit(a+1, a+2, "y")}, "edits 1 and 2 overlap"},
		{"a fixed file that does not parse", []analysis.TextEdit{edit(a, a+3, `"x`)}, "the fixed file would not parse"},
		{"a broken declaration far from the edit", []analysis.TextEdit{edit(f.AST.FileEnd, f.AST.FileEnd, "\nfunc (")}, "the fixed file would not parse"},
		// Check parses the pieces of a fixed file (its header, each run of
		// declarations a fix touches) once per text: the same import edit
		// again, and pieces that do not parse alone although the whole does.
		{"the same import edit in another fix", []analysis.TextEdit{
			edit(b, b+3, `"z"`), edit(at(f, `"fmt"`, 0), at(f, `"fmt"`, 0)+5, "(\n\t\"fmt\"\n\t\"os\"\n)"),
		}, ""},
		{"a comment that opens in one declaration and closes in another", []analysis.TextEdit{
			edit(a+6, a+6, " /*"), edit(at(f, "var C", 0), at(f, "var C", 0), "*/ "),
		}, ""},
		{"an edit outside the file", []analysis.TextEdit{edit(f.AST.FileEnd+5, f.AST.FileEnd+5, "x")}, "an edit falls outside"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := f.Check(analysis.SuggestedFix{TextEdits: tc.edits})
			if tc.want == "" {
				require.NoError(t, err)
			} else {
				require.ErrorContains(t, err, tc.want)
			}
		})
	}
}

// TestCheckParsesOnce checks that Check remembers the fixed texts that
// parsed, and only those: checking the same fix again, as a language server
// does on every save, parses nothing, and a fix that does not parse still
// fails the second time.
func TestCheckParsesOnce(t *testing.T) {
	f := parseFile(t, checkSrc)
	a := at(f, `"a"`, 0)
	good := analysis.SuggestedFix{TextEdits: []analysis.TextEdit{{Pos: a, End: a + 3, NewText: []byte(`"remembered"`)}}}
	bad := analysis.SuggestedFix{TextEdits: []analysis.TextEdit{{Pos: a, End: a + 3, NewText: []byte(`"broken`)}}}
	before := len(parsedBefore.seen)
	require.NoError(t, f.Check(good))
	require.Len(t, parsedBefore.seen, before+1)
	require.NoError(t, f.Check(good))
	require.Len(t, parsedBefore.seen, before+1, "the same text is remembered once")
	for range 2 {
		require.ErrorContains(t, f.Check(bad), "the fixed file would not parse")
	}
	require.Len(t, parsedBefore.seen, before+1, "a text that does not parse is not remembered")

	set := &parsedTexts{seen: map[[sha256.Size]byte]bool{}}
	for i := range maxParsedTexts + 1 {
		set.add(sha256.Sum256([]byte(strconv.Itoa(i))))
	}
	require.Len(t, set.seen, 1, "a full set starts again from none")
	require.True(t, set.has(sha256.Sum256([]byte(strconv.Itoa(maxParsedTexts)))))
}
