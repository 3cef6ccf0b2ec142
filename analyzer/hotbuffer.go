package analyzer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// hotBuffer is the category of a byte buffer that a hot hashing function
// builds on every call and that really reaches the heap.
//
// What reaches the heap was measured with testing.AllocsPerRun on Go 1.26:
//   - a make whose buffer is passed to Write through an interface the compiler
//     cannot devirtualize (a hash.Hash parameter of a recursive function, a
//     field, a package variable, an HMAC or crypto.Hash hasher, a hasher
//     asserted from a pool), or to io.CopyBuffer or io.ReadFull: 1 allocation;
//   - a make of a constant size above 64 KiB, even when it does not escape: 1;
//   - a make of a size known only at run time that does not escape: 0 up to
//     32 bytes, 1 above (see maxStackVariableMake);
//   - append(<empty>, x...) with x not empty, even when it does not escape:
//     1 per growth.
//
// What stays on the stack, and is never reported: a make of constant size up
// to 64 KiB that does not escape; a make written only into a hasher the
// compiler devirtualizes (a local sha256.New(), even one passed to io.Copy).
// A buffer passed to a function that is not known (it may keep it, or not
// let it escape), returned, stored, sent or captured is not reported.
const hotBuffer = "hot-buffer"

// maxStackMake is the largest constant-size make that stays on the stack
// when it does not escape (measured: 65536 bytes stay, 65537 allocate).
const maxStackMake = 64 << 10

// maxStackVariableMake is the largest make of a size known only at run time
// that stays on the stack when it does not escape. Measured with
// testing.AllocsPerRun: on Go 1.26, 32 bytes stay and 33 allocate; on Go
// 1.24 and 1.21 (GOTOOLCHAIN=go1.24.13, go1.21.13) every size allocates,
// 1 byte too. The go line of the module changes nothing: the same Go 1.26
// toolchain keeps 32 bytes on the stack in a go 1.21 module. Which toolchain
// builds the code is not known here, so the message states both.
const maxStackVariableMake = 32

// stackArraySize is the size of the array that backs a variable-size buffer
// in the fix: buffers up to it stay on the stack, larger ones are made as
// before. Measured (go test -bench, -count 6, a noinline function that fills
// the buffer's last byte): a per-call [128]byte costs about what a
// make of 16 bytes on the stack costs (2.4 ns against 2.2 ns, within the
// noise) where a [256]byte costs twice as much (4.4 ns); one allocation is
// 40 ns or more. 64 bytes would miss a key of two 32-byte hashes with a
// prefix; the price of 128 is as many bytes more in every frame of a
// recursive function.
const stackArraySize = 128

// maxPooledBuffer is the largest buffer that hashpool.Buffers pools.
const maxPooledBuffer = 1 << 20

// minPooledBuffer is the smallest constant-size buffer that the fix takes
// from a pool: below it, Get and a deferred Put cost more time than the
// allocation they save. Measured with runtime/hashpool's
// BenchmarkBufferPool (-benchtime 20ms -count 60, benchstat -col /mode, a
// loaded machine), make against hashpool.Buffers and -pool=inline's pool:
// 1 byte 21 ns, 36 and 25; 8 bytes 28, 40 and 32 (~); 32 bytes 53, 64 (~)
// and 53; 64 bytes 73, 53 and 42; 256 bytes 184, 74 and 116.
const minPooledBuffer = 64

// bufferReaders are the functions known not to keep a byte slice passed to
// them, by full name, with whether the slice escapes through them; the
// byte orders' are values.ByteOrderReads.
var bufferReaders = map[string]escapeKind{
	"bytes.Equal":                       stays,
	"bytes.Compare":                     stays,
	"crypto/hmac.Equal":                 stays,
	"crypto/subtle.ConstantTimeCompare": stays,
	"encoding/hex.Encode":               stays,
	// They pass the buffer to an io.Reader's Read: it escapes, is not kept.
	"io.CopyBuffer": transient,
	"io.ReadFull":   transient,
}

// buffer is a byte buffer defined by v := make([]byte, ...) or
// v := append(<empty>, x...), or by the same in a var declaration.
type buffer struct {
	def   ast.Stmt // the assignment or the var declaration
	alone bool     // def defines nothing but the buffer
	v     *types.Var
	build *ast.CallExpr // the make or the append
	made  bool          // built by make
	size  int64         // the constant size (capacity) of a make, or -1
}

// hotBufferCheck is the state of the hot-buffer check over one package.
type hotBufferCheck struct {
	*pass
	hashing   map[ast.Node]bool                 // whether a function hashes itself, see hashingCode
	bufParams map[*types.Func][]bufferParamFlow // what a function does with a buffer parameter, see bufferParam
}

