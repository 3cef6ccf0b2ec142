package values

// Whether a value is the same every time the code that reads it runs.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// Fixed decides whether values are fixed: the same every time the code
// that reads them runs, for the same receiver. It collects the receivers
// and the fields or package variables the values it found fixed come from.
type Fixed struct {
	x        *Index
	prod     inspector.Cursor // the package's code, whose writes count
	pkg      *types.Package
	depth    int
	visiting map[*types.Var]bool

	// Holders are the types of the receivers whose fields the values
	// read, once each, in the order found.
	Holders []types.Type
	// Names are the fields (as selected from the receiver: cfg.key) and
	// the package variables that the values read, once each, in the order
	// found.
	Names []string
}

// Fixed returns a decision of whether values of pkg are fixed, where prod
// is the root of the package's code (what writes a field or a variable)
// and depth bounds how many levels of callers a parameter is followed
// through.
func (x *Index) Fixed(prod inspector.Cursor, pkg *types.Package, depth int) *Fixed {
	return &Fixed{x: x, prod: prod, pkg: pkg, depth: depth, visiting: map[*types.Var]bool{}}
}

// Value reports whether e, evaluated in the body of the function declared
// at decl, is fixed: a constant; a field of decl's pointer receiver (or of
// a value reached from it through fields) that is unexported and that no
// statement of the package changes (see Index.Changed) or assigns whole; an
// unexported package variable of pkg that no statement writes; a local
// variable or parameter every assignment of which is fixed and made outside
// any loop its declaration is not in and outside function literals; a
// parameter of an unexported function, called only directly (neither used
// as a value nor a method that an interface of the package could call),
// whose every call, in a declared function, passes a fixed value;
// conversions and binary operations of those.
func (f *Fixed) Value(e ast.Expr, decl inspector.Cursor) bool {
	return f.value(e, decl, 0)
}

func (f *Fixed) value(e ast.Expr, decl inspector.Cursor, depth int) bool {
	info := f.x.info
	e = ast.Unparen(e)
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return true
	}
	switch e := e.(type) {
	case *ast.CallExpr:
		if len(e.Args) == 1 && info.Types[e.Fun].IsType() {
			return f.value(e.Args[0], decl, depth) // []byte(s.secret)
		}
		return false // time.Now(), a checksum: may differ per call
	case *ast.BinaryExpr:
		return f.value(e.X, decl, depth) && f.value(e.Y, decl, depth)
	case *ast.SelectorExpr:
		return f.field(e, decl)
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		if !ok {
			return false
		}
		if v.Parent() == v.Pkg().Scope() {
			if v.Pkg() != f.pkg || v.Exported() || f.x.Written(f.prod, v) {
				return false
			}
			f.add(nil, v.Name())
			return true
		}
		if n := decl.Node(); v.Pos() < n.Pos() || v.Pos() >= n.End() || f.visiting[v] {
			return false // not decl's, or defined from itself
		}
		f.visiting[v] = true
		defer delete(f.visiting, v)
		return f.variable(v, decl, depth)
	}
	return false
}

// HeldBy reports whether every holder of the values found fixed is the
// receiver type of the method fn: a value of it, kept across the calls
// that repeat the work, holds them all.
func (f *Fixed) HeldBy(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return !slices.ContainsFunc(f.Holders, func(h types.Type) bool { return recv == nil || !types.Identical(h, recv.Type()) })
}

// add records a holder and the name of a value it holds, once each.
func (f *Fixed) add(holder types.Type, name string) {
	if holder != nil && !slices.ContainsFunc(f.Holders, func(t types.Type) bool { return types.Identical(t, holder) }) {
		f.Holders = append(f.Holders, holder)
	}
	if !slices.Contains(f.Names, name) {
		f.Names = append(f.Names, name)
	}
}

