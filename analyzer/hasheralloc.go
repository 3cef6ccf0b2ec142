package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"unicode"
	"unicode/utf8"

	"github.com/hashalloc/hashalloc/fixes"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// hasherAlloc is the category of a hash constructor whose hasher reaches the
// heap on every iteration of a loop or every call of a hot function.
const hasherAlloc = "hasher-alloc"

// checkHasherAlloc reports s when its hasher is heap allocated per iteration
// or per hot call, with the cheapest safe rewrite: hoist it out of the loop and
// Reset it; call the standard constructor instead of crypto.Hash.New; or take it
// from a pool.
func (p *pass) checkHasherAlloc(s *Site) {
	switch {
	case s.esc.kind == unknown:
		return // the model cannot tell whether it escapes
	case s.esc.kind == outlives:
		return // meant to outlive the call: not per-call waste
	case s.ctor.alloc == onEscape && s.esc.kind == stays:
		return // inlined and devirtualized: it lives on the stack
	}
	what := p.describe(s)
	often, loop, ok := p.frequency(s.cur, true)
	if !ok {
		return // cold code: one allocation per call is fine
	}
	if loop.Valid() {
		fix, why := p.hoistFix(s, loop)
		p.report(s.Call, hasherAlloc, what+" "+often, fix, "reuse one hasher across iterations", why)
		return
	}
	fix, why, pooled := p.callFix(s)
	if p.report(s.Call, hasherAlloc, what+" "+often, fix, "reuse a pooled hasher", why) && pooled {
		if p.pooled == nil {
			p.pooled = map[*Site]bool{}
		}
		p.pooled[s] = true
	}
}

// frequency says how often the code at cur runs when that is often enough to
// report an allocation there: "on every iteration of the loop at f.go:12"
// (and that loop), or "on every call of f, which is hot (why)". It returns
// false for code that runs once per call of a cold function, or in a function
// literal outside any loop of its own (how often that runs is unknown). With
// proven, a function must be hot by strong evidence (see hotness.proven).
func (p *pass) frequency(cur inspector.Cursor, proven bool) (string, inspector.Cursor, bool) {
	if loop, ok := enclosingLoop(cur, false); ok {
		return "on every iteration of the loop at " + p.position(loop.Node().Pos()), loop, true
	}
	fn, _, ok := p.funcOf(cur)
	if !ok {
		return "", inspector.Cursor{}, false
	}
	hot := p.hot.explain(fn)
	if hot == "" || proven && !p.hot.proven(fn) {
		return "", inspector.Cursor{}, false
	}
	return fmt.Sprintf("on every call of %s, which is hot (%s)", fn.Name(), hot), inspector.Cursor{}, true
}

// describe says what allocates and why, e.g. "sha256.New() escapes to the heap
// (passed to io.Copy)" or "crypto.SHA256.New() always allocates".
func (p *pass) describe(s *Site) string {
	call := types.ExprString(s.Call)
	if len(call) > 40 {
		call = s.ctor.name + "(...)"
	}
	switch {
	case s.ctor.alloc == always && s.ctor.allocs > 1:
		return fmt.Sprintf("%s allocates %d times", call, s.ctor.allocs)
	case s.ctor.alloc == always:
		return call + " always allocates its hasher"
	}
	return fmt.Sprintf("%s escapes to the heap (%s)", call, s.esc.reason)
}

// advise completes msg with what to do: the fix's message, or the manual
// advice and the reason no fix is offered.
func advise(msg string, fix *analysis.SuggestedFix, manual, why string) string {
	if fix != nil {
		return msg + "; " + lowerFirst(fix.Message)
	}
	return msg + "; " + manual + " (no automatic fix: " + why + ")"
}

func lowerFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[size:]
}

// definition returns the h := ctor(...) statement that defines the hasher of
// s, or why there is none that a fix can rewrite.
func (p *pass) definition(s *Site) (*ast.AssignStmt, string) {
	if s.cur.ParentEdgeKind() != edge.AssignStmt_Rhs {
		return nil, "the hasher is not assigned to a variable"
	}
	assign := s.cur.Parent().Node().(*ast.AssignStmt)
	// Reject h, err := blake2b.New256(nil) and v, h := x, ctor(): moving or
	// rewriting one half of the assignment would change the other.
	if assign.Tok != token.DEFINE || len(assign.Lhs) != 1 || len(assign.Rhs) != 1 {
		return nil, "the hasher is not defined alone by h := ..."
	}
	if _, ok := assign.Lhs[0].(*ast.Ident); !ok {
		return nil, "the hasher is not defined alone by h := ..."
	}
	// Reject "if h := ctor(); ...": only a statement list can take the
	// statements a fix adds.
	switch s.cur.Parent().Parent().Node().(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
	default:
		return nil, "the definition is not a statement of its own"
	}
	return assign, ""
}