// check reports the byte buffers that hot hashing functions build per call
// (or per iteration) and that really reach the heap.
func (p *hotBufferCheck) check() {
	declared := map[ast.Node]map[string]bool{} // the arrays that fixes declare, by block
	for cur := range p.root.Preorder((*ast.AssignStmt)(nil), (*ast.DeclStmt)(nil)) {
		if !p.suppress.analyzed(cur) {
			continue
		}
		for _, b := range p.bufferDefs(cur.Node().(ast.Stmt)) {
			fn, ok := values.EnclosingFunc(cur)
			if !ok || !p.hashingCode(fn) {
				continue // not in a hashing function
			}
			cost := frequency.Cost{Allocs: 1}
			if b.made && b.size > 0 {
				cost.Bytes = b.size
			}
			often, loop, ok := p.oftenCost(cur, hotBuffer, cost)
			if !ok {
				continue // not per item, or a small part of what repeats it
			}
			esc, _ := p.sliceEscape(fn, b.v, false)
			what, allocates := p.bufferAllocates(b, esc)
			var why string
			switch {
			case esc.kind == unknown || esc.kind == outlives:
				why = "it may outlive the call (" + esc.reason + ")"
			case slices.ContainsFunc(p.out.concats, func(c concatFound) bool { return c.pos == b.build.Pos() }):
				// Concat-hash, which runs before, found the buffer to be a concatenation
				// built only to be hashed: its rewrite removes the buffer altogether.
				why = "concat-hash reports it, a concatenation built only to be hashed"
			case !allocates:
				why = "it stays on the stack"
			}
			if why != "" {
				p.silent(b.build, hotBuffer, why)
				continue
			}
			manual := "reuse a scratch buffer or a pooled one"
			switch {
			case b.made && b.size < 0 && esc.kind == stays:
				manual = "back it by an array on the stack and make it only when larger"
			case b.made && b.size >= 0 && b.size < minPooledBuffer:
				manual = "reuse a scratch buffer kept beyond the call (an array in a field, or one the caller passes)"
			}
			fix, why := p.bufferFix(cur, b, esc, loop, declared)
			p.report(b.build, hotBuffer, what+" "+often, fix, manual, why)
		}
	}
}

// bufferDefs recognizes the buffers that stmt defines: v := make([]byte, ...)
// or v := append(<empty>, x...), where <empty> is []byte(nil), []byte{} or
// s[:0:0] (an append to nothing that allocates an array of its own); and the
// same values in var v = ..., var v []byte = ... and var (...) blocks.
func (p *hotBufferCheck) bufferDefs(stmt ast.Stmt) []*buffer {
	var names []*ast.Ident
	var rhs []ast.Expr
	alone := true
	switch stmt := stmt.(type) {
	case *ast.AssignStmt:
		if stmt.Tok == token.DEFINE && len(stmt.Lhs) == 1 && len(stmt.Rhs) == 1 {
			names, rhs = []*ast.Ident{values.IdentOf(stmt.Lhs[0])}, stmt.Rhs
		}
	case *ast.DeclStmt:
		decl, ok := stmt.Decl.(*ast.GenDecl)
		if !ok || decl.Tok != token.VAR {
			return nil
		}
		for _, spec := range decl.Specs {
			if vs := spec.(*ast.ValueSpec); len(vs.Values) == len(vs.Names) { // not var a, b = f(): no make of its own
				names, rhs = append(names, vs.Names...), append(rhs, vs.Values...)
			}
		}
		alone = len(decl.Specs) == 1 && len(names) == 1
	}
	var list []*buffer
	for i, id := range names {
		if b, ok := p.bufferValue(stmt, id, rhs[i]); ok {
			b.alone = alone
			list = append(list, b)
		}
	}
	return list
}

// bufferValue recognizes the buffer that def defines as id = e.
func (p *hotBufferCheck) bufferValue(def ast.Stmt, id *ast.Ident, e ast.Expr) (*buffer, bool) {
	v, ok := p.TypesInfo.Defs[id].(*types.Var)
	if !ok || !types.Identical(v.Type(), byteSlice) {
		return nil, false
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	b := &buffer{def: def, v: v, build: call, size: -1}
	switch values.Builtin(p.TypesInfo, call) {
	case "make":
		b.made = true
		if tv := p.TypesInfo.Types[call.Args[len(call.Args)-1]]; tv.Value != nil {
			b.size, _ = constant.Int64Val(constant.ToInt(tv.Value))
		}
		return b, true
	case "append":
		if len(call.Args) == 2 && call.Ellipsis.IsValid() && p.emptyBase(call.Args[0]) {
			return b, true
		}
	}
	return nil, false
}

// emptyBase reports whether e is an empty byte slice without capacity:
// []byte(nil), []byte{}, or s[:0:0].
func (p *hotBufferCheck) emptyBase(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		tv := p.TypesInfo.Types[e.Fun]
		return tv.IsType() && len(e.Args) == 1 && p.TypesInfo.Types[e.Args[0]].IsNil()
	case *ast.CompositeLit:
		return len(e.Elts) == 0
	case *ast.SliceExpr:
		zero := func(e ast.Expr) bool {
			v := p.TypesInfo.Types[e].Value
			return v != nil && constant.Sign(v) == 0
		}
		return e.Slice3 && zero(e.High) && zero(e.Max)
	}
	return false
}

// hashingCode reports whether the function at fn is hashing code: it hashes
// itself, or it calls a function or method of its package, by name, that
// hashes itself, as merkledb's hashChangedNode calls hashNode for every
// node it walks. One call deep only: every function above a hashing one
// would count otherwise, down to main.
func (p *hotBufferCheck) hashingCode(fn inspector.Cursor) bool {
	hashes := func(decl inspector.Cursor) bool {
		h, ok := p.hashing[decl.Node()]
		if !ok {
			h = p.hashes(decl, 0)
			p.hashing[decl.Node()] = h
		}
		return h
	}
	if hashes(fn) {
		return true
	}
	for ic := range p.calls.Within(fn) {
		if callee := ic.Callee; callee != nil && callee.Pkg() == p.Pkg {
			if decl, ok := p.decl(callee); ok && decl.Node() != fn.Node() && hashes(decl) {
				return true
			}
		}
	}
	return false
}

// maxWrappers bounds how many wrappers of a hashing function hashes follows.
const maxWrappers = 2

