// Package values indexes where a package's variables, fields and functions
// are used, assigned and called: a def-use index of the package's syntax,
// built in one walk and answered by lookup. hashalloc's checks ask it where a
// hasher, a key or a buffer comes from and where it goes: whether anything
// writes a variable in a function, which calls call a function, which values
// a package variable is declared with.
//
// The questions take a region, the subtree of a cursor: the answer counts
// only what is under it. The root of an inspector asks about the whole
// syntax it was built from; an index serves several inspectors (a package's
// files with and without its tests), each indexed on first use.
package values

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"slices"
	"sort"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Index answers questions about the uses of the objects of one package's
// syntax, described by one types.Info.
type Index struct {
	info   *types.Info
	tables map[*inspector.Inspector]*table
}

// table is the index of one inspector's syntax.
type table struct {
	used    map[types.Object]int32            // where in uses each object's list is
	uses    [][]inspector.Cursor              // the identifiers that use each object, in preorder
	defs    map[types.Object]inspector.Cursor // the identifier that declares each object
	written map[types.Object]bool             // the objects some identifier writes
	changed map[types.Object]bool             // the fields on which some identifier calls a pointer method
	decls   map[*types.Func]inspector.Cursor  // the declaration of each function and method
	funcs   []funcDecl                        // the declared functions and methods, in source order
	values  map[*types.Var]ast.Expr           // the value that declares each package variable
	vars    []*types.Var                      // the package variables declared with a value, in source order
	methods map[string]bool                   // the names of the methods of the interfaces declared
	whole   []types.Type                      // the types of the non-variable operands assigned whole
	fills   map[*types.Var][]inspector.Cursor // the elements of struct literals that set each field, built by Stored
}

// funcDecl is a function or method and its declaration.
type funcDecl struct {
	fn  *types.Func
	cur inspector.Cursor
}

// New returns an index of the syntax that info describes.
func New(info *types.Info) *Index {
	return &Index{info: info, tables: map[*inspector.Inspector]*table{}}
}

// of returns the table of in, building it on first use.
func (x *Index) of(in *inspector.Inspector) *table {
	t, ok := x.tables[in]
	if ok {
		return t
	}
	// Sized for the package at once: growing maps of this size, rehashing
	// them each time, cost more than the walk that fills them.
	t = &table{
		used:    make(map[types.Object]int32, len(x.info.Defs)),
		defs:    make(map[types.Object]inspector.Cursor, len(x.info.Defs)),
		written: map[types.Object]bool{},
		changed: map[types.Object]bool{},
		decls:   map[*types.Func]inspector.Cursor{},
		values:  map[*types.Var]ast.Expr{},
		methods: map[string]bool{},
	}
	for cur := range in.Root().Preorder((*ast.Ident)(nil), (*ast.FuncDecl)(nil), (*ast.ValueSpec)(nil), (*ast.InterfaceType)(nil), (*ast.AssignStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.Ident:
			obj := x.info.Uses[n]
			if obj == nil {
				if def := x.info.Defs[n]; def != nil {
					t.defs[def] = cur
				}
				continue
			}
			// One probe of the map for most identifiers; the syntactic
			// questions first, which the maps of written and changed
			// objects need only when their answer is yes.
			i, ok := t.used[obj]
			if !ok {
				i = int32(len(t.uses))
				t.used[obj] = i
				t.uses = append(t.uses, nil)
			}
			t.uses[i] = append(t.uses[i], cur)
			if IsWritten(cur) {
				t.written[obj] = true
			}
			if pointerMethodOn(x.info, cur, obj) {
				t.changed[obj] = true
			}
		case *ast.FuncDecl:
			if fn, ok := x.info.Defs[n.Name].(*types.Func); ok {
				t.decls[fn] = cur
				t.funcs = append(t.funcs, funcDecl{fn, cur})
			}
		case *ast.ValueSpec:
			if len(n.Values) != len(n.Names) {
				continue
			}
			for i, name := range n.Names {
				if v, ok := x.info.Defs[name].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
					t.values[v] = n.Values[i]
					t.vars = append(t.vars, v)
				}
			}
		case *ast.InterfaceType:
			for _, m := range n.Methods.List {
				for _, name := range m.Names {
					t.methods[name.Name] = true
				}
			}
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if _, ok := ast.Unparen(lhs).(*ast.Ident); ok {
					continue // a variable of its own, not one that a pointer reaches
				}
				if lt := x.info.TypeOf(lhs); lt != nil {
					t.whole = append(t.whole, lt)
				}
			}
		}
	}
	x.tables[in] = t
	return t
}

