package values

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

const src = `package p

import "strings"

var (
	fixed   = []byte("k")       // read only
	counter int                 // incremented
	table   = map[string]int{}  // an element written
	name    = strings.ToUpper   // a function value
	a, b    = 1, 2
)

type T struct {
	key   []byte   // set by a composite literal only
	n     int      // assigned
	buf   buffer   // a pointer method called on it
	ptr   *buffer  // a pointer method called through it
	items []int    // ranged into
	addr  int      // its address taken
}

type buffer struct{ b []byte }

func (b *buffer) reset() { b.b = b.b[:0] }

type resetter interface{ reset() }

func newT(k []byte) *T { return &T{key: k} }

func (t *T) use(s string) int {
	t.n = len(fixed)
	t.buf.reset()
	t.ptr.reset()
	for t.items[0] = range s {
	}
	p := &t.addr
	*p = 1
	counter++
	table["x"] = 1
	_ = name(s)
	return len(t.key)
}

func (t *T) replace(u T) { *t = u }

func loop(xs []string) int {
	total := 0
	for _, x := range xs {
		y := len(x)
		total += y
	}
	apply(helper)
	return total + helper(1)
}

func apply(f func(int) int) int { return f(2) }

func helper(n int) int { return n }

func fill(s string) *buffer {
	var b buffer
	b.grow(s)
	w := &b
	w = newBuffer(s)
	write(w, s)
	n, ok := table[s]
	_ = ok
	w.b = w.b[:n]
	return w
}

func newBuffer(s string) *buffer { return &buffer{[]byte(s)} }

func pick(k string) (int, []int) {
	byName := map[string]int{"a": 1}
	byName["b"] = 2
	n, _ := byName[k]
	for _, v := range byName {
		n += v
	}
	kept := []int{n}
	return kept[0], kept
}

func write(b *buffer, s string) { b.b = append(b.b, s...) }

func (b *buffer) grow(s string) { b.b = append(b.b, s...) }
`

type fixture struct {
	info *types.Info
	pkg  *types.Package
	in   *inspector.Inspector
	x    *Index
}

func load(t *testing.T) *fixture {
	t.Helper()
	return loadSource(t, src)
}

// loadSource is load of the file text.
func loadSource(t *testing.T, text string) *fixture {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", text, 0)
	require.NoError(t, err)
	info := &types.Info{
		Uses:       map[*ast.Ident]types.Object{},
		Defs:       map[*ast.Ident]types.Object{},
		Types:      map[ast.Expr]types.TypeAndValue{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{file}, info)
	require.NoError(t, err)
	return &fixture{info: info, pkg: pkg, in: inspector.New([]*ast.File{file}), x: New(info)}
}

func (f *fixture) obj(name string) types.Object { return f.pkg.Scope().Lookup(name) }

func (f *fixture) field(name string) *types.Var {
	st := f.obj("T").Type().Underlying().(*types.Struct)
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			return st.Field(i)
		}
	}
	panic("no field " + name)
}

func (f *fixture) decl(t *testing.T, fn *types.Func) inspector.Cursor {
	t.Helper()
	cur, ok := f.x.Decl(f.in, fn)
	require.True(t, ok, fn.Name())
	return cur
}

func (f *fixture) method(typ, name string) *types.Func {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(f.obj(typ).Type()), false, f.pkg, name)
	return obj.(*types.Func)
}

// TestUsesAsPreorder checks that Uses yields, for every region of the file
// and every object, the identifiers that a walk of the region finds.
func TestUsesAsPreorder(t *testing.T) {
	f := load(t)
	regions := []inspector.Cursor{f.in.Root()}
	for cur := range f.in.Root().Preorder() {
		regions = append(regions, cur)
	}
	objs := map[types.Object]bool{}
	for _, obj := range f.info.Uses {
		objs[obj] = true
	}
	total := 0
	for _, region := range regions {
		for obj := range objs {
			var want []inspector.Cursor
			for cur := range region.Preorder((*ast.Ident)(nil)) {
				if f.info.Uses[cur.Node().(*ast.Ident)] == obj {
					want = append(want, cur)
				}
			}
			got := slices.Collect(f.x.Uses(region, obj))
			require.Equal(t, want, got, "uses of %v in %v", obj, region)
			assert.Equal(t, len(want) > 0, f.x.Used(region, obj))
			assert.Equal(t, len(want), f.x.Count(region, obj))
			total += len(got)
		}
	}
	assert.NotZero(t, total)
	// A loop that stops early stops Uses.
	n := 0
	for range f.x.Uses(f.in.Root(), f.obj("fixed")) {
		n++
		break
	}
	assert.Equal(t, 1, n)
}