// hashes reports whether the function at fn hashes: it calls a hash
// constructor, a hashing helper of another package (by its fact) or a
// hasher's Sum, makes a call that is a sink (see sinkOf: a sum function, a
// hasher's Write, a call whose targets hash, a function value of a hash's
// shape), or passes a hasher to a function, or it returns what a function
// of its package that hashes returns (a wrapper, as merkledb's calculateID
// returns hashNode(n)). depth counts the wrappers followed.
func (p *pass) hashes(fn inspector.Cursor, depth int) bool {
	for cur := range fn.Preorder((*ast.ReturnStmt)(nil)) {
		ret := cur.Node().(*ast.ReturnStmt)
		if depth >= maxWrappers || len(ret.Results) != 1 || insideFuncLit(cur, fn) {
			continue
		}
		call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
		if !ok {
			continue
		}
		callee := typeutil.StaticCallee(p.TypesInfo, call)
		if callee == nil || callee.Pkg() != p.Pkg {
			continue
		}
		if decl, ok := p.decl(callee.Origin()); ok && decl.Node() != fn.Node() && p.hashes(decl, depth+1) {
			return true
		}
	}
	for ic := range p.calls.Within(fn) {
		if callee := ic.Callee; callee != nil {
			if _, ok := p.lookupCtor(callee); ok {
				return true
			}
			if callee.Pkg() != nil && callee.Pkg() != p.Pkg && p.ImportObjectFact(callee.Origin(), new(hashesArg)) {
				return true // a hashing helper of another package, called with any number of parts
			}
		}
		if _, ok := p.sinkOf(ic.Cursor, ic.Callee, nil); ok {
			return true // a sum, a hasher's Write, a call whose targets hash, a function value of a hash's shape
		}
		if h, _ := p.hasherCall(ic.Node, "Sum"); h != nil {
			return true
		}
		for _, arg := range ic.Node.Args {
			if values.IsHasher(p.TypesInfo.TypeOf(arg)) {
				return true // io.Copy(h, r): writes to the hasher
			}
		}
	}
	return false
}

// sliceEscape decides what the function at fn does with the []byte variable
// v (a buffer): stays (only read, written, sliced, copied), transient (it
// escapes through a call that does not keep it), outlives (returned, stored,
// sent) or unknown. A local variable assigned the buffer or a slice of it
// (key := keyBuffer[:n]) is the buffer too: its uses are judged the same
// way. With param (v is a parameter of fn, summarized for its callers),
// returning v or a slice of it as fn's only result is not a verdict: it
// reports returned instead, and what the caller does with the result decides.
func (p *hotBufferCheck) sliceEscape(fn inspector.Cursor, v *types.Var, param bool) (_ escape, returned bool) {
	verdict := escape{kind: stays}
	vars := []*types.Var{v}
	seen := map[*types.Var]bool{v: true}
	u := &sliceUses{fn: fn, param: param}
	for i := 0; i < len(vars); i++ {
		w := vars[i]
		for use := range p.vals.Uses(fn, w) {
			var esc escape
			var alias *types.Var
			switch {
			case values.Captured(use, w):
				esc = escape{unknown, "captured by a closure", use.Node().Pos()}
			case use.ParentEdgeKind() == edge.AssignStmt_Lhs:
				// w = w[:n], w = append(w, x...): still the same buffer (or a
				// new one that append made). Anything else is not followed.
				assign := use.Parent().Node().(*ast.AssignStmt)
				if len(assign.Lhs) != 1 || len(assign.Rhs) != 1 || !p.derivedFrom(assign.Rhs[0], w) {
					esc = escape{unknown, "assigned", use.Node().Pos()}
				}
			default:
				esc, alias = p.sliceValue(u, use, w)
			}
			if alias != nil && !seen[alias] {
				seen[alias] = true
				vars = append(vars, alias)
			}
			verdict = worse(verdict, esc)
		}
	}
	return verdict, u.returned
}

// sliceUses is what classifying the uses of a byte slice in one function
// needs: the function and, for a parameter summarized for its callers,
// whether the function returns it.
type sliceUses struct {
	fn       inspector.Cursor
	param    bool
	returned bool
	depth    int // of the values derived from the slice that are followed
}

// sliceValue classifies the use of a value that holds v's bytes at e: v
// itself, a slice of it, or what a call made of it (a helper that returns
// its argument, unsafe.String(unsafe.SliceData(v), n)).
func (p *hotBufferCheck) sliceValue(u *sliceUses, e inspector.Cursor, v *types.Var) (_ escape, alias *types.Var) {
	pos := e.Node().Pos()
	fn := u.fn
	e = outerSlices(e) // a slice of the buffer is the buffer
	switch e.ParentEdgeKind() {
	case edge.IndexExpr_X:
		if e.Parent().ParentEdgeKind() == edge.UnaryExpr_X {
			return escape{unknown, "address taken", pos}, nil // &v[i]
		}
		return escape{kind: stays}, nil
	case edge.RangeStmt_X, edge.BinaryExpr_X, edge.BinaryExpr_Y:
		return escape{kind: stays}, nil
	case edge.ReturnStmt_Results:
		if u.param && len(e.Parent().Node().(*ast.ReturnStmt).Results) == 1 {
			u.returned = true // the caller decides
			return escape{kind: stays}, nil
		}
		return kept(e.ParentEdgeKind(), pos), nil
	case edge.CompositeLit_Elts, edge.KeyValueExpr_Value:
		lit := e.Parent()
		if e.ParentEdgeKind() == edge.KeyValueExpr_Value {
			lit = lit.Parent()
		}
		if p.mapKeyRead(lit) || p.onlyLookedUp(fn, lit) {
			return escape{kind: stays}, nil // m[Key{value: s}]: a lookup keeps nothing
		}
		return kept(e.ParentEdgeKind(), pos), nil
	case edge.SendStmt_Value:
		return kept(e.ParentEdgeKind(), pos), nil
	case edge.AssignStmt_Rhs, edge.ValueSpec_Values:
		lhs := values.AssignedAt(e, false)
		if lhs == nil {
			return escape{unknown, "assigned", pos}, nil
		}
		if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
			if p.TypesInfo.Uses[id] == v {
				return escape{kind: stays}, nil // v = v[:n]
			}
			if w, ok := p.TypesInfo.ObjectOf(id).(*types.Var); ok && w.Parent() != w.Pkg().Scope() {
				if isBufferAlias(fn, w) {
					return escape{kind: stays}, w // key := v[:n], var key = v[:n]: an alias
				}
				return escape{unknown, "copied to " + id.Name, pos}, nil
			}
		}
		return escape{outlives, "stored in " + types.ExprString(lhs), pos}, nil
	case edge.CallExpr_Args:
		return p.bufferArg(u, e, v)
	}
	return escape{unknown, "used as " + e.ParentEdgeKind().String(), pos}, nil
}

