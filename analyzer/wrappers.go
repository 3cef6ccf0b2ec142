package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Constructor wrappers. A function that returns the hasher of a known
// constructor, as the constructor made it,
//
//	func newBranchHasher() hash.Hash { h, _ := blake2b.New256(nil); return h }
//
// is a constructor too: each call of it makes one new hasher, and what
// becomes of that hasher is decided by the wrapper's caller, as at a call of
// the constructor itself. So a call of a wrapper is a constructor site, with
// the wrapper's own allocation:
//
//   - a wrapper of a constructor that always allocates always allocates
//     (measured: newBranchHasher per iteration, 1 allocation each);
//   - a wrapper of a constructor that the compiler keeps on the stack returns
//     its hasher, which escapes the wrapper's frame: it stays on the stack
//     only where the wrapper is inlined too. The shapes below are a
//     constructor call and a return, which the compiler inlines with the
//     constructor (measured: func newSHA() hash.Hash { return sha256.New() }
//     called per iteration and only written and summed, 0 allocations; passed
//     to io.Copy, 2 each, as sha256.New() is); a wrapper that is never
//     inlined (//go:noinline, see noInline) always allocates.
//
// The hasher may also be returned in a struct of one field that embeds it
// (return HashWriter{h}, with type HashWriter struct{ hash.Hash }): the
// struct is a hasher by that field, and its Reset is the hasher's.
//
// What the shapes prove, and why a fix may then treat the wrapper's call as
// the constructor's (hoist it out of a loop and Reset it, take it from the
// constructor's pool):
//
//   - the body is the constructor call, in a return statement or defining a
//     variable that is then returned, optionally with "if err != nil {
//     panic(err) }" between: the wrapper does nothing else, so calling it
//     once instead of once per iteration changes nothing but the hashers
//     made;
//   - the hasher is returned as the constructor made it (no method of it is
//     called, it is passed nowhere), so Reset puts it back in the state the
//     wrapper returns it in;
//   - the constructor's arguments are constants (a []byte conversion of one
//     too), nil, package functions (sha256.New for an HMAC) and the
//     wrapper's parameters, or their whole slices (key[:]): the hasher
//     depends on the wrapper's arguments only, so a call whose arguments do
//     not change in a loop makes the same hasher on every iteration.
//
// A wrapper that panics on an error is a constructor with no hoisting fix:
// hoisted, it would run, and could panic, before a loop that does not run.
// Nor is one keyed with the bytes an argument points to (key[:] of a key
// *[32]byte): they may change in the loop while the pointer does not.
// A wrapper of hmac.New is judged by hmac-rekey.
// Exported wrappers export the returnsHasher fact, so that a call from
// another package is a constructor site too. Wrappers of wrappers are
// followed (a cycle of calls is no wrapper).

// returnsHasher is the fact that an exported function is a constructor
// wrapper: it returns the hasher of the known constructor Ctor as that
// constructor made it.
type returnsHasher struct {
	Ctor   string // the constructor, "importpath.Func"
	Name   string // how messages spell it: "blake2b.New256"
	Always bool   // the wrapper's hasher is heap allocated whatever its caller does
	Allocs int    // allocations per call when it is heap allocated
	Panics bool   // the wrapper may panic (on the constructor's error)
	// Plain: the constructor is a standard one called without arguments,
	// so that its pool's hashers are the wrapper's.
	Plain bool
	// Resets: the hasher's Reset restores the state the wrapper returns it
	// in.
	Resets bool
	// Pointee: the hasher is made from the bytes an argument points to
	// (hmac.New(sha256.New, key[:]) of a key *[32]byte), which may change
	// while the pointer does not.
	Pointee bool
	// Choice lists the constructor calls among which the wrapper chooses
	// at run time, as its source spells them ("sha1.New() or
	// sha256.New()", see wrapperChoice); empty for a wrapper of one
	// constructor call.
	Choice string
}

func (*returnsHasher) AFact() {}

