package frequency

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// rareBranch returns the condition that guards cur, between it and top (a
// loop body or a function), when that condition is rarely what lets control
// reach cur, or "". The heuristics, after Ball and Larus (pointer, error and
// loop heuristics), narrowed to what a branch does, so that a leaf test of a
// tree walk (if n.left == nil) is not taken for a rare path:
//
//   - a nil test whose branch sets what it tested (if c.h == nil { c.h =
//     ... }): an initialization or a refresh, once per value;
//   - a test of an unset flag of a value that the branch sets (if !k.done
//     && ... { ...; k.done = true }, itself or through a method of k): a
//     change of the value's state, once per value;
//   - an error test (err != nil): the error path;
//   - a test on the clock (time.Now, time.Since, time.Until, a time.Time's
//     Before, After or Sub, a method named for an expiry, a local variable
//     defined by one of these, now := time.Now().Unix()): a refresh when a
//     credential or a cache entry expires;
//   - a cache miss (v, ok := m[k]; if !ok { ... m[k] = v }, or code after
//     if v, ok := m[k]; ok { return v } in a block that sets m[k], or
//     after if v := c.Load(); v != nil { return v } in a block that calls
//     c.Store): once per key;
//   - an early return for an empty input (if len(x) == 0 { return ... }):
//     the edge case, which a recursion that splits what it is given never
//     makes (Ball and Larus's opcode heuristic, for this test only);
//   - the function of sync.Once's Do: once;
//   - the end of a stream (err == io.EOF): once per stream;
//   - a state machine's step, taken at most once per run (see takenOnce).
func (m *Model) rareBranch(cur, top inspector.Cursor) string {
	if x, ok := m.boolReceiver(cur); ok && m.processWide(x) {
		return "only when " + types.ExprString(x) + " holds (a method of a boolean value does its work under it: a switch of the whole process, such as a log level)"
	}
	for c := cur; c.Valid() && c != top && c.Parent().Valid(); c = c.Parent() {
		if _, ok := c.Node().(*ast.FuncDecl); ok {
			break
		}
		why := ""
		switch c.ParentEdgeKind() {
		case edge.IfStmt_Body:
			why = m.rareThen(c.Parent())
		case edge.CaseClause_Body:
			why = m.takenOnce(c.Parent().Parent().Parent(), top, c)
		case edge.IfStmt_Else:
			// if err == nil { ... } else { ... }: the error path.
			if bin, ok := ast.Unparen(c.Parent().Node().(*ast.IfStmt).Cond).(*ast.BinaryExpr); ok && bin.Op == token.EQL {
				if x, isNil := operandBeside(bin, m.isNil); isNil && values.IsError(m.cfg.Info.TypeOf(x)) {
					why = "only when " + types.ExprString(x) + " != nil (an error path)"
				}
			}
		case edge.CallExpr_Args:
			// The function that a sync.Once's Do runs.
			fn, _ := typeutil.Callee(m.cfg.Info, c.Parent().Node().(*ast.CallExpr)).(*types.Func)
			if _, ok := c.Node().(*ast.FuncLit); ok && fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync" && fn.Name() == "Do" && strings.Contains(fn.FullName(), "Once") {
				why = "only once, in the function that sync.Once's Do runs"
			}
		case edge.BlockStmt_List:
			why = m.afterHit(c)
		}
		if why != "" {
			return why
		}
	}
	return ""
}

// boolReceiver returns x when cur is a call of a method of x whose type is
// a boolean (a verbosity level's logger, V(2).Infof(...)): such a method
// can only test x, so its work is guarded by it.
func (m *Model) boolReceiver(cur inspector.Cursor) (ast.Expr, bool) {
	call, ok := cur.Node().(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	s, ok := m.cfg.Info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return nil, false
	}
	b, ok := s.Recv().Underlying().(*types.Basic)
	return sel.X, ok && b.Info()&types.IsBoolean != 0
}