// mapKeyRead reports whether the composite literal at lit is the key of a
// map read, m[T{...}], which keeps nothing of it.
func (p *hotBufferCheck) mapKeyRead(lit inspector.Cursor) bool {
	lit = outerParens(lit)
	if lit.ParentEdgeKind() != edge.IndexExpr_Index {
		return false
	}
	idx := lit.Parent()
	if _, ok := p.TypesInfo.TypeOf(idx.Node().(*ast.IndexExpr).X).Underlying().(*types.Map); !ok {
		return false
	}
	switch idx.ParentEdgeKind() {
	case edge.AssignStmt_Lhs, edge.UnaryExpr_X, edge.IncDecStmt_X:
		return false // m[k] = x stores the key
	}
	return true
}

// onlyLookedUp reports whether the composite literal at lit, which holds
// the buffer's bytes, is assigned to a local variable of the function at fn
// whose every use is the key of a map read: key := Key{value: s}; m[key]
// keeps nothing of it, as m[Key{value: s}] does not.
func (p *hotBufferCheck) onlyLookedUp(fn inspector.Cursor, lit inspector.Cursor) bool {
	lit = outerParens(lit)
	id, _ := values.AssignedAt(lit, false).(*ast.Ident)
	w, ok := p.TypesInfo.Defs[id].(*types.Var) // defined there: key := Key{...}, var key = Key{...}
	if !ok {
		return false
	}
	if _, ok := w.Type().Underlying().(*types.Struct); !ok {
		return false // a pointer or an interface may be kept by what it is passed to
	}
	uses, ok := p.vals.UsedAs(fn, w, edge.IndexExpr_Index)
	return ok && len(uses) > 0 && !slices.ContainsFunc(uses, func(use inspector.Cursor) bool { return values.Captured(use, w) || !p.mapKeyRead(use) })
}

// isBufferAlias reports whether w, assigned the buffer, can be followed as
// the buffer: a []byte variable declared in the body of the function at fn,
// not a named result (a bare return returns it unseen) nor a parameter.
func isBufferAlias(fn inspector.Cursor, w *types.Var) bool {
	var body *ast.BlockStmt
	switch n := fn.Node().(type) {
	case *ast.FuncDecl:
		body = n.Body
	case *ast.FuncLit:
		body = n.Body
	}
	return body != nil && body.Pos() <= w.Pos() && w.Pos() < body.End() && types.Identical(w.Type(), byteSlice)
}

// bufferArg classifies the buffer (or a slice of it) passed as an argument;
// alias is a local variable that the call's result, which holds the
// buffer's bytes, is assigned to.
func (p *hotBufferCheck) bufferArg(u *sliceUses, arg inspector.Cursor, v *types.Var) (_ escape, alias *types.Var) {
	fn := u.fn
	pos := arg.Node().Pos()
	call := arg.Parent().Node().(*ast.CallExpr)
	if arg.Parent().ParentEdgeKind() == edge.GoStmt_Call {
		return escape{outlives, "passed to a goroutine", pos}, nil
	}
	if tv, ok := p.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
		if values.IsString(tv.Type) {
			return escape{kind: stays}, nil // string(v) copies
		}
		return escape{unknown, "converted", pos}, nil
	}
	switch name := values.Builtin(p.TypesInfo, call); name {
	case "len", "cap", "clear", "copy":
		return escape{kind: stays}, nil
	case "append":
		if arg.ParentEdgeIndex() > 0 && call.Ellipsis.IsValid() {
			return escape{kind: stays}, nil // append(x, v...) copies
		}
		if p.assignedBack(arg.Parent(), v) {
			return escape{kind: stays}, nil // v = append(v, x...): seen from the left-hand side
		}
		return escape{unknown, "appended to", pos}, nil
	case "SliceData", "String":
		// unsafe.SliceData(v) and unsafe.String(that, n) hold the buffer's
		// bytes: what becomes of them decides.
		if arg.ParentEdgeIndex() == 0 {
			return p.derivedValue(u, arg.Parent(), v)
		}
		return escape{unknown, "passed to unsafe." + name, pos}, nil
	case "":
	default:
		return escape{unknown, "passed to " + name, pos}, nil
	}
	if callee := typeutil.StaticCallee(p.TypesInfo, call); callee != nil {
		if values.ByteOrderAppends(callee) && arg.ParentEdgeIndex() == 0 {
			// v = binary.BigEndian.AppendUint32(v, x) appends to v, as
			// append does; its result elsewhere holds the buffer's bytes.
			if p.assignedBack(arg.Parent(), v) {
				return escape{kind: stays}, nil
			}
			return p.derivedValue(u, arg.Parent(), v)
		}
		if values.ByteOrderReads(callee) {
			return escape{stays, "passed to " + shortName(callee), pos}, nil
		}
		if kind, ok := bufferReaders[callee.FullName()]; ok {
			return escape{kind, "passed to " + shortName(callee), pos}, nil
		}
		if _, ok := sumFuncs[funcKey(callee)]; ok && callee.Signature().Recv() == nil {
			return escape{kind: stays}, nil // a sum of the catalog reads it, keeps nothing
		}
		if bp, ok := p.bufferParam(callee, arg.ParentEdgeIndex()); ok {
			switch {
			case bp.kind != stays:
				return escape{bp.kind, "passed to " + shortName(callee), pos}, nil
			case bp.result:
				return p.derivedValue(u, arg.Parent(), v)
			}
			return escape{kind: stays}, nil
		}
	}
	// h(v), with h a function value of a hash's shape: the compiler cannot
	// see the target, so the argument escapes; a hash does not keep it, but
	// the value's target is its caller's choice.
	if _, ok := p.digestValueSink(call); ok {
		if !p.callDynamic(fn, call.Fun, false) {
			return escape{unknown, "passed to " + types.ExprString(call.Fun) + ", whose target the compiler may know where the function is inlined", pos}, nil
		}
		return escape{transient, "passed to " + types.ExprString(call.Fun) + viaHashValue, pos}, nil
	}
	// x.Write(v) on a hasher or writer, x.Read(v) on a reader (io's
	// contracts: neither keeps v).
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Write" && sel.Sel.Name != "Read" || len(call.Args) != 1 {
		return escape{unknown, "passed to " + types.ExprString(call.Fun), pos}, nil
	}
	if w, ok := p.TypesInfo.Uses[values.IdentOf(sel.X)].(*types.Var); ok {
		if s, ok := p.model.hashers[w]; ok && s.ctor.alloc == onEscape && ast.Unparen(sel.X) == values.IdentOf(sel.X) {
			return escape{kind: stays}, nil // devirtualized: the buffer stays on the stack
		}
	}
	if types.IsInterface(p.TypesInfo.TypeOf(sel.X)) && p.callDynamic(fn, sel.X, true) {
		return escape{transient, "passed to " + types.ExprString(sel) + " through an interface", pos}, nil
	}
	return escape{unknown, "passed to " + types.ExprString(sel), pos}, nil
}

