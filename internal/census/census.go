// Package census lists, by a plain reading of the syntax and the types,
// the sites that hashalloc's audit (-audit) must account for: every call
// that yields a hasher, every hmac.New, every Sum(nil) of a hasher, every
// append, slices.Concat or bytes.Join whose result is written into a
// hasher or given to a Sum function, every other call given a function
// that makes a hasher (a KDF given sha256.New) or returning an interface
// value whose method yields a hasher (a digester), every []byte conversion
// of a string written into a hasher or given to a Sum function, every
// strings.Builder or bytes.Buffer whose contents are hashed (directly,
// through a local variable or returned by a function of the package), and
// every CRC table made by crc32.MakeTable or crc64.MakeTable. It shares no
// code with the checks, so
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
	Kind string // "constructor", "hmac.New", "Sum(nil)", "concatenation", "constructor value", "conversion", "buffer" or "table"
	Text string // the call, as written
}

// Sites lists the sites of files, which info describes, leaving out test
// files and generated files, which hashalloc does not analyze by default.
func Sites(fset *token.FileSet, files []*ast.File, info *types.Info) []Site {
	var sites []Site
	defs := definitions(files, info)
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
			case slices.ContainsFunc(call.Args, func(arg ast.Expr) bool { return makesHasher(info.TypeOf(arg)) }) || yieldsHasher(firstResult(info.TypeOf(call))):
				sites = append(sites, Site{call.Pos(), "constructor value", text})
			}
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Sum" && len(call.Args) == 1 && isNil(info, call.Args[0]) && IsHasher(info.TypeOf(sel.X)) {
				sites = append(sites, Site{call.Pos(), "Sum(nil)", text})
			}
			if hashes(info, call) {
				for _, arg := range call.Args {
					c, ok := ast.Unparen(arg).(*ast.CallExpr)
					switch {
					case defs.buffered(arg, 0):
						sites = append(sites, Site{arg.Pos(), "buffer", types.ExprString(arg)})
					case ok && isConcat(info, c):
						sites = append(sites, Site{c.Pos(), "concatenation", types.ExprString(c)})
					case ok && len(c.Args) == 1 && isStringToBytes(info, c) && (isWrite(info, call) || info.Types[c.Args[0]].Value == nil):
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

// yieldsHasher reports whether t is an interface with a method without
// parameters whose result is a hasher: a digester, made with the hasher it
// hands out.
func yieldsHasher(t types.Type) bool {
	it, ok := t.Underlying().(*types.Interface)
	if !ok || IsHasher(t) {
		return false
	}
	for m := range it.Methods() {
		sig := m.Signature()
		if sig.Params().Len() == 0 && sig.Results().Len() > 0 && IsHasher(sig.Results().At(0).Type()) {
			return true
		}
	}
	return false
}

// firstResult returns t, or the type of the first value of a tuple.
func firstResult(t types.Type) types.Type {
	if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
		return tuple.At(0).Type()
	}
	return t
}

// defs are the values that a package's syntax gives its local variables
// (v := e, var v = e, v, err := f()) that it never assigns again, and
// that its functions return first.
type defs struct {
	info    *types.Info
	vars    map[types.Object]ast.Expr
	returns map[types.Object][]ast.Expr
}

// definitions collects the defs of files.
func definitions(files []*ast.File, info *types.Info) defs {
	d := defs{info, map[types.Object]ast.Expr{}, map[types.Object][]ast.Expr{}}
	again := map[types.Object]bool{} // local variables assigned after their definition
	define := func(names []*ast.Ident, values []ast.Expr) {
		for i, id := range names {
			if id != nil && info.Defs[id] == nil {
				again[info.Uses[id]] = true // v, err := ... where v is defined before
				continue
			}
			switch {
			case len(values) == len(names):
				d.vars[info.Defs[id]] = values[i]
			case len(values) == 1 && i == 0:
				d.vars[info.Defs[id]] = values[0]
			}
		}
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					var names []*ast.Ident
					for _, l := range n.Lhs {
						id, _ := ast.Unparen(l).(*ast.Ident)
						names = append(names, id)
						if id != nil && n.Tok != token.DEFINE {
							again[info.Uses[id]] = true
						}
					}
					if n.Tok == token.DEFINE {
						define(names, n.Rhs)
					}
				case *ast.ValueSpec:
					define(n.Names, n.Values)
				case *ast.ReturnStmt:
					if len(n.Results) > 0 {
						obj := info.Defs[fd.Name]
						d.returns[obj] = append(d.returns[obj], n.Results[0])
					}
				case *ast.FuncLit:
					return false
				}
				return true
			})
		}
	}
	for obj := range again {
		delete(d.vars, obj)
	}
	return d
}

// buffered reports whether e, but for a conversion, is the contents of a
// strings.Builder or a bytes.Buffer (its String or Bytes), a local
// variable defined with them, or a call of a function of the package that
// returns them; depth bounds the chain.
func (d defs) buffered(e ast.Expr, depth int) bool {
	if depth > 3 {
		return false
	}
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.Ident:
		def, ok := d.vars[d.info.Uses[x]]
		return ok && d.buffered(def, depth+1)
	case *ast.CallExpr:
		if tv, ok := d.info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return d.buffered(x.Args[0], depth) // []byte(s), string(b)
		}
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "String" || sel.Sel.Name == "Bytes") && isBuffer(d.info.TypeOf(sel.X)) {
			return true
		}
		if fn := callee(d.info, x); fn != nil {
			rs := d.returns[fn]
			return len(rs) > 0 && !slices.ContainsFunc(rs, func(r ast.Expr) bool { return !d.buffered(r, depth+1) })
		}
	}
	return false
}

// isBuffer reports whether t is strings.Builder or bytes.Buffer, or a
// pointer to one.
func isBuffer(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	name := n.Obj().Pkg().Path() + "." + n.Obj().Name()
	return name == "strings.Builder" || name == "bytes.Buffer"
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
// calls a package-level function whose name starts with Sum and whose
// first result is a digest: an array of bytes, or a 32- or 64-bit
// checksum.
func hashes(info *types.Info, call *ast.CallExpr) bool {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Write" && IsHasher(info.TypeOf(sel.X)) {
		return true
	}
	fn := callee(info, call)
	if fn == nil || fn.Signature().Recv() != nil || !strings.HasPrefix(fn.Name(), "Sum") || fn.Signature().Results().Len() == 0 {
		return false
	}
	switch r := fn.Signature().Results().At(0).Type().Underlying().(type) {
	case *types.Array:
		b, ok := r.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	case *types.Basic:
		return r.Kind() == types.Uint32 || r.Kind() == types.Uint64
	}
	return false
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
