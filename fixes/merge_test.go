package fixes

import (
	"go/token"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/textedit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
)

// TestMerge checks the fix of several: the edits of each, the ones they
// share made once, the messages each said once; and the conflict of two
// fixes that change the same bytes differently.
func TestMerge(t *testing.T) {
	src := "package p\n\nfunc f() {\n\ta := 1\n\tb := 2\n}\n"
	fset := token.NewFileSet()
	tf := fset.AddFile("p.go", -1, len(src))
	tf.SetLinesForContent([]byte(src))
	at := func(s string) token.Pos { return tf.Pos(strings.Index(src, s)) }
	edit := func(from, to, text string) analysis.TextEdit {
		return analysis.TextEdit{Pos: at(from), End: at(from) + token.Pos(len(to)), NewText: []byte(text)}
	}
	imp := analysis.TextEdit{Pos: at("\nfunc"), End: at("\nfunc"), NewText: []byte("\nimport \"x\"\n")}
	one := &analysis.SuggestedFix{Message: "Take a from a pool", TextEdits: []analysis.TextEdit{imp, edit("1", "1", "x.A()")}}
	two := &analysis.SuggestedFix{Message: "Take b from a pool", TextEdits: []analysis.TextEdit{imp, edit("2", "2", "x.B()")}}
	again := &analysis.SuggestedFix{Message: "Take a from a pool", TextEdits: one.TextEdits}

	fix, i, err := Merge(fset, tf, []*analysis.SuggestedFix{one, two, again})
	require.NoError(t, err)
	assert.Equal(t, -1, i)
	assert.Equal(t, "Take a from a pool; take b from a pool", fix.Message)
	edits, err := textedit.FromAnalysis(fset, tf, fix.TextEdits)
	require.NoError(t, err)
	got, err := textedit.Apply([]byte(src), edits)
	require.NoError(t, err)
	assert.Equal(t, "package p\n\nimport \"x\"\n\nfunc f() {\n\ta := x.A()\n\tb := x.B()\n}\n", string(got))

	other := &analysis.SuggestedFix{Message: "Other", TextEdits: []analysis.TextEdit{edit("1", "1", "y.A()")}}
	_, i, err = Merge(fset, tf, []*analysis.SuggestedFix{one, two, other})
	assert.ErrorIs(t, err, ErrConflict)
	assert.Equal(t, 2, i, "the third conflicts with the first")
}
