package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

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
	if res := sig.Results().At(0).Type(); !isHasher(res) && !canHoldHasher(res) {
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
		if !p.isIdentOf(p.wrappedHasher(onlyResult(body[len(body)-1])), h) {
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
	if n := callee.Signature().Results().Len(); n != 1 && !(n == 2 && h != nil && isError(callee.Signature().Results().At(1).Type())) {
		return nil
	}
	// The hasher depends on the wrapper's arguments only.
	exprs := append([]ast.Expr(nil), call.Args...)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if _, isPkg := p.TypesInfo.Uses[identOf(sel.X)].(*types.PkgName); !isPkg && p.TypesInfo.Selections[sel] != nil {
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
		if v, ok := p.TypesInfo.Uses[identOf(k)].(*types.Var); ok && k == identOf(k) {
			ctor.keyParam = slices.Index(slices.Collect(sig.Params().Variables()), v)
		}
	}
	return ctor
}

// ctor returns the constructor that a wrapper with this fact is, named
// name; the pool of its standard constructor serves a plain one.
func (f *returnsHasher) ctor(name string) *constructor {
	ctor := &constructor{name: name, wraps: f.Ctor, wrapped: f.Name, allocs: f.Allocs, panics: f.Panics, plain: f.Plain, resets: f.Resets,
		pointee: f.Pointee, hmac: stdConstructors[f.Ctor].hmac} // an HMAC's wrapper: judged by hmac-rekey
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
	return ok && bin.Op == token.NEQ && p.TypesInfo.Uses[identOf(bin.X)] == err && p.TypesInfo.Types[bin.Y].IsNil()
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
	if !ok || len(call.Args) != 1 || p.builtin(call) != "panic" {
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
	if !ok || st.NumFields() != 1 || !st.Field(0).Embedded() || !isHasher(t) || !types.IsInterface(st.Field(0).Type()) {
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
	if x, ok := p.conversionOf(e); ok && types.Identical(tv.Type.Underlying(), byteSlice) && p.TypesInfo.Types[x].Value != nil {
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
	v, ok := p.TypesInfo.Uses[identOf(e)].(*types.Var)
	return ok && slices.Contains(slices.Collect(sig.Params().Variables()), v)
}

// pkgSelector reports whether e is pkg.Name.
func (p *pass) pkgSelector(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	_, isPkg := p.TypesInfo.Uses[identOf(sel.X)].(*types.PkgName)
	return isPkg
}

// findWrappers decides, for every function of the package, whether it is a
// constructor wrapper, and exports the facts of the exported ones: before the
// constructor sites are found, since a call of a wrapper is one.
func (p *pass) findWrappers() {
	for fn := range p.vals.Funcs(p.root.Inspector()) {
		p.wrapperCtor(fn)
	}
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
	if fn == nil || fn.Pkg() != p.Pkg || fn.Signature().Recv() != nil {
		return nil, nil, "", "the hash and the key are hmac.New's arguments inside " + s.ctor.name + ", which is not a function of this package"
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