func TestWritten(t *testing.T) {
	f := load(t)
	root := f.in.Root()
	for _, tc := range []struct {
		obj              types.Object
		written, changed bool
	}{
		{f.obj("fixed"), false, false},
		{f.obj("counter"), true, true}, // counter++
		{f.obj("table"), true, true},   // table["x"] = 1
		{f.obj("name"), false, false},  // only called
		{f.field("key"), false, false}, // only in a composite literal
		{f.field("n"), true, true},     // t.n = ...
		{f.field("buf"), false, true},  // t.buf.reset(), a pointer method
		{f.field("ptr"), false, false}, // t.ptr.reset() changes what it points to, not the field
		{f.field("items"), true, true}, // ranged into
		{f.field("addr"), true, true},  // &t.addr
	} {
		assert.Equal(t, tc.written, f.x.Written(root, tc.obj), "written: %v", tc.obj)
		assert.Equal(t, tc.changed, f.x.Changed(root, tc.obj), "changed: %v", tc.obj)
		use := f.decl(t, f.method("T", "use"))
		assert.Equal(t, tc.written, f.x.Written(use, tc.obj), "written in use: %v", tc.obj)
		assert.Equal(t, tc.changed, f.x.Changed(use, tc.obj), "changed in use: %v", tc.obj)
	}

	// Declarations.
	def, ok := f.x.Def(root, f.obj("name"))
	require.True(t, ok)
	value, ok := DefinedWith(def)
	require.True(t, ok)
	assert.Equal(t, "strings.ToUpper", types.ExprString(value))
	def, ok = f.x.Def(root, f.obj("counter"))
	require.True(t, ok)
	_, ok = DefinedWith(def)
	assert.False(t, ok, "var counter int")

	// In a region: loop writes total and y but not x's range variable
	// after its definition, nor xs.
	loop := f.decl(t, f.obj("loop").(*types.Func))
	body := loop.Node().(*ast.FuncDecl)
	objOf := func(name string) types.Object {
		for id, obj := range f.info.Defs {
			if id.Name == name && body.Pos() <= id.Pos() && id.End() <= body.End() {
				return obj
			}
		}
		panic(name)
	}
	assert.True(t, f.x.Written(loop, objOf("total")))
	def, ok = f.x.Def(loop, objOf("total"))
	require.True(t, ok)
	value, ok = DefinedWith(def)
	require.True(t, ok)
	assert.Equal(t, "0", types.ExprString(value))
	_, ok = f.x.Def(f.decl(t, f.obj("helper").(*types.Func)), objOf("total"))
	assert.False(t, ok, "total is declared in loop, not in helper")
	def, ok = f.x.Def(loop, objOf("x"))
	require.True(t, ok)
	_, ok = DefinedWith(def)
	assert.False(t, ok, "a range variable")
	// Only: the value of a variable never written after its declaration.
	value, _, ok = f.x.Only(loop, objOf("y"))
	require.True(t, ok)
	assert.Equal(t, "len(x)", types.ExprString(value))
	_, _, ok = f.x.Only(loop, objOf("total"))
	assert.False(t, ok, "total += y")
	_, _, ok = f.x.Only(loop, objOf("x"))
	assert.False(t, ok, "a range variable has no value of its declaration")
	_, _, ok = f.x.Only(f.decl(t, f.obj("helper").(*types.Func)), objOf("y"))
	assert.False(t, ok, "y is declared in loop, not in helper")
	value, _, ok = f.x.Only(root, f.obj("name"))
	require.True(t, ok)
	assert.Equal(t, "strings.ToUpper", types.ExprString(value))
	assert.False(t, f.x.Written(loop, objOf("y")))
	assert.False(t, f.x.Written(loop, objOf("xs")))
	// Another function's region does not count loop's writes.
	assert.False(t, f.x.Written(f.decl(t, f.obj("helper").(*types.Func)), objOf("total")))
	// Nor use's writes of t.n in replace.
	assert.False(t, f.x.Written(f.decl(t, f.method("T", "replace")), f.field("n")))
}

