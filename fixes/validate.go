package fixes

import (
	"fmt"
	"go/parser"
	"go/token"
	"sort"

	"golang.org/x/tools/go/analysis"
)

// Check reports why fix cannot be offered, or nil when it can: every edit
// lies inside the file, no two edits overlap, and the fixed file parses. A
// driver panics or drops the diagnostic's fix on overlapping edits; a fix that
// does not parse would break the user's build. (The drivers format what they
// fix, as gofmt does.)
func (f *File) Check(fix analysis.SuggestedFix) error {
	tf := f.Fset.File(f.AST.FileStart)
	edits := append([]analysis.TextEdit(nil), fix.TextEdits...)
	for _, e := range edits {
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		if f.Fset.File(e.Pos) != tf || e.Pos < f.AST.FileStart || end > f.AST.FileEnd || end < e.Pos {
			return fmt.Errorf("an edit falls outside %s", tf.Name())
		}
	}
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].Pos != edits[j].Pos {
			return edits[i].Pos < edits[j].Pos
		}
		return edits[i].End < edits[j].End
	})
	out := make([]byte, 0, len(f.Src)+256)
	last := 0
	for i, e := range edits {
		start, end := f.offset(e.Pos), f.offset(e.Pos)
		if e.End.IsValid() {
			end = f.offset(e.End)
		}
		if start < last {
			return fmt.Errorf("edits %d and %d overlap at %s", i, i+1, f.Fset.Position(e.Pos))
		}
		out = append(out, f.Src[last:start]...)
		out = append(out, e.NewText...)
		last = end
	}
	out = append(out, f.Src[last:]...)
	if _, err := parser.ParseFile(token.NewFileSet(), tf.Name(), out, parser.ParseComments|parser.SkipObjectResolution); err != nil {
		return fmt.Errorf("the fixed file would not parse: %v", err)
	}
	return nil
}