// Uses yields the identifiers under region that use obj (that types.Info
// records in Uses: not the one that declares it), in preorder.
func (x *Index) Uses(region inspector.Cursor, obj types.Object) iter.Seq[inspector.Cursor] {
	return func(yield func(inspector.Cursor) bool) {
		t := x.of(region.Inspector())
		var uses []inspector.Cursor
		if i, ok := t.used[obj]; ok {
			uses = t.uses[i]
		}
		i := 0
		if region.Node() != nil {
			// A cursor's index grows in preorder and a subtree's nodes
			// follow its root: the uses under region are the run that
			// starts at the first use after it.
			at := region.Index()
			i = sort.Search(len(uses), func(i int) bool { return uses[i].Index() >= at })
		}
		for ; i < len(uses) && (region.Node() == nil || region.Contains(uses[i])); i++ {
			if !yield(uses[i]) {
				return
			}
		}
	}
}

// Def returns the identifier under region that declares obj.
func (x *Index) Def(region inspector.Cursor, obj types.Object) (inspector.Cursor, bool) {
	cur, ok := x.of(region.Inspector()).defs[obj]
	if !ok || region.Node() != nil && !region.Contains(cur) {
		return inspector.Cursor{}, false
	}
	return cur, true
}

// DefinedWith returns the value that the identifier at id, which declares
// a variable, gives it there: v := x, var v = x; false when the declaration
// gives it none (var v T, a parameter) or gives several variables the
// results of one call (a, b := f()).
func DefinedWith(id inspector.Cursor) (ast.Expr, bool) {
	switch id.ParentEdgeKind() {
	case edge.AssignStmt_Lhs:
		assign := id.Parent().Node().(*ast.AssignStmt)
		if len(assign.Lhs) == len(assign.Rhs) {
			return assign.Rhs[id.ParentEdgeIndex()], true
		}
	case edge.ValueSpec_Names:
		spec := id.Parent().Node().(*ast.ValueSpec)
		if len(spec.Names) == len(spec.Values) {
			return spec.Values[id.ParentEdgeIndex()], true
		}
	}
	return nil, false
}

// Sources yields the expressions that the local variable v may take its
// value from under region: the value its declaration gives it, the value
// of each assignment to it (v = x; the one call or comma-ok expression of
// several, v, ok := m[k]), and, for a variable that refers to what it holds
// (not of a basic type: a hasher, a buffer, a pointer), each call that
// takes it as an argument or as a method's receiver, which may fill it with
// what it is passed beside it (io.WriteString(h, s), h.Write(b)).
func (x *Index) Sources(region inspector.Cursor, v *types.Var) iter.Seq[inspector.Cursor] {
	return func(yield func(inspector.Cursor) bool) {
		if id, ok := x.Def(region, v); ok {
			if src, ok := assignedFrom(id); ok && !yield(src) {
				return
			}
		}
		_, basic := v.Type().Underlying().(*types.Basic)
		for use := range x.Uses(region, v) {
			src, ok := assignedFrom(use)
			switch {
			case ok:
			case basic:
				continue
			case use.ParentEdgeKind() == edge.CallExpr_Args:
				src, ok = use.Parent(), true
			case use.ParentEdgeKind() == edge.SelectorExpr_X && use.Parent().ParentEdgeKind() == edge.CallExpr_Fun:
				src, ok = use.Parent().Parent(), true
			}
			if ok && !yield(src) {
				return
			}
		}
	}
}

// UsedAs returns the identifiers under region that use v, when each is
// used as one of kinds (for a container, edge.IndexExpr_X and
// edge.RangeStmt_X: only its elements are read or stored; for a function
// value, edge.CallExpr_Fun: it is only called); false when a use is of
// another kind (passed, returned, stored, assigned again), through which
// what v holds may go anywhere.
func (x *Index) UsedAs(region inspector.Cursor, v *types.Var, kinds ...edge.Kind) ([]inspector.Cursor, bool) {
	var uses []inspector.Cursor
	for use := range x.Uses(region, v) {
		if !slices.Contains(kinds, use.ParentEdgeKind()) {
			return nil, false
		}
		uses = append(uses, use)
	}
	return uses, true
}

