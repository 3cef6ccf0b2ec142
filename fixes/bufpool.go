package fixes

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// BufferSpec says how a byte buffer is built and where its pooled
// replacement comes from.
type BufferSpec struct {
	// Name is the buffer's variable.
	Name string
	// Build is the make or append call that builds the buffer.
	Build *ast.CallExpr
	// Len and Cap are the make's length and capacity (Cap may be nil); Base
	// is the empty first operand of an append. One of Len and Base is set,
	// unless Inline.
	Len, Cap, Base ast.Expr
	// Inline declares a package-level sync.Pool of Size-byte arrays in the
	// file instead of importing the runtime module; Build is make([]byte, Size).
	Inline bool
	Size   int64
}

// BufferPool takes a byte buffer that a hot function builds on every call
// from a pool for the duration of the call:
//
//	buf := make([]byte, n)            =>   buf := hashpool.Buffers.Get(n)
//	                                       defer hashpool.Buffers.Put(buf)
//
//	key := append([]byte(nil), p...)  =>   key := append(hashpool.Buffers.Get(0), p...)
//	                                       defer hashpool.Buffers.Put(key)
//
// or, with Inline, for a buffer of a constant size:
//
//	buf := make([]byte, 8)            =>   buf := bytes8Pool.Get().(*[8]byte)[:]
//	                                       defer bytes8Pool.Put((*[8]byte)(buf))
//	                                       clear(buf)
//	                                       ...
//	                                       var bytes8Pool = sync.Pool{New: func() any { return new([8]byte) }}
//
// Get returns zeroed bytes, like make. The deferred Put takes the buffer as
// it is right after its definition, so later appends or reslicing do not
// matter. def is the buf := ... statement; the caller has proved that the
// buffer does not outlive the call and is not made in a loop.
func BufferPool(f *File, def ast.Stmt, spec BufferSpec) analysis.SuggestedFix {
	im := f.Imports(spec.Build.Pos())
	var edits []analysis.TextEdit
	var put, reset string
	if spec.Inline {
		syncName := im.Name("sync", "sync")
		array := fmt.Sprintf("[%d]byte", spec.Size)
		newFunc := "func() " + f.AnyType() + " { return new(" + array + ") }"
		pool, declare := f.Names.Declare(f, fmt.Sprintf("bytes%dPool", spec.Size), func(obj types.Object) bool {
			value, ok := f.varValue(obj)
			return ok && value == syncName+".Pool{New: "+newFunc+"}"
		})
		edits = append(edits, analysis.TextEdit{Pos: spec.Build.Pos(), End: spec.Build.End(),
			NewText: []byte(pool + ".Get().(*" + array + ")[:]")})
		put = pool + ".Put((*" + array + ")(" + spec.Name + "))"
		reset = "clear(" + spec.Name + ")"
		if !f.AtLeast("go1.21") {
			reset = "*(*" + array + ")(" + spec.Name + ") = " + array + "{}"
		}
		if declare {
			decl := fmt.Sprintf("\n// %s reuses %d-byte buffers.\nvar %s = %s.Pool{New: %s}\n",
				pool, spec.Size, pool, syncName, newFunc)
			edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
		}
	} else {
		buffers := im.Name(RuntimePool, "hashpool") + ".Buffers"
		switch {
		case spec.Base != nil:
			edits = append(edits, analysis.TextEdit{Pos: spec.Base.Pos(), End: spec.Base.End(), NewText: []byte(buffers + ".Get(0)")})
		case spec.Cap != nil:
			edits = append(edits, analysis.TextEdit{Pos: spec.Build.Pos(), End: spec.Build.End(),
				NewText: []byte(buffers + ".Get(" + f.Text(spec.Cap) + ")[:" + f.Text(spec.Len) + "]")})
		default:
			edits = append(edits, analysis.TextEdit{Pos: spec.Build.Pos(), End: spec.Build.End(),
				NewText: []byte(buffers + ".Get(" + f.Text(spec.Len) + ")")})
		}
		put = buffers + ".Put(" + spec.Name + ")"
	}
	edits = append(edits, im.Edits()...)
	edits = append(edits, f.Release(def, nil, put, reset)...)
	return analysis.SuggestedFix{
		Message:   "Take " + spec.Name + " from a pool of byte buffers",
		TextEdits: edits,
	}
}