func (f *returnsHasher) String() string {
	alloc := "on escape"
	if f.Always {
		alloc = "always"
	}
	return fmt.Sprintf("returns a %s hasher (allocates %s)", f.Name, alloc)
}

// lookupCtor returns the constructor that fn is: a known constructor (the
// catalog, -constructors), or a constructor wrapper of this package or, by
// its fact, of another.
func (p *pass) lookupCtor(fn *types.Func) (constructor, bool) {
	if ctor, ok := p.cfg.lookupConstructor(fn); ok {
		return ctor, true
	}
	ctor := p.wrapperCtor(fn.Origin())
	if ctor == nil {
		return constructor{}, false
	}
	return *ctor, true
}

// wrapperCtor returns the constructor that the wrapper fn is, or nil when fn
// is not a wrapper.
func (p *pass) wrapperCtor(fn *types.Func) *constructor {
	if fn.Pkg() == nil {
		return nil
	}
	if fn.Pkg() != p.Pkg {
		var fact returnsHasher
		if !p.ImportObjectFact(fn, &fact) {
			return nil
		}
		return fact.ctor(shortName(fn))
	}
	if ctor, ok := p.model.wrappers[fn]; ok {
		return ctor // nil while it is computed: a cycle is no wrapper
	}
	p.model.wrappers[fn] = nil
	cur, ok := p.decl(fn)
	if !ok {
		return nil
	}
	ctor := p.wrapperShape(fn, cur)
	if ctor == nil {
		ctor = p.wrapperChoice(fn, cur)
	}
	p.model.wrappers[fn] = ctor
	return ctor
}