// processWide reports whether cond reads nothing but process-wide state:
// package-level variables and constants, and calls of package-level
// functions and of methods on such values, with such arguments (klog's
// V(5).Enabled(), a logger's level test). A program sets that state once, so a
// branch on it, without an else, runs for every repetition or for none;
// it guards logging and tracing, which are off in the steady state (Ball
// and Larus's call heuristic, for these branches only). A condition that
// reads a local variable, a parameter or a receiver is the repetition's
// own.
func (m *Model) processWide(cond ast.Expr) bool {
	info := m.cfg.Info
	calls, ok := 0, true
	ast.Inspect(cond, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			calls++
		case *ast.Ident:
			switch obj := info.Uses[n].(type) {
			case *types.Var:
				if obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
					ok = obj.IsField() // a field of a package-level value, read through it
				}
			case *types.Const, *types.Func, *types.PkgName, *types.TypeName, *types.Builtin, nil:
			default:
				ok = false
			}
		case *ast.FuncLit:
			ok = false
		}
		return ok
	})
	return ok && calls > 0
}

// rareThen says why the then branch of the if statement at ifCur rarely
// runs, or "", and keeps the answer: rareBranch asks it of each if
// statement once per call in its body.
func (m *Model) rareThen(ifCur inspector.Cursor) (why string) {
	ifs := ifCur.Node().(*ast.IfStmt)
	if why, ok := m.rareThens[ifs]; ok {
		return why
	}
	defer func() { m.rareThens[ifs] = why }()
	cond := ast.Unparen(ifs.Cond)
	if m.readsClock(cond, true) {
		return "only when " + types.ExprString(cond) + " (a test on the clock: an expiry or a refresh)"
	}
	if ifs.Else == nil && m.processWide(cond) {
		return "only when " + types.ExprString(cond) + " (a switch of the whole process, such as a log level)"
	}
	// if !k.sealed && ... { ...; k.seal() }: a change of the value's state.
	for c := cond; c != nil; {
		flag, rest := c, ast.Expr(nil)
		if and, ok := c.(*ast.BinaryExpr); ok && and.Op == token.LAND {
			flag, rest = ast.Unparen(and.X), ast.Unparen(and.Y)
		}
		if not, ok := flag.(*ast.UnaryExpr); ok && not.Op == token.NOT && isBasic(m.cfg.Info.TypeOf(not.X), types.IsBoolean) && m.setsIn(ifs.Body, not.X, true) {
			return "only when " + types.ExprString(cond) + " (it sets " + types.ExprString(not.X) + ": a change of the value's state, once per value)"
		}
		c = rest
	}
	bin, ok := cond.(*ast.BinaryExpr)
	if ok && (bin.Op == token.EQL || bin.Op == token.NEQ) {
		if x, isNil := operandBeside(bin, m.isNil); isNil {
			if bin.Op == token.NEQ && values.IsError(m.cfg.Info.TypeOf(x)) {
				return "only when " + types.ExprString(cond) + " (an error path)"
			}
			if bin.Op == token.EQL && m.setsIn(ifs.Body, x, false) {
				return "only when " + types.ExprString(cond) + " (it sets " + types.ExprString(x) + ": an initialization or a refresh)"
			}
		}
		// if key == "" { ...; key = fetched }: a default filled in when
		// the caller gives none.
		if x, zero := operandBeside(bin, m.isZeroConst); zero && bin.Op == token.EQL && m.setsIn(ifs.Body, x, false) {
			return "only when " + types.ExprString(cond) + " (it sets " + types.ExprString(x) + ": a default filled in when none is given)"
		}
	}
	if call := lastCall(ifs.Body); call != nil {
		if what := m.noReturn(call, typeutil.StaticCallee(m.cfg.Info, call), 1); what != "" {
			return "only when " + types.ExprString(cond) + " (a failure path: it ends in " + what + ")"
		}
	}
	if ok && bin.Op == token.EQL && ifs.Else == nil && leaves(ifs.Body) && m.emptyTest(bin) {
		return "only when " + types.ExprString(cond) + " (an empty input, the edge case it returns early for)"
	}
	// v, ok := m[k]; if !ok { ... m[k] = v }: a cache miss.
	if un, ok := cond.(*ast.UnaryExpr); ok && un.Op == token.NOT {
		if id, ok := ast.Unparen(un.X).(*ast.Ident); ok {
			if idx := m.lookupOf(ifCur, id); idx != nil && m.setsIn(ifs.Body, idx, false) {
				return "only when " + types.ExprString(cond) + " (a cache miss: once per key)"
			}
		}
	}
	if slices.ContainsFunc(conjuncts(cond), m.endOfStream) {
		return "only when " + types.ExprString(cond) + " (the end of the stream: once per stream)"
	}
	return ""
}

