package fixes

import (
	"bytes"
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// OneShotSum computes the digest of a hasher that is written once and
// summed once with the sum function of its package, which makes no hasher:
//
//	h, _ := blake2b.New256(nil)
//	h.Write([]byte(key))          =>   sum := blake2b.Sum256([]byte(key))
//	return h.Sum(nil)                  return sum[:]
//
// and h.Sum(b), with b not nil, becomes append(b, sum[:]...). def is the
// statement that makes the hasher, write the statement h.Write(data), sum
// the h.Sum call, dst its argument unless it is nil; fn is the sum function
// as the file names it (blake2b.Sum256), name the array's name, free where
// write is. The caller
// has proved that the hasher has no other use, that write and sum run once
// each, in this order, and that fn computes the digest the hasher would.
// Each expression is evaluated where it was: data at the Write, b at the
// Sum.
func OneShotSum(f *File, def, write ast.Stmt, data ast.Expr, sum *ast.CallExpr, dst ast.Expr, fn, name string) analysis.SuggestedFix {
	result := name + "[:]"
	if dst != nil {
		result = "append(" + f.Text(dst) + ", " + name + "[:]...)"
	}
	sumStmt := name + " := " + fn + "(" + f.Text(data) + ")"
	edits := []analysis.TextEdit{{Pos: sum.Pos(), End: sum.End(), NewText: []byte(result)}}
	if del := f.DeleteLine(def.Pos(), def.End()); len(bytes.TrimSpace(f.Src[f.offset(del.End):f.offset(write.Pos())])) == 0 {
		// Only blank lines between: the sum takes the definition's place.
		edits = append(edits, analysis.TextEdit{Pos: del.Pos, End: write.End(), NewText: []byte(f.Indent(write.Pos()) + sumStmt)})
	} else {
		edits = append(edits, del, analysis.TextEdit{Pos: write.Pos(), End: write.End(), NewText: []byte(sumStmt)})
	}
	return analysis.SuggestedFix{
		Message:   "Compute the digest with " + fn + ", which makes no hasher",
		TextEdits: edits,
	}
}