// HandedOn returns the first use under region of the variable v that
// hands what it holds on beyond reading it: a return of it, a write
// through it (a field of what it points to assigned, its address taken),
// or, for a call that to accepts, an argument of the call or the
// receiver, itself or through its fields, of the call's method (v.h.Set(k,
// s)). Reading it, or passing it to other calls, is not.
func (x *Index) HandedOn(region inspector.Cursor, v *types.Var, to func(*ast.CallExpr) bool) (inspector.Cursor, bool) {
	for use := range x.Uses(region, v) {
		c := use
		for c.ParentEdgeKind() == edge.SelectorExpr_X {
			c = c.Parent()
		}
		switch {
		case use.ParentEdgeKind() == edge.ReturnStmt_Results,
			use.ParentEdgeKind() != edge.AssignStmt_Lhs && IsWritten(use),
			use.ParentEdgeKind() == edge.CallExpr_Args && to(use.Parent().Node().(*ast.CallExpr)),
			c != use && c.ParentEdgeKind() == edge.CallExpr_Fun && to(c.Parent().Node().(*ast.CallExpr)):
			return use, true
		}
	}
	return inspector.Cursor{}, false
}

// Appended returns the number of statements v = append(v, ...) that build
// the value of the local slice variable named at cur, when that is all
// that builds it: it is declared empty (var v []byte, v := []byte{}, nil or
// make of length and capacity 0) and used nowhere but in those appends and
// at cur. 0 otherwise.
func (x *Index) Appended(cur inspector.Cursor) int {
	id, ok := cur.Node().(*ast.Ident)
	v, isVar := x.info.Uses[id].(*types.Var)
	fn, inFunc := EnclosingFunc(cur)
	if !ok || !isVar || !inFunc || v.Parent() == v.Pkg().Scope() {
		return 0
	}
	def, ok := x.Def(fn, v)
	if !ok || !x.empty(def) {
		return 0
	}
	n := 0
	for use := range x.Uses(fn, v) {
		assign, ok := use.Parent().Node().(*ast.AssignStmt)
		if use.ParentEdgeKind() == edge.CallExpr_Args && use.ParentEdgeIndex() == 0 {
			assign, ok = use.Parent().Parent().Node().(*ast.AssignStmt)
		}
		switch {
		case use == cur:
		case !ok || len(assign.Lhs) != 1 || len(assign.Rhs) != 1 || x.info.Uses[IdentOf(assign.Lhs[0])] != v:
			return 0
		default:
			call, ok := ast.Unparen(assign.Rhs[0]).(*ast.CallExpr)
			if !ok || x.info.Uses[IdentOf(ast.Unparen(call.Fun))] != types.Universe.Lookup("append") || len(call.Args) < 2 || x.info.Uses[IdentOf(call.Args[0])] != v {
				return 0
			}
			if use.ParentEdgeKind() == edge.AssignStmt_Lhs {
				n++
			}
		}
	}
	return n
}

// empty reports whether the declaration at id gives its variable an empty
// slice: no value, nil, an empty literal or a make of length and capacity
// 0.
func (x *Index) empty(id inspector.Cursor) bool {
	e, ok := DefinedWith(id)
	if !ok {
		spec, isSpec := id.Parent().Node().(*ast.ValueSpec)
		return isSpec && len(spec.Values) == 0
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return len(e.Elts) == 0
	case *ast.CallExpr:
		if x.info.Uses[IdentOf(ast.Unparen(e.Fun))] != types.Universe.Lookup("make") || len(e.Args) < 2 {
			return false
		}
		for _, n := range e.Args[1:] {
			if tv := x.info.Types[n]; tv.Value == nil || tv.Value.ExactString() != "0" {
				return false
			}
		}
		return true
	}
	return x.info.Types[e].IsNil()
}

// AssignedAt returns what the value at cur is assigned to: x in x := cur,
// x = cur or var x = cur, where each name is given a value of its own; with
// oneCall, also the first name given a call's results (h, err := f()).
// nil otherwise.
func AssignedAt(cur inspector.Cursor, oneCall bool) ast.Expr {
	var lhs []ast.Expr
	values := 0
	switch cur.ParentEdgeKind() {
	case edge.AssignStmt_Rhs:
		assign := cur.Parent().Node().(*ast.AssignStmt)
		lhs, values = assign.Lhs, len(assign.Rhs)
	case edge.ValueSpec_Values:
		spec := cur.Parent().Node().(*ast.ValueSpec)
		for _, id := range spec.Names {
			lhs = append(lhs, id)
		}
		values = len(spec.Values)
	}
	switch {
	case lhs != nil && len(lhs) == values:
		return lhs[cur.ParentEdgeIndex()]
	case lhs != nil && oneCall && values == 1:
		return lhs[0]
	}
	return nil
}

