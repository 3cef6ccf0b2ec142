package analyzer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/hashalloc/hashalloc/fixes"
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
//   - append(<empty>, x...) with x not empty, even when it does not escape:
//     1 per growth.
//
// What stays on the stack, and is never reported: a make of constant size up
// to 64 KiB that does not escape; a make written only into a hasher the
// compiler devirtualizes (a local sha256.New(), even one passed to io.Copy);
// a variable-size make that does not escape (on the stack up to 32 bytes at
// run time, on the heap above: which one cannot be told, so it is not
// reported). A buffer passed to a function that is not known (it may keep it,
// or not let it escape), returned, stored, sent or captured is not reported.
const hotBuffer = "hot-buffer"

// maxStackMake is the largest constant-size make that stays on the stack
// when it does not escape (measured: 65536 bytes stay, 65537 allocate).
const maxStackMake = 64 << 10

// maxPooledBuffer is the largest buffer that hashpool.Buffers pools.
const maxPooledBuffer = 1 << 20

// bufferReaders are the functions known not to keep a byte slice passed to
// them, by full name, with whether the slice escapes through them.
var bufferReaders = map[string]escapeKind{
	"bytes.Equal":                              stays,
	"bytes.Compare":                            stays,
	"crypto/hmac.Equal":                        stays,
	"crypto/subtle.ConstantTimeCompare":        stays,
	"encoding/hex.Encode":                      stays,
	"(encoding/binary.bigEndian).PutUint16":    stays,
	"(encoding/binary.bigEndian).PutUint32":    stays,
	"(encoding/binary.bigEndian).PutUint64":    stays,
	"(encoding/binary.bigEndian).Uint16":       stays,
	"(encoding/binary.bigEndian).Uint32":       stays,
	"(encoding/binary.bigEndian).Uint64":       stays,
	"(encoding/binary.littleEndian).PutUint16": stays,
	"(encoding/binary.littleEndian).PutUint32": stays,
	"(encoding/binary.littleEndian).PutUint64": stays,
	"(encoding/binary.littleEndian).Uint16":    stays,
	"(encoding/binary.littleEndian).Uint32":    stays,
	"(encoding/binary.littleEndian).Uint64":    stays,
	// They pass the buffer to an io.Reader's Read: it escapes, is not kept.
	"io.CopyBuffer": transient,
	"io.ReadFull":   transient,
}

// buffer is a byte buffer defined by v := make([]byte, ...) or
// v := append(<empty>, x...).
type buffer struct {
	def   *ast.AssignStmt
	v     *types.Var
	build *ast.CallExpr // the make or the append
	made  bool          // built by make
	size  int64         // the constant size (capacity) of a make, or -1
}

// checkHotBuffer reports the byte buffers that hot hashing functions build
// per call (or per iteration) and that really reach the heap.
func (p *pass) checkHotBuffer(sites []*Site) {
	hashers := p.localHashers(sites)
	hashing := map[ast.Node]bool{}
	for cur := range p.root.Preorder((*ast.AssignStmt)(nil)) {
		if !p.suppress.analyzed(cur) {
			continue
		}
		b, ok := p.bufferDef(cur.Node().(*ast.AssignStmt))
		if !ok {
			continue
		}
		fn, ok := enclosingFunc(cur)
		if !ok {
			continue
		}
		if _, seen := hashing[fn.Node()]; !seen {
			hashing[fn.Node()] = p.hashes(fn, hashers)
		}
		if !hashing[fn.Node()] {
			continue // not a hashing function
		}
		often, loop, ok := p.frequency(cur, false)
		if !ok {
			continue // cold code: one allocation per call is fine
		}
		esc := p.bufferEscape(fn, b, hashers)
		if esc.kind == unknown || esc.kind == outlives {
			continue // cannot tell, or meant to outlive the call
		}
		// Leave to concat-hash a buffer that is only filled by copies and
		// hashed once: its rewrite removes the buffer altogether.
		if p.concatShaped(fn, b) {
			continue
		}
		what, ok := p.bufferAllocates(b, esc)
		if !ok {
			continue // on the stack
		}
		fix, why := p.bufferFix(cur, b, loop)
		p.report(b.build, hotBuffer, what+" "+often, fix, "reuse a scratch buffer or a pooled one", why)
	}
}

