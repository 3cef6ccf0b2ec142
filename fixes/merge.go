package fixes

import (
	"errors"
	"go/token"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashalloc/hashalloc/internal/textedit"
	"golang.org/x/tools/go/analysis"
)

// ErrConflict is the error of Merge when two fixes change the same code
// differently.
var ErrConflict = errors.New("its edits and those of another fix change the same code differently")

// Merge returns one fix that makes the edits of all of fs, which edit the
// file tf: an edit that several make is made once, insertions at one point
// are made in the order of fs, as a three-way merge makes them (see
// textedit.Merge). Its message is theirs, each said once, in order. It
// fails with the index of the fix whose edits fall outside tf or conflict
// with those of the fixes before it.
func Merge(fset *token.FileSet, tf *token.File, fs []*analysis.SuggestedFix) (*analysis.SuggestedFix, int, error) {
	var edits []textedit.Edit
	var messages []string
	for i, f := range fs {
		these, err := textedit.FromAnalysis(fset, tf, f.TextEdits)
		if err != nil {
			return nil, i, err
		}
		ok := true
		if edits, ok = textedit.Merge(edits, these); !ok {
			return nil, i, ErrConflict
		}
		m := f.Message
		if i > 0 {
			r, size := utf8.DecodeRuneInString(m)
			m = string(unicode.ToLower(r)) + m[size:]
		}
		if !slices.ContainsFunc(messages, func(s string) bool { return strings.EqualFold(s, m) }) {
			messages = append(messages, m)
		}
	}
	fix := &analysis.SuggestedFix{Message: strings.Join(messages, "; ")}
	for _, e := range edits {
		fix.TextEdits = append(fix.TextEdits, analysis.TextEdit{Pos: tf.Pos(e.Start), End: tf.Pos(e.End), NewText: []byte(e.New)})
	}
	return fix, -1, nil
}
