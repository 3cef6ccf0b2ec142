package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Digests returned only to be copied by every caller:
//
//	func computeNode(l, r *Node) *Node {
//		sha := sha256.New()
//		...
//		digest := sha.Sum(nil)            // a new slice per node
//		return truncate((*Node)(digest))
//	}
//
//	carry = *computeNode(&carry, &p)      // every call copies it at once
//
// The result of h.Sum(nil) leaves its function, but only as far as callers
// that copy the array it points to: an unexported function whose value is
// never taken, whose every call in the package is dereferenced at once
// (*f(...)) or held in a variable only passed to functions of the package
// that only dereference it, and that returns the digest, converted to a pointer to an array
// or passed through a function of the package that returns its argument.
// Reported without a fix: the function would return the digest by value.

// returnedCopied recognizes the h.Sum(nil) at cur whose result its function
// returns only for its callers to copy.
func (p *pass) returnedCopied(cur inspector.Cursor) (sumUse, bool) {
	fn, decl, ok := p.funcOf(cur)
	if !ok || decl.Name.IsExported() || decl.Type.Results == nil || decl.Type.Results.NumFields() != 1 {
		return sumUse{}, false
	}
	// What holds the digest: the sum itself, or digest := h.Sum(nil) used
	// once.
	at := cur
	if cur.ParentEdgeKind() == edge.AssignStmt_Rhs {
		v, _, fnCur, ok := p.model.assignedLocal(cur)
		if !ok || cur.Parent().Node().(*ast.AssignStmt).Tok != token.DEFINE {
			return sumUse{}, false
		}
		uses := slices.Collect(p.vals.Uses(fnCur, v))
		if len(uses) != 1 {
			return sumUse{}, false
		}
		at = uses[0]
	}
	// Up to the return statement, through conversions to a pointer to an
	// array and functions that return their argument.
	for at.ParentEdgeKind() != edge.ReturnStmt_Results {
		switch at.ParentEdgeKind() {
		case edge.ParenExpr_X:
		case edge.CallExpr_Args:
			call := at.Parent().Node().(*ast.CallExpr)
			if tv, ok := p.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
				ptr, ok := tv.Type.Underlying().(*types.Pointer)
				if !ok {
					return sumUse{}, false
				}
				if _, ok := ptr.Elem().Underlying().(*types.Array); !ok {
					return sumUse{}, false
				}
			} else if !p.returnsArgument(call) {
				return sumUse{}, false
			}
		default:
			return sumUse{}, false
		}
		at = at.Parent()
	}
	// Every use of the function is a call whose result is copied at once.
	calls := 0
	elsewhere := map[string]bool{} // the other files that call it
	for u := range p.vals.Uses(p.prod, fn) {
		if u.ParentEdgeKind() != edge.CallExpr_Fun || !p.copiedAtOnce(u.Parent()) {
			return sumUse{}, false
		}
		calls++
		if file := p.Fset.File(u.Node().Pos()); file != p.Fset.File(decl.Pos()) {
			elsewhere[filepath.Base(file.Name())] = true
		}
	}
	if calls == 0 {
		return sumUse{}, false
	}
	return sumUse{verb: "copied", by: "every caller of " + fn.Name() + ", which copies what it points to", returned: true, callers: slices.Sorted(maps.Keys(elsewhere))}, true
}

// copiedAtOnce reports whether the pointer that the call at call returns is
// only copied from: dereferenced at once (*f(...)), or held in a local
// variable that is only passed to functions of the package that only
// dereference the parameter it is passed as (a sparse array's Set(i, n),
// which stores *n).
func (p *pass) copiedAtOnce(call inspector.Cursor) bool {
	if call.ParentEdgeKind() == edge.StarExpr_X {
		return true
	}
	v, _, fn, ok := p.model.assignedLocal(call)
	if !ok || call.Parent().Node().(*ast.AssignStmt).Tok != token.DEFINE {
		return false
	}
	uses := 0
	for u := range p.vals.Uses(fn, v) {
		uses++
		if u.ParentEdgeKind() != edge.CallExpr_Args {
			return false
		}
		callee := typeutil.StaticCallee(p.TypesInfo, u.Parent().Node().(*ast.CallExpr))
		if callee == nil || callee.Pkg() != p.Pkg || !p.onlyDereferenced(callee, u.ParentEdgeIndex()) {
			return false
		}
	}
	return uses > 0
}

// onlyDereferenced reports whether the parameter i of fn, a function of the
// package, is only dereferenced (*param) in its body.
func (p *pass) onlyDereferenced(fn *types.Func, i int) bool {
	d, ok := p.decl(fn.Origin())
	if !ok || fn.Signature().Variadic() {
		return false
	}
	params := fn.Origin().Signature().Params()
	if i >= params.Len() {
		return false
	}
	param := params.At(i)
	uses := 0
	for u := range p.vals.Uses(d, param) {
		if u.ParentEdgeKind() != edge.StarExpr_X || u.Parent().ParentEdgeKind() == edge.AssignStmt_Lhs {
			return false
		}
		uses++
	}
	return uses > 0
}

// returnsArgument reports whether call calls a function of the package with
// one parameter that returns that parameter (and nothing else) on every
// return: truncate(n *Node) *Node { n[31] &= 0x3f; return n }.
func (p *pass) returnsArgument(call *ast.CallExpr) bool {
	callee := typeutil.StaticCallee(p.TypesInfo, call)
	if callee == nil || callee.Pkg() != p.Pkg || len(call.Args) != 1 {
		return false
	}
	d, ok := p.decl(callee.Origin())
	if !ok {
		return false
	}
	decl := d.Node().(*ast.FuncDecl)
	params := callee.Signature().Params()
	if params.Len() != 1 || decl.Body == nil {
		return false
	}
	param := params.At(0)
	returns := 0
	for r := range d.Preorder((*ast.ReturnStmt)(nil)) {
		ret := r.Node().(*ast.ReturnStmt)
		if insideFuncLit(r, d) {
			continue
		}
		if len(ret.Results) != 1 || !p.isIdentOf(ret.Results[0], param) {
			return false
		}
		returns++
	}
	return returns > 0
}