// bufferDef recognizes v := make([]byte, ...) and v := append(<empty>, x...),
// where <empty> is []byte(nil), []byte{} or s[:0:0]: an append to nothing
// that allocates an array of its own.
func (p *pass) bufferDef(assign *ast.AssignStmt) (*buffer, bool) {
	if assign.Tok != token.DEFINE || len(assign.Lhs) != 1 || len(assign.Rhs) != 1 {
		return nil, false
	}
	id, ok := assign.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := p.TypesInfo.Defs[id].(*types.Var)
	if !ok || !types.Identical(v.Type(), byteSlice) {
		return nil, false
	}
	call, ok := ast.Unparen(assign.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	b := &buffer{def: assign, v: v, build: call, size: -1}
	switch p.builtin(call) {
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

// builtin returns the name of the builtin function that call calls, or "".
func (p *pass) builtin(call *ast.CallExpr) string {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return ""
	}
	if _, ok := p.TypesInfo.Uses[id].(*types.Builtin); !ok {
		return ""
	}
	return id.Name
}

// emptyBase reports whether e is an empty byte slice without capacity:
// []byte(nil), []byte{}, or s[:0:0].
func (p *pass) emptyBase(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		tv := p.TypesInfo.Types[e.Fun]
		return tv.IsType() && len(e.Args) == 1 && p.TypesInfo.Types[e.Args[0]].IsNil()
	case *ast.CompositeLit:
		return len(e.Elts) == 0
	case *ast.SliceExpr:
		return e.Slice3 && isZero(p.TypesInfo, e.High) && isZero(p.TypesInfo, e.Max)
	}
	return false
}

func isZero(info *types.Info, e ast.Expr) bool {
	if e == nil {
		return false
	}
	tv := info.Types[e]
	return tv.Value != nil && constant.Sign(tv.Value) == 0
}

// hashes reports whether the function at fn hashes: it calls a hash
// constructor, a sum function, or a hasher's Write or Sum, or passes a
// hasher to a function.
func (p *pass) hashes(fn inspector.Cursor, hashers map[*types.Var]*Site) bool {
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if callee := typeutil.StaticCallee(p.TypesInfo, call); callee != nil {
			if _, ok := p.cfg.lookupConstructor(callee); ok {
				return true
			}
			if callee.Pkg() != nil && callee.Signature().Recv() == nil {
				if _, ok := sumFuncs[callee.Pkg().Path()+"."+callee.Name()]; ok {
					return true
				}
			}
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Write" || sel.Sel.Name == "Sum") {
			if isHasher(p.TypesInfo.TypeOf(sel.X)) {
				return true
			}
		}
		for _, arg := range call.Args {
			if isHasher(p.TypesInfo.TypeOf(arg)) {
				return true // io.Copy(h, r): writes to the hasher
			}
		}
	}
	return false
}

// bufferEscape decides what the function at fn does with the buffer: stays
// (only read, written, sliced, copied), transient (it escapes through a call
// that does not keep it), outlives (returned, stored, sent) or unknown.
func (p *pass) bufferEscape(fn inspector.Cursor, b *buffer, hashers map[*types.Var]*Site) escape {
	verdict := escape{kind: stays}
	for use := range fn.Preorder((*ast.Ident)(nil)) {
		id := use.Node().(*ast.Ident)
		if p.TypesInfo.Uses[id] != b.v {
			continue
		}
		if capturedBy(use, b.v) {
			verdict = worse(verdict, escape{unknown, "captured by a closure", id.Pos()})
			continue
		}
		verdict = worse(verdict, p.bufferUse(fn, use, b, hashers))
	}
	return verdict
}

