package analyzer

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"go/ast"
	"go/token"
	"go/types"
	"golang.org/x/tools/go/analysis"
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
//
// The fix (see fixes.SumValue) keeps the function as its callers see it and
// moves its body into a worker that sums into its result and returns it by
// value; the function, left with two lines, is inlined into every caller,
// where the result then stays on the stack:
//
//	func computeNode(l, r *Node) *Node {
//		n := computeNodeValue(l, r)       // inlined: n is on the caller's stack
//		return &n
//	}
//
//	func computeNodeValue(l, r *Node) (n Node) {
//		sha := sha256.New()
//		...
//		sha.Sum(n[:0])                    // no slice: the digest goes into n
//		truncate(&n)
//		return n
//	}

// returnedDigest is the return of a digest that returnedCopied recognizes.
type returnedDigest struct {
	fn     *types.Func
	decl   *ast.FuncDecl
	def    inspector.Cursor // digest := h.Sum(nil), or the zero cursor when the sum is returned directly
	ret    *ast.ReturnStmt
	layers []*ast.CallExpr // the conversions and functions that return their argument, innermost first
}

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
	r := &returnedDigest{fn: fn, decl: decl}
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
		r.def = cur.Parent()
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
			r.layers = append(r.layers, call)
		default:
			return sumUse{}, false
		}
		at = at.Parent()
	}
	r.ret = at.Parent().Node().(*ast.ReturnStmt)
	// Every use of the function is a call whose result is copied at once.
	calls := 0
	for u := range p.vals.Uses(p.prod, fn) {
		if u.ParentEdgeKind() != edge.CallExpr_Fun || !p.copiedAtOnce(u.Parent()) {
			return sumUse{}, false
		}
		calls++
	}
	if calls == 0 {
		return sumUse{}, false
	}
	return sumUse{verb: "copied", by: "every caller of " + fn.Name() + ", which copies what it points to", returned: r}, true
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
	uses, passed := p.vals.UsedAs(fn, v, edge.CallExpr_Args)
	return passed && len(uses) > 0 && !slices.ContainsFunc(uses, func(u inspector.Cursor) bool {
		callee := typeutil.StaticCallee(p.TypesInfo, u.Parent().Node().(*ast.CallExpr))
		return callee == nil || callee.Pkg() != p.Pkg || !p.onlyDereferenced(callee, u.ParentEdgeIndex())
	})
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
	uses, read := p.vals.UsedAs(d, params.At(i), edge.StarExpr_X)
	return read && len(uses) > 0 && !slices.ContainsFunc(uses, func(u inspector.Cursor) bool { return u.Parent().ParentEdgeKind() == edge.AssignStmt_Lhs })
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
		if len(ret.Results) != 1 || !values.IsIdentOf(p.TypesInfo, ret.Results[0], param) {
			return false
		}
		returns++
	}
	return returns > 0
}

