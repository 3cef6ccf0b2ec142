package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// hasherAlloc is the category of a hash constructor whose hasher reaches the
// heap once per item of the work that repeats it.
const hasherAlloc = "hasher-alloc"

// checkHasherAlloc reports s when its hasher is heap allocated per iteration
// or per hot call, with the cheapest safe rewrite: hoist it out of the loop and
// Reset it; call the standard constructor instead of crypto.Hash.New; or take it
// from a pool.
func (p *siteChecks) checkHasherAlloc(s *Site) {
	switch {
	case s.InWrapper:
		p.silent(s.Call, hasherAlloc, "it is the hasher a constructor wrapper returns: each call of the wrapper is judged where it is made")
		return
	case s.esc.kind == unknown || s.esc.kind == devirt:
		p.silent(s.Call, hasherAlloc, "whether its hasher escapes depends on what the compiler does with it ("+s.esc.reason+")")
		return
	case s.esc.kind == outlives && strings.HasPrefix(s.esc.reason, "returned in a "):
		p.silent(s.Call, hasherAlloc, "its hasher outlives the call: "+s.esc.reason)
		return
	case s.esc.kind == outlives:
		p.silent(s.Call, hasherAlloc, "its hasher is meant to outlive the call ("+s.esc.reason+"): not per-call waste")
		return
	case s.ctor.alloc == onEscape && s.esc.kind == stays:
		p.silent(s.Call, hasherAlloc, "its hasher stays on the stack: only its methods are called, which the compiler inlines and devirtualizes")
		return
	}
	what := p.describe(s)
	made := literalHashers(p.TypesInfo, s.cur) // what repeats is the whole literal
	often, loop, ok := p.often(s.cur, hasherAlloc, max(1, s.ctor.allocs, made))
	if !ok {
		return // not per item, or a small part of what repeats it
	}
	// Reject a function value's hasher repeated only by a presumption
	// about callers outside the package: what the call costs is not known
	// (a digest, or an HMAC's five allocations, or more), so the package
	// must show the repetition itself.
	if s.ctor.funcValue && p.out.estimates[s.Call].Presumed {
		p.silent(s.Call, hasherAlloc, "its hasher comes from a function value, whose cost is not known here, and only a presumption about callers outside the package repeats it ("+often+")")
		return
	}
	if made > 0 {
		p.report(s.Call, hasherAlloc, what+" "+often, nil, "make only the hasher that is read", fmt.Sprintf("it is one of the %d hashers of a literal, all made each time it is evaluated: making only the one that is read (a switch) is a rewrite no fix proves", made))
		return
	}
	if loop.Valid() {
		fix, why := p.hoistFix(s, loop)
		if f := p.file(s.Call.Pos()); fix == nil && s.ctor.funcValue && f != nil {
			// A function value's hasher that no hoist serves: the
			// pool beside the function value, given back per iteration.
			pooled, whyNot := p.funcFieldPool(f, s, true)
			if pooled != nil {
				p.report(s.Call, hasherAlloc, what+" "+often, pooled, "reuse a pooled hasher", "")
				return
			}
			why += "; " + whyNot
		}
		p.report(s.Call, hasherAlloc, what+" "+often, fix, "reuse one hasher across iterations", why)
		return
	}
	fix, why, pooled := p.callFix(s)
	if p.report(s.Call, hasherAlloc, what+" "+often, fix, "reuse a pooled hasher", why) && pooled {
		p.pooled[s] = true
	}
}

// describe says what allocates and why, e.g. "sha256.New() escapes to the heap
// (passed to io.Copy)" or "crypto.SHA256.New() always allocates".
func (p *pass) describe(s *Site) string {
	call := types.ExprString(s.Call)
	if len(call) > 40 {
		call = s.ctor.name + "(...)"
	}
	its := " its hasher"
	if s.ctor.wrapped != "" {
		// A constructor wrapper: what allocates is the hasher it returns.
		call += " returns the hasher of " + s.ctor.wrapped + ", which"
		its = ""
		if s.ctor.alloc == always && stdConstructors[s.ctor.wraps].alloc == onEscape && s.ctor.wraps != "" {
			return fmt.Sprintf("%s escapes to the heap (%s is never inlined)", call, s.ctor.name)
		}
	}
	switch {
	case s.ctor.alloc == always && s.ctor.allocs > 1:
		return fmt.Sprintf("%s allocates %d times", call, s.ctor.allocs)
	case s.ctor.alloc == always:
		return call + " always allocates" + its
	}
	return fmt.Sprintf("%s escapes to the heap (%s)", call, s.esc.reason)
}