// assignedBack reports whether the call at call is assigned back to v alone:
// v = append(v, x...), a write to v that its left-hand side decides.
func (p *hotBufferCheck) assignedBack(call inspector.Cursor, v *types.Var) bool {
	if call.ParentEdgeKind() != edge.AssignStmt_Rhs {
		return false
	}
	assign := call.Parent().Node().(*ast.AssignStmt)
	return len(assign.Lhs) == 1 && p.TypesInfo.Uses[values.IdentOf(assign.Lhs[0])] == v
}

// callDynamic reports whether a call through x, in the function at fn, is
// certainly dynamic, so that its arguments escape. x is a function value
// called, or an interface value whose method is called (iface). It is when x is a field,
// a package variable (for a function value, another package's too), or a
// parameter of a function that calls itself or, for a function value, that
// the compiler never inlines (inlined, its caller's function or type may be
// known there, and the call direct); for an interface value, also when x is
// a hasher that a constructor the compiler does not inline made, or a value
// asserted from an interface.
func (p *pass) callDynamic(fn inspector.Cursor, x ast.Expr, iface bool) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.SelectorExpr:
		if sel, ok := p.TypesInfo.Selections[x]; ok {
			return sel.Kind() == types.FieldVal
		}
		v, ok := p.TypesInfo.Uses[x.Sel].(*types.Var)
		return !iface && ok && v.Parent() == v.Pkg().Scope() // another package's variable
	case *ast.Ident:
		w, ok := p.TypesInfo.Uses[x].(*types.Var)
		if !ok {
			return false
		}
		if w.Parent() == w.Pkg().Scope() {
			return true
		}
		if s, ok := p.model.hashers[w]; iface && ok {
			return s.ctor.alloc == always
		}
		decl, ok := fn.Node().(*ast.FuncDecl)
		if !ok || p.vals.Written(fn, w) {
			return false
		}
		if obj := p.TypesInfo.Defs[decl.Name].(*types.Func); slices.Contains(slices.Collect(obj.Signature().Params().Variables()), w) {
			return !iface && p.noInline(obj, decl) || p.freq.CallsItself(obj)
		}
		// w := y.(I), or w, ok := y.(I)
		if def, ok := p.vals.Def(fn, w); ok && iface && def.ParentEdgeKind() == edge.AssignStmt_Lhs && def.ParentEdgeIndex() == 0 {
			assign := def.Parent().Node().(*ast.AssignStmt)
			_, asserted := ast.Unparen(assign.Rhs[0]).(*ast.TypeAssertExpr)
			return asserted && len(assign.Rhs) == 1
		}
	}
	return false
}

// viaHashValue ends the reason of a buffer that escapes through a function
// value of a hash's shape: its target is the caller's choice, which may keep
// what it is given, so no fix reuses the buffer.
const viaHashValue = ", a function value of a hash's shape"

// derivedValue classifies the value of a call that holds v's bytes.
func (p *hotBufferCheck) derivedValue(u *sliceUses, call inspector.Cursor, v *types.Var) (escape, *types.Var) {
	if u.depth >= maxAliasDepth {
		return escape{unknown, "derived too many times", call.Node().Pos()}, nil
	}
	u.depth++
	defer func() { u.depth-- }()
	return p.sliceValue(u, call, v)
}

