package analyzer

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/types/typeutil"
)

// Sinks reached through calls whose possible targets the package knows:
//
//	type tree struct{ hash func([]byte) []byte }     // t.hash = getSha256Parent, the only value stored in it
//	t.hash(append(l, r...))
//
//	func build(leaves [][]byte, hash func([]byte) []byte) { ... hash(append(l, r...)) ... }
//	build(leaves, getSha256Parent)                    // every call passes a hashing function
//
//	type treeHasher interface{ hashLeaf(b []byte) []byte }   // one implementation
//	t.hasher.hashLeaf(append(prefix, leaf...))
//
// The call is a sink when every function it may call is one that a direct
// call would make a sink (a sum, or a helper whose parameter only flows into
// a hash), with the concatenation in the same argument. What is proved about
// the targets:
//
//   - a field of function type: it is unexported, so only its package sets
//     it, and every value its package's production code stores in it (a
//     composite literal, an assignment) is a package function; its address
//     is never taken;
//   - a parameter of function type: its function is unexported and only
//     ever called (never used as a value, so no call outside the package or
//     through a variable), never assigns the parameter, and every call
//     passes a package function;
//   - a package variable, or an element of a registry (a package map, slice
//     or array of functions, algos[crypto.SHA256]): it is unexported and
//     never written after its declaration, elements included, and every
//     value it is declared with is a declared function (see funcValueTargets);
//   - an interface method: the interface is unexported, no exported function
//     or method takes it, no exported variable or field holds it, no value is
//     asserted to it, and one type of the package implements it, whose
//     method is the target.
//
// Such a finding names the targets and has no fix: a fix would replace the
// dynamic call by a call of its target, which is only right while the
// package stores no other value. (Test code that stores a fake is not seen,
// as for function variables; see funcvars.go.)

// dynamicSink returns the sink that call is when it goes through a function
// value (a field, a parameter, a package variable or registry, see
// funcValueTargets) or an interface method whose possible targets the
// package knows and all hash the same argument.
func (p *pass) dynamicSink(call *ast.CallExpr, helpers map[*types.Func]*hashesArg) (sink, bool) {
	if call.Ellipsis.IsValid() || !p.hasBytesArg(call) {
		return sink{}, false // nothing a concatenation could be passed as
	}
	// A method of an interface, or a function value (see funcValueTargets).
	targets, ok := p.funcValueTargets(call.Fun)
	what := "value"
	if v, isVar := p.TypesInfo.Uses[values.IdentOf(call.Fun)].(*types.Var); isVar && v.Kind() == types.ParamVar {
		what = "argument"
	}
	if sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr); isSel && p.TypesInfo.Selections[sel] != nil && p.TypesInfo.Selections[sel].Kind() == types.MethodVal {
		targets, ok = p.interfaceTargets(p.TypesInfo.Selections[sel])
		what = "implementation"
	}
	if !ok || len(targets) == 0 {
		return sink{}, false
	}
	arg := -1
	names := make([]string, len(targets))
	for i, fn := range targets {
		s, ok := p.funcSink(call, fn, helpers)
		if !ok || s.spread {
			return sink{}, false
		}
		index := slices.Index(call.Args, s.arg)
		if index < 0 || arg >= 0 && index != arg {
			return sink{}, false // the targets hash different arguments
		}
		arg = index
		names[i] = p.targetName(fn) + " (" + p.position(fn.Pos()) + ")"
	}
	name := fmt.Sprintf("%s, whose only %s is %s", types.ExprString(call.Fun), what, names[0])
	if len(names) > 1 {
		name = fmt.Sprintf("%s, whose %ss are %s", types.ExprString(call.Fun), what, strings.Join(names, ", "))
	}
	return sink{call: call, arg: call.Args[arg], name: name, dynamic: true}, true
}

// hasBytesArg reports whether an argument of call is a byte slice: a call
// with none hashes no concatenation, and its targets need not be found.
func (p *pass) hasBytesArg(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if t := p.TypesInfo.TypeOf(a); t != nil {
			if s, ok := t.Underlying().(*types.Slice); ok && values.IsByte(s.Elem()) {
				return true
			}
		}
	}
	return false
}

// targetName spells a target as its package reads it.
func (p *pass) targetName(fn *types.Func) string {
	if fn.Pkg() == p.Pkg && fn.Signature().Recv() == nil {
		return fn.Name()
	}
	return shortName(fn)
}

