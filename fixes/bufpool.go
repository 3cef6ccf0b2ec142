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
	// Inline declares a package-level sync.Pool in the file instead of
	// importing the runtime module: of Size-byte arrays for a Build of
	// make([]byte, Size), or, when Size is 0, of buffers of any length Len,
	// grown as needed, for a buffer defined alone by Name := make([]byte, Len).
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
// or, with Inline, for a buffer of a size known only at run time, a pool of
// buffers that grow as needed and a function that takes one of them:
//
//	buf := make([]byte, n)            =>   buf, bufPtr := pooledBytes(n)
//	                                       defer pooledBytesPool.Put(bufPtr)
//	                                       ...
//	                                       var pooledBytesPool = sync.Pool{New: func() any { return new([]byte) }}
//	                                       func pooledBytes(n int) ([]byte, *[]byte) { ... }
//
// Get returns zeroed bytes, like make. The deferred Put takes the buffer as
// it is right after its definition, so later appends or reslicing do not
// matter. def is the buf := ... statement; the caller has proved that the
// buffer does not outlive the call and is not made in a loop.
func BufferPool(f *File, def ast.Stmt, spec BufferSpec) analysis.SuggestedFix {
	im := f.Imports(spec.Build.Pos())
	var edits []analysis.TextEdit
	var put, reset string
	switch {
	case spec.Inline && spec.Size == 0:
		var decl string
		put, decl, edits = f.pooledBytes(def.(*ast.AssignStmt), spec, im)
		if decl != "" {
			edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
		}
	case spec.Inline:
		pool, array, decl := f.arrayPool(spec.Size, im)
		edits = append(edits, decl...)
		edits = append(edits, analysis.TextEdit{Pos: spec.Build.Pos(), End: spec.Build.End(),
			NewText: []byte(pool + ".Get().(*" + array + ")[:]")})
		put = pool + ".Put((*" + array + ")(" + spec.Name + "))"
		reset = "clear(" + spec.Name + ")"
		if !f.AtLeast("go1.21") {
			reset = "*(*" + array + ")(" + spec.Name + ") = " + array + "{}"
		}
	default:
		buffers := im.Name(RuntimePool, "hashpool") + ".Buffers"
		switch {
		case spec.Base != nil:
			edits = append(edits, analysis.TextEdit{Pos: spec.Base.Pos(), End: spec.Base.End(), NewText: []byte(buffers + ".Get(0)")})
		case spec.Cap != nil:
			edits = append(edits, analysis.TextEdit{Pos: spec.Build.Pos(), End: spec.Build.End(),
				NewText: []byte(buffers + ".Get(" + f.intText(spec.Cap) + ")[:" + f.Text(spec.Len) + "]")})
		default:
			edits = append(edits, analysis.TextEdit{Pos: spec.Build.Pos(), End: spec.Build.End(),
				NewText: []byte(buffers + ".Get(" + f.intText(spec.Len) + ")")})
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

// pooledBytes returns the edits that take the buffer that def defines alone
// from a pool of buffers of any size, the statement that gives it back, and
// the declaration of the pool and of the function that takes from it, unless
// the package has them. The pool holds pointers to slices, which fit in an
// interface value without an allocation, as the runtime module's pool holds
// pointers to arrays; its buffers grow to the largest size asked, and
// sync.Pool drops what stays unused for two garbage collections.
func (f *File) pooledBytes(def *ast.AssignStmt, spec BufferSpec, im *Imports) (put, decl string, edits []analysis.TextEdit) {
	syncName := im.Name("sync", "sync")
	fn, declare := f.Names.Declare(f, "pooledBytes", func(obj types.Object) bool {
		sig, ok := obj.Type().(*types.Signature)
		bytes := types.NewSlice(types.Typ[types.Byte])
		return ok && sig.Params().Len() == 1 && types.Identical(sig.Params().At(0).Type(), types.Typ[types.Int]) &&
			sig.Results().Len() == 2 && types.Identical(sig.Results().At(0).Type(), bytes) &&
			types.Identical(sig.Results().At(1).Type(), types.NewPointer(bytes))
	}, "Pool")
	pool := sibling("pooledBytes", fn, "Pool")
	ptr := f.FreeName(def.Pos(), spec.Name+"Ptr")
	edits = []analysis.TextEdit{
		{Pos: def.Lhs[0].End(), End: def.Lhs[0].End(), NewText: []byte(", " + ptr)},
		{Pos: spec.Build.Pos(), End: spec.Build.End(), NewText: []byte(fn + "(" + f.intText(spec.Len) + ")")},
	}
	if declare {
		decl = "\n" + docComment(pool+" holds the buffers of "+fn+".") + fmt.Sprintf(`var %[1]s = %[2]s.Pool{New: func() %[3]s { return new([]byte) }}

`, pool, syncName, f.AnyType()) + docComment(fmt.Sprintf("%s returns n zeroed bytes, like make([]byte, n), taken from %s, and the pointer to give back to it with Put once they are no longer used.", fn, pool)) + fmt.Sprintf(`func %[1]s(n int) ([]byte, *[]byte) {
	p := %[2]s.Get().(*[]byte)
	if cap(*p) < n {
		*p = make([]byte, n)
	}
	b := (*p)[:n]
	for i := range b {
		b[i] = 0
	}
	return b, p
}
`, fn, pool)
	}
	return pool + ".Put(" + ptr + ")", decl, edits
}

// arrayPool returns the name of the file's sync.Pool of size-byte arrays, the
// array type, and the edit that declares the pool unless the package has it.
func (f *File) arrayPool(size int64, im *Imports) (pool, array string, edits []analysis.TextEdit) {
	syncName := im.Name("sync", "sync")
	array = fmt.Sprintf("[%d]byte", size)
	newFunc := "func() " + f.AnyType() + " { return new(" + array + ") }"
	pool, declare := f.Names.Declare(f, fmt.Sprintf("bytes%dPool", size), func(obj types.Object) bool {
		value, ok := f.varValue(obj)
		return ok && value == syncName+".Pool{New: "+newFunc+"}"
	})
	if declare {
		decl := "\n" + docComment(fmt.Sprintf("%s reuses %d-byte buffers.", pool, size)) +
			fmt.Sprintf("var %s = %s.Pool{New: %s}\n", pool, syncName, newFunc)
		edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
	}
	return pool, array, edits
}

// intText returns the text of the size e of a make, converted to int when it
// has another integer type (make takes any): a make whose size does not fit
// an int panics, and so does a slice of the converted, negative size.
func (f *File) intText(e ast.Expr) string {
	if t := f.Info.TypeOf(e); t == nil || types.Identical(t, types.Typ[types.Int]) || types.Identical(t, types.Typ[types.UntypedInt]) {
		return f.Text(e)
	}
	return "int(" + f.Text(e) + ")"
}