func TestCalls(t *testing.T) {
	f := load(t)
	helper := f.obj("helper").(*types.Func)
	calls := f.x.Calls(f.in, helper)
	require.Len(t, calls, 1)
	assert.Equal(t, "helper(1)", types.ExprString(calls[0].Node().(*ast.CallExpr)))
	assert.True(t, f.x.Escapes(f.in, helper), "apply(helper) uses it as a value")
	apply := f.obj("apply").(*types.Func)
	assert.Len(t, f.x.Calls(f.in, apply), 1)
	assert.False(t, f.x.Escapes(f.in, apply))
	reset := f.method("buffer", "reset")
	assert.Len(t, f.x.Calls(f.in, reset), 2, "t.buf.reset() and t.ptr.reset()")
	assert.False(t, f.x.Escapes(f.in, reset))
}

func TestDeclarations(t *testing.T) {
	f := load(t)
	var names []string
	for fn, cur := range f.x.Funcs(f.in) {
		names = append(names, fn.Name())
		assert.Equal(t, fn.Name(), cur.Node().(*ast.FuncDecl).Name.Name)
	}
	assert.Equal(t, []string{"reset", "newT", "use", "replace", "loop", "apply", "helper", "fill", "newBuffer", "pick", "write", "grow"}, names)

	var vars []string
	for v, e := range f.x.Vars(f.in) {
		vars = append(vars, v.Name()+"="+types.ExprString(e))
	}
	assert.Equal(t, []string{`fixed=[]byte("k")`, "table=map[string]int{}", "name=strings.ToUpper", "a=1", "b=2"}, vars)
	assert.Equal(t, "strings.ToUpper", types.ExprString(f.x.Value(f.in, f.obj("name").(*types.Var))))
	assert.Nil(t, f.x.Value(f.in, f.obj("counter").(*types.Var)), "declared without a value")

	assert.True(t, f.x.InterfaceMethod(f.in, "reset"))
	assert.False(t, f.x.InterfaceMethod(f.in, "use"))

	typ := f.obj("T").Type()
	assert.True(t, f.x.AssignedWhole(f.in, types.NewPointer(typ)), "*t = u")
	assert.False(t, f.x.AssignedWhole(f.in, f.obj("buffer").Type()))
}

// TestSources checks what a local variable may take its value from: its
// declaration's value, its assignments' (the one call or comma-ok
// expression of several), and, for one that is not of a basic type, the
// calls that take it.
func TestSources(t *testing.T) {
	f := load(t)
	sources := func(fn *types.Func, name string) []string {
		decl := f.decl(t, fn)
		var got []string
		for cur := range decl.Preorder((*ast.Ident)(nil)) {
			if v, ok := f.info.Defs[cur.Node().(*ast.Ident)].(*types.Var); ok && v.Name() == name {
				for src := range f.x.Sources(decl, v) {
					got = append(got, types.ExprString(src.Node().(ast.Expr)))
				}
			}
		}
		return got
	}
	fill := f.obj("fill").(*types.Func)
	assert.Equal(t, []string{"b.grow(s)"}, sources(fill, "b"), "declared without a value, its method called")
	assert.Equal(t, []string{"&b", "newBuffer(s)", "write(w, s)"}, sources(fill, "w"))
	assert.Equal(t, []string{"table[s]"}, sources(fill, "n"), "a comma-ok expression")
	assert.Empty(t, sources(fill, "s"), "a parameter of a basic type, passed to calls")
	loop := f.obj("loop").(*types.Func)
	assert.Equal(t, []string{"0", "y"}, sources(loop, "total"), "declared, then assigned with +=")
	assert.Empty(t, sources(loop, "x"), "a range variable")
}

// TestUsedAs checks the uses of a local container that only index it or
// range over it; none when it is used otherwise.
func TestUsedAs(t *testing.T) {
	f := load(t)
	decl := f.decl(t, f.obj("pick").(*types.Func))
	reads := func(name string) ([]string, bool) {
		for cur := range decl.Preorder((*ast.Ident)(nil)) {
			if v, ok := f.info.Defs[cur.Node().(*ast.Ident)].(*types.Var); ok && v.Name() == name {
				uses, ok := f.x.UsedAs(decl, v, edge.IndexExpr_X, edge.RangeStmt_X)
				var got []string
				for _, use := range uses {
					if e, ok := use.Parent().Node().(ast.Expr); ok {
						got = append(got, types.ExprString(e))
					} else {
						got = append(got, "range")
					}
				}
				return got, ok
			}
		}
		return nil, false
	}
	got, ok := reads("byName")
	assert.True(t, ok, "indexed and ranged over only")
	assert.Equal(t, []string{`byName["b"]`, "byName[k]", "range"}, got)
	got, ok = reads("kept")
	assert.False(t, ok, "returned")
	assert.Nil(t, got)
}