// fieldTargets returns the functions that the package's production code
// stores in the unexported field of function type field, when each is a
// package function and nothing else writes the field.
func (p *pass) fieldTargets(field *types.Var) ([]*types.Func, bool) {
	return p.targetsOnce(field, func() ([]*types.Func, bool) {
		if field.Exported() || field.Pkg() != p.Pkg {
			return nil, false
		}
		if _, ok := field.Type().Underlying().(*types.Signature); !ok {
			return nil, false
		}
		stored, ok := p.vals.Stored(p.prod, field)
		if !ok {
			return nil, false
		}
		var targets []*types.Func
		for _, e := range stored {
			fn, ok := p.funcValue(e)
			if !ok {
				return nil, false
			}
			if !slices.Contains(targets, fn) {
				targets = append(targets, fn)
			}
		}
		return targets, true
	})
}

// targetsOnce computes the targets of obj (a field, a parameter, an
// interface method) once per package: every call through it asks.
func (p *pass) targetsOnce(obj types.Object, find func() ([]*types.Func, bool)) ([]*types.Func, bool) {
	if t, ok := p.model.targets[obj]; ok {
		return t, t != nil
	}
	t, ok := find()
	if !ok {
		t = nil
	} else if t == nil {
		t = []*types.Func{}
	}
	p.model.targets[obj] = t
	return t, ok
}

// funcValueTargets returns the functions that the function value e may be:
// those that the package stores in the field or passes for the parameter e
// names (see fieldTargets, paramTargets), the function that declares the
// package variable e names, or the functions of the composite literal that
// declares the package map, slice or array that e indexes (a registry:
// algos[crypto.SHA256]). A package variable must be unexported and never
// written after its declaration, elements included.
func (p *pass) funcValueTargets(e ast.Expr) ([]*types.Func, bool) {
	e = ast.Unparen(e)
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if s, ok := p.TypesInfo.Selections[sel]; ok {
			if s.Kind() != types.FieldVal {
				return nil, false
			}
			return p.fieldTargets(s.Obj().(*types.Var))
		}
	}
	index, indexed := e.(*ast.IndexExpr)
	if indexed {
		e = ast.Unparen(index.X)
	}
	v, ok := p.TypesInfo.Uses[values.IdentOf(e)].(*types.Var)
	if !ok || ast.Unparen(e) != values.IdentOf(e) && !p.pkgSelector(e) {
		return nil, false
	}
	if v.Kind() == types.ParamVar && !indexed {
		return p.paramTargets(v)
	}
	if v.Pkg() != p.Pkg || v.Parent() != v.Pkg().Scope() || !p.fixedPackageVar(v) {
		return nil, false
	}
	value := ast.Unparen(p.declaredValue(v))
	if !indexed {
		fn, ok := p.funcValue(value)
		return []*types.Func{fn}, ok
	}
	lit, ok := value.(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return nil, false
	}
	var targets []*types.Func
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			elt = kv.Value
		}
		fn, ok := p.funcValue(elt)
		if !ok {
			return nil, false
		}
		targets = append(targets, fn)
	}
	return targets, true
}

// paramTargets returns the functions that the calls of v's function pass
// for the parameter v of function type, when v's function is unexported,
// only called, never assigns v, and every call passes a package function.
func (p *pass) paramTargets(v *types.Var) ([]*types.Func, bool) {
	if _, ok := v.Type().Underlying().(*types.Signature); !ok || v.Kind() != types.ParamVar {
		return nil, false
	}
	return p.targetsOnce(v, func() ([]*types.Func, bool) {
		def, ok := p.vals.Def(p.root, v)
		if !ok {
			return nil, false
		}
		owner, _, ok := p.funcOf(def)
		decl, _ := values.EnclosingFunc(def)
		if !ok || owner.Exported() || owner.Signature().Recv() != nil || p.vals.Written(decl, v) {
			return nil, false
		}
		args, ok := p.vals.Arguments(p.prod.Inspector(), owner, v)
		if !ok {
			return nil, false // used as a value: called from where is not known
		}
		var targets []*types.Func
		for _, arg := range args {
			fn, ok := p.funcValue(arg.Node().(ast.Expr))
			if !ok {
				return nil, false
			}
			if !slices.Contains(targets, fn) {
				targets = append(targets, fn)
			}
		}
		return targets, true
	})
}