// callFix removes a per-call allocation in a function that runs per item: the standard
// constructor for a crypto.Hash whose hasher stays local, else a pool (and
// then pooled is set).
func (p *pass) callFix(s *Site) (*analysis.SuggestedFix, string, bool) {
	f := p.file(s.Call.Pos())
	if f == nil {
		return nil, "the source file cannot be read", false
	}
	if s.ctor.funcValue {
		fix, why := p.funcFieldPool(f, s, false)
		return fix, why, fix != nil
	}
	stdCtor := p.qualifiedCallee(s.Call)
	spec := fixes.PoolSpec{Result: p.TypesInfo.TypeOf(s.Call), Inline: p.inlinePools()}
	if s.ctor.wrapped != "" && s.ctor.pool == "" {
		// Any other wrapper called without arguments: a pool of the file
		// of the hashers it returns.
		if why := p.wrapperPool(f, s, &spec); why != "" {
			return nil, "no pool serves " + s.ctor.name + ", which returns the hasher of " + s.ctor.wrapped + ": " + why, false
		}
	} else if s.ctor.wrapped != "" {
		// A wrapper whose hasher is a standard constructor's, called
		// without arguments: that constructor's pool serves it.
		stdCtor = s.ctor.wraps
	}
	if s.ctor == cryptoHashNew {
		var ok bool
		if stdCtor, ok = p.cryptoHashConstant(s.Call); !ok {
			// A crypto.Hash that is not a constant: the pool of its value.
			if spec.Hash, ok = p.cryptoHashText(s.Call); !ok {
				return nil, "the crypto.Hash is neither a constant nor a variable", false
			}
		} else if s.esc.kind == stays {
			fix := fixes.StdConstructor(f, s.Call, stdCtor)
			return &fix, "", false
		}
	}
	if spec.Hash == "" && spec.Wrapper == "" {
		spec.Ctor = stdCtor
		if spec.Var = stdConstructors[stdCtor].pool; spec.Var == "" {
			// No runtime pool: one of the file, of the hashers of these
			// constant arguments.
			var why string
			if spec.Args, spec.Err, why = p.reusedArgs(s.Call, stdConstructors[stdCtor]); why != "" {
				return nil, why, false
			}
		}
	}
	if tv, ok := p.TypesInfo.Types[s.Call]; ok && spec.Err {
		spec.Result = tv.Type.(*types.Tuple).At(0).Type()
	}
	def, v, why := p.definition(s, true)
	if def == nil {
		if s.cur.ParentEdgeKind() == edge.CallExpr_Args && s.esc.kind == transient && spec.Hash == "" && spec.Wrapper == "" && !spec.Err {
			return p.argumentPoolFix(s, f, spec)
		}
		return nil, why, false
	}
	fn, _ := values.EnclosingFunc(s.cur)
	branch := def.Tok == token.ASSIGN || p.vals.Written(fn, v) // see definition
	// The rung before a pool: a hasher written once and summed once is the
	// digest of one slice, which the sum function of its package computes
	// without a hasher (a pooled one would make the slice escape).
	if fix, ok := p.oneShotSum(f, s, fn, def, v); ok && !branch {
		return fix, "", false
	}
	// The rung before a pool: a hasher that escapes only through binary.Write
	// of fixed-size integers stays on the stack once its own Write takes them.
	if writes, ok := p.integerWrites(s, fn, v); ok && f.AtLeast("go1.19") && !branch {
		fix := fixes.WriteIntegers(f, v.Name(), writes)
		return &fix, "", false
	}
	// Reject a hasher whose method calls take buffers that live on the stack:
	// through the pooled interface value they would escape, trading the
	// hasher's allocation for theirs. (A crypto.Hash's hasher is called
	// through its interface already: they escape without a pool too.)
	if arg, ok := p.stackArgument(fn, v); ok && s.ctor != cryptoHashNew {
		return nil, "a pooled hasher would make " + types.ExprString(arg) + " escape", false
	}
	// A hasher variable assigned again is given back by a deferred Put, which
	// reads it right after the Get (see definition). A crypto.Hash that a
	// variable of the function holds, and that the function does not assign,
	// is the same at the Put: any other (a field, which a call may change) is
	// read by a deferred Put right after the Get.
	if spec.Last = p.releasePoint(s.cur.Parent(), v, false); branch || spec.Hash != "" && !p.unchangedLocal(s) {
		spec.Last = nil
	}
	fix := fixes.Pool(f, def, spec)
	return &fix, "", true
}

