package analyzer

import (
	"go/ast"
	"go/types"

	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/inspector"
)

// invariant reports whether e has the same value on every iteration of loop,
// and if not, why. e is an argument of a constructor call (own); the loop may
// not write the variables e reads, and may not touch at all a variable of a
// reference type (slice, map, pointer...) that e reads, since the constructor
// copies what it points to (an HMAC key) when it is called.
func (p *pass) invariant(e ast.Expr, loop inspector.Cursor, own ast.Node) (bool, string) {
	ok, why := true, ""
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case nil:
			return false // the end of a node's children
		case *ast.BasicLit, *ast.ParenExpr, *ast.StarExpr, *ast.IndexExpr:
			return true
		case *ast.CallExpr:
			if tv, isType := p.TypesInfo.Types[n.Fun]; isType && tv.IsType() {
				return true // a conversion such as []byte(s)
			}
			ok, why = false, types.ExprString(n)+" is a call"
			return false
		case *ast.SelectorExpr:
			if sel, isSel := p.TypesInfo.Selections[n]; isSel {
				if sel.Kind() == types.FieldVal && p.writesField(loop, sel.Obj().Name()) {
					ok, why = false, "the loop assigns "+types.ExprString(n)
					return false
				}
				return true // check n.X, and n.Sel as a variable
			}
			// A qualified identifier: pkg.Name.
			if !p.identInvariant(n.Sel, loop, own) {
				ok, why = false, "the loop may change "+types.ExprString(n)
			}
			return false
		case *ast.Ident:
			if !p.identInvariant(n, loop, own) {
				ok, why = false, "the loop may change "+n.Name
			}
			return false
		default:
			ok, why = false, types.ExprString(e)+" is not a simple expression"
			return false
		}
	})
	return ok, why
}

// identInvariant reports whether the object id refers to keeps its value in loop.
func (p *pass) identInvariant(id *ast.Ident, loop inspector.Cursor, own ast.Node) bool {
	switch obj := p.TypesInfo.Uses[id].(type) {
	case *types.Const, *types.TypeName, *types.PkgName, *types.Func, *types.Builtin, *types.Nil:
		return true
	case *types.Var:
		if obj.Parent() == obj.Pkg().Scope() {
			// A table of the standard library (crc32.IEEETable) is set once
			// by its package: only an assignment in the loop could change it.
			if obj.Pkg() != p.Pkg && isStdPkg(obj.Pkg().Path()) {
				return !p.touches(loop, obj, own, false)
			}
			return p.fixedPackageVar(obj)
		}
		l := loop.Node()
		if l.Pos() <= obj.Pos() && obj.Pos() < l.End() {
			return false // declared in the loop
		}
		return !p.touches(loop, obj, own, !isValueType(obj.Type()))
	}
	return false
}

// touches reports whether the code under root writes v or, when anyUse is
// set, mentions it at all outside own (which may be nil).
func (p *pass) touches(root inspector.Cursor, v *types.Var, own ast.Node, anyUse bool) bool {
	if !anyUse && !p.vals.Written(root, v) {
		return false
	}
	for cur := range p.vals.Uses(root, v) {
		id := cur.Node()
		if own != nil && own.Pos() <= id.Pos() && id.End() <= own.End() {
			continue
		}
		if anyUse || values.IsWritten(cur) {
			return true
		}
	}
	return false
}

// writesField reports whether loop assigns any field named name.
func (p *pass) writesField(loop inspector.Cursor, name string) bool {
	for cur := range loop.Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		if sel.Sel.Name == name && values.IsWritten(cur) {
			return true
		}
	}
	return false
}

// fixedPackageVar reports whether the package never writes v after its
// declaration.
func (p *pass) fixedPackageVar(v *types.Var) bool {
	return !v.Exported() && !p.vals.Written(p.prod, v)
}

// isValueType reports whether a value of type t is copied whole on assignment
// (so that reading it cannot observe later writes made through another name).
func isValueType(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return true
	case *types.Array:
		return isValueType(u.Elem())
	case *types.Signature:
		return true
	}
	return false
}