// field reports whether the selector chain e (s.region, s.cfg.key) reads
// fields of decl's pointer receiver that are fixed for the receiver.
func (f *Fixed) field(e *ast.SelectorExpr, decl inspector.Cursor) bool {
	info := f.x.info
	x := ast.Expr(e)
	for {
		sel, ok := x.(*ast.SelectorExpr)
		if !ok {
			break
		}
		s, ok := info.Selections[sel]
		if !ok || s.Kind() != types.FieldVal {
			return false
		}
		field := s.Obj().(*types.Var)
		// Reject an exported field: another package may assign it.
		if field.Exported() || f.x.Changed(f.prod, field) || f.x.AssignedWhole(f.prod.Inspector(), s.Recv()) {
			return false
		}
		x = ast.Unparen(sel.X)
	}
	root, ok := x.(*ast.Ident) // the operand the chain starts from
	fd := decl.Node().(*ast.FuncDecl)
	if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return false
	}
	recv, ok := info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	if !ok || info.Uses[root] != recv {
		return false
	}
	// Reject a value receiver (a copy per call, which says nothing of the
	// values other calls get) and a receiver that the method reassigns.
	if _, ptr := recv.Type().(*types.Pointer); !ptr || f.x.Reassigned(decl, recv) {
		return false
	}
	f.add(recv.Type(), strings.TrimPrefix(types.ExprString(e), root.Name+"."))
	return true
}

// variable reports whether the local variable or parameter v of decl is
// fixed where it is read: its initial value (the arguments of its callers,
// for a parameter) and every assignment to it are fixed, and none of those
// assignments is made in a loop that the declaration is not in.
func (f *Fixed) variable(v *types.Var, decl inspector.Cursor, depth int) bool {
	fnObj, ok := f.x.info.Defs[decl.Node().(*ast.FuncDecl).Name].(*types.Func)
	if !ok || v.Kind() == types.ParamVar && !f.param(v, fnObj, depth) {
		return false
	}
	if def, ok := f.x.Def(decl, v); ok && v.Kind() != types.ParamVar {
		// Its declaration gives it a fixed value, or its zero value (var
		// v T); not a range variable, a type switch's...
		value, defined := DefinedWith(def)
		zero := def.ParentEdgeKind() == edge.ValueSpec_Names && len(def.Parent().Node().(*ast.ValueSpec).Values) == 0
		if !zero && !(defined && f.value(value, decl, depth)) {
			return false
		}
	}
	for cur := range f.x.Uses(decl, v) {
		if !IsWritten(cur) {
			continue
		}
		// Only v = fixed, outside function literals and outside any loop
		// that the declaration is not in.
		if cur.ParentEdgeKind() != edge.AssignStmt_Lhs || inLiteral(cur, decl) {
			return false
		}
		as := cur.Parent().Node().(*ast.AssignStmt)
		if as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return false
		}
		for loop := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
			if n := loop.Node(); v.Pos() < n.Pos() || v.Pos() >= n.End() {
				return false
			}
		}
		if !f.value(as.Rhs[cur.ParentEdgeIndex()], decl, depth) {
			return false
		}
	}
	return true
}

// param reports whether every call of fn passes a fixed value for its
// parameter v: fn is unexported, called only directly (never used as a
// value, nor a method an interface of the package could call), and each of
// its calls is in a declared function.
func (f *Fixed) param(v *types.Var, fn *types.Func, depth int) bool {
	in := f.prod.Inspector()
	if depth >= f.depth || fn.Exported() || fn.Signature().TypeParams() != nil || fn.Signature().Recv() != nil && f.x.InterfaceMethod(in, fn.Name()) {
		return false
	}
	args, ok := f.x.Arguments(in, fn, v)
	if !ok || len(args) == 0 {
		return false
	}
	for _, arg := range args {
		callerDecl, ok := EnclosingFunc(arg)
		if !ok {
			return false
		}
		if _, declared := callerDecl.Node().(*ast.FuncDecl); !declared || !f.value(arg.Node().(ast.Expr), callerDecl, depth+1) {
			return false
		}
	}
	return true
}

// inLiteral reports whether a function literal under top holds cur.
func inLiteral(cur, top inspector.Cursor) bool {
	for c := cur.Parent(); c != top && c.Node() != nil; c = c.Parent() {
		if _, ok := c.Node().(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}