// sumValueFix splits the function of r, whose digest the h.Sum(nil) at cur
// makes, into a worker that returns the digest by value and the function,
// which returns the address of the worker's result (see fixes.SumValue).
func (p *siteChecks) sumValueFix(cur inspector.Cursor, s *Site, r *returnedDigest) (*analysis.SuggestedFix, string) {
	call := cur.Node().(*ast.CallExpr)
	decl := r.decl
	// The result must not escape through the hasher: a hasher of a known
	// constructor whose Sum the compiler devirtualizes, and that no fix
	// turns into a pooled interface.
	switch {
	case s == nil:
		return nil, "the hasher is a field's or a pool's, called through an interface: a result passed to its Sum would escape"
	case s.ctor.alloc == always:
		return nil, fmt.Sprintf("%s is called through an interface, so a result passed to it would escape", types.ExprString(call.Fun))
	case s.esc.kind != stays && s.esc.kind != transient:
		return nil, "the hasher is " + s.esc.reason
	case p.pooled[s]:
		return nil, "the hasher-alloc fix takes " + types.ExprString(call.Fun.(*ast.SelectorExpr).X) + " from a pool, and a result passed to a pooled hasher's Sum would escape"
	}
	size, ok := p.digestSize(s)
	if !ok {
		return nil, "the digest size of " + s.ctor.name + " is not known"
	}
	// The function as the worker's template: a plain function with named
	// parameters and one unnamed result, written as a pointer to an array
	// of the digest's bytes.
	switch {
	case decl.Recv != nil:
		return nil, r.fn.Name() + " is a method"
	case decl.Type.TypeParams != nil:
		return nil, r.fn.Name() + " is generic"
	case len(decl.Type.Results.List[0].Names) > 0:
		return nil, r.fn.Name() + "'s result is named"
	}
	for _, field := range decl.Type.Params.List {
		for _, name := range field.Names {
			if name.Name == "_" {
				return nil, "a parameter of " + r.fn.Name() + " is blank, and the worker is passed every one"
			}
		}
		if len(field.Names) == 0 {
			return nil, "a parameter of " + r.fn.Name() + " is unnamed, and the worker is passed every one"
		}
	}
	star, ok := decl.Type.Results.List[0].Type.(*ast.StarExpr)
	if !ok {
		return nil, "the result type of " + r.fn.Name() + " is not written as a pointer"
	}
	result := r.fn.Signature().Results().At(0).Type() // *T
	elem := p.TypesInfo.TypeOf(star.X)
	if array, ok := elem.Underlying().(*types.Array); !ok || !types.Identical(array.Elem(), types.Typ[types.Byte]) || array.Len() != size {
		return nil, fmt.Sprintf("%s does not point to an array of the digest's %d bytes", types.TypeString(result, types.RelativeTo(p.Pkg)), size)
	}
	// The digest is the only thing the function returns, through
	// conversions to its result type and functions that take and return it.
	var kept []ast.Expr
	for _, layer := range r.layers {
		if tv := p.TypesInfo.Types[layer.Fun]; tv.IsType() {
			if !types.Identical(tv.Type, result) {
				return nil, "the digest is converted to " + types.ExprString(layer.Fun) + ", not to the result type"
			}
			continue
		}
		callee := typeutil.StaticCallee(p.TypesInfo, layer)
		if !types.Identical(callee.Signature().Params().At(0).Type(), result) {
			return nil, types.ExprString(layer.Fun) + " does not take the result type"
		}
		kept = append(kept, layer.Fun)
	}
	if last := decl.Body.List[len(decl.Body.List)-1]; last != r.ret {
		return nil, "the digest is not returned by the last statement of " + r.fn.Name()
	}
	fnCur, ok := p.decl(r.fn)
	if !ok {
		return nil, "the declaration of " + r.fn.Name() + " is not found"
	}
	for ret := range fnCur.Preorder((*ast.ReturnStmt)(nil)) {
		if ret.Node() != r.ret && !insideFuncLit(ret, fnCur) {
			return nil, r.fn.Name() + " has several returns"
		}
	}
	var def ast.Stmt
	if r.def != (inspector.Cursor{}) {
		if r.def.ParentEdgeKind() != edge.BlockStmt_List || r.def.Parent().Node() != decl.Body {
			return nil, "the digest is not summed in the body of " + r.fn.Name() + " itself"
		}
		def = r.def.Node().(ast.Stmt)
	}
	// The names: the worker's, free in the package, and its result's, which
	// no identifier of the function spells (so it shadows nothing used).
	f := p.file(call.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	resultName := "sum"
	if named, ok := types.Unalias(elem).(*types.Named); ok {
		if first, _ := utf8.DecodeRuneInString(named.Obj().Name()); unicode.IsLetter(first) {
			resultName = string(unicode.ToLower(first)) // n for a Node
		}
	}
	worker := r.fn.Name() + "Value"
	for id := range fnCur.Preorder((*ast.Ident)(nil)) {
		switch id.Node().(*ast.Ident).Name {
		case resultName:
			return nil, r.fn.Name() + " already uses the name " + resultName + ", which the worker's result would take"
		case worker:
			return nil, r.fn.Name() + " already uses the name " + worker + ", which the worker would take"
		}
	}
	if name, _ := f.Names.Declare(f, worker, func(types.Object) bool { return false }); name != worker {
		return nil, "the name " + worker + ", which the worker would take, is used in the package"
	}
	fix := fixes.SumValue(f, decl, def, call, r.ret, kept, worker, resultName)
	return &fix, ""
}