// assignedFrom returns the cursor of the expression that the identifier at
// id, on the left of an assignment or a declaration, takes its value from.
func assignedFrom(id inspector.Cursor) (inspector.Cursor, bool) {
	var lhs, rhs []ast.Expr
	switch n := id.Parent().Node().(type) {
	case *ast.AssignStmt:
		lhs, rhs = n.Lhs, n.Rhs
	case *ast.ValueSpec:
		for _, name := range n.Names {
			lhs = append(lhs, name)
		}
		rhs = n.Values
	}
	i := slices.Index(lhs, ast.Expr(id.Node().(*ast.Ident)))
	switch {
	case i < 0: // a parameter, a range variable, a case of a type switch, a use
		return inspector.Cursor{}, false
	case len(rhs) == len(lhs):
	case len(rhs) == 1:
		i = 0
	default:
		return inspector.Cursor{}, false
	}
	if _, ok := id.Parent().Node().(*ast.AssignStmt); ok {
		return id.Parent().ChildAt(edge.AssignStmt_Rhs, i), true
	}
	return id.Parent().ChildAt(edge.ValueSpec_Values, i), true
}

// Stored returns the values that the code under region stores whole in
// obj, a field or a variable, in the order of the statements and literals
// that store them: the value of each assignment to it (x.f = v, v = x, with
// a value for each name) and, for a field, each element of a composite
// literal that sets it, keyed or not (T{f: v}, T{v}, []*T{{f: v}}); false
// when the code writes obj otherwise (takes its address, writes an element
// of it, increments it, ranges into it, assigns it one call's results).
// A declaration's value is not a store (see Only).
func (x *Index) Stored(region inspector.Cursor, obj types.Object) ([]ast.Expr, bool) {
	type store struct {
		at    int32 // the index of the literal or of the assigned name
		value ast.Expr
	}
	var stores []store
	if field, ok := obj.(*types.Var); ok && field.IsField() {
		for _, elt := range x.fillsOf(region.Inspector())[field] {
			lit := elt.Parent()
			if elt.ParentEdgeKind() == edge.KeyValueExpr_Value {
				lit = lit.Parent()
			}
			if region.Node() == nil || region.Contains(lit) {
				stores = append(stores, store{lit.Index(), elt.Node().(ast.Expr)})
			}
		}
	}
	for use := range x.Uses(region, obj) {
		if use.ParentEdgeKind() == edge.KeyValueExpr_Key || !IsWritten(use) {
			continue // a literal's key, among the fills; or read
		}
		lhs := use
		if lhs.ParentEdgeKind() == edge.SelectorExpr_Sel {
			lhs = lhs.Parent()
		}
		for lhs.ParentEdgeKind() == edge.ParenExpr_X {
			lhs = lhs.Parent()
		}
		if lhs.ParentEdgeKind() != edge.AssignStmt_Lhs {
			return nil, false
		}
		assign := lhs.Parent().Node().(*ast.AssignStmt)
		if len(assign.Lhs) != len(assign.Rhs) {
			return nil, false
		}
		stores = append(stores, store{use.Index(), assign.Rhs[lhs.ParentEdgeIndex()]})
	}
	slices.SortStableFunc(stores, func(a, b store) int { return int(a.at) - int(b.at) })
	values := make([]ast.Expr, len(stores))
	for i, s := range stores {
		values[i] = s.value
	}
	return values, true
}