// argumentPoolFix takes from a pool a hasher that is passed on without a
// variable to a function that lets it go (a transient escape), in a variable
// defined before the statement that passes it (see fixes.PoolArgument):
//
//	return NewHash(md5.New(), ns, b)   =>   h := hashpool.MD5.Get()
//	                                        defer hashpool.MD5.Put(h)
//	                                        return NewHash(h, ns, b)
//
// The hasher is given back right after a simple statement, or with defer
// after a return or a statement that may branch.
func (p *pass) argumentPoolFix(s *Site, f *fixes.File, spec fixes.PoolSpec) (*analysis.SuggestedFix, string, bool) {
	// Find the statement of a block that evaluates the call; reject a call
	// that it may evaluate more than once, or later (a loop's condition, a
	// function literal, a deferred call), or only in some case.
	stmt := s.cur
	for {
		if _, ok := stmt.Node().(ast.Stmt); ok && isListEdge(stmt.ParentEdgeKind()) {
			break
		}
		stmt = stmt.Parent()
		switch stmt.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return nil, "the hasher is not assigned to a variable, and is passed on in a function literal", false
		case *ast.ForStmt, *ast.RangeStmt:
			return nil, "the hasher is not assigned to a variable, and is passed on in a loop's header", false
		case *ast.CaseClause, *ast.CommClause, *ast.DeferStmt, *ast.GoStmt:
			return nil, "the hasher is not assigned to a variable, and the call that takes it is not made where its statement runs", false
		}
	}
	switch stmt.Node().(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt, *ast.IncDecStmt, *ast.SendStmt:
		spec.Last = stmt.Node().(ast.Stmt) // straight-line: give it back right after
	case *ast.ReturnStmt:
	default:
		// Reject a deferred Put in a loop: it would keep every iteration's
		// hasher until the function returns.
		if _, ok := frequency.EnclosingLoop(stmt, false); ok {
			return nil, "the hasher is not assigned to a variable, and its statement may branch in a loop, where a deferred Put would keep every iteration's hasher", false
		}
	}
	fix := fixes.PoolArgument(f, stmt.Node().(ast.Stmt), s.Call, f.FreeName(stmt.Node().Pos(), "h"), spec)
	return &fix, "", true
}

// stackArgument returns an argument of a method call in fn on the hasher v
// that may live on the caller's stack: a composite literal, a make, a
// conversion to []byte, or a slice of a local array.
func (p *pass) stackArgument(fn inspector.Cursor, v *types.Var) (ast.Expr, bool) {
	for ic := range p.calls.Within(fn) {
		call := ic.Node
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || p.TypesInfo.Uses[values.IdentOf(sel.X)] != v {
			continue
		}
		for _, arg := range call.Args {
			if p.onStack(arg) {
				return arg, true
			}
		}
	}
	return nil, false
}

// onStack reports whether e may be a buffer on the stack of the function.
func (p *pass) onStack(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		return e.Op == token.AND
	case *ast.SliceExpr:
		// A slice of a local array variable.
		if id, ok := ast.Unparen(e.X).(*ast.Ident); ok {
			if v, ok := p.TypesInfo.Uses[id].(*types.Var); ok && v.Parent() != v.Pkg().Scope() {
				if _, isArray := v.Type().Underlying().(*types.Array); isArray {
					return true
				}
			}
		}
		return p.onStack(e.X)
	case *ast.CallExpr:
		if tv, ok := p.TypesInfo.Types[e.Fun]; ok && tv.IsType() {
			return true // []byte(s)
		}
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && id.Name == "make" {
			return p.TypesInfo.Uses[id] == types.Universe.Lookup("make")
		}
	}
	return false
}