// interfaceTargets returns the one method that a call through the
// interface method sel may call, when the interface is unexported, no
// exported function, method or field lets a value of another package in,
// and one type of the package implements it.
func (p *pass) interfaceTargets(sel *types.Selection) ([]*types.Func, bool) {
	named, ok := types.Unalias(sel.Recv()).(*types.Named)
	if !ok || named.Obj().Pkg() != p.Pkg || named.Obj().Exported() {
		return nil, false
	}
	return p.targetsOnce(sel.Obj(), func() ([]*types.Func, bool) {
		iface, ok := named.Underlying().(*types.Interface)
		if !ok || p.exposed(named) {
			return nil, false
		}
		var target *types.Func
		for _, impl := range frequency.Implementations(p.Pkg, iface, sel.Obj().Name()) {
			if impl.Method == nil || target != nil && target != impl.Method {
				return nil, false // more than one implementation
			}
			target = impl.Method
		}
		if target == nil {
			return nil, false
		}
		return []*types.Func{target}, true
	})
}

// exposed reports whether a value of the interface type named can come from
// another package: an exported function or method of the package takes it
// (or a type built from it), an exported variable or an exported field of an
// exported type holds it, or the package asserts a value to it.
func (p *pass) exposed(named *types.Named) bool {
	mentions := func(t types.Type) bool {
		return strings.Contains(types.TypeString(t, nil), types.TypeString(named, nil))
	}
	takes := func(sig *types.Signature) bool {
		for v := range sig.Params().Variables() {
			if mentions(v.Type()) {
				return true
			}
		}
		return false
	}
	// A value of another package asserted to it: x.(treeHasher).
	for cur := range p.prod.Preorder((*ast.TypeAssertExpr)(nil)) {
		if t := cur.Node().(*ast.TypeAssertExpr).Type; t != nil && mentions(p.TypesInfo.TypeOf(t)) {
			return true
		}
	}
	for cur := range p.prod.Preorder((*ast.TypeSwitchStmt)(nil)) {
		for _, clause := range cur.Node().(*ast.TypeSwitchStmt).Body.List {
			for _, e := range clause.(*ast.CaseClause).List {
				if t := p.TypesInfo.TypeOf(e); t != nil && mentions(t) {
					return true
				}
			}
		}
	}
	scope := p.Pkg.Scope()
	for _, n := range scope.Names() {
		switch obj := scope.Lookup(n).(type) {
		case *types.Func:
			if obj.Exported() && takes(obj.Signature()) {
				return true
			}
		case *types.Var:
			if obj.Exported() && mentions(obj.Type()) {
				return true
			}
		case *types.TypeName:
			t, ok := obj.Type().(*types.Named)
			if !ok || !obj.Exported() {
				continue
			}
			for m := range t.Methods() {
				if m.Exported() && takes(m.Signature()) {
					return true
				}
			}
			if st, ok := t.Underlying().(*types.Struct); ok {
				for f := range st.Fields() {
					if f.Exported() && mentions(f.Type()) {
						return true
					}
				}
			}
		}
	}
	return false
}

// digestValueSink returns the sink that call is when it calls a function
// value (a parameter, a field or a variable of function type, of this
// package or another) whose type has the shape of a hash function: one
// []byte parameter and a digest as its only result, an array of 16 to 64
// bytes, or a checksum, a 32- or 64-bit unsigned integer (a hash ring's
// crc32.ChecksumIEEE),
//
//	type HashFunc func([]byte) [32]byte
//	func nodeHash(h HashFunc, l, r []byte) [32]byte { return h(append(l, r...)) }
//
//	type Hash func(data []byte) uint32
//	func (m *Map) Get(key string) string { hash := m.hash([]byte(key)); ... }
//
// What the value holds is its caller's choice: a function of that shape
// hashes what it is given, and the argument of a call through a function
// value escapes. Reported without a fix, as a dynamic call is.
func (p *pass) digestValueSink(call *ast.CallExpr) (sink, bool) {
	if _, isVar := typeutil.Callee(p.TypesInfo, call).(*types.Var); !isVar || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return sink{}, false // a function or a method, not a function value
	}
	sig, ok := p.TypesInfo.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 1 || sig.Variadic() {
		return sink{}, false
	}
	in, ok := sig.Params().At(0).Type().Underlying().(*types.Slice)
	if !ok || !values.IsByte(in.Elem()) || !values.DigestType(sig.Results().At(0).Type()) {
		return sink{}, false
	}
	name := fmt.Sprintf("%s, a function value of a hash's shape (%s)", types.ExprString(call.Fun), types.TypeString(p.TypesInfo.TypeOf(call.Fun), types.RelativeTo(p.Pkg)))
	return sink{call: call, arg: call.Args[0], name: name, dynamic: true, unknown: true}, true
}