// noReturn names what the call ends in when it never returns: a panic, the
// process's exit (os.Exit, a log's Fatal), a log's Panic, runtime.Goexit, a
// test's FailNow or Fatal, or a function of the package whose body ends in
// one of those whatever it does before (an assertion's failure); "" for
// any other call. Ball and Larus's return heuristic: a branch
// that ends the program is the one not taken. depth is how many calls deep
// it looks into the package's functions; fn is the call's static callee
// (typeutil.StaticCallee), nil for none.
func (m *Model) noReturn(call *ast.CallExpr, fn *types.Func, depth int) string {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && fn == nil {
		if b, ok := m.cfg.Info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
			return "a panic"
		}
	}
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	switch path, name := fn.Pkg().Path(), fn.Name(); {
	case path == "os" && name == "Exit", path == "runtime" && name == "Goexit":
		return path + "." + name
	case path == "log" && (strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic")):
		return "log." + name
	case path == "testing" && (name == "FailNow" || name == "Fatal" || name == "Fatalf" || name == "SkipNow" || name == "Skip" || name == "Skipf"):
		return "the test's " + name
	}
	if f := m.funcs[fn]; depth > 0 && f != nil {
		if inner := lastCall(f.cur.Node().(*ast.FuncDecl).Body); inner != nil {
			if what := m.noReturn(inner, typeutil.StaticCallee(m.cfg.Info, inner), depth-1); what != "" {
				return fn.Name() + " (" + what + ")"
			}
		}
	}
	return ""
}

// lastCall returns the call that the last statement of block is, or nil.
func lastCall(block *ast.BlockStmt) *ast.CallExpr {
	if len(block.List) == 0 {
		return nil
	}
	last, _ := block.List[len(block.List)-1].(*ast.ExprStmt)
	if last == nil {
		return nil
	}
	call, _ := ast.Unparen(last.X).(*ast.CallExpr)
	return call
}

// emptyTest reports whether bin is len(x) == 0 (or 0 == len(x)).
func (m *Model) emptyTest(bin *ast.BinaryExpr) bool {
	for _, sides := range [][2]ast.Expr{{bin.X, bin.Y}, {bin.Y, bin.X}} {
		call, ok := ast.Unparen(sides[0]).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			continue
		}
		if b, ok := m.cfg.Info.Uses[plainIdent(call.Fun)].(*types.Builtin); !ok || b.Name() != "len" {
			continue
		}
		if n, ok := m.intValue(sides[1]); ok && n == 0 {
			return true
		}
	}
	return false
}

// afterHit says why the statement at stmt, in a block, runs only on a cache
// miss: an earlier statement of the block returns on a hit (if v, ok :=
// m[k]; ok { return v }, or if v := c.Load(); v != nil { return v }) and
// the block fills what it looked up (m[k] = v, c.Store(v)). It returns ""
// otherwise.
func (m *Model) afterHit(stmt inspector.Cursor) string {
	block := stmt.Parent().Node().(*ast.BlockStmt)
	for prev, ok := stmt.PrevSibling(); ok; prev, ok = prev.PrevSibling() {
		ifs, isIf := prev.Node().(*ast.IfStmt)
		if !isIf || ifs.Else != nil || len(ifs.Body.List) == 0 {
			continue
		}
		if _, ret := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ret {
			continue
		}
		cond := ast.Unparen(ifs.Cond)
		if bin, isBin := cond.(*ast.BinaryExpr); isBin && bin.Op == token.NEQ {
			cond, _ = operandBeside(bin, m.isNil) // v of v != nil
		}
		if id, isID := ast.Unparen(cond).(*ast.Ident); isID {
			if cache := m.lookupOf(prev, id); cache != nil && m.setsIn(block, cache, false) {
				return "only after " + types.ExprString(cache) + " misses (a cache miss: once per key)"
			}
		}
	}
	return ""
}

