package fixes

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// SumAppend lets the hasher append its digest to the destination itself,
// instead of appending a digest that Sum(nil) allocated:
//
//	dst = append(dst, h.Sum(nil)...)   =>   dst = h.Sum(dst)
//
// hash.Hash's Sum appends the digest to its argument and returns the result,
// so both compute the same slice. appended is the append call; sum is the
// h.Sum(nil) call inside it.
func SumAppend(f *File, appended, sum *ast.CallExpr) analysis.SuggestedFix {
	sel := ast.Unparen(sum.Fun).(*ast.SelectorExpr)
	dst := f.Text(appended.Args[0])
	return analysis.SuggestedFix{
		Message: "Append the sum to " + shortText(dst) + " with " + f.Text(sel.X) + ".Sum(" + shortText(dst) + ")",
		TextEdits: []analysis.TextEdit{{
			Pos:     appended.Pos(),
			End:     appended.End(),
			NewText: []byte(f.Text(sum.Fun) + "(" + dst + ")"),
		}},
	}
}

// shortText keeps an expression readable in a fix message.
func shortText(s string) string {
	if len(s) > 32 {
		return s[:29] + "..."
	}
	return s
}