// TestContents checks which hashed arguments are the contents of a
// strings.Builder or a bytes.Buffer: directly, converted, through a local
// variable or a function of the package; not a variable written again, a
// second result, nor a function one of whose returns is something else.
func TestContents(t *testing.T) {
	f := loadSource(t, `package p

import (
	"bytes"
	"strings"
)

func hash(b []byte) {}

func built(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	var sb strings.Builder
	sb.WriteString(s)
	return sb.String(), nil
}

func either(s string) string {
	if s == "x" {
		return s
	}
	var sb strings.Builder
	return sb.String()
}

func F(s string, buf *bytes.Buffer) {
	hash(buf.Bytes())
	hash([]byte(buf.String()))
	k, err := built(s)
	hash([]byte(k))
	w := buf.String()
	w = s
	hash([]byte(w))
	_, e := built(s)
	hash([]byte(e.Error()))
	hash([]byte(either(s)))
	hash([]byte(s))
	_ = err
}
`)
	var got []string
	for call := range f.in.Root().Preorder((*ast.CallExpr)(nil)) {
		if id, ok := call.Node().(*ast.CallExpr).Fun.(*ast.Ident); ok && id.Name == "hash" {
			arg := call.ChildAt(edge.CallExpr_Args, 0)
			from, ok := f.x.Contents(arg)
			s := types.ExprString(arg.Node().(ast.Expr)) + ": "
			if ok {
				s += types.ExprString(from.Node().(ast.Expr))
			}
			got = append(got, s)
		}
	}
	assert.Equal(t, []string{
		"buf.Bytes(): buf.Bytes()",
		"[]byte(buf.String()): buf.String()",
		"[]byte(k): sb.String()",
		"[]byte(w): ",
		"[]byte(e.Error()): ",
		"[]byte(either(s)): ",
		"[]byte(s): ",
	}, got)
}

// TestStored checks the values that the code stores whole in a field or a
// variable, literals' elements keyed or not among them, in source order;
// none when it writes the field or variable otherwise.
func TestStored(t *testing.T) {
	f := load(t)
	stored := func(region inspector.Cursor, obj types.Object) ([]string, bool) {
		values, ok := f.x.Stored(region, obj)
		var got []string
		for _, v := range values {
			got = append(got, types.ExprString(v))
		}
		return got, ok
	}
	root := f.in.Root()
	b := f.obj("buffer").Type().Underlying().(*types.Struct).Field(0)
	got, ok := stored(root, b)
	assert.True(t, ok)
	assert.Equal(t, []string{"b.b[:0]", "w.b[:n]", "[]byte(s)", "append(b.b, s...)", "append(b.b, s...)"}, got, "assigned, and set by a literal's element that names no field")
	got, ok = stored(f.decl(t, f.obj("newBuffer").(*types.Func)), b)
	assert.True(t, ok)
	assert.Equal(t, []string{"[]byte(s)"}, got, "in one function only")
	got, ok = stored(root, f.field("key"))
	assert.True(t, ok)
	assert.Equal(t, []string{"k"}, got, "a keyed element")
	got, ok = stored(root, f.field("n"))
	assert.True(t, ok)
	assert.Equal(t, []string{"len(fixed)"}, got)
	for _, name := range []string{"addr", "items"} {
		got, ok = stored(root, f.field(name))
		assert.False(t, ok, "%s: its address taken, ranged into", name)
		assert.Nil(t, got)
	}
	_, ok = stored(root, f.obj("counter"))
	assert.False(t, ok, "incremented")
	got, ok = stored(root, f.obj("fixed"))
	assert.True(t, ok, "a declaration's value is not a store")
	assert.Empty(t, got)
}