// wrapperShape matches the body of fn, declared at cur, against the shapes
// of a constructor wrapper (see above) and returns the constructor it is.
//
//	return ctor(args)
//	h := ctor(args); return h                  (or var h = ctor(args), h, _ := ctor(args))
//	h, err := ctor(args); if err != nil { panic(err) }; return h
func (p *pass) wrapperShape(fn *types.Func, cur inspector.Cursor) *constructor {
	decl, sig := cur.Node().(*ast.FuncDecl), fn.Signature()
	if decl.Body == nil || decl.Type.TypeParams != nil || sig.Results().Len() != 1 {
		return nil
	}
	if res := sig.Results().At(0).Type(); !values.IsHasher(res) && !canHoldHasher(res) {
		return nil
	}
	body := decl.Body.List
	var call *ast.CallExpr
	var h, errVar types.Object // the variable that holds the hasher, and the error's
	panics := false
	switch len(body) {
	case 1:
		call = returnedCall(decl.Body)
	case 2, 3:
		call, h, errVar = p.hasherDef(body[0])
		if call == nil {
			return nil
		}
		if len(body) == 3 {
			// if err != nil { panic(err) }
			if errVar == nil || !p.panicsOnError(cur, body[1], errVar) {
				return nil
			}
			panics = true
		} else if errVar != nil {
			return nil // an error that is neither ignored nor checked
		}
		if !values.IsIdentOf(p.TypesInfo, p.wrappedHasher(onlyResult(body[len(body)-1])), h) {
			return nil
		}
		// The hasher is used by the return only: no method of it is
		// called, it is passed nowhere.
		if p.vals.Count(cur, h) != 1 {
			return nil
		}
	default:
		return nil
	}
	if call == nil || call.Ellipsis.IsValid() {
		return nil
	}
	callee := typeutil.StaticCallee(p.TypesInfo, call)
	if callee == nil {
		return nil
	}
	var inner *constructor
	if ctor, ok := p.cfg.lookupConstructor(callee); ok {
		inner = &ctor
		inner.wraps = funcKey(callee)
		if callee.Signature().Recv() != nil {
			inner.wraps = "" // crypto.Hash.New: no standard constructor named
		}
		inner.wrapped = ctor.name
		std, isStd := stdConstructors[inner.wraps]
		inner.plain = isStd && len(call.Args) == 0
		// A standard pool's constructor resets to the state it makes; so
		// does one whose pool of the file holds the hashers of constant
		// arguments (the wrapper's are constants or its parameters).
		inner.resets = isStd && std.pool != "" || ctor.reuse.ok
	} else if inner = p.wrapperCtor(callee.Origin()); inner == nil {
		return nil
	}
	// The result of a constructor that returns (hasher, error): the hasher.
	if n := callee.Signature().Results().Len(); n != 1 && !(n == 2 && h != nil && values.IsError(callee.Signature().Results().At(1).Type())) {
		return nil
	}
	// The hasher depends on the wrapper's arguments only.
	exprs := append([]ast.Expr(nil), call.Args...)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if _, isPkg := p.TypesInfo.Uses[values.IdentOf(sel.X)].(*types.PkgName); !isPkg && p.TypesInfo.Selections[sel] != nil {
			exprs = append(exprs, sel.X) // the crypto.Hash of h.New()
		}
	}
	pointee := inner.pointee
	for _, e := range exprs {
		if !p.wrapperArg(e, sig) {
			return nil
		}
		if sl, ok := ast.Unparen(e).(*ast.SliceExpr); ok && unpointer(p.TypesInfo.TypeOf(sl.X)) != p.TypesInfo.TypeOf(sl.X) {
			pointee = true
		}
	}
	fact := &returnsHasher{
		Ctor:    inner.wraps,
		Name:    inner.wrapped,
		Always:  inner.alloc == always || p.noInline(fn, decl), // returned from a frame of its own: on the heap
		Allocs:  max(inner.allocs, 1),                          // an HMAC's 5 too
		Panics:  inner.panics || panics,
		Plain:   inner.plain && len(call.Args) == 0,
		Resets:  inner.resets,
		Pointee: pointee,
		Choice:  inner.choice, // a wrapper of one that chooses chooses too
	}
	if fn.Exported() && (decl.Recv == nil || exportedRecv(fn)) {
		p.ExportObjectFact(fn, fact)
	}
	name := fn.Name() // as messages name it in its own package: newBranchHasher, (*Tree).newHasher
	if fn.Signature().Recv() != nil {
		name = shortName(fn)
	}
	ctor := fact.ctor(name)
	if len(body) == 1 && p.isHMACNew(call) {
		ctor.hmacNew, ctor.keyParam = call, -1
		// The key: a parameter, or its whole slice.
		k := ast.Unparen(call.Args[1])
		if sl, ok := k.(*ast.SliceExpr); ok && sl.Low == nil && sl.High == nil && sl.Max == nil {
			k = ast.Unparen(sl.X)
		}
		if v, ok := p.TypesInfo.Uses[values.IdentOf(k)].(*types.Var); ok && k == values.IdentOf(k) {
			ctor.keyParam = slices.Index(slices.Collect(sig.Params().Variables()), v)
		}
	}
	return ctor
}

// ctor returns the constructor that a wrapper with this fact is, named
// name; the pool of its standard constructor serves a plain one.
func (f *returnsHasher) ctor(name string) *constructor {
	ctor := &constructor{name: name, wraps: f.Ctor, wrapped: f.Name, allocs: f.Allocs, panics: f.Panics, plain: f.Plain, resets: f.Resets,
		pointee: f.Pointee, hmac: stdConstructors[f.Ctor].hmac, choice: f.Choice} // an HMAC's wrapper: judged by hmac-rekey
	if f.Always {
		ctor.alloc = always
	}
	if std, ok := stdConstructors[f.Ctor]; ok && f.Plain {
		ctor.pool = std.pool
	}
	return ctor
}

// exportedRecv reports whether the method fn belongs to an exported type,
// whose facts other packages can look up.
func exportedRecv(fn *types.Func) bool {
	named, ok := types.Unalias(unpointer(fn.Signature().Recv().Type())).(*types.Named)
	return ok && named.Obj().Exported()
}