// cryptoHashConstant returns the standard constructor of the crypto.Hash
// constant that call's receiver is, as in crypto.SHA256.New().
func (p *pass) cryptoHashConstant(call *ast.CallExpr) (string, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	tv, ok := p.TypesInfo.Types[sel.X]
	if !ok || tv.Value == nil {
		return "", false
	}
	scope := types.Universe // the crypto package when the package imports it
	for _, imp := range p.Pkg.Imports() {
		if imp.Path() == "crypto" {
			scope = imp.Scope()
		}
	}
	for name, ctor := range cryptoHashConstructors {
		if c, ok := scope.Lookup(name).(*types.Const); ok && c.Val().ExactString() == tv.Value.ExactString() {
			return ctor, true
		}
	}
	return "", false
}

// cryptoHashText returns the text of the crypto.Hash whose New call is,
// when it is a variable or a field (embedded or not) of one, as t.Hash in
// t.New() with type Hasher struct{ crypto.Hash }: reading it again at the
// Put has no effect.
func (p *pass) cryptoHashText(call *ast.CallExpr) (string, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	for x := ast.Unparen(sel.X); ; {
		if id, ok := x.(*ast.Ident); ok {
			if _, isVar := p.TypesInfo.Uses[id].(*types.Var); !isVar {
				return "", false
			}
			break
		}
		xs, ok := x.(*ast.SelectorExpr)
		if !ok || p.TypesInfo.Selections[xs] == nil || p.TypesInfo.Selections[xs].Kind() != types.FieldVal {
			return "", false // a call, an index, a package's name
		}
		x = ast.Unparen(xs.X)
	}
	text := types.ExprString(sel.X)
	// The fields that embed the crypto.Hash, when New is promoted.
	selection := p.TypesInfo.Selections[sel]
	if selection == nil {
		return "", false
	}
	t := selection.Recv()
	for _, i := range selection.Index()[:len(selection.Index())-1] {
		if ptr, ok := t.Underlying().(*types.Pointer); ok {
			t = ptr.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return "", false
		}
		text += "." + st.Field(i).Name()
		t = st.Field(i).Type()
	}
	return text, true
}

// unchangedLocal reports whether the crypto.Hash of s, a crypto.Hash.New
// call, is a local variable (not a field) that its function never assigns.
func (p *pass) unchangedLocal(s *Site) bool {
	sel := ast.Unparen(s.Call.Fun).(*ast.SelectorExpr)
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok || len(p.TypesInfo.Selections[sel].Index()) != 1 {
		return false
	}
	v, ok := p.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return false
	}
	fn, ok := values.EnclosingFunc(s.cur)
	return ok && !p.vals.Written(fn, v)
}

// integerWrites returns the binary.Write calls of fixed-size integers into
// the hasher v of s in fn, a constructor whose hasher stays on the stack
// unless it escapes, when they are the only uses of v that let it escape.
func (p *pass) integerWrites(s *Site, fn inspector.Cursor, v *types.Var) ([]fixes.IntegerWrite, bool) {
	if s.ctor.alloc != onEscape {
		return nil, false
	}
	var writes []fixes.IntegerWrite
	for use := range p.vals.Uses(fn, v) {
		if w, ok := p.integerWrite(use); ok {
			writes = append(writes, w)
			continue
		}
		if p.model.captured(use, v).kind != stays || p.model.classify(use, 1).kind != stays {
			return nil, false
		}
	}
	return writes, len(writes) > 0
}

// integerBits are the sizes of the integers that binary.Write writes as they
// are, with the unsigned type of each size.
var integerBits = map[types.BasicKind]struct {
	bits     int
	unsigned types.BasicKind
}{
	types.Int8: {8, types.Byte}, types.Uint8: {8, types.Byte},
	types.Int16: {16, types.Uint16}, types.Uint16: {16, types.Uint16},
	types.Int32: {32, types.Uint32}, types.Uint32: {32, types.Uint32},
	types.Int64: {64, types.Uint64}, types.Uint64: {64, types.Uint64},
}