// fillsOf returns the elements of the struct literals of in's syntax (of a
// struct type, or of a pointer to one where the literal elides it) that set
// each field, building them on first use.
func (x *Index) fillsOf(in *inspector.Inspector) map[*types.Var][]inspector.Cursor {
	t := x.of(in)
	if t.fills != nil {
		return t.fills
	}
	t.fills = map[*types.Var][]inspector.Cursor{}
	for cur := range in.Root().Preorder((*ast.CompositeLit)(nil)) {
		lt := x.info.TypeOf(cur.Node().(*ast.CompositeLit))
		if lt == nil {
			continue
		}
		if ptr, ok := lt.Underlying().(*types.Pointer); ok {
			lt = ptr.Elem()
		}
		st, ok := lt.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i, elt := range cur.Node().(*ast.CompositeLit).Elts {
			field, value := (*types.Var)(nil), cur.ChildAt(edge.CompositeLit_Elts, i)
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				key, _ := kv.Key.(*ast.Ident)
				field, _ = x.info.Uses[key].(*types.Var)
				value = value.ChildAt(edge.KeyValueExpr_Value, -1)
			} else if i < st.NumFields() {
				field = st.Field(i)
			}
			if field != nil {
				t.fills[field] = append(t.fills[field], value)
			}
		}
	}
	return t.fills
}

// Only returns the one value that the variable obj holds in region: the
// value its declaration under region gives it (see DefinedWith), when
// nothing under region writes obj after it; with the declaring identifier.
func (x *Index) Only(region inspector.Cursor, obj types.Object) (ast.Expr, inspector.Cursor, bool) {
	id, ok := x.Def(region, obj)
	if !ok || x.Written(region, obj) {
		return nil, inspector.Cursor{}, false
	}
	value, ok := DefinedWith(id)
	return value, id, ok
}

// UsedOutside returns the first identifier under region that uses obj
// outside the source range [from, to), in preorder.
func (x *Index) UsedOutside(region inspector.Cursor, obj types.Object, from, to token.Pos) (inspector.Cursor, bool) {
	for use := range x.Uses(region, obj) {
		if n := use.Node(); n.Pos() < from || n.End() > to {
			return use, true
		}
	}
	return inspector.Cursor{}, false
}

// Used reports whether an identifier under region uses obj.
func (x *Index) Used(region inspector.Cursor, obj types.Object) bool {
	for range x.Uses(region, obj) {
		return true
	}
	return false
}

// Count returns the number of identifiers under region that use obj.
func (x *Index) Count(region inspector.Cursor, obj types.Object) int {
	n := 0
	for range x.Uses(region, obj) {
		n++
	}
	return n
}

// Written reports whether the code under region writes obj after its
// declaration: assigns it, an element or a field of it, increments it,
// ranges into it or takes its address. Composite literals set fields
// without writing them.
func (x *Index) Written(region inspector.Cursor, obj types.Object) bool {
	t := x.of(region.Inspector())
	return t.written[obj] && x.any(region, obj, IsWritten)
}

// Changed reports whether the code under region writes obj or, for a field,
// calls a pointer method on it, which may change it: s.t.UnmarshalText(b).
func (x *Index) Changed(region inspector.Cursor, obj types.Object) bool {
	t := x.of(region.Inspector())
	if !t.written[obj] && !t.changed[obj] {
		return false
	}
	return x.any(region, obj, func(cur inspector.Cursor) bool {
		return IsWritten(cur) || pointerMethodOn(x.info, cur, obj)
	})
}

// any reports whether f holds for a use of obj under region; for the root,
// that the package-wide tables recorded one.
func (x *Index) any(region inspector.Cursor, obj types.Object, f func(inspector.Cursor) bool) bool {
	if region.Node() == nil {
		return true
	}
	for cur := range x.Uses(region, obj) {
		if f(cur) {
			return true
		}
	}
	return false
}

// Calls returns the calls of fn under the root of in's syntax, in preorder.
func (x *Index) Calls(in *inspector.Inspector, fn *types.Func) []inspector.Cursor {
	var calls []inspector.Cursor
	for cur := range x.Uses(in.Root(), fn) {
		if c, ok := CalledAt(cur); ok {
			calls = append(calls, c)
		}
	}
	return calls
}

// Escapes reports whether in's syntax uses fn other than by calling it: as
// a value, which may be called from anywhere.
func (x *Index) Escapes(in *inspector.Inspector, fn *types.Func) bool {
	for cur := range x.Uses(in.Root(), fn) {
		if _, ok := CalledAt(cur); !ok {
			return true
		}
	}
	return false
}