// hasherDef matches the statement that defines the wrapper's hasher: h :=
// ctor(args), var h = ctor(args), h, _ := ctor(args) or h, err :=
// ctor(args); it returns the call, h, and err when the error is kept.
func (p *pass) hasherDef(stmt ast.Stmt) (*ast.CallExpr, types.Object, types.Object) {
	var lhs []*ast.Ident
	var rhs ast.Expr
	switch s := stmt.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE || len(s.Rhs) != 1 {
			return nil, nil, nil
		}
		for _, e := range s.Lhs {
			lhs = append(lhs, e.(*ast.Ident)) // := defines names only
		}
		rhs = s.Rhs[0]
	case *ast.DeclStmt:
		gen, ok := s.Decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.VAR || len(gen.Specs) != 1 {
			return nil, nil, nil
		}
		vs := gen.Specs[0].(*ast.ValueSpec)
		if len(vs.Values) != 1 {
			return nil, nil, nil
		}
		lhs, rhs = vs.Names, vs.Values[0]
	default:
		return nil, nil, nil
	}
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok || len(lhs) > 2 || lhs[0].Name == "_" {
		return nil, nil, nil
	}
	h := p.TypesInfo.Defs[lhs[0]]
	if h == nil {
		return nil, nil, nil
	}
	var errVar types.Object
	if len(lhs) == 2 && lhs[1].Name != "_" {
		if errVar = p.TypesInfo.Defs[lhs[1]]; errVar == nil {
			return nil, nil, nil
		}
	}
	return call, h, errVar
}

// panicsOnError reports whether stmt, in the declaration at decl, is "if
// err != nil { panic(err) }", and err is used nowhere else in it.
func (p *pass) panicsOnError(decl inspector.Cursor, stmt ast.Stmt, err types.Object) bool {
	if cond, _, ok := p.panicsIf(stmt); !ok || !p.notNil(cond, err) {
		return false
	}
	// panic(err), or a panic with a value made of err:
	// panic(fmt.Errorf("...: %w", err)): a use of err beside the condition's.
	at, ok := decl.FindNode(stmt)
	return ok && p.vals.Count(at, err) > 1
}

// notNil reports whether cond is err != nil.
func (p *pass) notNil(cond ast.Expr, err types.Object) bool {
	bin, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	return ok && bin.Op == token.NEQ && p.TypesInfo.Uses[values.IdentOf(bin.X)] == err && p.TypesInfo.Types[bin.Y].IsNil()
}

// panicsIf matches stmt against "if x != y { panic(v) }" and returns its
// condition and v.
func (p *pass) panicsIf(stmt ast.Stmt) (cond *ast.BinaryExpr, v ast.Expr, ok bool) {
	ifs, ok := stmt.(*ast.IfStmt)
	if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) != 1 {
		return nil, nil, false
	}
	cond, ok = ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	es, isExpr := ifs.Body.List[0].(*ast.ExprStmt)
	if !ok || !isExpr || cond.Op != token.NEQ {
		return nil, nil, false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || values.Builtin(p.TypesInfo, call) != "panic" {
		return nil, nil, false
	}
	return cond, call.Args[0], true
}

// wrappedHasher returns the hasher that e returns: e itself, or h of T{h},
// a struct of one field that is a hasher by that field (type HashWriter
// struct{ hash.Hash }): Reset of the struct is the hasher's.
func (p *pass) wrappedHasher(e ast.Expr) ast.Expr {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok || len(lit.Elts) != 1 {
		return e
	}
	t := p.TypesInfo.TypeOf(lit)
	st, ok := t.Underlying().(*types.Struct)
	if !ok || st.NumFields() != 1 || !st.Field(0).Embedded() || !values.IsHasher(t) || !types.IsInterface(st.Field(0).Type()) {
		return e
	}
	elt := lit.Elts[0]
	if kv, ok := elt.(*ast.KeyValueExpr); ok {
		elt = kv.Value
	}
	return elt
}