// derivedFrom reports whether e is v, a slice of v or append(<derived>, ...).
func (p *hotBufferCheck) derivedFrom(e ast.Expr, v *types.Var) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return p.TypesInfo.Uses[e] == v
	case *ast.SliceExpr:
		return p.derivedFrom(e.X, v)
	case *ast.CallExpr:
		if len(e.Args) == 0 {
			return false
		}
		if values.Builtin(p.TypesInfo, e) == "append" {
			return p.derivedFrom(e.Args[0], v)
		}
		fn := typeutil.StaticCallee(p.TypesInfo, e)
		return values.ByteOrderAppends(fn) && p.derivedFrom(e.Args[0], v)
	}
	return false
}

// bufferAllocates says what allocates, or false when the buffer stays on
// the stack.
func (p *hotBufferCheck) bufferAllocates(b *buffer, esc escape) (string, bool) {
	build := shorten(types.ExprString(b.build))
	switch {
	case !b.made && esc.kind == transient:
		return fmt.Sprintf("%s allocates its array, which escapes to the heap (%s),", build, esc.reason), true
	case !b.made:
		return build + " allocates its array", true
	case esc.kind == transient:
		return fmt.Sprintf("%s escapes to the heap (%s)", build, esc.reason), true
	case b.size > maxStackMake:
		return fmt.Sprintf("%s is too large for the stack (more than 64 KiB)", build), true
	case b.size < 0:
		return fmt.Sprintf("%s allocates whenever it is larger than %d bytes (its size is known only at run time; before Go 1.25, always)", build, maxStackVariableMake), true
	}
	return "", false
}