// TestArguments checks the arguments that the calls of a function pass for
// one of its parameters; none for a function used as a value.
func TestArguments(t *testing.T) {
	f := load(t)
	args := func(fn string, i int) ([]string, bool) {
		obj := f.obj(fn).(*types.Func)
		cursors, ok := f.x.Arguments(f.in, obj, obj.Signature().Params().At(i))
		var got []string
		for _, c := range cursors {
			got = append(got, types.ExprString(c.Node().(ast.Expr)))
		}
		return got, ok
	}
	got, ok := args("write", 0)
	assert.True(t, ok)
	assert.Equal(t, []string{"w"}, got)
	got, ok = args("apply", 0)
	assert.True(t, ok)
	assert.Equal(t, []string{"helper"}, got)
	got, ok = args("newT", 0)
	assert.True(t, ok, "never called")
	assert.Empty(t, got)
	_, ok = args("helper", 0)
	assert.False(t, ok, "passed as a value to apply")
	write := f.obj("write").(*types.Func)
	_, ok = f.x.Arguments(f.in, write, f.obj("helper").(*types.Func).Signature().Params().At(0))
	assert.False(t, ok, "a parameter of another function")
}

// TestUsedOutside checks the first use of a variable outside a range of
// the source: none when every use is within it.
func TestUsedOutside(t *testing.T) {
	f := load(t)
	decl := f.decl(t, f.obj("loop").(*types.Func))
	var total types.Object
	for cur := range decl.Preorder((*ast.Ident)(nil)) {
		if id := cur.Node().(*ast.Ident); id.Name == "total" && f.info.Defs[id] != nil {
			total = f.info.Defs[id]
		}
	}
	require.NotNil(t, total)
	var loop inspector.Cursor
	for cur := range decl.Preorder((*ast.RangeStmt)(nil)) {
		loop = cur
	}
	require.True(t, loop.Valid())
	use, ok := f.x.UsedOutside(decl, total, loop.Node().Pos(), loop.Node().End())
	require.True(t, ok, "returned after the loop")
	assert.Equal(t, edge.BinaryExpr_X, use.ParentEdgeKind(), "total + helper(1)")
	_, ok = f.x.UsedOutside(decl, total, decl.Node().Pos(), decl.Node().End())
	assert.False(t, ok, "every use is in the function")
}

const localsSrc = `package p

type opts struct{ alg, n int }

func (o *opts) set()     { o.n = 1 }
func (o opts) get() int  { return o.n }

type wrap struct{ o opts }

func locals(in opts, pp *opts) int {
	plain := 1
	addr := 2
	part := [2]int{}
	captured := 3
	again := 4
	ranged := 0
	kept := opts{}
	fielded := wrap{}
	p := &addr
	q := &part[1]
	f := func() int { return captured }
	again = 5
	for ranged = range 3 {
	}
	kept.set()
	fielded.o.set()
	x := in.get()
	pp.set()
	return plain + *p + *q + f() + again + ranged + kept.alg + fielded.o.alg + in.alg + pp.alg + x
}
`

// localsOf loads localsSrc and returns the declaration of locals and its
// variables by name.
func localsOf(t *testing.T) (*fixture, inspector.Cursor, map[string]*types.Var) {
	t.Helper()
	f := loadSource(t, localsSrc)
	decl := f.decl(t, f.obj("locals").(*types.Func))
	vars := map[string]*types.Var{}
	for cur := range decl.Preorder((*ast.Ident)(nil)) {
		if v, ok := f.info.Defs[cur.Node().(*ast.Ident)].(*types.Var); ok {
			vars[v.Name()] = v
		}
	}
	return f, decl, vars
}

// TestAddressTaken checks the local variables that code may write without
// naming them: their address taken, whole or in part, or captured by a
// function literal; and those given another value themselves.
func TestAddressTaken(t *testing.T) {
	f, decl, vars := localsOf(t)
	for name, want := range map[string]bool{"plain": false, "addr": true, "part": true, "captured": true, "again": false, "ranged": false, "kept": false} {
		assert.Equal(t, want, f.x.AddressTaken(decl, vars[name]), name)
	}
	for name, want := range map[string]bool{"plain": false, "addr": true, "part": false, "again": true, "ranged": true, "kept": false, "captured": false} {
		assert.Equal(t, want, f.x.Reassigned(decl, vars[name]), name)
	}
	for use := range f.x.Uses(decl, vars["captured"]) {
		assert.True(t, Captured(use, vars["captured"]), "used in the literal")
	}
	for use := range f.x.Uses(decl, vars["plain"]) {
		assert.False(t, Captured(use, vars["plain"]))
	}
}