// integerWrite reports whether the hasher at use is written a fixed-size
// integer by binary.Write(use, order, x) in a statement of its own that drops
// the error, with an order that has Append methods.
func (p *pass) integerWrite(use inspector.Cursor) (fixes.IntegerWrite, bool) {
	if use.ParentEdgeKind() != edge.CallExpr_Args || use.ParentEdgeIndex() != 0 {
		return fixes.IntegerWrite{}, false
	}
	call := use.Parent().Node().(*ast.CallExpr)
	if fn := typeutil.StaticCallee(p.TypesInfo, call); fn == nil || fn.FullName() != "encoding/binary.Write" || len(call.Args) != 3 {
		return fixes.IntegerWrite{}, false
	}
	w := fixes.IntegerWrite{Call: call}
	switch stmt := use.Parent().Parent().Node().(type) {
	case *ast.ExprStmt:
		w.Stmt = stmt
	case *ast.AssignStmt:
		if id, ok := stmt.Lhs[0].(*ast.Ident); ok && len(stmt.Lhs) == 1 && id.Name == "_" && stmt.Tok == token.ASSIGN {
			w.Stmt = stmt
		}
	}
	t := p.TypesInfo.TypeOf(call.Args[2])
	basic, ok := t.Underlying().(*types.Basic)
	if w.Stmt == nil || !ok {
		return fixes.IntegerWrite{}, false
	}
	size, ok := integerBits[basic.Kind()]
	if !ok {
		return fixes.IntegerWrite{}, false // int, uint: binary.Write writes nothing and fails
	}
	w.Bits = size.bits
	if !types.Identical(t, types.Typ[size.unsigned]) {
		w.Convert = types.Typ[size.unsigned].Name()
		if w.Bits == 8 {
			w.Convert = "byte"
		}
	}
	if m, _, _ := types.LookupFieldOrMethod(p.TypesInfo.TypeOf(call.Args[1]), true, p.Pkg, "AppendUint64"); m == nil && w.Bits > 8 {
		return fixes.IntegerWrite{}, false
	}
	return w, true
}

// oneShotSums maps the constructors that always allocate their hasher, and
// whose package has a sum function of the same digest, to that function:
// called with a nil key, the constructor makes the hasher that the sum
// function uses inside (checked in their sources).
var oneShotSums = map[string]string{
	"golang.org/x/crypto/blake2b.New256": "Sum256",
	"golang.org/x/crypto/blake2b.New384": "Sum384",
	"golang.org/x/crypto/blake2b.New512": "Sum512",
	"golang.org/x/crypto/blake2s.New256": "Sum256",
}

// oneShotSum computes with the sum function of its package (see
// oneShotSums) the digest of the hasher v that def makes in fn with a nil
// key and a blank error, when v is written once, by a statement of the list
// that holds def, and then summed once, by a later statement of that list
// that runs the Sum once (see fixes.OneShotSum):
//
//	h, _ := blake2b.New256(nil)
//	h.Write([]byte(key))          =>   sum := blake2b.Sum256([]byte(key))
//	return h.Sum(nil)                  return sum[:]
//
// Statements between that do not use v stay as they are: the data is hashed
// where it was written, and the digest read where it was summed.
func (p *pass) oneShotSum(f *fixes.File, s *Site, fn inspector.Cursor, def *ast.AssignStmt, v *types.Var) (*analysis.SuggestedFix, bool) {
	name, ok := oneShotSums[p.qualifiedCallee(s.Call)]
	sel, isSel := ast.Unparen(s.Call.Fun).(*ast.SelectorExpr)
	if !ok || !isSel || !p.pkgSelector(sel) || len(def.Lhs) != 2 || def.Lhs[1].(*ast.Ident).Name != "_" {
		return nil, false
	}
	for _, arg := range s.Call.Args {
		if !p.TypesInfo.Types[arg].IsNil() {
			return nil, false // a key: the sum function takes none
		}
	}
	defCur := s.cur.Parent() // a statement of a list, in fn (see definition)
	var write ast.Stmt
	var data ast.Expr
	var sum *ast.CallExpr
	for next, more := defCur.NextSibling(); more && sum == nil; next, more = next.NextSibling() {
		if !values.Mentions(p.TypesInfo, next.Node(), v) {
			continue
		}
		if write == nil {
			// h.Write(data), not io.WriteString(h, s): the sum function
			// takes a []byte.
			if data = p.macWrite(next.Node(), v); data == nil || !types.AssignableTo(p.TypesInfo.TypeOf(data), types.NewSlice(types.Typ[types.Byte])) {
				return nil, false
			}
			write = next.Node().(ast.Stmt)
			continue
		}
		// The Sum runs once where its statement does: not in a function
		// literal (macSum rejects it), nor in a loop, which a statement of
		// these kinds cannot hold but in a function literal.
		switch next.Node().(type) {
		case *ast.AssignStmt, *ast.ReturnStmt, *ast.ExprStmt, *ast.DeclStmt:
		default:
			return nil, false
		}
		if sum = p.macSum(next, v); sum == nil {
			return nil, false
		}
	}
	if sum == nil || p.vals.Count(fn, v) != 2 {
		return nil, false
	}
	var dst ast.Expr
	if !p.TypesInfo.Types[sum.Args[0]].IsNil() {
		dst = sum.Args[0]
	}
	fix := fixes.OneShotSum(f, def, write, data, sum, dst, types.ExprString(sel.X)+"."+name, f.FreeName(write.Pos(), "sum"))
	return &fix, true
}