// operandBeside returns the operand of the comparison bin that is compared
// with one that is (nil, a zero constant): x of x == nil or of nil == x;
// false when neither operand is.
func operandBeside(bin *ast.BinaryExpr, is func(ast.Expr) bool) (ast.Expr, bool) {
	if is(bin.X) {
		return bin.Y, true
	}
	return bin.X, is(bin.Y)
}

// isZeroConst reports whether e is a constant of its type's zero value: "",
// 0, false.
func (m *Model) isZeroConst(e ast.Expr) bool {
	tv := m.cfg.Info.Types[e]
	if tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.String:
		return constant.StringVal(tv.Value) == ""
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	case constant.Bool:
		return !constant.BoolVal(tv.Value)
	}
	return false
}

func (m *Model) isNil(e ast.Expr) bool {
	return m.cfg.Info.Types[e].IsNil()
}

// isBasic reports whether t is a basic type of the kind info says: a
// boolean, a number, an integer, a string.
func isBasic(t types.Type, info types.BasicInfo) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&info != 0
}

// readsClock reports whether cond reads the clock: it calls time.Now,
// time.Since or time.Until, a method of time.Time that compares instants, or
// a method named for an expiry (Expired, IsExpired, NeedsRefresh, ...); with
// locals, a local variable defined from a read of the clock (now :=
// time.Now().Unix()) counts as one.
func (m *Model) readsClock(cond ast.Expr, locals bool) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && locals && !found {
			e, ok := m.localValue(id, false)
			found = ok && m.readsClock(e, false)
			return !found
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if obj, ok := m.cfg.Info.Uses[sel.Sel].(*types.Func); ok && obj.Pkg() != nil && obj.Pkg().Path() == "time" {
			switch obj.Name() {
			case "Now", "Since", "Until", "Before", "After", "Sub", "IsZero", "Compare":
				found = true
			}
		}
		name := strings.ToLower(sel.Sel.Name)
		if strings.Contains(name, "expire") || strings.Contains(name, "refresh") || strings.Contains(name, "stale") {
			found = true
		}
		return !found
	})
	return found
}

// setsIn reports whether block assigns to x (the same expression, as
// text), stores into it (x.Store(...): a sync.Map, an atomic value), or,
// with methods, calls a method of the package on what x is a field of that
// assigns that field of its receiver (k.seal(), which sets k.sealed).
func (m *Model) setsIn(block *ast.BlockStmt, x ast.Expr, methods bool) bool {
	want := types.ExprString(ast.Unparen(x))
	field, _ := ast.Unparen(x).(*ast.SelectorExpr)
	found := false
	ast.Inspect(block, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			found = found || slices.ContainsFunc(n.Lhs, func(lhs ast.Expr) bool { return types.ExprString(ast.Unparen(lhs)) == want })
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok {
				break
			}
			recv := types.ExprString(ast.Unparen(sel.X))
			found = found || sel.Sel.Name == "Store" && recv == want
			if g := m.funcs[typeutil.StaticCallee(m.cfg.Info, n)]; methods && g != nil && field != nil && recv == types.ExprString(ast.Unparen(field.X)) {
				decl := g.cur.Node().(*ast.FuncDecl)
				found = found || decl.Recv != nil && len(decl.Recv.List[0].Names) == 1 && m.setsIn(decl.Body, &ast.SelectorExpr{X: decl.Recv.List[0].Names[0], Sel: field.Sel}, false)
			}
		}
		return !found
	})
	return found
}

