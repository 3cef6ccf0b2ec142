package analyzer

import (
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// equalForm finds, for the function at fn that makes the MAC mac, the calls
// that only compare what it returns with a MAC received, as jwt's Verify
// compares sign's result:
//
//	func (h *hsAlg) Verify(payload, signature []byte) error {
//	    signed, err := h.sign(payload)
//	    ...
//	    if !hmac.Equal(signature, signed) { ... }
//
// fn must return mac.Sum(nil) (or nil, in its error returns) as its only
// []byte result, first; a call qualifies when it is in fn's file, assigns
// that result to a variable whose only use is one argument of hmac.Equal,
// and the other argument is a variable its function never assigns (it is
// evaluated at the call instead of at the comparison). With the MAC pooled,
// its Sum(nil) is an allocation that only such a caller could do without:
// the compare form lets it compare in the pooled MAC's own space. It returns
// nil when no call qualifies.
func (p *pass) equalForm(f *fixes.File, fn inspector.Cursor, mac *types.Var) *fixes.EqualForm {
	decl, ok := fn.Node().(*ast.FuncDecl)
	if !ok || decl.Body == nil {
		return nil
	}
	obj, ok := p.TypesInfo.Defs[decl.Name].(*types.Func)
	// Reject a variadic function: the MAC received would follow its
	// variadic parameter.
	if !ok || decl.Type.TypeParams != nil || obj.Signature().Variadic() {
		return nil
	}
	res := obj.Signature().Results()
	if res.Len() < 1 || res.Len() > 2 || !types.Identical(res.At(0).Type(), byteSlice) ||
		res.Len() == 2 && !values.IsError(res.At(1).Type()) ||
		len(decl.Type.Results.List[0].Names) > 0 {
		return nil
	}
	ef := &fixes.EqualForm{Decl: decl}
	for cur := range fn.Preorder((*ast.ReturnStmt)(nil)) {
		if insideFuncLit(cur, fn) {
			continue
		}
		ret := cur.Node().(*ast.ReturnStmt)
		if len(ret.Results) != res.Len() {
			return nil
		}
		first := ast.Unparen(ret.Results[0])
		switch {
		case p.TypesInfo.Types[first].IsNil():
			ef.Nils = append(ef.Nils, first)
		case values.IsIdentOf(p.TypesInfo, p.sumNil(first), mac):
			ef.Sums = append(ef.Sums, first)
		default:
			return nil // it returns something else
		}
	}
	if len(ef.Sums) == 0 {
		return nil
	}
	var callers []string
	for ic := range p.calls.Within(p.root) {
		cur, call := ic.Cursor, ic.Node
		if ic.Callee != obj || p.Fset.File(call.Pos()) != p.Fset.File(decl.Pos()) {
			continue
		}
		c, caller, ok := p.comparedCall(cur, res.Len())
		if ok {
			ef.Calls = append(ef.Calls, c)
			callers = append(callers, caller)
		}
	}
	if len(ef.Calls) == 0 {
		return nil
	}
	ef.Callers = strings.Join(callers, " and ")
	ef.Name = unexported(decl.Name.Name) + "Equal"
	var recv types.Type // a method's receiver, whose fields and methods the name must differ from
	if r := obj.Signature().Recv(); r != nil {
		recv = r.Type()
	}
	for i := 2; p.Pkg.Scope().Lookup(ef.Name) != nil || fieldOrMethod(recv, ef.Name); i++ {
		ef.Name = unexported(decl.Name.Name) + "Equal" + strconv.Itoa(i)
	}
	ef.Param = f.FreeName(decl.Body.Lbrace, "want")
	return ef
}

// comparedCall recognizes, at the call cur of a function with n results,
// v, err := f(...) (or v := f(...)) with v used once, as an argument of
// hmac.Equal, or hmac.Equal(f(...), sig) itself when f has one result,
// compared with a variable its function does not assign.
func (p *pass) comparedCall(cur inspector.Cursor, n int) (fixes.EqualCall, string, bool) {
	call := cur.Node().(*ast.CallExpr)
	sel := values.IdentOf(call.Fun) // f, or the Sel of h.sign
	fn, ok := values.EnclosingFunc(cur)
	if sel == nil || !ok {
		return fixes.EqualCall{}, "", false
	}
	// The argument compared: the call itself, hmac.Equal(h.sign(p), sig),
	// when it has one result, or the variable its result is assigned to.
	arg, result := cur, ""
	if n != 1 || cur.ParentEdgeKind() != edge.CallExpr_Args {
		if cur.ParentEdgeKind() != edge.AssignStmt_Rhs {
			return fixes.EqualCall{}, "", false
		}
		assign := cur.Parent().Node().(*ast.AssignStmt)
		if len(assign.Rhs) != 1 || len(assign.Lhs) != n {
			return fixes.EqualCall{}, "", false
		}
		id, _ := assign.Lhs[0].(*ast.Ident)
		v, ok := p.TypesInfo.Defs[id].(*types.Var)
		if !ok || assign.Tok.String() != ":=" {
			return fixes.EqualCall{}, "", false
		}
		uses := slices.Collect(p.vals.Uses(fn, v))
		if len(uses) != 1 || uses[0].ParentEdgeKind() != edge.CallExpr_Args {
			return fixes.EqualCall{}, "", false
		}
		// The comparison runs once per computation of v: no loop or
		// function literal lies between them.
		for c := range uses[0].Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil)) {
			if !c.Contains(cur) {
				return fixes.EqualCall{}, "", false
			}
			break
		}
		arg, result = uses[0], id.Name
	}
	cmp := arg.Parent().Node().(*ast.CallExpr)
	if p.qualifiedCallee(cmp) != "crypto/hmac.Equal" || len(cmp.Args) != 2 {
		return fixes.EqualCall{}, "", false
	}
	sig := cmp.Args[1-arg.ParentEdgeIndex()]
	w, ok := p.TypesInfo.Uses[values.IdentOf(sig)].(*types.Var)
	if !ok || ast.Unparen(sig) != values.IdentOf(sig) || p.vals.Written(fn, w) || w.Parent() == w.Pkg().Scope() {
		return fixes.EqualCall{}, "", false
	}
	// The MAC received is compared where f is called: it must be in scope
	// there, the same variable.
	if _, obj := p.Pkg.Scope().Innermost(call.Pos()).LookupParent(w.Name(), call.Pos()); obj != w {
		return fixes.EqualCall{}, "", false
	}
	name := "a function literal"
	if d, ok := fn.Node().(*ast.FuncDecl); ok {
		name = d.Name.Name
	}
	return fixes.EqualCall{Call: call, Sel: sel, Sig: sig, Compare: cmp, Result: result}, name, true
}
