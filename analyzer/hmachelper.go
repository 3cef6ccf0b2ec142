package analyzer

// The first rung of hmac-rekey's ladder through a helper: a function of the
// package that makes a MAC from a key parameter, writes it and returns one
// Sum, called in a loop that gives it the same key on every iteration.

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// loopHelper is a helper whose MAC the loop that calls it may keep: see
// helperLoopFix.
type loopHelper struct {
	fn   *types.Func
	decl *ast.FuncDecl
	call inspector.Cursor // its one call, in the loop
	loop inspector.Cursor
}

// helperLoopFix keeps one MAC across the iterations of a loop that calls the
// helper around s, a function of the package that only makes the MAC, writes
// it and returns one Sum, with a key (and a receiver, where the MAC's
// constructor reads it) that the loop does not change:
//
//	func (s scramFormatter) hmac(key, extra []byte) ([]byte, error) {
//		mac, err := s.mac(key)
//		...
//	for i := 2; i <= iterations; i++ {
//		ui, err := s.hmac(password, prev)
//
// The helper takes a pointer to a variable of the loop, makes the MAC on the
// first call and Resets it on the next ones (see fixes.HelperReset). It
// returns the fix, or why there is none, and whether the rung applies at
// all: the helper is called in a loop.
func (p *pass) helperLoopFix(s *Site) (fix *analysis.SuggestedFix, why string, applies bool) {
	h, why, applies := p.loopHelper(s)
	if !applies {
		return nil, "", false
	}
	if why != "" {
		return nil, why, true
	}
	name := h.fn.Name()
	def := s.cur.Parent().Node().(*ast.AssignStmt)
	check, errVar, why := p.helperShape(h, s, def)
	if why != "" {
		return nil, why, true
	}
	keys, readsRecv, why := p.macInputs(h, s)
	if why != "" {
		return nil, why, true
	}
	call := h.call.Node().(*ast.CallExpr)
	params := slices.Collect(h.fn.Signature().Params().Variables())
	var keyArg ast.Expr
	for _, key := range keys {
		i := slices.Index(params, key)
		if h.fn.Signature().Variadic() && i == len(params)-1 {
			return nil, name + "'s key " + key.Name() + " is its variadic parameter", true
		}
		if ok, why := p.invariant(call.Args[i], h.loop, call); !ok {
			return nil, why + ", and " + name + " makes its MAC from it", true
		}
		if keyArg == nil {
			keyArg = call.Args[i]
		}
	}
	if readsRecv {
		if why := p.receiverInvariant(h); why != "" {
			return nil, why, true
		}
	}

	f := p.file(s.Call.Pos())
	if f == nil {
		return nil, "the source file cannot be read", true
	}
	if multilineLiteral(def, check) {
		return nil, "a literal of several lines stands where the MAC is made", true
	}
	mac := p.TypesInfo.Defs[def.Lhs[0].(*ast.Ident)].(*types.Var)
	loopStmt := h.loop.Node().(ast.Stmt)
	if h.loop.ParentEdgeKind() == edge.LabeledStmt_Stmt {
		loopStmt = h.loop.Parent().Node().(ast.Stmt)
	}
	_, block, ok := listStatement(h.loop)
	scope := p.TypesInfo.Scopes[block]
	if !ok || scope == nil {
		return nil, "the loop is not a statement of a block", true
	}
	want := "mac"
	if id := values.IdentOf(keyArg); id != nil {
		want = unexported(id.Name) + "MAC"
	}
	v := f.FreeName(call.Pos(), want)
	for i := 2; scope.Lookup(v) != nil; i++ {
		v = f.FreeName(call.Pos(), want+strconv.Itoa(i))
	}
	spec := fixes.LoopHelperSpec{
		Decl: h.decl, Def: def, Check: check, Err: errVar, MAC: mac.Type(),
		Param: freeIn(h.decl, unexported(keys[0].Name())+"MAC"), Key: keys[0].Name(),
		Loop: loopStmt, Call: call, Var: v,
	}
	fx := fixes.HelperReset(f, spec)
	if err := p.checkFix(s.Call, &fx); err != nil {
		return nil, err.Error(), true
	}
	return &fx, "", true
}