// lookupOf returns what the statement before the if statement at ifCur, or
// its init, looks up to define id, which the if statement tests for a hit:
// the map index m[k] of v, ok := m[k] (id is ok), or the holder c of v :=
// c.Load() or v, ok := c.Load(k) (an atomic value, a sync.Map). It returns
// nil otherwise.
func (m *Model) lookupOf(ifCur inspector.Cursor, id *ast.Ident) ast.Expr {
	ifs := ifCur.Node().(*ast.IfStmt)
	obj := m.cfg.Info.Uses[id]
	if obj == nil {
		return nil
	}
	stmts := []ast.Stmt{ifs.Init}
	if prev, ok := ifCur.PrevSibling(); ok {
		s, _ := prev.Node().(ast.Stmt)
		stmts = append(stmts, s)
	}
	for _, s := range stmts {
		as, isAssign := s.(*ast.AssignStmt)
		if !isAssign || len(as.Rhs) != 1 {
			continue
		}
		last, isID := as.Lhs[len(as.Lhs)-1].(*ast.Ident)
		if !isID || m.cfg.Info.ObjectOf(last) != obj {
			continue
		}
		switch rhs := ast.Unparen(as.Rhs[0]).(type) {
		case *ast.IndexExpr:
			if _, isMap := m.cfg.Info.TypeOf(rhs.X).Underlying().(*types.Map); isMap && len(as.Lhs) == 2 {
				return rhs
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(rhs.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Load" {
				return sel.X // filled by its Store, which setsIn looks for
			}
		}
	}
	return nil
}

// takenOnce says why the case of the switch at guard that holds stmt is
// taken at most once per run of what repeats it, or "": the switch is on a
// variable (switch h.state) that the case sets, in a statement of its own,
// to a constant of none of its values, and every write of that variable in
// the run moves it on, never back: a case of the switch sets it to a
// constant past each of the case's values (an order that only grows has no
// cycle: each case of a handshake's state machine is taken once). The run
// is the loop around guard, which must hold top, with the functions it
// calls; or, for a field or a package variable with no loop around guard,
// the package. stmt must come after the case's last return, jump or panic
// before that statement, which would take the case again.
func (m *Model) takenOnce(guard, top, stmt inspector.Cursor) string {
	info := m.cfg.Info
	sw, ok := guard.Node().(*ast.SwitchStmt)
	clause := stmt.Parent().Node().(*ast.CaseClause)
	if !ok || sw.Tag == nil || clause.List == nil {
		return ""
	}
	v := collectionVar(info, sw.Tag)
	loop, inLoop := EnclosingLoop(guard, false)
	if v == nil || inLoop && (!encloses(loop, top) || !m.sameEach(loop, sw.Tag)) || !inLoop && !v.IsField() && v.Parent() != v.Pkg().Scope() {
		return ""
	}
	// onward reports whether the write at u sets v to c in a case of the
	// switch, past each of its values.
	onward := func(u inspector.Cursor, c constant.Value) bool {
		return c != nil && slices.ContainsFunc(sw.Body.List, func(s ast.Stmt) bool {
			cc := s.(*ast.CaseClause)
			return cc.List != nil && cc.Pos() <= u.Node().Pos() && u.Node().End() <= cc.End() && !slices.ContainsFunc(cc.List, func(e ast.Expr) bool {
				k := info.Types[e].Value
				return k == nil || k.Kind() != c.Kind() || c.Kind() != constant.Int && c.Kind() != constant.String || !constant.Compare(k, token.LSS, c)
			})
		})
	}
	var set ast.Expr
	for i, s := range clause.Body {
		if as, ok := s.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && collectionVar(info, as.Lhs[0]) == v {
			set = as.Rhs[0]
			break
		}
		if exits(s) && i >= stmt.ParentEdgeIndex() {
			return ""
		}
	}
	regions := []inspector.Cursor{m.cfg.Root}
	if inLoop {
		regions[0] = loop
		for c := range m.cfg.Calls.Within(loop) {
			if g := m.funcs[c.Callee]; g != nil {
				regions = append(regions, g.cur)
			}
		}
	}
	for _, r := range regions {
		for u := range m.cfg.Vals.Uses(r, v) {
			if u.ParentEdgeKind() == edge.SelectorExpr_Sel {
				u = u.Parent()
			}
			as, ok := u.Parent().Node().(*ast.AssignStmt)
			if values.IsWritten(u) && (!ok || u.ParentEdgeKind() != edge.AssignStmt_Lhs || len(as.Lhs) != len(as.Rhs) || !onward(u, info.Types[as.Rhs[u.ParentEdgeIndex()]].Value)) {
				return ""
			}
		}
	}
	if set == nil {
		return ""
	}
	per := "value that holds " + types.ExprString(sw.Tag)
	if inLoop {
		per = "run of the loop at " + m.position(loop.Node().Pos())
	} else if !v.IsField() {
		per = "process"
	}
	return "at most once per " + per + " (a state machine's step: it moves " + types.ExprString(sw.Tag) + " on to " + types.ExprString(set) + ", and nothing moves it back)"
}

// sameEach reports whether x, a variable or a field selected through
// variables (h.state), is the same variable in each iteration of loop:
// each variable it reads is declared outside loop, and loop assigns none
// of those it selects a field of (not n.state of each node n of a range).
func (m *Model) sameEach(loop inspector.Cursor, x ast.Expr) bool {
	for whole := true; ; whole = false {
		switch e := ast.Unparen(x).(type) {
		case *ast.SelectorExpr:
			x = e.X
			continue
		case *ast.Ident:
			v, ok := m.cfg.Info.Uses[e].(*types.Var)
			return ok && !(loop.Node().Pos() <= v.Pos() && v.Pos() < loop.Node().End()) && (whole || !slices.ContainsFunc(slices.Collect(m.cfg.Vals.Uses(loop, v)),
				func(u inspector.Cursor) bool { return u.ParentEdgeKind() != edge.SelectorExpr_X && values.IsWritten(u) }))
		}
		return false
	}
}

// endOfStream reports whether cond tests that an error is io.EOF: x ==
// io.EOF, or errors.Is(x, io.EOF).
func (m *Model) endOfStream(cond ast.Expr) bool {
	var xs []ast.Expr
	if bin, ok := ast.Unparen(cond).(*ast.BinaryExpr); ok && bin.Op == token.EQL {
		xs = []ast.Expr{bin.X, bin.Y}
	} else if call, ok := ast.Unparen(cond).(*ast.CallExpr); ok {
		if fn := typeutil.StaticCallee(m.cfg.Info, call); fn != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" {
			xs = call.Args
		}
	}
	return slices.ContainsFunc(xs, func(x ast.Expr) bool {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		return ok && types.ExprString(sel) == "io.EOF" && m.cfg.Info.Uses[sel.Sel] != nil && m.cfg.Info.Uses[sel.Sel].Pkg().Path() == "io"
	})
}

// conjuncts returns the operands of the && chain cond, or cond.
func conjuncts(cond ast.Expr) []ast.Expr {
	if bin, ok := ast.Unparen(cond).(*ast.BinaryExpr); ok && bin.Op == token.LAND {
		return append(conjuncts(bin.X), conjuncts(bin.Y)...)
	}
	return []ast.Expr{cond}
}

// exits reports whether stmt may leave the block it is in before the
// statements that follow it: a return, a jump or a panic, outside function
// literals.
func exits(stmt ast.Stmt) bool {
	found := false
	ast.Inspect(stmt, func(n ast.Node) bool {
		_, lit := n.(*ast.FuncLit)
		_, jump := n.(*ast.BranchStmt)
		_, ret := n.(*ast.ReturnStmt)
		e, isExpr := n.(ast.Expr)
		found = found || jump || ret || isExpr && IsPanic(e)
		return !found && !lit
	})
	return found
}
