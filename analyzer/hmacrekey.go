package analyzer

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/hashalloc/hashalloc/fixes"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// hmacRekey is the category of hmac.New evaluated again and again with a key
// that does not change: every call re-derives the padded key and allocates
// two hashers (5 allocations), where a reused HMAC costs none.
const hmacRekey = "hmac-rekey"

// checkHMACRekey reports hmac.New(h, key) per iteration or per call when key
// is fixed for the loop, for the value whose field it is, for the package or
// for the closure that captures it.
func (p *pass) checkHMACRekey(s *Site) {
	switch {
	case s.esc.kind == outlives:
		return // a signer's constructor that keeps its HMAC: built once
	case s.esc.kind == unknown:
		return // the model cannot tell whether the HMAC is kept
	case len(s.Call.Args) != 2:
		return
	}
	what := fmt.Sprintf("hmac.New(%s) re-keys an HMAC (%d allocations)", argsText(s.Call), s.ctor.allocs)

	loop, inLoop := enclosingLoop(s.cur, false)
	if inLoop {
		if ok, _ := p.argsInvariant(s, loop); ok {
			msg := fmt.Sprintf("%s on every iteration of the loop at %s, with a key that does not change in the loop", what, p.position(loop.Node().Pos()))
			fix, why := p.hoistFix(s, loop)
			p.report(s.Call, hmacRekey, advise(msg, fix, "build it once before the loop and Reset it", why), fix)
			return
		}
	}
	per := "on every call"
	if inLoop {
		per = "on every iteration of the loop at " + p.position(loop.Node().Pos())
	}

	switch key := ast.Unparen(s.Call.Args[1]).(type) {
	case *ast.SelectorExpr:
		sel, ok := p.TypesInfo.Selections[key]
		if !ok || sel.Kind() != types.FieldVal {
			break
		}
		field := sel.Obj().(*types.Var)
		if !p.isReceiver(s.cur, key.X) {
			return // a field of some other value: fixed for it, but not per call
		}
		if p.fieldWritten(field) {
			return // the key can change (rotation): nothing is fixed
		}
		msg := fmt.Sprintf("%s %s, with a key fixed for each %s (field %s)", what, per, typeName(sel.Recv()), field.Name())
		var fix *analysis.SuggestedFix
		why := "the call is in a loop"
		if !inLoop {
			fix, why = p.keyedPoolFix(s, key, field)
		}
		p.report(s.Call, hmacRekey, advise(msg, fix, "keep a keyed HMAC pool where the key is set", why), fix)

	case *ast.Ident:
		v, ok := p.TypesInfo.Uses[key].(*types.Var)
		if !ok {
			break
		}
		if v.Parent() == v.Pkg().Scope() {
			if !p.fixedPackageVar(v) {
				return // assigned after its declaration, or exported
			}
			msg := fmt.Sprintf("%s %s, with a key fixed for the package (variable %s)", what, per, v.Name())
			p.report(s.Call, hmacRekey, advise(msg, nil, "keep one keyed HMAC pool next to "+v.Name(), "a package-level pool is left to you"), nil)
			return
		}
		if capturedBy(s.cur, v) && !p.writes(p.root, v) {
			msg := fmt.Sprintf("%s %s, with a key fixed for the closure (captured variable %s)", what, per, v.Name())
			p.report(s.Call, hmacRekey, advise(msg, nil, "create a keyed HMAC pool before the closure", "not yet automated for closures"), nil)
		}
	}
}