// loopHelper finds the helper around s and its call in a loop, or says why
// the MAC cannot be kept across that loop; applies is false when the helper
// is not called in a loop.
func (p *pass) loopHelper(s *Site) (h loopHelper, why string, applies bool) {
	fn, decl, ok := p.funcOf(s.cur)
	if !ok || s.cur.ParentEdgeKind() != edge.AssignStmt_Rhs {
		return h, "", false
	}
	h.fn, h.decl = fn, decl
	var calls []inspector.Cursor
	valueUse := ""
	for use := range p.vals.Uses(p.root, fn) {
		if c, ok := values.CalledAt(use); ok {
			calls = append(calls, c)
			if loop, ok := frequency.EnclosingLoop(c, false); ok && !h.call.Valid() {
				h.call, h.loop = c, loop
			}
		} else if valueUse == "" {
			valueUse = p.position(use.Node().Pos())
		}
	}
	if !h.call.Valid() {
		return h, "", false
	}
	name := fn.Name()
	switch {
	case fn.Exported():
		return h, name + " is exported: a parameter added to it would change the package's API", true
	case valueUse != "":
		return h, name + " is used as a value at " + valueUse + ", whose calls would not pass the MAC", true
	case len(calls) > 1:
		other := calls[0]
		if other == h.call {
			other = calls[1]
		}
		return h, name + " is called elsewhere too (" + p.position(other.Node().Pos()) + "), where no loop keeps its MAC", true
	case decl.Type.TypeParams != nil || decl.Recv != nil && len(decl.Recv.List) == 1 && hasTypeParams(decl.Recv.List[0].Type):
		return h, name + " is generic", true
	case p.Fset.File(h.call.Node().Pos()) != p.Fset.File(decl.Pos()):
		// golangci-lint corrupts a fix whose edits span files.
		return h, name + " is declared in " + filepath.Base(p.Fset.File(decl.Pos()).Name()) +
			" and called in the loop in another file, and a fix keeps its edits in one file", true
	}
	if at := p.namedOutside(fn); at != "" {
		return h, name + " is called in " + at + " too, where no loop keeps its MAC", true
	}
	switch h.call.Parent().Node().(type) {
	case *ast.GoStmt, *ast.DeferStmt:
		return h, "the loop's call of " + name + " runs apart from the loop (go or defer)", true
	}
	return h, "", true
}

// hasTypeParams reports whether a receiver's type expression has type
// parameters (T[K]).
func hasTypeParams(recv ast.Expr) bool {
	if star, ok := recv.(*ast.StarExpr); ok {
		recv = star.X
	}
	switch recv.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// namedOutside returns where a file of the package's directory that the
// analysis does not look at (a test, a file for another platform) names the
// function fn, by syntax: a method by a selector of its name, a function by
// its name. "" when none does.
func (p *pass) namedOutside(fn *types.Func) string {
	analyzed := map[string]bool{}
	for f := range p.root.Children() {
		analyzed[p.Fset.File(f.Node().Pos()).Name()] = true
	}
	fset, files := p.dirFiles(func(path string) bool { return !analyzed[path] })
	for _, f := range files {
		if f.Name.Name != fn.Pkg().Name() {
			continue // an external test package, which cannot name fn
		}
		found := token.NoPos
		ast.Inspect(f, func(n ast.Node) bool {
			if found.IsValid() {
				return false
			}
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if fn.Signature().Recv() != nil && n.Sel.Name == fn.Name() {
					found = n.Sel.Pos()
				}
				ast.Inspect(n.X, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && fn.Signature().Recv() == nil && id.Name == fn.Name() && m != n.X {
						found = id.Pos()
					}
					return !found.IsValid()
				})
				return false // n.Sel names a field or a package's member
			case *ast.Ident:
				if fn.Signature().Recv() == nil && n.Name == fn.Name() {
					found = n.Pos()
				}
			}
			return true
		})
		if found.IsValid() {
			return testPos(fset, found)
		}
	}
	return ""
}