// bufferUse classifies one use of the buffer's variable.
func (p *pass) bufferUse(fn, use inspector.Cursor, b *buffer, hashers map[*types.Var]*Site) escape {
	pos := use.Node().Pos()
	if use.ParentEdgeKind() == edge.AssignStmt_Lhs {
		// v = v[:n], v = append(v, x...): still the same buffer (or a new one
		// that append made). Anything else is not followed.
		assign := use.Parent().Node().(*ast.AssignStmt)
		if len(assign.Lhs) == 1 && len(assign.Rhs) == 1 && p.derivedFrom(assign.Rhs[0], b.v) {
			return escape{kind: stays}
		}
		return escape{unknown, "assigned", pos}
	}
	// A slice of the buffer is the buffer.
	e := use
	for e.ParentEdgeKind() == edge.SliceExpr_X || e.ParentEdgeKind() == edge.ParenExpr_X {
		e = e.Parent()
	}
	switch e.ParentEdgeKind() {
	case edge.IndexExpr_X:
		if e.Parent().ParentEdgeKind() == edge.UnaryExpr_X {
			return escape{unknown, "address taken", pos} // &v[i]
		}
		return escape{kind: stays}
	case edge.RangeStmt_X, edge.BinaryExpr_X, edge.BinaryExpr_Y:
		return escape{kind: stays}
	case edge.ReturnStmt_Results, edge.SendStmt_Value, edge.CompositeLit_Elts, edge.KeyValueExpr_Value:
		return kept(e.ParentEdgeKind(), pos)
	case edge.AssignStmt_Rhs:
		assign := e.Parent().Node().(*ast.AssignStmt)
		if len(assign.Lhs) == len(assign.Rhs) {
			lhs := assign.Lhs[e.ParentEdgeIndex()]
			if p.TypesInfo.Uses[identOf(lhs)] == b.v {
				if _, ok := ast.Unparen(lhs).(*ast.Ident); ok {
					return escape{kind: stays} // v = v[:n]
				}
			}
			if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
				if w, ok := p.TypesInfo.ObjectOf(id).(*types.Var); ok && w.Parent() != w.Pkg().Scope() {
					return escape{unknown, "copied to " + id.Name, pos}
				}
			}
			return escape{outlives, "stored in " + types.ExprString(lhs), pos}
		}
		return escape{unknown, "assigned", pos}
	case edge.CallExpr_Args:
		return p.bufferArg(fn, e, b, hashers)
	}
	return escape{unknown, "used as " + e.ParentEdgeKind().String(), pos}
}

// bufferArg classifies the buffer (or a slice of it) passed as an argument.
func (p *pass) bufferArg(fn, arg inspector.Cursor, b *buffer, hashers map[*types.Var]*Site) escape {
	pos := arg.Node().Pos()
	call := arg.Parent().Node().(*ast.CallExpr)
	if arg.Parent().ParentEdgeKind() == edge.GoStmt_Call {
		return escape{outlives, "passed to a goroutine", pos}
	}
	if tv, ok := p.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
		if basic, ok := tv.Type.Underlying().(*types.Basic); ok && basic.Info()&types.IsString != 0 {
			return escape{kind: stays} // string(v) copies
		}
		return escape{unknown, "converted", pos}
	}
	switch name := p.builtin(call); name {
	case "len", "cap", "clear", "copy":
		return escape{kind: stays}
	case "append":
		if arg.ParentEdgeIndex() > 0 && call.Ellipsis.IsValid() {
			return escape{kind: stays} // append(x, v...) copies
		}
		// v = append(v, x...) is a write to v, seen from the left-hand side.
		if arg.Parent().ParentEdgeKind() == edge.AssignStmt_Rhs {
			assign := arg.Parent().Parent().Node().(*ast.AssignStmt)
			if len(assign.Lhs) == 1 && p.TypesInfo.Uses[identOf(assign.Lhs[0])] == b.v {
				return escape{kind: stays}
			}
		}
		return escape{unknown, "appended to", pos}
	case "":
	default:
		return escape{unknown, "passed to " + name, pos}
	}
	if fn := typeutil.StaticCallee(p.TypesInfo, call); fn != nil {
		if kind, ok := bufferReaders[fn.FullName()]; ok {
			return escape{kind, "passed to " + shortName(fn), pos}
		}
		if fn.Pkg() != nil && fn.Signature().Recv() == nil {
			if _, ok := sumFuncs[fn.Pkg().Path()+"."+fn.Name()]; ok {
				return escape{kind: stays}
			}
		}
	}
	// x.Write(v) on a hasher or writer.
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Write" || len(call.Args) != 1 {
		return escape{unknown, "passed to " + types.ExprString(call.Fun), pos}
	}
	if w, ok := p.TypesInfo.Uses[identOf(sel.X)].(*types.Var); ok {
		if s, ok := hashers[w]; ok && s.ctor.alloc == onEscape && ast.Unparen(sel.X) == identOf(sel.X) {
			return escape{kind: stays} // devirtualized: the buffer stays on the stack
		}
	}
	if types.IsInterface(p.TypesInfo.TypeOf(sel.X)) && p.dynamic(fn, sel.X, hashers) {
		return escape{transient, "passed to " + types.ExprString(sel) + " through an interface", pos}
	}
	return escape{unknown, "passed to " + types.ExprString(sel), pos}
}

// derivedFrom reports whether e is v, a slice of v or append(<derived>, ...).
func (p *pass) derivedFrom(e ast.Expr, v *types.Var) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return p.TypesInfo.Uses[e] == v
	case *ast.SliceExpr:
		return p.derivedFrom(e.X, v)
	case *ast.CallExpr:
		return p.builtin(e) == "append" && len(e.Args) > 0 && p.derivedFrom(e.Args[0], v)
	}
	return false
}