// keyedPoolFix gives the struct that holds the key its own pool of keyed
// HMACs, created in the one composite literal that sets the key.
func (p *pass) keyedPoolFix(s *Site, key *ast.SelectorExpr, field *types.Var) (*analysis.SuggestedFix, string) {
	f := p.file(s.Call.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	def, why := p.definition(s)
	if def == nil {
		return nil, why
	}
	recv, ok := key.X.(*ast.Ident)
	if !ok {
		return nil, types.ExprString(key.X) + " is not a variable"
	}
	mac := p.TypesInfo.Defs[def.Lhs[0].(*ast.Ident)].(*types.Var)
	if fn, ok := enclosingFunc(s.cur); ok && p.writes(fn, mac) {
		return nil, mac.Name() + " is assigned again"
	}
	// Reject an exported key field: other packages may set it.
	if field.Exported() {
		return nil, "field " + field.Name() + " is exported"
	}
	named, ok := derefNamed(p.TypesInfo.TypeOf(key.X))
	if !ok {
		return nil, "the key's holder is not a named struct"
	}
	st, ok := p.structDecl(named)
	if !ok || p.Fset.File(st.Pos()) != p.Fset.File(s.Call.Pos()) {
		return nil, named.Obj().Name() + " is declared in another file"
	}
	if st.Fields.Opening == st.Fields.Closing || p.Fset.Position(st.Fields.Opening).Line == p.Fset.Position(st.Fields.Closing).Line {
		return nil, named.Obj().Name() + " is declared on one line"
	}
	lit, why := p.keySetter(named, field)
	if lit == nil {
		return nil, why
	}
	if p.Fset.File(lit.Pos()) != p.Fset.File(s.Call.Pos()) {
		return nil, named.Obj().Name() + " is built in another file"
	}
	keyText, ok := p.litValue(f, lit, field.Name())
	if !ok {
		return nil, "the key is not set from a plain variable"
	}
	hashText, why := p.hashInLit(f, s.Call.Args[0], lit)
	if hashText == "" {
		return nil, why
	}
	// Reject a key field used with several hash functions: one pool serves one.
	if !p.oneHashPerKey(field, types.ExprString(s.Call.Args[0])) {
		return nil, "field " + field.Name() + " keys HMACs of several hash functions"
	}
	poolField := "macs"
	for i := 2; fieldOrMethod(named, poolField); i++ {
		poolField = fmt.Sprintf("macs%d", i)
	}
	fix := fixes.HMACField(f, def, fixes.KeyedPool{
		Struct: st,
		Lit:    lit,
		Field:  poolField,
		Hash:   hashText,
		Key:    keyText,
		Recv:   recv.Name,
		Inline: p.cfg.pool == PoolInline,
	})
	return &fix, ""
}

// fieldWritten reports whether the package may change field after building
// its value: assigns it or an element of it, or passes it (or a slice of it) to
// any function but hmac.New and a few that only read (copy(field, k) or
// rand.Read(field) would rewrite a key in place).
func (p *pass) fieldWritten(field *types.Var) bool {
	for cur := range p.root.Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		if p.TypesInfo.Uses[sel.Sel] != field {
			continue
		}
		if isWritten(cur) {
			return true
		}
		arg := cur
		for arg.ParentEdgeKind() == edge.SliceExpr_X || arg.ParentEdgeKind() == edge.ParenExpr_X {
			arg = arg.Parent()
		}
		if arg.ParentEdgeKind() != edge.CallExpr_Args {
			continue
		}
		call := arg.Parent().Node().(*ast.CallExpr)
		if tv, ok := p.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
			continue // a conversion copies
		}
		switch name := p.qualifiedCallee(call); {
		case name == "crypto/hmac.New", name == "crypto/hmac.Equal", name == "bytes.Equal", name == "bytes.Clone":
		case name == "" && len(call.Args) == 1 && (types.ExprString(call.Fun) == "len" || types.ExprString(call.Fun) == "cap"):
		case name == "" && types.ExprString(call.Fun) == "copy" && arg.ParentEdgeIndex() == 1:
		default:
			return true
		}
	}
	return false
}

// keySetter returns the only composite literal of named in the package, which
// must set field; or why there is none.
func (p *pass) keySetter(named *types.Named, field *types.Var) (*ast.CompositeLit, string) {
	var found *ast.CompositeLit
	for cur := range p.root.Preorder((*ast.CompositeLit)(nil), (*ast.CallExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CompositeLit:
			if t, ok := p.TypesInfo.TypeOf(n).(*types.Named); !ok || t.Origin() != named.Origin() {
				continue
			}
			if found != nil {
				return nil, named.Obj().Name() + " is built in several places"
			}
			found = n
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "new" && len(n.Args) == 1 {
				if t, ok := p.TypesInfo.TypeOf(n.Args[0]).(*types.Named); ok && t.Origin() == named.Origin() {
					return nil, named.Obj().Name() + " is built with new"
				}
			}
		}
	}
	if found == nil {
		return nil, "no composite literal builds " + named.Obj().Name()
	}
	for _, elt := range found.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok && p.TypesInfo.Uses[identOf(kv.Key)] == field {
			return found, ""
		}
	}
	return nil, "the composite literal of " + named.Obj().Name() + " does not set " + field.Name()
}

