package analyzer

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"
)

// auditOtherHashers gives the audit a line for every call that returns a
// hasher and is not a constructor call of the package's sites (known): a function of the package
// that does more than a constructor wrapper, one that hands back a hasher
// it is given, a method or a function value whose constructor is not known
// here. Each such value is made somewhere else, where it is judged; the
// line says so, so that no call that yields a hasher goes unaccounted.
func (p *pass) auditOtherHashers(known map[*ast.CallExpr]bool) {
	for ic := range p.calls.Within(p.root) {
		call := ic.Node
		if known[call] || !hasherLike(firstResult(p.TypesInfo.TypeOf(call))) {
			continue
		}
		if tv, ok := p.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
			continue // a conversion
		}
		if !p.suppress.analyzed(ic.Cursor) {
			p.suppress.notAnalyzed(ic.Cursor, call, hasherAlloc)
			continue
		}
		why := "the hasher comes from a function value or a method whose constructor is not known here; where it is made, it is judged"
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if s, ok := p.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodVal && types.IsInterface(s.Recv()) {
				why = s.Obj().Name() + " is a method of an interface that no type of the package implements by making a hasher: it may return one it holds (an accessor), which is judged where it is made"
			}
		}
		if fn := typeutil.StaticCallee(p.TypesInfo, call); fn != nil {
			why = fn.Name() + " returns a hasher, but is not a constructor the analysis knows"
			if fn.Pkg() == p.Pkg {
				why += " (a wrapper returns a constructor's hasher made from its parameters and constants, and does nothing else)"
			} else {
				why += " (-constructors adds one)"
			}
			why += "; the constructor calls in it are judged where they are"
			if len(call.Args) > 0 && isHasher(p.TypesInfo.TypeOf(call.Args[0])) {
				why = fn.Name() + " is given a hasher and returns one: the hasher it is given is judged where it is made"
			}
		}
		p.silent(call, hasherAlloc, why)
	}
}

// hasherLike reports whether a value of type t is a hasher, or has the
// methods of one by name: a type that embeds a hasher and gives it a Sum
// of its own (func (h Hasher) Sum() Hash).
func hasherLike(t types.Type) bool {
	if t == nil || isHasher(t) {
		return t != nil
	}
	if _, isPtr := t.(*types.Pointer); !isPtr && !types.IsInterface(t) {
		t = types.NewPointer(t)
	}
	ms := types.NewMethodSet(t)
	return !slices.ContainsFunc([]string{"Write", "Sum", "Reset", "Size", "BlockSize"}, func(name string) bool { return ms.Lookup(nil, name) == nil })
}

// firstResult returns the type of the first result of a call of type t: t,
// or the first of a tuple (a hasher with an error).
func firstResult(t types.Type) types.Type {
	if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
		return tuple.At(0).Type()
	}
	return t
}