// bufferFix backs a buffer of a size known only at run time that does not
// escape by an array on the stack, or else takes the buffer from a pool for
// the duration of the call.
//
// A constant size that reaches the heap gets the pool, not an array: a
// buffer that escapes through an interface takes its array to the heap with
// it (measured: a [8]byte written to a hash.Hash parameter of a recursive
// function, 1 allocation per call), and a make above 64 KiB would make an
// array as large on the stack of every call. A constant size below
// minPooledBuffer gets no fix: the pool would cost more than it saves.
func (p *hotBufferCheck) bufferFix(cur inspector.Cursor, b *buffer, esc escape, loop inspector.Cursor, declared map[ast.Node]map[string]bool) (*analysis.SuggestedFix, string) {
	if b.made && b.size < 0 && esc.kind == stays {
		return p.stackBufferFix(cur, b, declared)
	}
	if strings.HasSuffix(esc.reason, viaHashValue) {
		return nil, "it is passed to a function value, whose target may keep it"
	}
	if b.made && b.size >= 0 && b.size < minPooledBuffer {
		return nil, "a pool costs more time than allocating " + plural(int(b.size), "byte")
	}
	if loop.Valid() {
		return nil, "it is made in a loop, where a deferred Put would keep every iteration's buffer until the function returns"
	}
	if !isListEdge(cur.ParentEdgeKind()) {
		return nil, "the buffer is not defined by a statement of its own"
	}
	f := p.file(b.def.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	spec := fixes.BufferSpec{Name: b.v.Name(), Build: b.build}
	switch {
	case p.inlinePools():
		if !b.made || len(b.build.Args) != 2 {
			return nil, "-pool=inline pools buffers made by make([]byte, n) only"
		}
		spec.Inline, spec.Size = true, b.size
		if b.size < 0 {
			// A size known only at run time: a pool of buffers that grow.
			def, ok := b.def.(*ast.AssignStmt)
			if !ok || def.Tok != token.DEFINE || len(def.Lhs) != 1 {
				return nil, "the buffer, of a size known only at run time, is not defined alone by buf := make(...)"
			}
			spec.Size, spec.Len = 0, b.build.Args[1]
		}
	case b.made:
		if b.size > maxPooledBuffer {
			return nil, "hashpool.Buffers pools buffers of up to 1 MiB"
		}
		spec.Len = b.build.Args[1]
		if len(b.build.Args) == 3 {
			spec.Cap = b.build.Args[2]
		}
	default:
		spec.Base = b.build.Args[0]
	}
	fix := fixes.BufferPool(f, b.def, spec)
	return &fix, ""
}

// stackBufferFix backs the buffer, of a size known only at run time and
// that does not escape, by an array on the stack (see fixes.StackBuffer).
func (p *hotBufferCheck) stackBufferFix(cur inspector.Cursor, b *buffer, declared map[ast.Node]map[string]bool) (*analysis.SuggestedFix, string) {
	// Reject make([]byte, n, c): the array would have to hold c bytes, and
	// n and c would be evaluated in another order.
	if len(b.build.Args) != 2 {
		return nil, "the make has a capacity"
	}
	// Reject a size of another type than int: it cannot be compared with
	// len(array) as it is, and a conversion could change its value.
	size := b.build.Args[1]
	if !types.Identical(p.TypesInfo.TypeOf(size), types.Typ[types.Int]) {
		return nil, "its size is not an int"
	}
	// Reject buf := make([]byte, len(buf)+1), where the size reads an outer
	// buf: declared before the if, the new buf would be read instead.
	for n := range ast.Preorder(size) {
		if id, ok := n.(*ast.Ident); ok && id.Name == b.v.Name() {
			return nil, "its size mentions " + id.Name
		}
	}
	// A var block that declares other variables keeps them; the buffer is
	// set after it (fixes.StackBufferInBlock).
	var inBlock *ast.ValueSpec
	if !b.alone {
		spec, why := p.blockSpec(b, size)
		if spec == nil {
			return nil, why
		}
		inBlock = spec
	}
	stmt, block, ok := listStatement(cur)
	if !ok || stmt != b.def {
		return nil, "the buffer is not defined by a statement of its own"
	}
	f := p.file(b.def.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	// Reject a definition that shares its line with code before it: the fix
	// writes it as several lines at the same indentation.
	if !f.StartsLine(b.def.Pos()) {
		return nil, "the statement does not start its line"
	}
	// Reject a file that declares len or make: the fix calls the builtins.
	scope := f.Pkg.Scope().Innermost(b.def.Pos())
	for _, name := range []string{"len", "make"} {
		if _, obj := scope.LookupParent(name, b.def.Pos()); obj == nil || obj.Parent() != types.Universe {
			return nil, name + " is not the builtin here"
		}
	}
	array, ok := p.arrayName(f, block, b.def.Pos(), b.v.Name()+"Array", declared)
	if !ok {
		return nil, "no free name for the array"
	}
	sizeName := "size"
	if sizeName == b.v.Name() || sizeName == array {
		sizeName = "n"
	}
	spec := fixes.StackBufferSpec{Name: b.v.Name(), Array: array, SizeName: sizeName, Size: size, ArraySize: stackArraySize}
	if inBlock != nil {
		fix := fixes.StackBufferInBlock(f, b.def.(*ast.DeclStmt), inBlock, spec)
		return &fix, ""
	}
	fix := fixes.StackBuffer(f, b.def, spec)
	return &fix, ""
}

// blockSpec returns the spec of the buffer declared with other variables in
// a var block, when the buffer can be set after the block instead: the spec
// declares it alone, evaluating the size has no effect, and the specs after
// it do not read it. Otherwise it says why not.
func (p *hotBufferCheck) blockSpec(b *buffer, size ast.Expr) (*ast.ValueSpec, string) {
	gen := b.def.(*ast.DeclStmt).Decl.(*ast.GenDecl) // an assignment defines the buffer alone
	var spec *ast.ValueSpec
	for _, s := range gen.Specs {
		vs := s.(*ast.ValueSpec)
		if spec != nil {
			// Reject a later spec that reads the buffer: it would read it
			// before the fix sets it.
			if values.Mentions(p.TypesInfo, vs, b.v) {
				return nil, "a variable declared after it in the same block reads it"
			}
			continue
		}
		for _, id := range vs.Names {
			if p.TypesInfo.Defs[id] == b.v {
				spec = vs
			}
		}
	}
	if spec == nil || len(spec.Names) != 1 || len(spec.Values) != 1 {
		return nil, "it is declared together with other variables in one spec"
	}
	// Reject a size whose evaluation could be affected by the specs after it,
	// or affect them: it is evaluated after them.
	if !p.effectFree(size) {
		return nil, "it is declared with other variables and its size calls a function"
	}
	return spec, ""
}

// effectFree reports whether evaluating e can have no effect and read no
// result of one: names, constants, selectors, indexing, len and cap,
// conversions and operators.
func (p *hotBufferCheck) effectFree(e ast.Expr) bool {
	for n := range ast.Preorder(e) {
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, ok := p.TypesInfo.Types[n.Fun]; ok && tv.IsType() {
				continue // a conversion
			}
			if name := values.Builtin(p.TypesInfo, n); name != "len" && name != "cap" {
				return false
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				return false // a receive
			}
		case *ast.FuncLit:
			return false
		}
	}
	return true
}

// Byte slices passed to functions. A buffer handed to a helper of its
// package stays where it is when the helper only reads, writes, slices or
// copies it, as merkledb's
//
//	func extendIntoBuffer(buffer []byte, val Key, bitsOffset int) { ... }
//
// writes a key into the buffer its caller made; a helper that returns its
// argument (or a view of it: unsafe.String(unsafe.SliceData(bs), len(bs)))
// hands the caller a value that holds the buffer's bytes, which the caller's
// uses then decide. The summary of every []byte parameter is computed on
// demand from the helper's body, with the rules of the buffer's own
// function (sliceEscape); a function of another package has none (the
// paramEscapes fact carries hasher parameters only), so a buffer passed to
// one is not decided.

// bufferParamFlow is what a function does with one []byte parameter.
type bufferParamFlow struct {
	kind   escapeKind
	result bool // returned, or a value holding its bytes, as the only result
}

// bufferParam returns fn's summary of its parameter i, and false when fn has
// none: i is not a []byte parameter, or fn is of another package, or has no
// body. A call cycle reaches fn again while its summaries are computed: the
// call is not decided then (unknown), which errs on silence.
func (p *hotBufferCheck) bufferParam(fn *types.Func, i int) (bufferParamFlow, bool) {
	fn = fn.Origin()
	params := fn.Signature().Params()
	if fn.Pkg() != p.Pkg || i >= params.Len() || fn.Signature().Variadic() && i == params.Len()-1 || !types.Identical(params.At(i).Type(), byteSlice) {
		return bufferParamFlow{}, false
	}
	flows, ok := p.bufParams[fn]
	if ok {
		return flows[i], flows != nil
	}
	cur, ok := p.decl(fn)
	if !ok || cur.Node().(*ast.FuncDecl).Body == nil {
		p.bufParams[fn] = nil
		return bufferParamFlow{}, false
	}
	flows = make([]bufferParamFlow, params.Len())
	for j := range flows {
		flows[j].kind = unknown // while they are computed
	}
	p.bufParams[fn] = flows
	for j := range flows {
		v := params.At(j)
		switch {
		case !types.Identical(v.Type(), byteSlice) || fn.Signature().Variadic() && j == params.Len()-1:
			// never asked
		case v.Name() == "" || v.Name() == "_":
			flows[j].kind = stays
		default:
			esc, returned := p.sliceEscape(cur, v, true)
			flows[j] = bufferParamFlow{kind: esc.kind, result: returned}
			if returned && fn.Signature().Results().Len() != 1 {
				flows[j].kind = unknown
			}
		}
	}
	return flows[i], true
}

// Strings hashed through a function value:
//
//	hash := m.hash([]byte(key))    // m.hash func([]byte) uint32
//
// A []byte conversion of a string passed to a function value of a hash's
// shape copies the string to the heap on every call: the compiler cannot
// see the target, so the argument escapes (and crc32.ChecksumIEEE, a common
// target, lets it escape itself). No fix: hashing the string's bytes without
// the copy takes unsafe, or a hash function that takes a string.
func (p *pass) checkHashedConversions() {
	taken := map[ast.Node]map[string]bool{} // the arrays that fixes declare before each loop
	for cur := range p.callsIn(p.root) {
		call := cur.Node().(*ast.CallExpr)
		p.auditHashedArgs(cur, call)
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Write" && len(call.Args) == 1 && values.HasherLike(p.TypesInfo.TypeOf(sel.X)) {
			p.checkWrittenConversion(cur, sel.X, call.Args[0], taken)
			continue
		}
		if !p.suppress.analyzed(cur) {
			continue
		}
		s, ok := p.digestValueSink(call)
		if !ok {
			continue
		}
		conv, ok := ast.Unparen(s.arg).(*ast.CallExpr)
		if !ok {
			continue
		}
		x, ok := p.byteConversion(conv)
		if !ok || p.TypesInfo.Types[x].Value != nil {
			continue // not a conversion, or of a constant (no copy per call)
		}
		if bin, ok := ast.Unparen(x).(*ast.BinaryExpr); ok && bin.Op == token.ADD {
			continue // []byte(a + b): the compiler builds the bytes at once, no copy of its own
		}
		if fn, ok := values.EnclosingFunc(cur); !ok || !p.callDynamic(fn, call.Fun, false) {
			continue // the target may be known where the function is inlined
		}
		arg, ok := cur.FindNode(conv)
		if !ok {
			continue
		}
		often, _, ok := p.often(arg, hotBuffer, 1)
		if !ok {
			continue
		}
		what := fmt.Sprintf("%s copies %s to the heap (passed to %s, a function value of a hash's shape) %s",
			shorten(types.ExprString(conv)), shorten(types.ExprString(x)), types.ExprString(call.Fun), often)
		p.report(conv, hotBuffer, what, nil, "hash the string's bytes without the copy (a hash function that takes a string)",
			fmt.Sprintf("the only form without the copy, unsafe.Slice(unsafe.StringData(%[1]s), len(%[1]s)), is safe only if %[2]s never keeps or modifies its argument, and its target is not known here",
				shorten(types.ExprString(x)), types.ExprString(call.Fun)))
	}
}