// helperShape checks that the helper's body only makes the MAC (def, its
// first statement), checks its error, writes it and returns its Sum:
//
//	mac, err := s.mac(key)               (or mac := hmac.New(sha256.New, key))
//	if err != nil { return nil, err }    (when an error is defined)
//	mac.Write(extra)                     (or if _, err := mac.Write(extra); err != nil { ... })
//	return mac.Sum(nil), nil             (or return mac.Sum(nil))
//
// It returns the error check and the error, if any.
func (p *pass) helperShape(h loopHelper, s *Site, def *ast.AssignStmt) (check ast.Stmt, errVar *types.Var, why string) {
	name := h.fn.Name()
	body := h.decl.Body.List
	if len(body) == 0 || body[0] != ast.Stmt(def) || def.Tok != token.DEFINE || len(def.Rhs) != 1 || len(def.Lhs) > 2 {
		return nil, nil, "the MAC is not defined alone by the first statement of " + name
	}
	mac, ok := p.TypesInfo.Defs[def.Lhs[0].(*ast.Ident)].(*types.Var)
	if !ok {
		return nil, nil, "the MAC is not defined alone by the first statement of " + name
	}
	switch mac.Type().Underlying().(type) {
	case *types.Interface, *types.Pointer:
	default:
		return nil, nil, "the MAC's type " + mac.Type().String() + " has no nil to tell the first call by"
	}
	rest := body[1:]
	if len(def.Lhs) == 2 {
		id, _ := def.Lhs[1].(*ast.Ident)
		if id == nil {
			return nil, nil, "the MAC is not defined alone by the first statement of " + name
		}
		if id.Name != "_" {
			errVar, ok = p.TypesInfo.Defs[id].(*types.Var)
			if !ok {
				return nil, nil, id.Name + " is declared before the MAC's definition"
			}
			if len(rest) == 0 || !p.errCheck(rest[0], errVar, mac) {
				return nil, nil, "the error of the MAC's constructor is not checked right after it by if " + id.Name + " != nil { return ... }"
			}
			check, rest = rest[0], rest[1:]
			if use, ok := p.vals.UsedOutside(p.root, errVar, check.Pos(), check.End()); ok {
				return nil, nil, id.Name + " is used after its check, at " + p.position(use.Node().Pos())
			}
		}
	}
	if len(rest) == 0 {
		return nil, nil, name + " does not return the MAC's Sum"
	}
	for _, stmt := range rest[:len(rest)-1] {
		if !p.writeStmt(stmt, mac) {
			return nil, nil, name + " does more than make the MAC, write it and return its Sum (the statement at " + p.position(stmt.Pos()) + ")"
		}
	}
	ret, ok := rest[len(rest)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 || p.macCall(ret.Results[0], mac, "Sum") == nil || slices.ContainsFunc(ret.Results[1:], func(e ast.Expr) bool { return values.Mentions(p.TypesInfo, e, mac) }) {
		return nil, nil, name + " does more than make the MAC, write it and return its Sum: its last statement does not return mac.Sum(...)"
	}
	return check, errVar, ""
}

// errCheck reports whether stmt is "if err != nil { ... }", without an
// init statement or an else, whose body ends in a return and does not
// mention the MAC.
func (p *pass) errCheck(stmt ast.Stmt, err, mac *types.Var) bool {
	ifs, ok := stmt.(*ast.IfStmt)
	if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) == 0 || !p.notNil(ifs.Cond, err) || values.Mentions(p.TypesInfo, ifs.Body, mac) {
		return false
	}
	_, ret := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt)
	return ret
}

// writeStmt reports whether stmt writes to the MAC and does nothing else with
// it: mac.Write(x), or if _, err := mac.Write(x); cond { ... } whose
// condition and body do not mention the MAC.
func (p *pass) writeStmt(stmt ast.Stmt, mac *types.Var) bool {
	switch stmt := stmt.(type) {
	case *ast.ExprStmt:
		return p.macCall(stmt.X, mac, "Write") != nil
	case *ast.IfStmt:
		init, ok := stmt.Init.(*ast.AssignStmt)
		return ok && stmt.Else == nil && len(init.Rhs) == 1 && p.macCall(init.Rhs[0], mac, "Write") != nil &&
			!slices.ContainsFunc(init.Lhs, func(e ast.Expr) bool { return values.Mentions(p.TypesInfo, e, mac) }) &&
			!values.Mentions(p.TypesInfo, stmt.Cond, mac) && !values.Mentions(p.TypesInfo, stmt.Body, mac)
	}
	return false
}