// dynamic reports whether a method called on the interface value x is
// certainly called dynamically, so that its arguments escape: x is a field,
// a package variable, a hasher that a constructor the compiler does not
// inline made, a value asserted from an interface, or a parameter of a
// function that calls itself (which the compiler never inlines into a caller
// that might know x's type).
func (p *pass) dynamic(fn inspector.Cursor, x ast.Expr, hashers map[*types.Var]*Site) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.SelectorExpr:
		sel, ok := p.TypesInfo.Selections[x]
		return ok && sel.Kind() == types.FieldVal
	case *ast.Ident:
		w, ok := p.TypesInfo.Uses[x].(*types.Var)
		if !ok {
			return false
		}
		if w.Parent() == w.Pkg().Scope() {
			return true
		}
		if s, ok := hashers[w]; ok {
			return s.ctor.alloc == always
		}
		if p.writes(fn, w) {
			return false
		}
		decl, ok := fn.Node().(*ast.FuncDecl)
		if !ok {
			return false
		}
		if isParamOf(decl.Type, w) {
			return p.hot.callsItself(p.TypesInfo.Defs[decl.Name].(*types.Func))
		}
		// w := y.(I)
		for cur := range fn.Preorder((*ast.AssignStmt)(nil)) {
			assign := cur.Node().(*ast.AssignStmt)
			if len(assign.Lhs) >= 1 && len(assign.Rhs) == 1 && p.TypesInfo.Defs[identOf(assign.Lhs[0])] == w {
				_, asserted := ast.Unparen(assign.Rhs[0]).(*ast.TypeAssertExpr)
				return asserted
			}
		}
	}
	return false
}

// isParamOf reports whether v is a parameter of the function of type ft.
func isParamOf(ft *ast.FuncType, v *types.Var) bool {
	return ft.Params != nil && ft.Params.Pos() <= v.Pos() && v.Pos() < ft.Params.End()
}

// concatShaped reports whether the buffer is built by append or by a make
// of a size known only at run time, only filled by copies and hashed once:
// the shape of a concatenation, which concat-hash reports.
func (p *pass) concatShaped(fn inspector.Cursor, b *buffer) bool {
	if b.made && b.size >= 0 {
		return false // concat-hash leaves constant sizes alone
	}
	sinks := 0
	for use := range fn.Preorder((*ast.Ident)(nil)) {
		if p.TypesInfo.Uses[use.Node().(*ast.Ident)] != b.v {
			continue
		}
		e := use
		for e.ParentEdgeKind() == edge.SliceExpr_X || e.ParentEdgeKind() == edge.ParenExpr_X {
			e = e.Parent()
		}
		if e.ParentEdgeKind() != edge.CallExpr_Args {
			return false
		}
		call := e.Parent().Node().(*ast.CallExpr)
		if p.builtin(call) == "copy" && e.ParentEdgeIndex() == 0 {
			continue
		}
		if fn := typeutil.StaticCallee(p.TypesInfo, call); fn != nil && fn.Pkg() != nil && fn.Signature().Recv() == nil {
			if _, ok := sumFuncs[fn.Pkg().Path()+"."+fn.Name()]; ok {
				sinks++
				continue
			}
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Write" && isHasher(p.TypesInfo.TypeOf(sel.X)) {
			sinks++
			continue
		}
		return false
	}
	return sinks == 1
}

// bufferAllocates says what allocates, or false when the buffer stays on
// the stack.
func (p *pass) bufferAllocates(b *buffer, esc escape) (string, bool) {
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
	}
	return "", false
}

// bufferFix takes the buffer from a pool for the duration of the call.
func (p *pass) bufferFix(cur inspector.Cursor, b *buffer, loop inspector.Cursor) (*analysis.SuggestedFix, string) {
	if loop.Valid() {
		return nil, "it is made in a loop, where a deferred Put would keep every iteration's buffer until the function returns"
	}
	switch cur.ParentEdgeKind() {
	case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
	default:
		return nil, "the buffer is not defined by a statement of its own"
	}
	f := p.file(b.def.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	spec := fixes.BufferSpec{Name: b.v.Name(), Build: b.build}
	switch {
	case p.cfg.pool == PoolInline:
		if !b.made || len(b.build.Args) != 2 || b.size < 0 {
			return nil, "-pool=inline pools buffers of a constant size only"
		}
		spec.Inline, spec.Size = true, b.size
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