// isListEdge reports whether k is the edge of a statement in a list.
func isListEdge(k edge.Kind) bool {
	return k == edge.BlockStmt_List || k == edge.CaseClause_Body || k == edge.CommClause_Body
}

// wrapperPool sets spec to a pool of the file of the hashers that the
// wrapper s calls returns, or says why none serves them: the wrapper is
// called without arguments (so that it returns the same hasher every time)
// and its constructor's Reset restores that hasher (see constructor.resets).
// A wrapper that returns the hasher in a struct of one field that embeds it
// (kaspad's HashWriter) is pooled by that field, and the struct built again
// around the pooled hasher: a pool of the struct would box it, an allocation
// per Put.
//
//	w := hashes.NewMerkleBranchHashWriter()   =>   w := hashes.HashWriter{Hash: newMerkleBranchHashWriterPool.Get()}
//	                                               defer newMerkleBranchHashWriterPool.Put(w.Hash)
//	                                               ...
//	                                               var newMerkleBranchHashWriterPool = hashpool.New(func() hash.Hash { return hashes.NewMerkleBranchHashWriter().Hash })
func (p *pass) wrapperPool(f *fixes.File, s *Site, spec *fixes.PoolSpec) string {
	fn, ok := typeutil.Callee(p.TypesInfo, s.Call).(*types.Func)
	switch {
	case s.ctor.choice != "":
		return "it chooses at run time which of " + s.ctor.choice + " to call, and a pool holds the hashers of one constructor"
	case len(s.Call.Args) != 0:
		return "it takes arguments, and a pool holds the hashers of one set of them"
	case !s.ctor.resets:
		return "Reset may not restore the state it returns its hasher in"
	case !ok || fn.Signature().Recv() != nil:
		return "it is a method"
	}
	if _, ok := p.TypesInfo.Types[s.Call].Type.Underlying().(*types.Interface); !ok {
		st, ok := p.TypesInfo.Types[s.Call].Type.Underlying().(*types.Struct)
		if !ok || st.NumFields() != 1 || !st.Field(0).Embedded() {
			return "its result is neither a hasher nor a struct that embeds one"
		}
		field := st.Field(0)
		if !field.Exported() && field.Pkg() != p.Pkg {
			return "the field " + field.Name() + " of its result is not exported"
		}
		spec.Field, spec.FieldType = field.Name(), field.Type()
	}
	spec.Wrapper = f.Text(s.Call)
	spec.Name = unexported(fn.Name()) + "Pool"
	return ""
}