// macCall returns x of mac.name(x), with an x that does not mention the
// MAC, or nil.
func (p *pass) macCall(e ast.Expr, mac *types.Var, name string) ast.Expr {
	if x := p.methodArg(ast.Unparen(e), mac, name); x != nil && !values.Mentions(p.TypesInfo, x, mac) {
		return x
	}
	return nil
}

// macInputs returns the parameters of the helper that its MAC is made
// from, the key first, and whether its constructor, a wrapper that
// chooses, reads the helper's receiver to choose; or why the MAC made on
// one call is not the one the next call would make: the constructor is
// hmac.New of a package function and a parameter, or a wrapper of the
// package given parameters and constants only, whose choice reads nothing
// but its receiver and its parameters.
func (p *pass) macInputs(h loopHelper, s *Site) (keys []*types.Var, readsRecv bool, why string) {
	params := slices.Collect(h.fn.Signature().Params().Variables())
	param := func(e ast.Expr) *types.Var {
		if x, ok := values.ConversionOf(p.TypesInfo, e); ok {
			e = x // []byte(key) of a string key
		}
		v, ok := p.TypesInfo.Uses[values.IdentOf(e)].(*types.Var)
		if !ok || ast.Unparen(e) != values.IdentOf(e) || !slices.Contains(params, v) {
			return nil
		}
		return v
	}
	switch {
	case s.ctor.funcValue:
		return nil, false, "what " + types.ExprString(s.Call.Fun) + " calls is not known, and the MAC kept would skip its calls"
	case s.ctor.pointee:
		return nil, false, s.ctor.name + " reads the bytes its argument points to, which may change in the loop while the pointer does not"
	case s.ctor.wrapped == "":
		// hmac.New(sha256.New, key)
		if _, ok := p.funcValue(s.Call.Args[0]); !ok {
			return nil, false, "the MAC's hash " + types.ExprString(s.Call.Args[0]) + " is not a package function"
		}
		key := param(s.Call.Args[1])
		if key == nil {
			return nil, false, "the MAC's key " + types.ExprString(s.Call.Args[1]) + " is not a parameter of " + h.fn.Name()
		}
		return []*types.Var{key}, false, ""
	}
	for _, arg := range s.Call.Args {
		if p.TypesInfo.Types[arg].Value != nil {
			continue
		}
		v := param(arg)
		if v == nil {
			return nil, false, s.ctor.name + " is given " + shorten(types.ExprString(arg)) + ", which is neither a parameter of " + h.fn.Name() + " nor a constant"
		}
		keys = append(keys, v)
	}
	if len(keys) == 0 {
		return nil, false, s.ctor.name + " is given no parameter of " + h.fn.Name()
	}
	// The key first: the bytes or the string among them.
	if i := slices.IndexFunc(keys, func(v *types.Var) bool {
		return values.IsString(v.Type()) || types.Identical(v.Type().Underlying(), byteSlice)
	}); i > 0 {
		keys[0], keys[i] = keys[i], keys[0]
	}
	wrapper := typeutil.StaticCallee(p.TypesInfo, s.Call)
	if wrapper == nil {
		return nil, false, "the MAC's constructor is not a function of the package"
	}
	if sel, ok := ast.Unparen(s.Call.Fun).(*ast.SelectorExpr); ok && wrapper.Signature().Recv() != nil {
		if !p.isReceiver(s.cur, values.IdentOf(sel.X)) || ast.Unparen(sel.X) != values.IdentOf(sel.X) {
			return nil, false, s.ctor.name + " is called on " + types.ExprString(sel.X) + ", which is not " + h.fn.Name() + "'s receiver"
		}
	}
	if s.ctor.choice == "" {
		return keys, false, "" // its hmac.New takes constants and its parameters only
	}
	readsRecv, why = p.choiceInputs(wrapper, h)
	return keys, readsRecv, why
}