// Arguments returns the argument that each call of fn in in's syntax
// passes for fn's parameter v, in preorder: false when in uses fn other
// than by calling it (as a value, which may be called from anywhere), when
// v is not one of fn's parameters or is its variadic one, or when a call
// spreads a slice (f(xs...)) or passes the results of one call (f(g())).
func (x *Index) Arguments(in *inspector.Inspector, fn *types.Func, v *types.Var) ([]inspector.Cursor, bool) {
	params := fn.Signature().Params()
	i := slices.Index(slices.Collect(params.Variables()), v)
	if i < 0 || fn.Signature().Variadic() && i == params.Len()-1 || x.Escapes(in, fn) {
		return nil, false
	}
	var args []inspector.Cursor
	for _, c := range x.Calls(in, fn) {
		call := c.Node().(*ast.CallExpr)
		if call.Ellipsis.IsValid() || i >= len(call.Args) {
			return nil, false
		}
		if _, tuple := x.info.TypeOf(call.Args[0]).(*types.Tuple); tuple {
			return nil, false
		}
		args = append(args, c.ChildAt(edge.CallExpr_Args, i))
	}
	return args, true
}

// CalledAt returns the call whose function the identifier at cur names,
// directly or as the selector of x.f.
func CalledAt(cur inspector.Cursor) (inspector.Cursor, bool) {
	if cur.ParentEdgeKind() == edge.SelectorExpr_Sel {
		cur = cur.Parent()
	}
	if cur.ParentEdgeKind() != edge.CallExpr_Fun {
		return inspector.Cursor{}, false
	}
	return cur.Parent(), true
}

// Decl returns the declaration of fn in in's syntax.
func (x *Index) Decl(in *inspector.Inspector, fn *types.Func) (inspector.Cursor, bool) {
	cur, ok := x.of(in).decls[fn]
	return cur, ok
}

// Funcs yields the functions and methods that in's syntax declares, in
// source order, with their declarations.
func (x *Index) Funcs(in *inspector.Inspector) iter.Seq2[*types.Func, inspector.Cursor] {
	t := x.of(in)
	return func(yield func(*types.Func, inspector.Cursor) bool) {
		for _, d := range t.funcs {
			if !yield(d.fn, d.cur) {
				return
			}
		}
	}
}

// Value returns the expression that declares the package variable v in in's
// syntax (var v = e), or nil.
func (x *Index) Value(in *inspector.Inspector, v *types.Var) ast.Expr {
	return x.of(in).values[v]
}

// Vars yields the package variables that in's syntax declares with a value,
// in source order.
func (x *Index) Vars(in *inspector.Inspector) iter.Seq2[*types.Var, ast.Expr] {
	t := x.of(in)
	return func(yield func(*types.Var, ast.Expr) bool) {
		for _, v := range t.vars {
			if !yield(v, t.values[v]) {
				return
			}
		}
	}
}

// InterfaceMethod reports whether an interface that in's syntax declares
// has a method named name: a method of that name may be called through it.
func (x *Index) InterfaceMethod(in *inspector.Inspector, name string) bool {
	return x.of(in).methods[name]
}

// AssignedWhole reports whether a statement of in's syntax assigns a whole
// value of the type t is or points to through something other than a
// variable of its own (*s = T{}, list[i] = T{}): its fields change then
// without any of them being written.
func (x *Index) AssignedWhole(in *inspector.Inspector, t types.Type) bool {
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	for _, w := range x.of(in).whole {
		if types.Identical(w, t) {
			return true
		}
	}
	return false
}

// IsWritten reports whether the variable at cur is written there: assigned,
// incremented, ranged into, or has its address, an element or a field taken
// for writing.
func IsWritten(cur inspector.Cursor) bool {
	for c := cur; ; c = c.Parent() {
		switch parent := c.Parent().Node().(type) {
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.ParenExpr, *ast.StarExpr, *ast.SliceExpr:
			continue // look at what the element or field is used for
		case *ast.AssignStmt:
			for _, lhs := range parent.Lhs {
				if lhs == c.Node() {
					return true
				}
			}
		case *ast.IncDecStmt:
			return true
		case *ast.RangeStmt:
			return parent.Key == c.Node() || parent.Value == c.Node()
		case *ast.UnaryExpr:
			return parent.Op == token.AND
		}
		return false
	}
}