// litValue returns the text of the value lit gives to the named field, when it
// is a plain expression that can be evaluated twice.
func (p *pass) litValue(f *fixes.File, lit *ast.CompositeLit, name string) (string, bool) {
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok || identOf(kv.Key) == nil || identOf(kv.Key).Name != name {
			continue
		}
		if !plainExpr(kv.Value) {
			return "", false
		}
		return f.Text(kv.Value), true
	}
	return "", false
}

// hashInLit spells the hash constructor argument of hmac.New in the context
// of lit: a package function as written, or the value lit gives a field.
func (p *pass) hashInLit(f *fixes.File, hash ast.Expr, lit *ast.CompositeLit) (string, string) {
	switch obj := p.TypesInfo.Uses[identOf(hash)].(type) {
	case *types.Func:
		if obj.Signature().Recv() == nil {
			return f.Text(hash), ""
		}
	case *types.Var:
		if sel, ok := ast.Unparen(hash).(*ast.SelectorExpr); ok && obj.IsField() && !p.fieldWritten(obj) {
			if _, ok := p.TypesInfo.Selections[sel]; ok {
				if text, ok := p.litValue(f, lit, obj.Name()); ok {
					return text, ""
				}
			}
		}
	}
	return "", "the hash function is not fixed where the key is set"
}

// oneHashPerKey reports whether every hmac.New keyed by field uses hash.
func (p *pass) oneHashPerKey(field *types.Var, hash string) bool {
	for cur := range p.root.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if len(call.Args) != 2 || p.qualifiedCallee(call) != "crypto/hmac.New" {
			continue
		}
		key, ok := ast.Unparen(call.Args[1]).(*ast.SelectorExpr)
		if !ok || p.TypesInfo.Uses[key.Sel] != field || !p.isReceiver(cur, key.X) {
			continue
		}
		if types.ExprString(call.Args[0]) != hash {
			return false
		}
	}
	return true
}

// isReceiver reports whether e names the receiver of the method around cur.
func (p *pass) isReceiver(cur inspector.Cursor, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, decl, ok := p.funcOf(cur)
	if !ok || decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
		return false
	}
	recv := p.TypesInfo.Defs[decl.Recv.List[0].Names[0]]
	return recv != nil && p.TypesInfo.Uses[id] == recv
}

// structDecl returns the struct type expression that declares named.
func (p *pass) structDecl(named *types.Named) (*ast.StructType, bool) {
	for cur := range p.root.Preorder((*ast.TypeSpec)(nil)) {
		spec := cur.Node().(*ast.TypeSpec)
		if spec.Name.Pos() == named.Obj().Pos() {
			st, ok := spec.Type.(*ast.StructType)
			return st, ok
		}
	}
	return nil, false
}

// capturedBy reports whether the innermost function literal around cur
// captures v, declared outside it.
func capturedBy(cur inspector.Cursor, v *types.Var) bool {
	for c := range cur.Enclosing((*ast.FuncLit)(nil)) {
		lit := c.Node().(*ast.FuncLit)
		return v.Pos() < lit.Pos() || v.Pos() >= lit.End()
	}
	return false
}

// plainExpr reports whether e is a name, a field selection chain or a literal:
// something that can be evaluated twice at no cost and with no side effect.
func plainExpr(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		return plainExpr(e.X)
	}
	return false
}

// derefNamed returns the named type of t or of what t points to.
func derefNamed(t types.Type) (*types.Named, bool) {
	if ptr, ok := t.Underlying().(*types.Pointer); ok {
		t = ptr.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok {
		return nil, false
	}
	_, isStruct := named.Underlying().(*types.Struct)
	return named, isStruct
}

// fieldOrMethod reports whether named has a field or method called name.
func fieldOrMethod(named *types.Named, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(named, true, nil, name)
	return obj != nil
}

// typeName spells the type that holds a field, without its package path.
func typeName(t types.Type) string {
	return types.TypeString(t, func(*types.Package) string { return "" })
}

// argsText spells a call's arguments, shortened when long.
func argsText(call *ast.CallExpr) string {
	text := ""
	for i, a := range call.Args {
		if i > 0 {
			text += ", "
		}
		text += types.ExprString(a)
	}
	if len(text) > 40 {
		return "..."
	}
	return text
}
