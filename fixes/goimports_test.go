package fixes

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/imports"
)

// importBlock returns the text of src's import declarations, from the first
// one's doc comment to the end of the last one, or false when src does not
// parse.
func importBlock(src []byte) (string, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return "", false
	}
	var first, last *ast.GenDecl
	for _, d := range f.Decls {
		if gen, ok := d.(*ast.GenDecl); ok && gen.Tok == token.IMPORT {
			if first == nil {
				first = gen
			}
			last = gen
		}
	}
	if first == nil {
		return "", true
	}
	start := first.Pos()
	if first.Doc != nil {
		start = first.Doc.Pos()
	}
	tf := fset.File(f.FileStart)
	return string(src[tf.Offset(start):tf.Offset(last.End())]), true
}

// goimportsBlock returns src's import declarations as goimports lays them
// out (one declaration; the standard library's group first, then the
// others; each group sorted, an import once), and src's own.
func goimportsBlock(t *testing.T, name string, src []byte) (want, got string) {
	t.Helper()
	out, err := imports.Process(name, src, &imports.Options{FormatOnly: true, Comments: true, TabIndent: true, TabWidth: 8})
	require.NoError(t, err, "%s", src)
	want, ok := importBlock(out)
	require.True(t, ok)
	got, ok = importBlock(src)
	require.True(t, ok, "%s does not parse", name)
	return blankBeforeComment.ReplaceAllString(want, "\n$1"), blankBeforeComment.ReplaceAllString(got, "\n$1")
}

// blankBeforeComment is a blank line before a comment's line, which
// goimports adds before the doc comment of an import in some groups
// and not in others (x/tools v0.52.0: "a", "b", then "c" with a doc
// comment, but not "a", then "c" with a doc comment, "d"): it is not
// compared.
var blankBeforeComment = regexp.MustCompile(`\n\n(\s*//)`)

// unlikeGoimports are the sources of testdata whose imports are not laid out
// as goimports lays them out, on purpose, with the reason: their goldens keep
// that layout, which a fix does not rearrange.
var unlikeGoimports = map[string]string{
	"concathash/concathash.go": "it imports packages of testdata, whose paths look like the standard library's, in the group of modules",
	"fiximports/decls.go":      "its two import declarations are the layout the fixes are tested on",
}

// TestGoldensGoimports holds every golden file of testdata to gofmt, and its
// import declarations, and those of the code the bench writes as the fixes
// write it, to what goimports makes of them: a fix adds its imports in their
// groups, in order, once.
func TestGoldensGoimports(t *testing.T) {
	root := filepath.Join("..", "testdata", "src")
	var goldens []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".go.golden") {
			goldens = append(goldens, path)
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, goldens)
	for _, golden := range goldens {
		source := strings.TrimSuffix(golden, ".golden")
		rel := filepath.ToSlash(strings.TrimPrefix(source, root+string(filepath.Separator)))
		src, err := os.ReadFile(source)
		require.NoError(t, err)
		want, got := goimportsBlock(t, source, src)
		if reason, ok := unlikeGoimports[rel]; ok {
			assert.NotEqual(t, want, got, "%s is laid out as goimports lays it out: drop it from unlikeGoimports", rel)
			t.Logf("%s: not held to goimports: %s", rel, reason)
			continue
		}
		require.Equal(t, want, got, "%s: its imports are not as goimports lays them out (add it to unlikeGoimports, with the reason)", rel)
		fixed, err := os.ReadFile(golden)
		require.NoError(t, err)
		formatted, err := format.Source(fixed)
		require.NoError(t, err, rel+".golden")
		assert.Equal(t, string(formatted), string(fixed), "%s.golden is not formatted as every driver formats the fixed file", rel)
		want, got = goimportsBlock(t, golden, fixed)
		assert.Equal(t, want, got, "%s.golden: the fixes leave its imports unlike goimports", rel)
	}
	fixedFiles, err := filepath.Glob(filepath.Join("..", "bench", "fixed", "*.go"))
	require.NoError(t, err)
	require.NotEmpty(t, fixedFiles)
	for _, name := range fixedFiles {
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		want, got := goimportsBlock(t, name, src)
		assert.Equal(t, want, got, "%s: its imports are not as goimports lays them out", name)
	}
}

// goimportsLike reports whether src's imports are laid out as goimports lays
// them out.
func goimportsLike(t *testing.T, src []byte) bool {
	want, got := goimportsBlock(t, "p.go", src)
	return want == got
}