// pointerMethodOn reports whether the identifier at cur selects the field
// obj as the operand of a pointer method's call: s.t.UnmarshalText(b).
func pointerMethodOn(info *types.Info, cur inspector.Cursor, obj types.Object) bool {
	field, ok := obj.(*types.Var)
	if !ok || !field.IsField() {
		return false
	}
	sel := cur
	if sel.ParentEdgeKind() == edge.SelectorExpr_Sel {
		sel = sel.Parent()
	}
	if sel.ParentEdgeKind() != edge.SelectorExpr_X {
		return false
	}
	s, ok := info.Selections[sel.Parent().Node().(*ast.SelectorExpr)]
	if !ok || s.Kind() != types.MethodVal {
		return false
	}
	recv := s.Obj().(*types.Func).Signature().Recv()
	_, ptrRecv := recv.Type().(*types.Pointer)
	_, ptrField := field.Type().Underlying().(*types.Pointer)
	return ptrRecv && !ptrField
}

// Contents returns the call that reads the contents of a strings.Builder
// or a bytes.Buffer (its String or Bytes) whose value the expression at
// cur is: that call itself, under conversions ([]byte(sb.String())), the
// one value of a local variable defined with one and not written after
// (s, err := build()), or what a function of the package returns, when
// every return of it that does not return a constant returns one.
func (x *Index) Contents(cur inspector.Cursor) (inspector.Cursor, bool) {
	return x.contents(cur, 4)
}

func (x *Index) contents(cur inspector.Cursor, depth int) (inspector.Cursor, bool) {
	if depth == 0 {
		return inspector.Cursor{}, false
	}
	switch e := cur.Node().(type) {
	case *ast.ParenExpr:
		return x.contents(cur.ChildAt(edge.ParenExpr_X, -1), depth)
	case *ast.Ident:
		v, ok := x.info.Uses[e].(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
			return inspector.Cursor{}, false
		}
		fn, ok := EnclosingFunc(cur)
		if !ok {
			return inspector.Cursor{}, false
		}
		id, ok := x.Def(fn, v)
		if !ok || x.Written(fn, v) {
			return inspector.Cursor{}, false
		}
		if _, own := DefinedWith(id); !own && id.ParentEdgeIndex() > 0 {
			return inspector.Cursor{}, false // not the first result of a call
		}
		src, ok := assignedFrom(id)
		if !ok {
			return inspector.Cursor{}, false
		}
		return x.contents(src, depth-1)
	case *ast.CallExpr:
		if tv, ok := x.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return x.contents(cur.ChildAt(edge.CallExpr_Args, 0), depth) // a conversion
		}
		if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "String" || sel.Sel.Name == "Bytes") && len(e.Args) == 0 && isBuffer(x.info.TypeOf(sel.X)) {
			return cur, true
		}
		fn, _ := typeutil.Callee(x.info, e).(*types.Func)
		decl, ok := x.Decl(cur.Inspector(), fn)
		if !ok {
			return inspector.Cursor{}, false
		}
		var found inspector.Cursor
		all := true
		decl.Inspect([]ast.Node{(*ast.ReturnStmt)(nil), (*ast.FuncLit)(nil)}, func(ret inspector.Cursor) bool {
			r, ok := ret.Node().(*ast.ReturnStmt)
			if ok && len(r.Results) > 0 && x.info.Types[r.Results[0]].Value == nil {
				c, ok := x.contents(ret.ChildAt(edge.ReturnStmt_Results, 0), depth-1)
				all = all && ok
				found = c
			}
			return false // no return of a function literal
		})
		return found, all && found.Valid()
	}
	return inspector.Cursor{}, false
}

// AddressTaken reports whether the code under region may write the local
// variable v without naming it: it takes the address of v or of a part of
// it (&v, &v.f, &v[i], &v[:]), or a function literal that does not declare
// v uses it (captures it), and may be called from anywhere.
func (x *Index) AddressTaken(region inspector.Cursor, v *types.Var) bool {
	for cur := range x.Uses(region, v) {
		if Captured(cur, v) {
			return true
		}
		for c := cur; ; c = c.Parent() {
			if u, ok := c.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
				return true
			}
			switch c.ParentEdgeKind() {
			case edge.SelectorExpr_X, edge.IndexExpr_X, edge.ParenExpr_X, edge.SliceExpr_X:
				continue
			}
			break
		}
	}
	return false
}

// Captured reports whether the identifier at cur, which uses v, is in a
// function literal that v is declared outside of: the innermost literal
// around it captures v.
func Captured(cur inspector.Cursor, v *types.Var) bool {
	for c := range cur.Enclosing((*ast.FuncLit)(nil)) {
		lit := c.Node().(*ast.FuncLit)
		return v.Pos() < lit.Pos() || v.Pos() >= lit.End()
	}
	return false
}