// funcFieldPool takes the hasher that a function value held in a field
// makes from a pool kept beside it, a new field of the struct whose zero
// value is ready: its Get falls back to the function value when the pool is
// empty, and resets a hasher it reuses (hash.Hash's Reset restores the
// state the function value made it in):
//
//	h := n.Tree.hashStrategy()   =>   h := pooledHasher(&n.Tree.hashStrategyPool, n.Tree.hashStrategy)
//	                                  defer n.Tree.hashStrategyPool.Put(h)
//	                                  ...
//	                                  type MerkleTree struct { ...; hashStrategyPool sync.Pool }
//	                                  func pooledHasher(pool *sync.Pool, newHash func() hash.Hash) hash.Hash { ... }
//
// It is offered when the pool's hashers are always the field's function
// value's: the field is unexported and only composite literals of the
// struct set it (never assigned after the struct is built: a pool would
// otherwise hand out hashers of an old function), the struct is reached
// through a pointer wherever the package holds one (a copy would copy the
// pool, which go vet reports) and adding an unexported field cannot break a
// literal of it (see fieldAddable). The hasher is given back right after its
// last use when the struct is reached through a variable that the function
// does not assign, else by a deferred Put right after the Get (not in a
// loop, whose iterations would keep their hashers until the function
// returns).
func (p *pass) funcFieldPool(f *fixes.File, s *Site, inLoop bool) (*analysis.SuggestedFix, string) {
	const none = "no pool serves the hashers of a function value: which constructor "
	sel, ok := ast.Unparen(s.Call.Fun).(*ast.SelectorExpr)
	selection := p.TypesInfo.Selections[sel]
	if !ok || selection == nil || selection.Kind() != types.FieldVal {
		return nil, none + types.ExprString(s.Call.Fun) + " calls is not known, and it is not a field, beside which a pool could be kept"
	}
	field := selection.Obj().(*types.Var)
	holder := types.ExprString(sel.X)
	sig, _ := field.Type().Underlying().(*types.Signature)
	switch {
	case sig == nil || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !values.IsNamed(sig.Results().At(0).Type(), "hash", "Hash", false):
		return nil, "a pool beside " + field.Name() + " would hold hash.Hash values, and it returns another type"
	case field.Exported():
		return nil, field.Name() + " is exported: code outside the package may set it, and a pool beside it would hand out the hashers of an older function"
	case !selection.Indirect():
		return nil, holder + " is a copy: a pool in it would not outlive the call"
	case !values.Plain(sel.X):
		return nil, holder + " runs code, which the Get and the Put would run again"
	}
	if at := p.fieldWrite(field); at != "" {
		return nil, field.Name() + " is assigned at " + at + ", after its struct is built: a pool beside it would hand out the hashers of an older function"
	}
	if !p.constructorsOnly(sel, true) {
		return nil, "which functions " + field.Name() + " holds is not known (a caller may give one), and Reset would not restore what a function that writes a prefix makes"
	}
	st, ok := p.structOf(f, field)
	if !ok {
		return nil, "the struct that holds " + field.Name() + " is not declared at package level in this file"
	}
	named := p.namedOf(st)
	if named == nil {
		return nil, "the struct that holds " + field.Name() + " has no name"
	}
	for m := range named.Methods() {
		if _, ptr := m.Signature().Recv().Type().(*types.Pointer); !ptr {
			return nil, "the method " + m.Name() + " of " + named.Obj().Name() + " has a value receiver, which would copy the pool"
		}
	}
	if why := p.copiedValue(named, nil); why != "" {
		return nil, why + ", and would copy the pool"
	}
	spec := fixes.FieldPoolSpec{Func: types.ExprString(sel)}
	var why string
	if spec.Struct, spec.Field, why = p.newField(f, field, sel.X, field.Name()+"Pool"); why != "" {
		return nil, why
	}
	def, v, why := p.definition(s, false)
	if def == nil {
		return nil, why
	}
	fn, _ := values.EnclosingFunc(s.cur)
	if arg, ok := p.stackArgument(fn, v); ok {
		return nil, "a pooled hasher would make " + types.ExprString(arg) + " escape"
	}
	spec.Pool = holder + "." + spec.Field
	// The Put reads the holder again after the last use: only a variable
	// that the function does not assign is sure to name the same struct.
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
		if hv, ok := p.TypesInfo.Uses[id].(*types.Var); ok && hv.Parent() != p.Pkg.Scope() && !p.vals.Written(fn, hv) {
			spec.Last = p.releasePoint(s.cur.Parent(), v, false)
			if spec.Last == nil && inLoop {
				spec.Last = p.releasePoint(s.cur.Parent(), v, true)
			}
		}
	}
	if spec.Last == nil && inLoop {
		return nil, "the hasher is not given back in straight-line code within the loop, through a variable that names the same struct"
	}
	fix := fixes.FieldPool(f, def, spec)
	return &fix, ""
}

// fieldWrite returns where the package assigns field, or takes its address,
// outside a composite literal of its struct; its test files are read by
// their syntax (an assignment to a selector of the field's name).
func (p *pass) fieldWrite(field *types.Var) string {
	for use := range p.vals.Uses(p.prod, field) {
		if values.IsWritten(use) {
			return p.position(use.Parent().Node().Pos()) // the selector x.field
		}
	}
	at := ""
	fset, files := p.testFiles()
	for _, tf := range files {
		if tf.Name.Name != field.Pkg().Name() {
			continue
		}
		ast.Inspect(tf, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for _, e := range as.Lhs {
					if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok && sel.Sel.Name == field.Name() && at == "" {
						at = testPos(fset, sel.Pos())
					}
				}
			}
			return at == ""
		})
	}
	return at
}
