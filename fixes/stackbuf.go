package fixes

import (
	"fmt"
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// StackBufferSpec says how a byte buffer of a size known only at run time
// is backed by an array on the stack.
type StackBufferSpec struct {
	// Name is the buffer's variable; Array, the array's, free in the block;
	// SizeName, the variable that holds the size in the if statement, other
	// than Name and Array.
	Name, Array, SizeName string
	// Size is the make's size, an int.
	Size ast.Expr
	// ArraySize is the array's length.
	ArraySize int64
}

// StackBuffer backs a byte buffer of a size known only at run time by an
// array on the stack, and makes it only when it is larger:
//
//	buf := make([]byte, n)   =>   var bufArray [128]byte
//	                              var buf []byte
//	                              if size := n; size <= len(bufArray) {
//	                                  buf = bufArray[:size:size]
//	                              } else {
//	                                  buf = make([]byte, size)
//	                              }
//
// The buffer is what make gives: size zeroed bytes (the array is declared,
// so zeroed, every time the statement runs), with a capacity of size, so an
// append to it reallocates as before and never writes into the array past
// size. The size is evaluated once, where make evaluated it. def is the
// buf := ... or var buf = ... statement, alone on its line's start; the
// caller has proved that the buffer does not escape (otherwise the array
// would go to the heap with it, on every call), that the size is an int, and
// that len and make are the builtins.
func StackBuffer(f *File, def ast.Stmt, spec StackBufferSpec) analysis.SuggestedFix {
	indent := f.Indent(def.Pos())
	var b strings.Builder
	fmt.Fprintf(&b, "var %s [%d]byte\n", spec.Array, spec.ArraySize)
	fmt.Fprintf(&b, "%svar %s []byte\n", indent, spec.Name)
	fmt.Fprintf(&b, "%sif %s := %s; %s <= len(%s) {\n", indent, spec.SizeName, f.Text(spec.Size), spec.SizeName, spec.Array)
	fmt.Fprintf(&b, "%s\t%s = %s[:%s:%s]\n", indent, spec.Name, spec.Array, spec.SizeName, spec.SizeName)
	fmt.Fprintf(&b, "%s} else {\n", indent)
	fmt.Fprintf(&b, "%s\t%s = make([]byte, %s)\n", indent, spec.Name, spec.SizeName)
	fmt.Fprintf(&b, "%s}", indent)
	return analysis.SuggestedFix{
		Message:   fmt.Sprintf("Back %s by a %d-byte array on the stack, and make it only when larger", spec.Name, spec.ArraySize),
		TextEdits: []analysis.TextEdit{{Pos: def.Pos(), End: def.End(), NewText: []byte(b.String())}},
	}
}

// StackBufferInBlock does what StackBuffer does for a buffer declared with
// other variables in a var block: the buffer's spec keeps its name, the
// block keeps its place, and the buffer is set right after it:
//
//	var (                              var (
//	    n   = size(k)                      n   = size(k)
//	    buf = make([]byte, n)   =>         buf []byte
//	    i   = 0                            i   = 0
//	)                                  )
//	                                   var bufArray [128]byte
//	                                   if size := n; size <= len(bufArray) { ... }
//
// The make's size is evaluated after the specs that follow it: the caller has
// proved that evaluating it has no effect and that those specs do not read
// the buffer. decl is the var statement and spec the buffer's one-name spec.
func StackBufferInBlock(f *File, decl *ast.DeclStmt, spec *ast.ValueSpec, sb StackBufferSpec) analysis.SuggestedFix {
	indent := f.Indent(decl.Pos())
	var b strings.Builder
	fmt.Fprintf(&b, "\n%svar %s [%d]byte\n", indent, sb.Array, sb.ArraySize)
	fmt.Fprintf(&b, "%sif %s := %s; %s <= len(%s) {\n", indent, sb.SizeName, f.Text(sb.Size), sb.SizeName, sb.Array)
	fmt.Fprintf(&b, "%s\t%s = %s[:%s:%s]\n", indent, sb.Name, sb.Array, sb.SizeName, sb.SizeName)
	fmt.Fprintf(&b, "%s} else {\n", indent)
	fmt.Fprintf(&b, "%s\t%s = make([]byte, %s)\n", indent, sb.Name, sb.SizeName)
	fmt.Fprintf(&b, "%s}", indent)
	return analysis.SuggestedFix{
		Message: fmt.Sprintf("Back %s by a %d-byte array on the stack, and make it only when larger", sb.Name, sb.ArraySize),
		TextEdits: []analysis.TextEdit{
			{Pos: spec.Names[0].End(), End: spec.End(), NewText: []byte(" []byte")},
			{Pos: decl.End(), End: decl.End(), NewText: []byte(b.String())},
		},
	}
}