// Reassigned reports whether the code under region gives the variable v
// another value itself, not a field or an element of what it holds or
// points to: it assigns it, increments it, ranges into it or takes its
// address.
func (x *Index) Reassigned(region inspector.Cursor, v *types.Var) bool {
	for cur := range x.Uses(region, v) {
		switch cur.ParentEdgeKind() {
		case edge.AssignStmt_Lhs, edge.IncDecStmt_X, edge.RangeStmt_Key, edge.RangeStmt_Value:
			return true
		case edge.UnaryExpr_X:
			if cur.Parent().Node().(*ast.UnaryExpr).Op == token.AND {
				return true
			}
		}
	}
	return false
}

// PointerMethodCall reports whether the value at cur is the operand of a
// method with a pointer receiver that takes its address (v.reset(), with
// func (*T) reset): the method may change it, and keep the pointer.
func (x *Index) PointerMethodCall(cur inspector.Cursor) bool {
	if cur.ParentEdgeKind() != edge.SelectorExpr_X {
		return false
	}
	sel, ok := x.info.Selections[cur.Parent().Node().(*ast.SelectorExpr)]
	if !ok || sel.Kind() != types.MethodVal {
		return false
	}
	_, ptr := sel.Obj().(*types.Func).Signature().Recv().Type().(*types.Pointer)
	return ptr && !sel.Indirect()
}

// OwnField reports whether sel selects a field of a local variable or a
// parameter of the function at fn without going through a pointer
// (opts.Algorithm, of a struct parameter opts), and fn takes the address
// of no part of that variable, calls no pointer method on it or on a field
// of it, and captures it in no function literal: code can then change the
// field only by naming the variable, as for a local variable of its own.
func (x *Index) OwnField(fn inspector.Cursor, sel *ast.SelectorExpr) bool {
	for e := ast.Expr(sel); ; {
		switch e0 := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			s, ok := x.info.Selections[e0]
			if !ok || s.Kind() != types.FieldVal || s.Indirect() {
				return false
			}
			e = e0.X
		case *ast.Ident:
			v, ok := x.info.Uses[e0].(*types.Var)
			if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || x.AddressTaken(fn, v) {
				return false
			}
			for use := range x.Uses(fn, v) {
				for c := use; c.ParentEdgeKind() == edge.SelectorExpr_X; c = c.Parent() {
					if x.PointerMethodCall(c) {
						return false
					}
					if s, ok := x.info.Selections[c.Parent().Node().(*ast.SelectorExpr)]; !ok || s.Kind() != types.FieldVal {
						break
					}
				}
			}
			return true
		default:
			return false
		}
	}
}

// MethodCallOn reports whether the expression at cur is the operand of a
// call of one of the methods names: cur.Reset(), cur.Sum(b).
func MethodCallOn(cur inspector.Cursor, names ...string) bool {
	return cur.ParentEdgeKind() == edge.SelectorExpr_X && cur.Parent().ParentEdgeKind() == edge.CallExpr_Fun && slices.Contains(names, cur.Parent().Node().(*ast.SelectorExpr).Sel.Name)
}

// SameOperand reports whether a and b, expressions that run no code, are
// spelled alike and their identifiers name the same objects: they have
// the same value where nothing between them writes what they read.
func (x *Index) SameOperand(a, b ast.Expr) bool {
	if types.ExprString(a) != types.ExprString(b) {
		return false
	}
	objs := func(e ast.Expr) []types.Object {
		var list []types.Object
		for n := range ast.Preorder(e) {
			if id, ok := n.(*ast.Ident); ok {
				list = append(list, x.info.ObjectOf(id))
			}
		}
		return list
	}
	return slices.Equal(objs(a), objs(b))
}

// Reaches reports whether pkg, or a package that it imports directly or
// not, satisfies in. A value of pkg's syntax has a type that pkg or one of
// those packages declares (the importers of export data list every package
// that provides an object they refer to): a package that pkg does not reach
// declares none of the types its values have.
func Reaches(pkg *types.Package, in func(*types.Package) bool) bool {
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package) bool
	visit = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		return in(p) || slices.ContainsFunc(p.Imports(), visit)
	}
	return pkg != nil && visit(pkg)
}