// TestOwnField checks the fields that only code naming their variable can
// change, and the calls of pointer methods that take a variable's address.
func TestOwnField(t *testing.T) {
	f, decl, vars := localsOf(t)
	own := map[string]bool{}
	for cur := range decl.Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		if sel.Sel.Name == "alg" {
			own[types.ExprString(sel)] = f.x.OwnField(decl, sel)
		}
	}
	assert.Equal(t, map[string]bool{
		"kept.alg":      false, // kept.set() takes its address
		"fielded.o.alg": false, // so does fielded.o.set()
		"in.alg":        true,  // in.get() has a value receiver
		"pp.alg":        false, // through a pointer
	}, own)
	calls := map[string]bool{}
	for _, name := range []string{"kept", "in", "pp"} {
		for use := range f.x.Uses(decl, vars[name]) {
			calls[name] = calls[name] || f.x.PointerMethodCall(use)
			assert.Equal(t, use.ParentEdgeKind() == edge.SelectorExpr_X && use.Parent().ParentEdgeKind() == edge.CallExpr_Fun, MethodCallOn(use, "set", "get"), name)
			assert.False(t, MethodCallOn(use, "Reset"), name)
		}
	}
	assert.Equal(t, map[string]bool{"kept": true, "in": false, "pp": false}, calls, "a pointer's method takes no address")
}

// TestSameOperand checks operands spelled alike that name the same
// variables, and those that a declaration shadows.
func TestSameOperand(t *testing.T) {
	f := loadSource(t, `package p

type s struct{ k int }

func shadow(a int, v s) int {
	b := a + v.k
	{
		a := 2
		b += a + v.k
	}
	return b + a
}
`)
	var as, ks []ast.Expr
	for cur := range f.in.Root().Preorder((*ast.Ident)(nil), (*ast.SelectorExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.Ident:
			if n.Name == "a" && f.info.Uses[n] != nil {
				as = append(as, n)
			}
		case *ast.SelectorExpr:
			ks = append(ks, n)
		}
	}
	require.Len(t, as, 3)
	assert.True(t, f.x.SameOperand(as[0], as[2]), "the parameter")
	assert.False(t, f.x.SameOperand(as[0], as[1]), "the parameter and the variable that shadows it")
	require.Len(t, ks, 2)
	assert.True(t, f.x.SameOperand(ks[0], ks[1]))
	assert.False(t, f.x.SameOperand(ks[0], as[0]))
}

// TestReaches checks that a package reaches itself and what it imports,
// directly or through another package, and nothing else.
func TestReaches(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", "package p\n\nimport \"crypto/sha256\"\n\nvar _ = sha256.New\n", 0)
	require.NoError(t, err)
	pkg, err := (&types.Config{Importer: importer.ForCompiler(fset, "source", nil)}).Check("p", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	path := func(want string) func(*types.Package) bool {
		return func(p *types.Package) bool { return p.Path() == want }
	}
	assert.True(t, Reaches(pkg, path("p")), "the package itself")
	assert.True(t, Reaches(pkg, path("crypto/sha256")), "an import")
	assert.True(t, Reaches(pkg, path("hash")), "an import of an import")
	assert.False(t, Reaches(pkg, path("crypto/ecdsa")), "a package that nothing imports")
	assert.False(t, Reaches(nil, path("p")), "no package")
}

// TestAppended checks which hashed slices are built only by appends to an
// empty slice, and by how many; not one declared with a value, appended to
// itself, passed elsewhere, or a package variable.
func TestAppended(t *testing.T) {
	f := loadSource(t, `package p

import "crypto/md5"

var global []byte

func sum(b []byte) [16]byte { return md5.Sum(b) }

func f(key []byte, n byte) {
	var b []byte
	b = append(b, key...)
	b = append(b, n, 0)
	sum(b)

	c := make([]byte, 0)
	c = append(c, key...)
	sum(c)

	d := []byte{1}
	d = append(d, key...)
	sum(d)

	e := []byte{}
	e = append(e, key...)
	e = append(e, e...)
	sum(e)

	g := []byte(nil)
	g = append(g, key...)
	sum(g)
	_ = len(g)

	global = append(global, key...)
	sum(global)
}
`)
	got := map[string]int{}
	for cur := range f.in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "sum" {
			got[types.ExprString(call.Args[0])] = f.x.Appended(cur.ChildAt(edge.CallExpr_Args, 0))
		}
	}
	assert.Equal(t, map[string]int{"b": 2, "c": 1, "d": 0, "e": 0, "g": 0, "global": 0}, got)
}
