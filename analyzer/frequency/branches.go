package frequency

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

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
//   - an error test (err != nil): the error path;
//   - a test on the clock (time.Now, time.Since, time.Until, a time.Time's
//     Before, After or Sub, a method named for an expiry, a local variable
//     defined by one of these, now := time.Now().Unix()): a refresh when a
//     credential or a cache entry expires;
//   - a cache miss (v, ok := m[k]; if !ok { ... m[k] = v }, or code after
//     if v, ok := m[k]; ok { return v } in a block that sets m[k]): once
//     per key;
//   - an early return for an empty input (if len(x) == 0 { return ... }):
//     the edge case, which a recursion that splits what it is given never
//     makes (Ball and Larus's opcode heuristic, for this test only);
//   - the function of sync.Once's Do: once.
func (m *Model) rareBranch(cur, top inspector.Cursor) string {
	for c := cur; c.Valid() && c != top && c.Parent().Valid(); c = c.Parent() {
		if _, ok := c.Node().(*ast.FuncDecl); ok {
			break
		}
		why := ""
		switch c.ParentEdgeKind() {
		case edge.IfStmt_Body:
			why = m.rareThen(c.Parent())
		case edge.IfStmt_Else:
			why = m.rareElse(c.Parent().Node().(*ast.IfStmt))
		case edge.CallExpr_Args:
			if _, ok := c.Node().(*ast.FuncLit); ok && m.isOnceDo(c.Parent().Node().(*ast.CallExpr)) {
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
	bin, ok := cond.(*ast.BinaryExpr)
	if ok && (bin.Op == token.EQL || bin.Op == token.NEQ) {
		if x, isNil := operandBeside(bin, m.isNil); isNil {
			if bin.Op == token.NEQ && isError(m.cfg.Info.TypeOf(x)) {
				return "only when " + types.ExprString(cond) + " (an error path)"
			}
			if bin.Op == token.EQL && setsIn(ifs.Body, x) {
				return "only when " + types.ExprString(cond) + " (it sets " + types.ExprString(x) + ": an initialization or a refresh)"
			}
		}
		// if key == "" { ...; key = fetched }: a default filled in when
		// the caller gives none.
		if x, zero := operandBeside(bin, m.isZeroConst); zero && bin.Op == token.EQL && setsIn(ifs.Body, x) {
			return "only when " + types.ExprString(cond) + " (it sets " + types.ExprString(x) + ": a default filled in when none is given)"
		}
	}
	if n := len(ifs.Body.List); n > 0 {
		if last, ok := ifs.Body.List[n-1].(*ast.ExprStmt); ok {
			if call, ok := ast.Unparen(last.X).(*ast.CallExpr); ok {
				if what := m.noReturn(call, typeutil.StaticCallee(m.cfg.Info, call), 1); what != "" {
					return "only when " + types.ExprString(cond) + " (a failure path: it ends in " + what + ")"
				}
			}
		}
	}
	if ok && bin.Op == token.EQL && ifs.Else == nil && leaves(ifs.Body) && m.emptyTest(bin) {
		return "only when " + types.ExprString(cond) + " (an empty input, the edge case it returns early for)"
	}
	// v, ok := m[k]; if !ok { ... m[k] = v }: a cache miss.
	if un, ok := cond.(*ast.UnaryExpr); ok && un.Op == token.NOT {
		if id, ok := ast.Unparen(un.X).(*ast.Ident); ok {
			if idx := m.lookupOf(ifCur, id); idx != nil && setsIn(ifs.Body, idx) {
				return "only when " + types.ExprString(cond) + " (a cache miss: once per key)"
			}
		}
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
	if depth == 0 || fn.Pkg() != m.cfg.Pkg || m.funcs[fn] == nil {
		return ""
	}
	decl, ok := m.funcs[fn].cur.Node().(*ast.FuncDecl)
	if !ok || decl.Body == nil || len(decl.Body.List) == 0 {
		return ""
	}
	if last, ok := decl.Body.List[len(decl.Body.List)-1].(*ast.ExprStmt); ok {
		if inner, ok := ast.Unparen(last.X).(*ast.CallExpr); ok {
			if what := m.noReturn(inner, typeutil.StaticCallee(m.cfg.Info, inner), depth-1); what != "" {
				return fn.Name() + " (" + what + ")"
			}
		}
	}
	return ""
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
// m[k]; ok { return v }) and the block sets m[k]. It returns "" otherwise.
func (m *Model) afterHit(stmt inspector.Cursor) string {
	block := stmt.Parent().Node().(*ast.BlockStmt)
	for prev, ok := stmt.PrevSibling(); ok; prev, ok = prev.PrevSibling() {
		ifs, isIf := prev.Node().(*ast.IfStmt)
		if !isIf || ifs.Else != nil || len(ifs.Body.List) == 0 {
			continue
		}
		id, isID := ast.Unparen(ifs.Cond).(*ast.Ident)
		if _, ret := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ret || !isID {
			continue
		}
		if idx := m.lookupOf(prev, id); idx != nil && setsIn(block, idx) {
			return "only after " + types.ExprString(idx) + " misses (a cache miss: once per key)"
		}
	}
	return ""
}

// rareElse says why the else branch of ifs rarely runs, or "".
func (m *Model) rareElse(ifs *ast.IfStmt) string {
	bin, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || bin.Op != token.EQL {
		return ""
	}
	if x, isNil := operandBeside(bin, m.isNil); isNil && isError(m.cfg.Info.TypeOf(x)) {
		return "only when " + types.ExprString(x) + " != nil (an error path)"
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

func isError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
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

// setsIn reports whether block assigns to x (the same expression, as text).
func setsIn(block *ast.BlockStmt, x ast.Expr) bool {
	want := types.ExprString(ast.Unparen(x))
	found := false
	ast.Inspect(block, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, lhs := range as.Lhs {
				if types.ExprString(ast.Unparen(lhs)) == want {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// lookupOf returns the map index m[k] whose comma-ok result ok is, in the
// statement before the if statement at ifCur or in its init: v, ok := m[k].
func (m *Model) lookupOf(ifCur inspector.Cursor, ok *ast.Ident) ast.Expr {
	ifs := ifCur.Node().(*ast.IfStmt)
	obj := m.cfg.Info.Uses[ok]
	if obj == nil {
		return nil
	}
	var stmts []ast.Stmt
	if ifs.Init != nil {
		stmts = append(stmts, ifs.Init)
	}
	if prev, ok := ifCur.PrevSibling(); ok {
		if s, ok := prev.Node().(ast.Stmt); ok {
			stmts = append(stmts, s)
		}
	}
	for _, s := range stmts {
		as, isAssign := s.(*ast.AssignStmt)
		if !isAssign || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			continue
		}
		if id, isID := as.Lhs[1].(*ast.Ident); !isID || m.cfg.Info.ObjectOf(id) != obj {
			continue
		}
		if idx, isIdx := ast.Unparen(as.Rhs[0]).(*ast.IndexExpr); isIdx {
			if _, isMap := m.cfg.Info.TypeOf(idx.X).Underlying().(*types.Map); isMap {
				return idx
			}
		}
	}
	return nil
}

// isOnceDo reports whether call is the Do method of a sync.Once.
func (m *Model) isOnceDo(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Do" {
		return false
	}
	fn, ok := m.cfg.Info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "sync" && strings.Contains(fn.FullName(), "Once")
}
