package analyzer

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/hashalloc/hashalloc/internal/values"
)

// Sums reached through package variables of function type:
//
//	var Hash = sha256.Sum256
//	var Hash = func(b []byte) [32]byte { return sha256.Sum256(b) }
//
//	root := hashing.Hash(append(prefix, leaf...))
//
// A call of such a variable calls the function it holds, which is known when
// the variable is assigned only at its declaration: no statement of its
// package's production code assigns it or takes its address, nor, for a
// variable of another package, of the package that calls it (its package
// exports the variable's hashesArg fact only when it never writes it
// itself). Then the call is the sink that a call of the held function would
// be: a sum (the fix hashes the parts with the same multi-part sum, which
// then calls no variable), a hashing helper, or a function literal whose
// []byte parameter only flows into a hash (the literal's sum and result
// proved as a helper's are, see sumResult and writeSum).
//
// What is not proved: that no other package assigns an exported variable,
// and that no test replaces it (test files are not seen by the package they
// test, whose findings must be those of its test variant). A test that swaps
// the variable for a fake sees, after the fix, the sum called directly.

// varSink returns the sink that call is when it calls a package variable of
// function type that holds a function hashing its argument.
func (p *pass) varSink(call *ast.CallExpr, helpers map[*types.Func]*hashesArg) (sink, bool) {
	v := p.funcVar(call.Fun)
	if v == nil || call.Ellipsis.IsValid() {
		return sink{}, false
	}
	name := types.ExprString(call.Fun)
	var fact *hashesArg
	if v.Pkg() == p.Pkg {
		if fn, ok := p.funcValue(p.declaredValue(v)); ok {
			// It holds a function: the call is that function's.
			s, ok := p.funcSink(call, fn, helpers)
			if !ok {
				return sink{}, false
			}
			held := shortName(fn)
			if fn.Pkg() == p.Pkg {
				held = fn.Name()
			}
			s.name, s.funcVar = name+", which holds "+held, v
			return s, true
		}
		fact = p.literalFact(v)
	} else {
		fact = new(hashesArg)
		if !p.ImportObjectFact(v, fact) {
			return sink{}, false
		}
	}
	if fact == nil || fact.Parts || fact.Param >= len(call.Args) {
		return sink{}, false
	}
	s := sink{call: call, arg: call.Args[fact.Param], name: name, funcVar: v}
	if fact.Sum != "" && (fact.Result == resultArray || fact.Result == resultSlice) {
		// It returns nothing but that sum of its argument (not the sum of
		// that sum, which no sum function computes).
		s.sum, s.sliceResult = fact.Sum, fact.Result == resultSlice
		s.name += ", which computes " + fact.Sum[strings.LastIndex(fact.Sum, "/")+1:]
	}
	return s, true
}

// funcVar returns the package variable of function type that e names, when
// the package never writes it after its declaration; or nil.
func (p *pass) funcVar(e ast.Expr) *types.Var {
	id := values.IdentOf(e)
	if id == nil || ast.Unparen(e) != id && !p.pkgSelector(e) {
		return nil
	}
	v, ok := p.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	if _, ok := v.Type().Underlying().(*types.Signature); !ok || p.vals.Written(p.prod, v) {
		return nil
	}
	return v
}

// funcValue returns the package function (not a method) that e names.
func (p *pass) funcValue(e ast.Expr) (*types.Func, bool) {
	id := values.IdentOf(e)
	if id == nil || ast.Unparen(e) != id && !p.pkgSelector(e) {
		return nil, false
	}
	fn, ok := p.TypesInfo.Uses[id].(*types.Func)
	return fn, ok && fn.Pkg() != nil && fn.Signature().Recv() == nil
}

// literalFact returns the hashesArg fact of the function literal that
// declares the package variable v, when one of its []byte parameters only
// flows into a hash; or nil.
func (p *pass) literalFact(v *types.Var) (fact *hashesArg) {
	if fact, ok := p.model.literalFacts[v]; ok {
		return fact
	}
	defer func() { p.model.literalFacts[v] = fact }()
	lit, ok := ast.Unparen(p.declaredValue(v)).(*ast.FuncLit)
	if !ok {
		return nil
	}
	cur, ok := p.root.FindNode(lit)
	if !ok {
		return nil
	}
	sig, ok := p.TypesInfo.TypeOf(lit).(*types.Signature)
	if !ok || sig.Variadic() {
		return nil
	}
	return p.paramFact(cur, lit.Body, sig)
}

// varFact returns the hashesArg fact of the package variable v, of this
// package, for the packages that call it: the fact of the function it holds
// (a sum returns nothing but itself), or of the literal that declares it.
func (p *pass) varFact(v *types.Var, helpers map[*types.Func]*hashesArg) *hashesArg {
	fn, ok := p.funcValue(p.declaredValue(v))
	if !ok {
		return p.literalFact(v)
	}
	if sum, ok := p.cfg.lookupSum(fn, funcKey(fn)); ok {
		return &hashesArg{Sum: sum, Result: resultArray}
	}
	fact := p.helperFact(fn, helpers)
	if fact == nil || fact.Parts {
		return nil
	}
	c := *fact
	return &c
}

// exportVarFacts exports the hashesArg facts of the package's exported
// variables of function type that it never writes.
func (p *pass) exportVarFacts(helpers map[*types.Func]*hashesArg) {
	for v := range p.vals.Vars(p.root.Inspector()) {
		if !v.Exported() || p.vals.Written(p.prod, v) { // written after its declaration
			continue
		}
		if _, ok := v.Type().Underlying().(*types.Signature); !ok {
			continue
		}
		if fact := p.varFact(v, helpers); fact != nil {
			p.ExportObjectFact(v, fact)
		}
	}
}