// wrapperArg reports whether e, an argument of the constructor in the
// wrapper whose signature is sig, depends on the wrapper's arguments only:
// a constant, nil, a package function, or a parameter.
func (p *pass) wrapperArg(e ast.Expr, sig *types.Signature) bool {
	tv := p.TypesInfo.Types[e]
	if tv.Value != nil || tv.IsNil() {
		return true
	}
	// []byte(constant): a key fixed for the wrapper.
	if x, ok := values.ConversionOf(p.TypesInfo, e); ok && types.Identical(tv.Type.Underlying(), byteSlice) && p.TypesInfo.Types[x].Value != nil {
		return true
	}
	if _, ok := p.funcValue(e); ok {
		return true // sha256.New
	}
	// key[:] of a parameter: the bytes of the parameter, or of the array it
	// points to (see returnsHasher.Pointee).
	if sl, ok := ast.Unparen(e).(*ast.SliceExpr); ok && sl.Low == nil && sl.High == nil && sl.Max == nil {
		e = sl.X
	}
	v, ok := p.TypesInfo.Uses[values.IdentOf(e)].(*types.Var)
	return ok && slices.Contains(slices.Collect(sig.Params().Variables()), v)
}

// pkgSelector reports whether e is pkg.Name.
func (p *pass) pkgSelector(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	_, isPkg := p.TypesInfo.Uses[values.IdentOf(sel.X)].(*types.PkgName)
	return isPkg
}

// wrappedHMAC returns hmac.New's hash and key as the call s of a wrapper of
// hmac.New gives them, so that a one-shot HMAC can be computed at the call:
//
//	func keyedHasher(key *[32]byte) hash.Hash {
//		return hmac.New(sha256.New, key[:])
//	}
//	h := keyedHasher(k)                  is read as     h := hmac.New(sha256.New, k[:])
//
// wrapperShape records the wrapper's hmac.New call and its key's parameter
// (constructor.hmacNew): the call's argument for that parameter is the key.
// The key returned has no position when it is rebuilt from the call's
// argument (k[:]): keyText is then how the fix writes it.
//
// It says why not when the wrapper is not declared in the package (its body
// cannot be read), is a method, or does more than return hmac.New of a
// package function and a parameter or its whole slice; or when the
// argument is not a variable: a variable is evaluated with no code run, so
// evaluating it where the Sum is instead of at the call changes nothing
// that the statements between do not (see movable).
func (p *pass) wrappedHMAC(s *Site) (hash, key ast.Expr, keyText, why string) {
	fn := typeutil.StaticCallee(p.TypesInfo, s.Call)
	// Reject a wrapper that chooses its hash at run time: the one-shot HMAC
	// here would have to make that choice again.
	if s.ctor.choice != "" {
		return nil, nil, "", s.ctor.name + " chooses at run time which of " + s.ctor.choice + " to call, a choice that a one-shot HMAC here would have to make again"
	}
	if fn == nil || fn.Pkg() != p.Pkg {
		return nil, nil, "", "the hash and the key are hmac.New's arguments inside " + s.ctor.name + ", which is not a function of this package"
	}
	if fn.Signature().Recv() != nil {
		return nil, nil, "", "the hash and the key are hmac.New's arguments inside " + s.ctor.name + ", which is a method"
	}
	call, i := s.ctor.hmacNew, s.ctor.keyParam
	if call == nil || !p.pkgSelector(call.Args[0]) || i < 0 || i >= len(s.Call.Args) || s.Call.Ellipsis.IsValid() {
		return nil, nil, "", "the hash and the key are hmac.New's arguments inside " + s.ctor.name + ", which does more than return hmac.New of a standard hash and one of its parameters"
	}
	arg, ok := ast.Unparen(s.Call.Args[i]).(*ast.Ident)
	if _, isVar := p.TypesInfo.Uses[arg].(*types.Var); !ok || !isVar {
		return nil, nil, "", "the key is hmac.New's argument inside " + s.ctor.name + ", given " + shorten(types.ExprString(s.Call.Args[i])) + ", which is not a variable: a one-shot HMAC would evaluate it at the Sum instead"
	}
	if _, sliced := ast.Unparen(call.Args[1]).(*ast.SliceExpr); sliced {
		return call.Args[0], &ast.SliceExpr{X: arg}, arg.Name + "[:]", ""
	}
	return call.Args[0], arg, "", ""
}

