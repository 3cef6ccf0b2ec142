package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Sums of hashers held in struct fields. A Bloom filter keeps its hasher in
// a field and sums it per key added or tested:
//
//	func (f *Filter) Add(key []byte) {
//		f.h.Reset()
//		f.h.Write(key)
//		sum := f.h.Sum(nil)
//		f.set(binary.BigEndian.Uint64(sum), binary.BigEndian.Uint64(sum[8:]))
//	}
//
// Sum(nil) allocates its result on every call. The stack array that serves a
// local hasher does not serve this one: the field's hasher is an interface
// value that the compiler cannot devirtualize, so an array passed to its Sum
// escapes, and the allocation only moves (measured with testing.AllocsPerRun,
// a *Filter with a sha256 hasher in a hash.Hash field: Sum(nil) 1
// allocation, Sum(arr[:0]) into a local array 1, into an array field of the
// struct 0, into a []byte field reused as f.buf = f.h.Sum(f.buf[:0]) 0 once
// it has grown). So the fix sums into an array that the struct keeps beside
// the hasher, an expression that fits wherever Sum(nil) stood:
//
//	sum := f.h.Sum(nil)   =>   sum := f.h.Sum(f.hSum[:0])      // type Filter struct { ...; hSum [32]byte }
//
// The result then aliases the struct's array until the next sum, which is
// safe when what follows is proved:
//
//   - the result is used transiently: compared, copied, encoded (as
//     sum-alloc's consumers), or held in a local variable whose every use
//     reads it (an element, a slice, len, a reader such as
//     binary.BigEndian.Uint64), never kept, returned or written;
//   - nothing runs between the sum and the last use of its result that
//     could sum into the array again: only builtins, conversions and readers
//     of bytes (binary, bytes, subtle, hex), and the consumer's other
//     arguments are plain values;
//   - the method already writes the hasher (calls its Reset or Write on the
//     same field before the sum): calls on one value cannot run at the same
//     time without racing on the hasher, so the array beside it is used
//     under the condition that already holds for the hasher;
//   - the value is reached through a pointer (a copy would take the array
//     with it, to the heap), and the struct may gain a field (declared at
//     package level in this file, never built with a positional literal).
//
// The array has the digest size of the hasher when every value the package
// stores in the field comes from constructors of one known size, else 64
// bytes, the largest standard digest: Sum appends, so a larger digest would
// still be right, only allocated.

// fieldHasher is the field whose hasher a Sum(nil) is called on (see
// sumNilHasher).
type fieldHasher struct {
	sel   *ast.SelectorExpr // f.h, as Sum is called on it
	field *types.Var
}

// readSumVar says what is done with the result of the Sum call at cur when
// it defines a local variable that is only read, up to its last use, in
// straight-line statements: "read by binary.BigEndian.Uint64". For the
// hasher of a field, fh, those statements must run no code that could sum
// again (see above); a local hasher (fh nil) is summed into an array of its
// own.
func (p *pass) readSumVar(cur inspector.Cursor, fh *fieldHasher) (sumUse, bool) {
	cur = outerParens(cur)
	v, _, fn, ok := p.model.assignedLocal(cur)
	if !ok {
		return sumUse{}, false
	}
	def := cur.Parent().Node().(*ast.AssignStmt)
	stmt, list, inList := statementIn(cur)
	if def.Tok != token.DEFINE || !inList || stmt != def || p.vals.Written(fn, v) {
		return sumUse{}, false
	}
	// The last statement of the list that uses v (its scope is the rest of
	// the list).
	at := slices.Index(list, ast.Stmt(def))
	last, by := at, ""
	for use := range p.vals.Uses(fn, v) {
		reader, ok := p.readerOf(use)
		if !ok || insideFuncLit(use, fn) {
			return sumUse{}, false
		}
		if by == "" {
			by = reader
		}
		for last+1 < len(list) && list[last+1].Pos() <= use.Node().Pos() {
			last++
		}
	}
	if last == at {
		return sumUse{}, false // unused
	}
	if by == "" {
		by = "indexing"
	}
	for i := at + 1; fh != nil && i <= last; i++ {
		if !p.noResum(list[i]) {
			return sumUse{}, false
		}
	}
	return sumUse{verb: "read", by: by}, true
}

// readerOf says what reads the digest variable at use: an element of it, a
// slice of it or it whole passed to len or to a function that only reads
// bytes (bufferReaders that keep them where they are, the comparisons and
// encoders of sum-alloc, copy as its source: see transientSumUse).
func (p *pass) readerOf(use inspector.Cursor) (string, bool) {
	e := outerSlices(use)
	if e.ParentEdgeKind() == edge.IndexExpr_X {
		return "", !values.IsWritten(e)
	}
	if e.ParentEdgeKind() != edge.CallExpr_Args {
		return "", false
	}
	call := e.Parent().Node().(*ast.CallExpr)
	if b := values.Builtin(p.TypesInfo, call); b == "len" || b == "cap" {
		return "len", true
	}
	if fn := typeutil.StaticCallee(p.TypesInfo, call); fn != nil {
		if kind, ok := bufferReaders[fn.FullName()]; ok && kind == stays || values.ByteOrderReads(fn) {
			return shorten(types.ExprString(call.Fun)), true
		}
	}
	u, ok := p.transientSumUse(e)
	return u.by, ok && u.appended == nil
}

