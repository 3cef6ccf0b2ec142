// Package census lists, by a plain reading of the syntax and the types,
// the sites that hashalloc's audit (-audit) must account for: every call
// that yields a hasher, every hmac.New, every Sum(nil) of a hasher, every
// append, slices.Concat or bytes.Join whose result is written into a
// hasher or given to a Sum function, every other call given a function
// that makes a hasher (a KDF given sha256.New), every []byte conversion of
// a string written into a hasher, and every CRC table made by
// crc32.MakeTable or crc64.MakeTable. It shares no code with the checks, so
// that a test can hold the audit to it: a site with no line, a finding or
// an audit entry, is a bug of the audit.
package census

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// Site is a site the audit must account for.
type Site struct {
	Pos  token.Pos
	Kind string // "constructor", "hmac.New", "Sum(nil)", "concatenation", "constructor value", "conversion" or "table"
	Text string // the call, as written
}

// Sites lists the sites of files, which info describes, leaving out test
// files and generated files, which hashalloc does not analyze by default.
func Sites(fset *token.FileSet, files []*ast.File, info *types.Info) []Site {
	var sites []Site
	for _, f := range files {
		if strings.HasSuffix(fset.File(f.FileStart).Name(), "_test.go") || ast.IsGenerated(f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
				return true // a conversion
			}
			text := types.ExprString(call)
			switch {
			case calls(info, call, "crypto/hmac", "New"):
				sites = append(sites, Site{call.Pos(), "hmac.New", text})
			case IsHasher(info.TypeOf(call)):
				sites = append(sites, Site{call.Pos(), "constructor", text})
			case calls(info, call, "hash/crc32", "MakeTable") || calls(info, call, "hash/crc64", "MakeTable"):
				sites = append(sites, Site{call.Pos(), "table", text})
			case slices.ContainsFunc(call.Args, func(arg ast.Expr) bool { return makesHasher(info.TypeOf(arg)) }):
				sites = append(sites, Site{call.Pos(), "constructor value", text})
			}
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Sum" && len(call.Args) == 1 && isNil(info, call.Args[0]) && IsHasher(info.TypeOf(sel.X)) {
				sites = append(sites, Site{call.Pos(), "Sum(nil)", text})
			}
			if hashes(info, call) {
				for _, arg := range call.Args {
					c, ok := ast.Unparen(arg).(*ast.CallExpr)
					switch {
					case ok && isConcat(info, c):
						sites = append(sites, Site{c.Pos(), "concatenation", types.ExprString(c)})
					case ok && len(c.Args) == 1 && isWrite(info, call) && isStringToBytes(info, c):
						sites = append(sites, Site{c.Pos(), "conversion", types.ExprString(c)})
					}
				}
			}
			return true
		})
	}
	return sites
}

// IsHasher reports whether a value of type t has the methods of hash.Hash:
// Write, Sum, Reset, Size and BlockSize.
func IsHasher(t types.Type) bool {
	if t == nil {
		return false
	}
	ms := types.NewMethodSet(t)
	if _, isPtr := t.(*types.Pointer); !isPtr && !types.IsInterface(t) {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	for _, name := range []string{"Write", "Sum", "Reset", "Size", "BlockSize"} {
		if ms.Lookup(nil, name) == nil {
			return false
		}
	}
	return true
}

// makesHasher reports whether t is the type of a function without
// parameters whose (first) result is a hasher: sha256.New as a value.
func makesHasher(t types.Type) bool {
	sig, ok := t.(*types.Signature)
	return ok && sig.Params().Len() == 0 && sig.Results().Len() > 0 && IsHasher(sig.Results().At(0).Type())
}

// isWrite reports whether call is the Write method of a hasher.
func isWrite(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Write" && IsHasher(info.TypeOf(sel.X))
}

// isStringToBytes reports whether call converts a string to a []byte.
func isStringToBytes(info *types.Info, call *ast.CallExpr) bool {
	to, from := info.Types[call.Fun], info.TypeOf(call.Args[0])
	if !to.IsType() || from == nil {
		return false
	}
	s, ok := to.Type.Underlying().(*types.Slice)
	b, isBasic := from.Underlying().(*types.Basic)
	return ok && types.Identical(s.Elem(), types.Typ[types.Byte]) && isBasic && b.Info()&types.IsString != 0
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// callee returns the function or method that call names, if it names one.
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		id = fun.Sel
	case *ast.Ident:
		id = fun
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	return fn
}

// calls reports whether call calls the function pkg.name.
func calls(info *types.Info, call *ast.CallExpr, pkg, name string) bool {
	fn := callee(info, call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == pkg && fn.Name() == name
}

// hashes reports whether call writes into a hasher (its Write method) or
// calls a package-level function whose name starts with Sum.
func hashes(info *types.Info, call *ast.CallExpr) bool {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Write" && IsHasher(info.TypeOf(sel.X)) {
		return true
	}
	fn := callee(info, call)
	return fn != nil && fn.Signature().Recv() == nil && strings.HasPrefix(fn.Name(), "Sum")
}

// isConcat reports whether call is append, slices.Concat or bytes.Join.
func isConcat(info *types.Info, call *ast.CallExpr) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "append" {
			return true
		}
	}
	return calls(info, call, "slices", "Concat") || calls(info, call, "bytes", "Join")
}
