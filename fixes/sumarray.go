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

// SumPooled sums into a buffer taken from a pool, when the hasher is taken
// from one too: an array on the stack passed to the pooled hasher's Sum, an
// interface call, would escape. The buffer goes back when the function
// returns (the hasher's own Put may follow stmt right after it):
//
//	                                          sum := hashpool.Buffers.Get(0)
//	                                          defer hashpool.Buffers.Put(sum)
//	s := hex.EncodeToString(h.Sum(nil))   =>  s := hex.EncodeToString(h.Sum(sum))
//
// or, with inline, from the file's sync.Pool of size-byte arrays:
//
//	sum := bytes32Pool.Get().(*[32]byte)  ...  h.Sum(sum[:0])
//
// Sum writes every byte of the digest it returns, so no data of an earlier
// user of the buffer can be read. The caller has proved what SumArray needs
// but that the hasher is pooled, and that stmt is not in a loop.
func SumPooled(f *File, stmt ast.Stmt, call *ast.CallExpr, name string, size int64, inline bool) analysis.SuggestedFix {
	im := f.Imports(call.Pos())
	var edits []analysis.TextEdit
	var get, put, arg string
	if inline {
		pool, array, decl := f.arrayPool(size, im)
		edits = decl
		get, put, arg = pool+".Get().(*"+array+")", pool+".Put("+name+")", name+"[:0]"
	} else {
		buffers := im.Name(RuntimePool, "hashpool") + ".Buffers"
		get, put, arg = buffers+".Get(0)", buffers+".Put("+name+")", name
		if size > 64 {
			get = fmt.Sprintf("%s.Get(%d)[:0]", buffers, size)
		}
	}
	indent := f.Indent(stmt.Pos())
	before := indent + name + " := " + get + "\n" + indent + "defer " + put + "\n"
	edits = append(edits, im.Edits()...)
	edits = append(edits,
		analysis.TextEdit{Pos: f.LineStart(stmt.Pos()), End: f.LineStart(stmt.Pos()), NewText: []byte(before)},
		analysis.TextEdit{Pos: call.Args[0].Pos(), End: call.Args[0].End(), NewText: []byte(arg)})
	return analysis.SuggestedFix{
		Message:   "Sum into a pooled buffer, as the hasher is pooled",
		TextEdits: edits,
	}
}

// StartsLine reports whether only white space precedes pos on its line, so
// that a line inserted before pos's line goes right before the node at pos.
func (f *File) StartsLine(pos token.Pos) bool {
	return f.offset(f.LineStart(pos))+len(f.Indent(pos)) == f.offset(pos)
}
