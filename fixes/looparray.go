package fixes

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// LoopArray copies a string written into a hasher into an array declared
// before the loop that writes it, instead of a []byte conversion per write
// that the hasher's Write lets escape:
//
//	                                     var wordBuf [64]byte
//	for _, w := range words {       =>   for _, w := range words {
//	    h.Write([]byte(w))                   h.Write(append(wordBuf[:0], w...))
//
// The array escapes as the copies did, so it is made once per run of the
// loop; a string longer than the array is copied anew, as before. Write
// may not keep what it is given (io.Writer's contract), so each iteration
// may write over it. loop is the loop statement (its label included); conv
// the conversion, x its string; name is free at the loop and in it.
func LoopArray(f *File, loop ast.Stmt, conv *ast.CallExpr, x ast.Expr, name string) analysis.SuggestedFix {
	return analysis.SuggestedFix{
		Message: fmt.Sprintf("Copy %s into an array declared before the loop", f.Text(x)),
		TextEdits: []analysis.TextEdit{
			{Pos: f.LineStart(loop.Pos()), End: f.LineStart(loop.Pos()), NewText: []byte(f.Indent(loop.Pos()) + "var " + name + " [64]byte\n")},
			{Pos: conv.Pos(), End: conv.End(), NewText: []byte("append(" + name + "[:0], " + f.Text(x) + "...)")},
		},
	}
}
