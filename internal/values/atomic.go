package values

// Byte slices held in atomic fields, which their holder may swap at any
// time.

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// AtomicBytes returns the field whose atomic value e is loaded from, when
// e is a byte slice that an atomic field holds, and the field's atomic
// type:
//
//	s.key.Load().([]byte)   // s.key is an atomic.Value
//	*s.key.Load()           // an atomic.Pointer[[]byte]
//	key := s.key.Load().([]byte); ... key
//
// directly, or as the one value of a local variable of the function at fn
// (see Only) that one of those defines.
func (x *Index) AtomicBytes(fn inspector.Cursor, e ast.Expr) (*ast.SelectorExpr, string, bool) {
	bytes := types.NewSlice(types.Typ[types.Byte])
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		v, ok := x.info.Uses[id].(*types.Var)
		if !ok || v.Parent() == v.Pkg().Scope() || v.Kind() == types.ParamVar {
			return nil, "", false
		}
		def, _, ok := x.Only(fn, v) // v := ..., never assigned again
		if !ok {
			return nil, "", false
		}
		e = ast.Unparen(def)
	}
	var load ast.Expr
	var kind string
	switch e := e.(type) {
	case *ast.TypeAssertExpr:
		if e.Type == nil || !types.Identical(x.info.TypeOf(e.Type), bytes) {
			return nil, "", false
		}
		load, kind = e.X, "atomic.Value"
	case *ast.StarExpr:
		load, kind = e.X, "atomic.Pointer[[]byte]"
	default:
		return nil, "", false
	}
	call, ok := ast.Unparen(load).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil, "", false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Load" {
		return nil, "", false
	}
	field, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !ok {
		return nil, "", false
	}
	t := x.info.TypeOf(field)
	switch kind {
	case "atomic.Value":
		if !IsNamed(t, "sync/atomic", "Value", false) {
			return nil, "", false
		}
	default:
		named, ok := types.Unalias(t).(*types.Named)
		if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "sync/atomic" || named.Obj().Name() != "Pointer" ||
			named.TypeArgs().Len() != 1 || !types.Identical(named.TypeArgs().At(0), bytes) {
			return nil, "", false
		}
	}
	return field, kind, true
}

// StoresAtomic reports whether the code under region stores into the
// atomic field (its Store, Swap or CompareAndSwap) or writes it.
func (x *Index) StoresAtomic(region inspector.Cursor, field *types.Var) bool {
	for use := range x.Uses(region, field) {
		if use.ParentEdgeKind() != edge.SelectorExpr_Sel || use.Parent().ParentEdgeKind() != edge.SelectorExpr_X {
			continue
		}
		switch use.Parent().Parent().Node().(*ast.SelectorExpr).Sel.Name {
		case "Store", "Swap", "CompareAndSwap":
			return true
		}
	}
	return x.Written(region, field)
}