// A wrapper may also choose its constructor at run time, in the branches of
// a switch or an if, and give back an error (or no hasher) where it knows
// none:
//
//	func (s scramFormatter) mac(key []byte) (hash.Hash, error) {
//		var m hash.Hash
//		switch s.mechanism {
//		case SCRAM_MECHANISM_SHA_256:
//			m = hmac.New(sha256.New, key)
//		case SCRAM_MECHANISM_SHA_512:
//			m = hmac.New(sha512.New, key)
//		default:
//			return nil, ErrUnknownScramMechanism
//		}
//		return m, nil
//	}
//
// Each call of it makes one new hasher of one of those constructors, or
// none: its caller's hasher is the set of them, merged where the branches
// join. What it costs is the most that any of them costs, and a hasher of
// several types is one whose method calls the compiler cannot devirtualize:
// it is on the heap whatever the caller does. Its key reaches each hmac.New
// when every one of them is keyed with the same parameter.
//
// No fix moves or replaces such a call: hoisted out of a loop, the choice
// would be made once instead of once per iteration, from values that may
// change; a pool or a one-shot HMAC at the call would have to make the
// wrapper's choice again, which only the wrapper's body shows. A helper
// that makes its MAC with such a call may keep one across the loop that
// calls it, when the choice reads nothing the loop changes (see
// helperLoopFix).