// noResum reports whether the statement s runs nothing that could sum into
// the field's array again: its calls are builtins, conversions, and
// functions of the packages that only compute on bytes (values.CheapStd, the
// encoders), and none is a Sum on the field.
func (p *pass) noResum(s ast.Node) bool {
	ok := true
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.CallExpr:
			if tv, found := p.TypesInfo.Types[n.Fun]; found && (tv.IsType() || tv.IsBuiltin()) {
				return ok
			}
			fn := typeutil.StaticCallee(p.TypesInfo, n)
			if fn == nil || fn.Pkg() == nil || !(values.CheapStd(fn.Pkg().Path()) || fn.Pkg().Path() == "encoding/hex" || fn.Pkg().Path() == "encoding/base64") {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// fieldSumFix sums into an array that the struct keeps beside the hasher
// (see above), or says why it cannot.
func (p *pass) fieldSumFix(cur inspector.Cursor, fh *fieldHasher, direct bool) (*analysis.SuggestedFix, string) {
	call := cur.Node().(*ast.CallExpr)
	f := p.file(call.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	hasher := types.ExprString(fh.sel)
	// The consumer's other arguments run no code after the sum.
	if direct {
		arg := outerParens(cur)
		consumer := arg.Parent().Node().(*ast.CallExpr)
		for i, other := range consumer.Args {
			if i != arg.ParentEdgeIndex() && !values.Operand(other) {
				return nil, types.ExprString(other) + " is evaluated after the sum, and could sum into the same array"
			}
		}
	}
	// The method writes the hasher before the sum: it does not run on one
	// value at the same time as another call.
	fn, _ := values.EnclosingFunc(cur)
	if !p.writesHasher(fn, fh, call.Pos()) {
		return nil, "the function does not write " + hasher + " (Reset or Write) before the sum, so it may sum the same value at the same time as another call, and an array kept beside the hasher would be shared"
	}
	if !p.TypesInfo.Selections[fh.sel].Indirect() {
		return nil, types.ExprString(fh.sel.X) + " is a copy: an array in it would go to the heap with it"
	}
	st, name, why := p.newField(f, fh.field, fh.sel.X, unexported(fh.field.Name())+"Sum")
	if why != "" {
		return nil, why
	}
	size := p.fieldDigestSize(fh.field)
	holder := types.ExprString(fh.sel.X)
	fix := analysis.SuggestedFix{
		Message: fmt.Sprintf("Sum into a %d-byte array that %s keeps (field %s)", size, typeName(p.TypesInfo.TypeOf(fh.sel.X)), name),
		TextEdits: []analysis.TextEdit{
			f.AddField(st, fmt.Sprintf("%s [%d]byte", name, size)),
			{Pos: call.Args[0].Pos(), End: call.Args[0].End(), NewText: []byte(holder + "." + name + "[:0]")},
		},
	}
	return &fix, ""
}

// writesHasher reports whether the function at fn calls Reset or Write on
// the field's hasher, as selected by fh.sel, before pos.
func (p *pass) writesHasher(fn inspector.Cursor, fh *fieldHasher, pos token.Pos) bool {
	want := types.ExprString(fh.sel)
	for ic := range p.calls.Within(fn) {
		call := ic.Node
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || call.Pos() >= pos || sel.Sel.Name != "Reset" && sel.Sel.Name != "Write" {
			continue
		}
		if x, ok := ast.Unparen(sel.X).(*ast.SelectorExpr); ok && types.ExprString(x) == want && p.TypesInfo.Uses[x.Sel] == fh.field {
			return true
		}
	}
	return false
}

// fieldDigestSize is the digest size of the hashers the package stores in
// the field, when every one comes from constructors of one known size
// (composite literals and assignments), else 64.
func (p *pass) fieldDigestSize(field *types.Var) int64 {
	size := int64(-1)
	consider := func(e ast.Expr) {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			size = 0
			return
		}
		fn := typeutil.StaticCallee(p.TypesInfo, call)
		if fn == nil {
			size = 0
			return
		}
		ctor, ok := p.lookupCtor(fn)
		key := funcKey(fn)
		if ctor.wrapped != "" {
			key = ctor.wraps
		}
		n, known := digestSizes[key]
		switch {
		case !ok || !known || size >= 0 && size != n:
			size = 0
		case size < 0:
			size = n
		}
	}
	stored, ok := p.vals.Stored(p.root, field)
	for _, e := range stored {
		consider(e)
	}
	if !ok {
		size = 0
	}
	if size <= 0 {
		return 64
	}
	return size
}