// hoistFix moves the hasher's definition in front of the outermost loop
// around it (up to the function) in which the constructor's arguments do not
// change, and resets it per iteration.
func (p *pass) hoistFix(s *Site, loop inspector.Cursor) (*analysis.SuggestedFix, string) {
	def, why := p.definition(s)
	if def == nil {
		return nil, why
	}
	name := def.Lhs[0].(*ast.Ident).Name
	// Reject a name that is already in scope where the hasher is defined:
	// after the move, the Reset would act on the new hasher, and the other
	// variable would be shadowed.
	if scope := p.Pkg.Scope().Innermost(def.Pos()); scope != nil {
		if _, obj := scope.LookupParent(name, def.Pos()); obj != nil {
			return nil, name + " is already declared outside the definition"
		}
	}
	var target inspector.Cursor
	for l, ok := loop, true; ok; l, ok = enclosingLoop(l, false) {
		if invariant, why := p.argsInvariant(s, l); !invariant {
			if !target.Valid() {
				return nil, why
			}
			break
		}
		// Reject a loop whose block declares the name elsewhere: the hoisted
		// definition would collide with it.
		if scope := p.blockScope(l); scope == nil || scope.Lookup(name) != nil {
			break
		}
		target = l
	}
	if !target.Valid() {
		return nil, name + " is declared again in the block of the loop"
	}
	before := target.Node().(ast.Stmt)
	if target.ParentEdgeKind() == edge.LabeledStmt_Stmt {
		before = target.Parent().Node().(ast.Stmt)
	}
	f := p.file(s.Call.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	fix := fixes.Hoist(f, before, def)
	return &fix, ""
}

// argsInvariant reports whether every argument of the constructor (and its
// receiver, for crypto.Hash.New) keeps its value across loop's iterations.
func (p *pass) argsInvariant(s *Site, loop inspector.Cursor) (bool, string) {
	exprs := append([]ast.Expr(nil), s.Call.Args...)
	if sel, ok := ast.Unparen(s.Call.Fun).(*ast.SelectorExpr); ok {
		if _, isPkg := p.TypesInfo.Uses[identOf(sel.X)].(*types.PkgName); !isPkg {
			exprs = append(exprs, sel.X) // a method receiver, e.g. alg in alg.New()
		}
	}
	for _, e := range exprs {
		if ok, why := p.invariant(e, loop, s.Call); !ok {
			return false, why
		}
	}
	return true, ""
}

// blockScope returns the scope of the statement list that holds the loop.
func (p *pass) blockScope(loop inspector.Cursor) *types.Scope {
	stmt := loop
	if stmt.ParentEdgeKind() == edge.LabeledStmt_Stmt {
		stmt = stmt.Parent()
	}
	for c := stmt.Parent(); c.Valid(); c = c.Parent() {
		switch n := c.Node().(type) {
		case *ast.FuncDecl:
			return p.TypesInfo.Scopes[n.Type]
		case *ast.FuncLit:
			return p.TypesInfo.Scopes[n.Type]
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			if scope := p.TypesInfo.Scopes[n]; scope != nil {
				return scope
			}
		}
	}
	return nil
}

// callFix removes a per-call allocation in a hot function: the standard
// constructor for a crypto.Hash whose hasher stays local, else a pool (and
// then pooled is set).
func (p *pass) callFix(s *Site) (*analysis.SuggestedFix, string, bool) {
	f := p.file(s.Call.Pos())
	if f == nil {
		return nil, "the source file cannot be read", false
	}
	stdCtor := p.qualifiedCallee(s.Call)
	if s.ctor == cryptoHashNew {
		var ok bool
		if stdCtor, ok = p.cryptoHashConstant(s.Call); !ok {
			return nil, "the crypto.Hash is not a constant", false
		}
		if s.esc.kind == stays {
			fix := fixes.StdConstructor(f, s.Call, stdCtor)
			return &fix, "", false
		}
	}
	pool := stdConstructors[stdCtor].pool
	if pool == "" {
		return nil, "no pool serves " + s.ctor.name, false
	}
	def, why := p.definition(s)
	if def == nil {
		return nil, why, false
	}
	v := p.TypesInfo.Defs[def.Lhs[0].(*ast.Ident)].(*types.Var)
	// Reject a hasher variable that is assigned again: the deferred Put
	// would return the first hasher while the function uses another.
	if fn, ok := enclosingFunc(s.cur); ok && p.writes(fn, v) {
		return nil, v.Name() + " is assigned again", false
	}
	// Reject a hasher whose method calls take buffers that live on the stack:
	// through the pooled interface value they would escape, trading the
	// hasher's allocation for theirs.
	if arg, ok := p.stackArgument(s, v); ok {
		return nil, "a pooled hasher would make " + types.ExprString(arg) + " escape", false
	}
	fix := fixes.Pool(f, def, fixes.PoolSpec{
		Var:    pool,
		Ctor:   stdCtor,
		Result: p.TypesInfo.TypeOf(s.Call),
		Inline: p.cfg.pool == PoolInline,
		Last:   p.releasePoint(s.cur.Parent(), v),
	})
	return &fix, "", true
}

// stackArgument returns an argument of a method call on the hasher v that
// may live on the caller's stack: a composite literal, a make, a conversion
// to []byte, or a slice of a local array.
func (p *pass) stackArgument(s *Site, v *types.Var) (ast.Expr, bool) {
	fn, ok := enclosingFunc(s.cur)
	if !ok {
		return nil, false
	}
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || p.TypesInfo.Uses[identOf(sel.X)] != v {
			continue
		}
		for _, arg := range call.Args {
			if p.onStack(arg) {
				return arg, true
			}
		}
	}
	return nil, false
}