// wrapperChoice matches the body of fn, declared at cur, against a wrapper
// that chooses among constructor calls: every return statement gives back
// a constructor call, nil, or a local variable that only constructor calls
// assign (merged where the branches that assign it join), with a nil error
// beside a hasher. It returns the constructor it is, or nil.
func (p *pass) wrapperChoice(fn *types.Func, cur inspector.Cursor) *constructor {
	decl, sig := cur.Node().(*ast.FuncDecl), fn.Signature()
	res := sig.Results()
	if decl.Body == nil || decl.Type.TypeParams != nil || res.Len() == 0 || res.Len() > 2 || !isHashInterface(res.At(0).Type()) {
		return nil
	}
	if res.Len() == 2 && !values.IsError(res.At(1).Type()) {
		return nil
	}
	var calls []*ast.CallExpr
	var held types.Object // the variable returned, if any
	ok := true
	cur.Inspect([]ast.Node{(*ast.ReturnStmt)(nil), (*ast.FuncLit)(nil)}, func(c inspector.Cursor) bool {
		ret, isRet := c.Node().(*ast.ReturnStmt)
		if !isRet || !ok {
			return false // a function literal's returns are its own
		}
		if len(ret.Results) != res.Len() {
			ok = false // a bare return of named results
			return false
		}
		h := ast.Unparen(ret.Results[0])
		if p.TypesInfo.Types[h].IsNil() {
			return false // no hasher: an error, or nothing known
		}
		// Reject a hasher given back with an error: the caller may keep
		// both.
		if res.Len() == 2 && !p.TypesInfo.Types[ret.Results[1]].IsNil() {
			ok = false
			return false
		}
		switch h := h.(type) {
		case *ast.CallExpr:
			calls = append(calls, h)
		case *ast.Ident:
			v, isVar := p.TypesInfo.Uses[h].(*types.Var)
			if !isVar || held != nil && held != v || v.Pos() < decl.Body.Pos() || v.Pos() >= decl.Body.End() {
				ok = false // a parameter, a package variable, two variables
				return false
			}
			held = v
		default:
			ok = false
		}
		return false
	})
	if !ok {
		return nil
	}
	if held != nil {
		// Every use of the variable assigns it a constructor call, or
		// gives it back: no method of it is called, it is passed nowhere.
		for use := range p.vals.Uses(cur, held) {
			switch use.ParentEdgeKind() {
			case edge.ReturnStmt_Results:
				continue
			case edge.AssignStmt_Lhs:
				assign := use.Parent().Node().(*ast.AssignStmt)
				if len(assign.Lhs) == 1 && len(assign.Rhs) == 1 {
					if call, isCall := ast.Unparen(assign.Rhs[0]).(*ast.CallExpr); isCall {
						calls = append(calls, call)
						continue
					}
				}
			}
			return nil
		}
		if def, ok := p.vals.Def(cur, held); ok {
			if e, defined := values.DefinedWith(def); defined {
				call, isCall := ast.Unparen(e).(*ast.CallExpr)
				if !isCall {
					return nil
				}
				calls = append(calls, call)
			} else if def.ParentEdgeKind() != edge.ValueSpec_Names {
				return nil // defined with others by one call
			}
		}
	}
	if len(calls) < 2 {
		return nil // one constructor: the shapes above, or none
	}
	// Each call is a known constructor's, with arguments that depend on
	// the wrapper's arguments only.
	fact := &returnsHasher{Allocs: 1}
	var keys []string
	names := map[string]bool{}
	for _, call := range calls {
		callee := typeutil.StaticCallee(p.TypesInfo, call)
		if callee == nil || call.Ellipsis.IsValid() || callee.Signature().Results().Len() != 1 {
			return nil
		}
		ctor, known := p.cfg.lookupConstructor(callee)
		if !known || callee.Signature().Recv() != nil {
			return nil
		}
		for _, e := range call.Args {
			if !p.wrapperArg(e, sig) {
				return nil
			}
		}
		keys = append(keys, funcKey(callee))
		if !names[ctor.name] {
			names[ctor.name] = true
			fact.Name = joinOr(fact.Name, ctor.name)
		}
		if text := shorten(types.ExprString(call)); !names[text] {
			names[text] = true
			fact.Choice = joinOr(fact.Choice, text)
		}
		fact.Allocs = max(fact.Allocs, ctor.allocs)
		fact.Always = fact.Always || ctor.alloc == always
	}
	uniq := slices.Compact(slices.Sorted(slices.Values(keys)))
	switch {
	case len(uniq) == 1:
		fact.Ctor = keys[0] // hmac.New in each branch
	case slices.ContainsFunc(keys, func(k string) bool { return stdConstructors[k].hmac }):
		return nil // an HMAC in one branch and a plain hasher in another
	case !fact.Always && samePackage(uniq):
		// Reject constructors of one package that stay on the stack
		// (sha256.New, sha256.New224): their hashers may be of one type,
		// whose calls the compiler devirtualizes, so the model does not
		// decide.
		return nil
	}
	// Hashers of several types, or returned from a frame that is never
	// inlined: on the heap.
	fact.Always = fact.Always || fact.Ctor == "" || p.noInline(fn, decl)
	if fn.Exported() && (decl.Recv == nil || exportedRecv(fn)) {
		p.ExportObjectFact(fn, fact)
	}
	// As its package spells it: scramFormatter.mac, (*Tree).newHasher.
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		if ptr, ok := recv.Type().(*types.Pointer); ok {
			name = "(*" + typeName(ptr.Elem()) + ")." + name
		} else {
			name = typeName(recv.Type()) + "." + name
		}
	}
	return fact.ctor(name)
}

// samePackage reports whether the constructors keys ("importpath.Func")
// are all of one package.
func samePackage(keys []string) bool {
	return !slices.ContainsFunc(keys, func(k string) bool { return k[:strings.LastIndex(k, ".")] != keys[0][:strings.LastIndex(keys[0], ".")] })
}

// joinOr adds name to the list "a, b or c" of names.
func joinOr(list, name string) string {
	switch {
	case list == "":
		return name
	case strings.Contains(list, " or "):
		return strings.Replace(list, " or ", ", ", 1) + " or " + name
	}
	return list + " or " + name
}
