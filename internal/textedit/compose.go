package textedit

import (
	"go/types"
	"strings"
)

// Compose applies the fixes of one file to its content src, as every driver
// of hashalloc's own does (hashalloc -fix, the language server's fix-all):
// lists holds the edits of each fix, sorted, in the order of the findings.
// The fixes are merged (an edit two fixes make is made once), a fix that
// conflicts with those before it is left out (MergeAll), and the result is
// finished (Finish: the imports it leaves unused removed, what it changed
// formatted). It returns the fixed content and which fixes it applied; it
// fails when the fixed content does not parse.
func Compose(src []byte, lists [][]Edit, pkg *types.Package) ([]byte, []bool, error) {
	applied := make([]bool, len(lists))
	for i := range applied {
		applied[i] = true
	}
	for {
		var take [][]Edit
		var index []int
		for i, l := range lists {
			if applied[i] {
				take = append(take, l)
				index = append(index, i)
			}
		}
		merged, bad := MergeAll(take)
		if bad >= 0 {
			applied[index[bad]] = false
			continue
		}
		out, err := Finish(src, merged, pkg)
		if err != nil {
			return nil, nil, err
		}
		return out, applied, nil
	}
}

// LineEdits returns edits that turn old into new, each of whole lines: the
// lines that differ, as a line diff finds them.
func LineEdits(old, new []byte) []Edit {
	a, b := lines(old), lines(new)
	offsets := func(ls []string) []int {
		off := make([]int, len(ls)+1)
		for i, l := range ls {
			off[i+1] = off[i] + len(l)
		}
		return off
	}
	oa := offsets(a)
	var edits []Edit
	for _, op := range lineOpCodes(a, b) {
		if op.Tag == 'e' {
			continue
		}
		edits = append(edits, Edit{Start: oa[op.I1], End: oa[op.I2], New: strings.Join(b[op.J1:op.J2], "")})
	}
	return edits
}