// onStack reports whether e may be a buffer on the stack of the function.
func (p *pass) onStack(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		return e.Op == token.AND
	case *ast.SliceExpr:
		return p.onStack(e.X) || p.localArray(e.X)
	case *ast.CallExpr:
		if tv, ok := p.TypesInfo.Types[e.Fun]; ok && tv.IsType() {
			return true // []byte(s)
		}
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && id.Name == "make" {
			return p.TypesInfo.Uses[id] == types.Universe.Lookup("make")
		}
	}
	return false
}

// localArray reports whether e names a local variable of array type.
func (p *pass) localArray(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := p.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Parent() == v.Pkg().Scope() {
		return false
	}
	_, isArray := v.Type().Underlying().(*types.Array)
	return isArray
}

// cryptoHashConstant returns the standard constructor of the crypto.Hash
// constant that call's receiver is, as in crypto.SHA256.New().
func (p *pass) cryptoHashConstant(call *ast.CallExpr) (string, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	tv, ok := p.TypesInfo.Types[sel.X]
	if !ok || tv.Value == nil {
		return "", false
	}
	scope := types.Universe
	if crypto := p.importedCrypto(); crypto != nil {
		scope = crypto.Scope()
	}
	for name, ctor := range cryptoHashConstructors {
		if c, ok := scope.Lookup(name).(*types.Const); ok && c.Val().ExactString() == tv.Value.ExactString() {
			return ctor, true
		}
	}
	return "", false
}

// importedCrypto returns the crypto package if the package imports it.
func (p *pass) importedCrypto() *types.Package {
	for _, imp := range p.Pkg.Imports() {
		if imp.Path() == "crypto" {
			return imp
		}
	}
	return nil
}

// qualifiedCallee returns "importpath.Func" for a call of a package function.
func (p *pass) qualifiedCallee(call *ast.CallExpr) string {
	if id := identOf(call.Fun); id != nil {
		if fn, ok := p.TypesInfo.Uses[id].(*types.Func); ok && fn.Pkg() != nil {
			return fn.Pkg().Path() + "." + fn.Name()
		}
	}
	return ""
}

// identOf returns the identifier that e names: x in x, Sel in pkg.Sel.
func identOf(e ast.Expr) *ast.Ident {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e
	case *ast.SelectorExpr:
		return e.Sel
	}
	return nil
}

// file returns the fixes.File that holds pos.
func (p *pass) file(pos token.Pos) *fixes.File {
	tf := p.Fset.File(pos)
	if f, ok := p.files[tf]; ok {
		return f
	}
	if p.files == nil {
		p.files = map[*token.File]*fixes.File{}
	}
	for _, f := range p.Files {
		if p.Fset.File(f.FileStart) != tf {
			continue
		}
		src, err := p.ReadFile(tf.Name())
		if err != nil {
			return nil
		}
		if p.names == nil {
			p.names = &fixes.PackageNames{Pkg: p.Pkg}
			for _, f := range p.Files {
				p.names.FileScopes = append(p.names.FileScopes, p.TypesInfo.Scopes[f])
			}
		}
		p.files[tf] = &fixes.File{Fset: p.Fset, AST: f, Src: src, Info: p.TypesInfo, Pkg: p.Pkg,
			Version: p.TypesInfo.FileVersions[f], Names: p.names}
		return p.files[tf]
	}
	return nil
}