// checkWrittenConversion judges arg, written into the hasher h at cur, when
// it is a []byte conversion of a string that Write lets escape (a dynamic
// Write, crc32's): a heap copy per write, which an array declared before
// the loop replaces (it escapes once; measured in testdata/src/catalogued).
func (p *pass) checkWrittenConversion(cur inspector.Cursor, h, arg ast.Expr, taken map[ast.Node]map[string]bool) {
	conv, _ := ast.Unparen(arg).(*ast.CallExpr)
	if conv == nil {
		return
	}
	x, ok := p.byteConversion(conv)
	fn, inFunc := values.EnclosingFunc(cur)
	convCur, found := cur.FindNode(conv)
	id, _ := ast.Unparen(h).(*ast.Ident)
	v, _ := p.TypesInfo.Uses[id].(*types.Var)
	made := p.model.hashers[v] // a local hasher's constructor call
	why := "its Write is a dynamic call, which lets what it is given escape"
	switch {
	case !ok || !inFunc || !found:
		return
	case !p.suppress.analyzed(cur):
		p.suppress.notAnalyzed(convCur, conv, hotBuffer)
		return
	case made != nil && made.ctor.writeEscapes:
		why = made.ctor.name + "'s Write lets what it is given escape"
	case !p.callDynamic(fn, h, true):
		p.silent(conv, hotBuffer, "the copy escapes only if "+types.ExprString(h)+"'s Write lets it, which the compiler decides where it sees the hasher (a standard hasher made in the function keeps a copy of up to 32 bytes on the stack)")
		return
	}
	often, loop, ok := p.often(convCur, hotBuffer, 1)
	what := fmt.Sprintf("%s copies %s to the heap on each write (%s: %s) %s", shorten(types.ExprString(conv)), shorten(types.ExprString(x)), types.ExprString(h), why, often)
	switch {
	case !ok:
		return
	case !loop.Valid():
		p.silent(conv, hotBuffer, what+": one copy per call, and an array for it would escape as the copy does")
		return
	case made != nil && loop.Node().Pos() <= made.Call.Pos() && made.Call.End() <= loop.Node().End():
		p.silent(conv, hotBuffer, what+", into a hasher made anew in the same loop, which is judged where it is made")
		return
	}
	// Before the outermost loop of the function around the conversion: the
	// array is made once per run of it, and no goroutine of the loop shares it.
	var outer ast.Stmt
	for c := range convCur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		loop, isLoop := c.Node().(ast.Stmt)
		if !isLoop {
			break
		}
		outer = loop
		if labeled, ok := c.Parent().Node().(*ast.LabeledStmt); ok {
			outer = labeled
		}
	}
	var fix *analysis.SuggestedFix
	if f := p.file(conv.Pos()); f != nil && outer != nil {
		if taken[outer] == nil {
			taken[outer] = map[string]bool{}
		}
		fixed := fixes.LoopArray(f, outer, conv, x, f.FreshName(conv.Pos(), "buf", taken[outer]))
		fix = &fixed
	}
	p.report(conv, hotBuffer, what, fix, "copy it into an array declared before the loop", "the source file cannot be read, or no loop of the function holds the write")
}
