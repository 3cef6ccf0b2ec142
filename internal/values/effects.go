package values

// What evaluating an expression or running a statement may do: run code of
// its own, or panic.

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// ConversionOf returns x when e is a conversion T(x).
func ConversionOf(info *types.Info, e ast.Expr) (ast.Expr, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !info.Types[call.Fun].IsType() {
		return nil, false
	}
	return call.Args[0], true
}

// PlainConversion reports whether e is a conversion T(x) of a plain x (see
// Plain).
func PlainConversion(info *types.Info, e ast.Expr) bool {
	x, ok := ConversionOf(info, e)
	return ok && Plain(x)
}

// CannotPanic reports whether evaluating e runs no code and cannot panic: a
// constant, a variable, a field of one reached without a pointer, a
// conversion of one of those to a slice or a string, or a full slice of an
// array variable.
func CannotPanic(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		switch info.Uses[e].(type) {
		case *types.Var, *types.Const:
			return true
		}
	case *ast.SelectorExpr:
		s, ok := info.Selections[e]
		return ok && s.Kind() == types.FieldVal && !s.Indirect() && CannotPanic(info, e.X)
	case *ast.SliceExpr:
		_, array := info.TypeOf(e.X).Underlying().(*types.Array)
		return array && e.Low == nil && e.High == nil && e.Max == nil && CannotPanic(info, e.X)
	case *ast.CallExpr:
		// Reject a conversion to an array, which panics on a short slice.
		switch info.TypeOf(e).Underlying().(type) {
		case *types.Slice, *types.Basic:
			return PlainConversion(info, e) && CannotPanic(info, e.Args[0])
		}
	}
	return false
}

// cheapStd are the standard packages whose functions compute on bytes in
// memory: they change nothing but what they are handed, and run no code of
// the package that calls them.
var cheapStd = map[string]bool{
	"bytes":           true,
	"crypto/subtle":   true,
	"encoding/binary": true,
	"math/bits":       true,
	"unicode/utf8":    true,
}

// CheapStd reports whether the package at path is a standard package whose
// functions compute on bytes in memory (bytes, encoding/binary): they
// change nothing but what they are handed, and run no code of the package
// that calls them.
func CheapStd(path string) bool {
	return cheapStd[path]
}

// SomeCall returns the first call in n, in source order, that may run code
// of its own: not a builtin, a conversion, a function of a CheapStd package
// or hash.Hash's Size; or nil.
func SomeCall(info *types.Info, n ast.Node) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found != nil || !ok {
			return found == nil
		}
		if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return true
		}
		// A function of cheapStd, or a hasher's size: a question that
		// changes nothing.
		if fn, ok := typeutil.Callee(info, call).(*types.Func); ok && (fn.Pkg() != nil && cheapStd[fn.Pkg().Path()] || fn.FullName() == "(hash.Hash).Size") {
			return true
		}
		found = call
		return false
	})
	return found
}
