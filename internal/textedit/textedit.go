// Package textedit applies the text edits of suggested fixes to Go source as
// the drivers apply them: the fixes of one file merged (an edit two fixes
// share made once), the imports the result leaves unused removed, and what
// the fixes touched — and only that — formatted as gofmt would, every other
// line left byte for byte.
package textedit

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Edit replaces the bytes [Start, End) of a file with New.
type Edit struct {
	Start, End int
	New        string
}

// FromAnalysis converts the edits of a fix to one file, tf, into byte
// offsets, sorted. It fails when an edit falls outside tf or two overlap.
func FromAnalysis(fset *token.FileSet, tf *token.File, edits []analysis.TextEdit) ([]Edit, error) {
	out := make([]Edit, 0, len(edits))
	for _, e := range edits {
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		if fset.File(e.Pos) != tf || fset.File(end) != tf || end < e.Pos {
			return nil, fmt.Errorf("an edit falls outside %s", tf.Name())
		}
		out = append(out, Edit{tf.Offset(e.Pos), tf.Offset(end), string(e.NewText)})
	}
	return Sort(out)
}

// Sort sorts edits by position, keeping the order of insertions at one
// point, and fails when two overlap.
func Sort(edits []Edit) ([]Edit, error) {
	slices.SortStableFunc(edits, func(a, b Edit) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.End - b.End
	})
	for i := 1; i < len(edits); i++ {
		if edits[i].Start < edits[i-1].End {
			return nil, fmt.Errorf("edits at offsets %d and %d overlap", edits[i-1].Start, edits[i].Start)
		}
	}
	return edits, nil
}

// Merge merges two lists of edits, each sorted and without overlaps, as a
// three-way merge would: identical edits are made once, insertions at the
// same point are both made (x's first), and it reports false when an edit of
// x and one of y change the same bytes differently.
func Merge(x, y []Edit) ([]Edit, bool) {
	x, y = slices.Clone(x), slices.Clone(y)
	var merged []Edit
	for len(x) > 0 && len(y) > 0 {
		ex, ey := &x[0], &y[0]
		switch {
		case *ex == *ey:
			merged = append(merged, *ex)
			x, y = x[1:], y[1:]
		case ex.End <= ey.Start:
			merged = append(merged, *ex)
			x = x[1:]
		case ey.End <= ex.Start:
			merged = append(merged, *ey)
			y = y[1:]
		case ex.Start < ey.Start:
			// x starts first: its deletion up to y's start is x's alone.
			merged = append(merged, Edit{ex.Start, ey.Start, ""})
			ex.Start = ey.Start
		case ey.Start < ex.Start:
			merged = append(merged, Edit{ey.Start, ex.Start, ""})
			ey.Start = ex.Start
		default:
			return nil, false // different changes of the same bytes
		}
	}
	return append(append(merged, x...), y...), true
}

// Apply applies sorted, non-overlapping edits to src.
func Apply(src []byte, edits []Edit) ([]byte, error) {
	var b strings.Builder
	b.Grow(len(src))
	last := 0
	for _, e := range edits {
		if e.Start < last || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("edit [%d, %d) out of order or out of range", e.Start, e.End)
		}
		b.Write(src[last:e.Start])
		b.WriteString(e.New)
		last = e.End
	}
	b.Write(src[last:])
	return []byte(b.String()), nil
}
