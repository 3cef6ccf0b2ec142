package values

// What one expression concatenates: appends, slices.Concat, bytes.Join.

import (
	"go/ast"
	"go/types"
	"slices"
)

// Joined is what one call concatenates.
type Joined struct {
	// Parts are the byte slices concatenated, in order.
	Parts []ast.Expr
	// Bases are the first operands of the appends, outermost first, into
	// whose spare capacity they may write; nil for slices.Concat and
	// bytes.Join, whose results are new.
	Bases []ast.Expr
	// Join says that the call is bytes.Join.
	Join bool
}

// Joins returns what call concatenates: append(x, y...), nested too (x and
// y are parts, or appends of their own); slices.Concat of two byte slices
// or more; bytes.Join of a literal list of two parts or more with an empty
// separator (see EmptySeparator).
func Joins(info *types.Info, call *ast.CallExpr) (Joined, bool) {
	switch {
	case AppendAll(info, call):
		parts, bases := flattenAppend(info, call)
		return Joined{Parts: parts, Bases: bases}, true
	case calls(info, call, "slices", "Concat") && len(call.Args) >= 2 && !call.Ellipsis.IsValid() && types.Identical(info.TypeOf(call).Underlying(), byteSlice):
		return Joined{Parts: call.Args}, true
	case calls(info, call, "bytes", "Join") && len(call.Args) == 2 && EmptySeparator(info, call.Args[1]):
		keyed := func(e ast.Expr) bool { _, kv := e.(*ast.KeyValueExpr); return kv }
		lit, ok := ast.Unparen(call.Args[0]).(*ast.CompositeLit)
		if ok && len(lit.Elts) >= 2 && !slices.ContainsFunc(lit.Elts, keyed) {
			return Joined{Parts: lit.Elts, Join: true}, true
		}
	}
	return Joined{}, false
}

// AppendAll reports whether call is append(x, y...).
func AppendAll(info *types.Info, call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	return ok && info.Uses[id] == types.Universe.Lookup("append") && len(call.Args) == 2 && call.Ellipsis.IsValid()
}

// flattenAppend returns the parts that nested append(x, y...) calls
// concatenate, and the first operand of each append.
func flattenAppend(info *types.Info, e ast.Expr) (parts, bases []ast.Expr) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || !AppendAll(info, call) {
		return []ast.Expr{e}, nil
	}
	left, lb := flattenAppend(info, call.Args[0])
	right, rb := flattenAppend(info, call.Args[1])
	bases = append(append(append(bases, call.Args[0]), lb...), rb...)
	return append(left, right...), bases
}

// EmptySeparator reports whether e is nil, []byte{} or []byte(""), or a
// conversion of one.
func EmptySeparator(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return len(e.Elts) == 0
	case *ast.CallExpr:
		return len(e.Args) == 1 && info.Types[e.Fun].IsType() && EmptySeparator(info, e.Args[0])
	}
	tv := info.Types[e]
	return tv.IsNil() || tv.Value != nil && tv.Value.ExactString() == `""`
}

// calls reports whether call calls the function pkg.name, pkg an import
// path.
func calls(info *types.Info, call *ast.CallExpr, pkg, name string) bool {
	fn, ok := info.Uses[IdentOf(call.Fun)].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == pkg && fn.Name() == name
}