// choiceInputs checks that the wrapper that chooses its MAC reads, to
// choose, nothing but its parameters, constants and its receiver, a value
// made of values (so that the receiver the loop passes, unchanged, gives the
// same choice); a package variable may be given back as the error. It
// reports whether the wrapper reads its receiver.
func (p *pass) choiceInputs(wrapper *types.Func, h loopHelper) (readsRecv bool, why string) {
	cur, ok := p.decl(wrapper)
	if !ok {
		return false, "the body of " + wrapper.Name() + " is not in the package"
	}
	decl := cur.Node().(*ast.FuncDecl)
	var recv *types.Var
	if r := wrapper.Signature().Recv(); r != nil {
		recv = r
	}
	errResult := map[ast.Node]bool{}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if ret, ok := n.(*ast.ReturnStmt); ok {
			for _, e := range ret.Results[min(1, len(ret.Results)):] {
				errResult[e] = true
			}
		}
		return true
	})
	name := wrapper.Name()
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if why != "" || errResult[n] {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			why = name + " declares a function literal"
		case *ast.CallExpr:
			if tv := p.TypesInfo.Types[n.Fun]; tv.IsType() {
				return true
			}
			if callee := typeutil.StaticCallee(p.TypesInfo, n); callee == nil || callee.FullName() != "crypto/hmac.New" {
				why = name + " calls " + shorten(types.ExprString(n.Fun)) + " besides hmac.New, and the MAC kept would skip that call"
			}
		case *ast.Ident:
			v, ok := p.TypesInfo.Uses[n].(*types.Var)
			switch {
			case !ok || v.IsField():
			case v == recv:
				readsRecv = true
			case v.Pkg() != nil && v.Parent() == v.Pkg().Scope():
				why = name + " reads " + v.Name() + ", which may change from one iteration to the next"
			}
		}
		return why == ""
	})
	if why != "" || !readsRecv {
		return readsRecv, why
	}
	if _, ptr := recv.Type().(*types.Pointer); ptr || !values.PointerFree(recv.Type()) {
		return readsRecv, name + " chooses by its receiver, which points to what may change from one iteration to the next"
	}
	if r := h.fn.Signature().Recv(); r == nil || !types.Identical(r.Type(), recv.Type()) {
		return readsRecv, name + " chooses by a receiver that " + h.fn.Name() + " does not take by value"
	}
	return readsRecv, ""
}

// receiverInvariant says why the receiver of the helper's call in the loop
// may change from one iteration to the next, or "": it is a variable of the
// loop's function, declared outside the loop, that neither the loop nor a
// function literal writes, takes the address of or calls a pointer method
// on.
func (p *pass) receiverInvariant(h loopHelper) string {
	call := h.call.Node().(*ast.CallExpr)
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "the loop's call of " + h.fn.Name() + " has no receiver"
	}
	x := ast.Unparen(sel.X)
	v, ok := p.TypesInfo.Uses[values.IdentOf(x)].(*types.Var)
	if !ok || x != values.IdentOf(x) || v.Parent() == v.Pkg().Scope() {
		return "the receiver " + shorten(types.ExprString(sel.X)) + " is not a variable of the loop's function"
	}
	if _, ptr := v.Type().Underlying().(*types.Pointer); ptr {
		return "the receiver " + v.Name() + " is a pointer, whose value may change from one iteration to the next"
	}
	l := h.loop.Node()
	if l.Pos() <= v.Pos() && v.Pos() < l.End() {
		return "the receiver " + v.Name() + " is declared in the loop"
	}
	fn, ok := values.EnclosingFunc(h.loop)
	if !ok {
		return "the loop is outside a function"
	}
	for use := range p.vals.Uses(fn, v) {
		if !values.IsWritten(use) && !p.vals.PointerMethodCall(use) {
			continue
		}
		if h.loop.Contains(use) || insideFuncLit(use, fn) {
			return "the loop may change the receiver " + v.Name() + " (at " + p.position(use.Node().Pos()) + ")"
		}
	}
	return ""
}

// multilineLiteral reports whether a literal of several lines (a raw
// string) lies under one of nodes: the fix indents their lines, which would
// change it.
func multilineLiteral(nodes ...ast.Node) bool {
	found := false
	for _, n := range nodes {
		if n == nil {
			continue // no error check
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && strings.Contains(lit.Value, "\n") {
				found = true
			}
			return !found
		})
	}
	return found
}

// freeIn returns want, or want followed by a number, choosing a name that
// no identifier of decl spells: a parameter of that name shadows nothing the
// function refers to.
func freeIn(decl *ast.FuncDecl, want string) string {
	used := map[string]bool{}
	ast.Inspect(decl, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	name := want
	for i := 2; used[name]; i++ {
		name = want + strconv.Itoa(i)
	}
	return name
}
