package driver

import (
	"fmt"
	"slices"
	"strings"
)

// edit replaces the bytes [start, end) of a file with text.
type edit struct {
	start, end int
	text       string
}

// mergeEdits merges two lists of edits, each sorted and without overlaps, as
// a three-way merge would: identical edits are made once, insertions at the
// same point are both made (x's first), and it reports false when an edit of
// x and one of y change the same bytes differently.
func mergeEdits(x, y []edit) ([]edit, bool) {
	x, y = slices.Clone(x), slices.Clone(y)
	var merged []edit
	for len(x) > 0 && len(y) > 0 {
		ex, ey := &x[0], &y[0]
		switch {
		case *ex == *ey:
			merged = append(merged, *ex)
			x, y = x[1:], y[1:]
		case ex.end <= ey.start:
			merged = append(merged, *ex)
			x = x[1:]
		case ey.end <= ex.start:
			merged = append(merged, *ey)
			y = y[1:]
		case ex.start < ey.start:
			// x starts first: its deletion up to y's start is x's alone.
			merged = append(merged, edit{ex.start, ey.start, ""})
			ex.start = ey.start
		case ey.start < ex.start:
			merged = append(merged, edit{ey.start, ex.start, ""})
			ey.start = ex.start
		default:
			return nil, false // different changes of the same bytes
		}
	}
	return append(append(merged, x...), y...), true
}

// applyEdits applies sorted, non-overlapping edits to src.
func applyEdits(src []byte, edits []edit) ([]byte, error) {
	var b strings.Builder
	last := 0
	for _, e := range edits {
		if e.start < last || e.end < e.start || e.end > len(src) {
			return nil, fmt.Errorf("edit [%d, %d) out of order or out of range", e.start, e.end)
		}
		b.Write(src[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(src[last:])
	return []byte(b.String()), nil
}
