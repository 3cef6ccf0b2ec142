package fixes

import (
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// SumArray sums into an array on the stack instead of a slice that Sum(nil)
// allocates, when the digest is only used for the time of one call:
//
//	                                          var sum [32]byte
//	ok := bytes.Equal(h.Sum(nil), want)   =>  ok := bytes.Equal(h.Sum(sum[:0]), want)
//
// stmt is the statement of a block that holds call, the h.Sum(nil) call; the
// array goes on its own line right before it. The caller has proved that the
// hasher's Sum is devirtualized (so the array does not escape), that its
// digest has size bytes, that name is free in the block and that the result
// is not kept.
func SumArray(f *File, stmt ast.Stmt, call *ast.CallExpr, name string, size int64) analysis.SuggestedFix {
	indent := f.Indent(stmt.Pos())
	if labeled, ok := stmt.(*ast.LabeledStmt); ok && f.Fset.Position(labeled.Stmt.Pos()).Line != f.Fset.Position(stmt.Pos()).Line {
		indent = f.Indent(labeled.Stmt.Pos()) // a label is outdented
	}
	decl := fmt.Sprintf("var %s [%d]byte", name, size)
	return analysis.SuggestedFix{
		Message: fmt.Sprintf("Sum into a %d-byte array on the stack", size),
		TextEdits: []analysis.TextEdit{
			{Pos: f.LineStart(stmt.Pos()), End: f.LineStart(stmt.Pos()), NewText: []byte(indent + decl + "\n")},
			{Pos: call.Args[0].Pos(), End: call.Args[0].End(), NewText: []byte(name + "[:0]")},
		},
	}
}

// StartsLine reports whether only white space precedes pos on its line, so
// that a line inserted before pos's line goes right before the node at pos.
func (f *File) StartsLine(pos token.Pos) bool {
	return f.offset(f.LineStart(pos))+len(f.Indent(pos)) == f.offset(pos)
}
