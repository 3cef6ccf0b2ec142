package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// hotness knows which functions of the package run often enough for a
// per-call allocation to matter, and why:
//  1. they are in a static call cycle (recursion, direct or mutual);
//  2. they are called from a loop body, or from a hot function, transitively;
//  3. their doc comment carries //hashalloc:hot;
//  4. their role: the standard library calls them in a loop (Read and Write
//     of readers and writers, ServeHTTP and handler functions, RoundTrip,
//     Less and Swap of a sort.Interface; see roleOf);
//  5. a profile (-profile) measures at least the threshold of its samples in
//     them; in a package the profile covers, the profile alone decides (a
//     function below the threshold is cold whatever its callers), except
//     against a //hashalloc:hot directive (see profile).
//
// Recursion, the directive, a role and a measured share are strong evidence
// (proven); being called in a loop of the package, alone, is weak.
//
// What is not evidence of hotness:
//   - test code: a function that takes a *testing.T, *testing.B, *testing.F
//     or testing.TB, or a method of a struct that holds one, wherever it is
//     declared, is left out of the call graph (and not analyzed, see
//     suppressor.analyzed) unless -tests is set;
//   - anything in a _test.go file, even under -tests, even a benchmark's loop:
//     only production code is evidence, so that a package and its test
//     variant (which alone sees the test files) give one verdict at every
//     position;
//   - a call in a loop that the loop leaves right after (the call is in a
//     return statement, or its statement is followed unconditionally by a
//     return, a break out of the loop or a panic): it runs at most once per
//     execution of the loop.
type hotness struct {
	p        *pass
	why      map[*types.Func]*hotReason
	calls    map[*types.Func][]call
	signing  map[ast.Node]bool   // loops that sign or verify per iteration (see signsPerIteration)
	comp     map[*types.Func]int // the strongly connected component of each function
	compSize map[int]int         // the functions in each component
	// measured is set when a profile covers the package: then shares holds
	// the share of the profile's samples in each function of the package,
	// and cold the functions below the threshold.
	measured bool
	shares   map[*types.Func]float64
	cold     map[*types.Func]bool
	marked   map[*types.Func]bool   // the functions marked //hashalloc:hot
	cycles   map[*types.Func]string // see cycle
}

// call is one static call between two functions of the package.
type call struct {
	caller, callee *types.Func
	pos            token.Pos
	inLoop         token.Pos // the loop that repeats the call, or NoPos
	tail           bool      // the call is what a return statement returns: nothing of the caller runs after it
}

type hotKind int

const (
	recursive hotKind = iota
	annotated
	calledInLoop
	calledByHot
	byRole   // the standard library calls it in a loop
	profiled // a profile measures it above the threshold
)

// hotReason is why one function is hot.
type hotReason struct {
	kind hotKind
	via  call   // the call that made it hot (calledInLoop, calledByHot)
	role string // what calls it again and again (byRole)
}

// hotDirective in a function's doc comment marks it hot.
const hotDirective = "//hashalloc:hot"

func newHotness(p *pass) *hotness {
	h := &hotness{p: p, why: map[*types.Func]*hotReason{}, calls: map[*types.Func][]call{}, marked: map[*types.Func]bool{}}
	var funcs []*types.Func
	// Only production code is evidence: a loop in a test does not make
	// what it calls hot, and a package and its test variant agree.
	for cur := range p.prod.Preorder((*ast.FuncDecl)(nil)) {
		decl := cur.Node().(*ast.FuncDecl)
		fn, ok := p.TypesInfo.Defs[decl.Name].(*types.Func)
		if !ok || decl.Body == nil || p.suppress.skipped[p.Fset.File(decl.Pos())] {
			continue
		}
		role := testRoleOf(fn)
		if role != notTest && !p.cfg.tests {
			continue // test code: neither hot nor evidence
		}
		funcs = append(funcs, fn)
		if role := roleOf(fn); role != "" {
			h.why[fn] = &hotReason{kind: byRole, role: role}
		}
		if decl.Doc != nil {
			for _, c := range decl.Doc.List {
				if strings.HasPrefix(c.Text, hotDirective) {
					h.why[fn] = &hotReason{kind: annotated}
					h.marked[fn] = true
				}
			}
		}
		for cc := range cur.Preorder((*ast.CallExpr)(nil)) {
			callee := typeutil.StaticCallee(p.TypesInfo, cc.Node().(*ast.CallExpr))
			if callee == nil || callee.Pkg() != p.Pkg {
				continue
			}
			if !p.cfg.tests && testRoleOf(callee) != notTest {
				continue
			}
			c := call{caller: fn, callee: callee.Origin(), pos: cc.Node().Pos(), tail: cc.ParentEdgeKind() == edge.ReturnStmt_Results}
			if loop, ok := repeatingLoop(cc); ok && role != testFunc && !h.signsPerIteration(loop) {
				c.inLoop = loop.Node().Pos()
			}
			h.calls[fn] = append(h.calls[fn], c)
		}
	}

	h.comp, h.compSize = stronglyConnected(funcs, h.calls)
	for _, fn := range funcs {
		if h.recursive(fn) {
			h.why[fn] = &hotReason{kind: recursive}
		}
	}
	var queue []*types.Func
	for _, fn := range funcs {
		if h.why[fn] != nil {
			queue = append(queue, fn)
		}
		for _, c := range h.calls[fn] {
			if c.inLoop.IsValid() && h.why[c.callee] == nil {
				h.why[c.callee] = &hotReason{kind: calledInLoop, via: c}
				queue = append(queue, c.callee)
			}
		}
	}
	// Everything a hot function calls is hot too.
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		for _, c := range h.calls[fn] {
			if h.why[c.callee] == nil {
				h.why[c.callee] = &hotReason{kind: calledByHot, via: c}
				queue = append(queue, c.callee)
			}
		}
	}
	h.applyProfile(funcs)
	return h
}

// applyProfile lets the profile, when it covers the package, decide which
// of funcs are hot: a function with at least the threshold of its samples is
// hot (by its own evidence when it has some that is strong, else by the
// measure), one below it is cold, unless a directive marks it hot. Being
// called in a loop or by a hot caller is then no evidence at all: the profile
// measured what the call graph guessed.
func (h *hotness) applyProfile(funcs []*types.Func) {
	prof := h.p.cfg.profile
	if prof == nil || !prof.covers(h.p.Pkg) {
		return
	}
	h.measured = true
	h.shares = map[*types.Func]float64{}
	h.cold = map[*types.Func]bool{}
	for _, fn := range funcs {
		share := prof.share(fn)
		h.shares[fn] = share
		r := h.why[fn]
		switch {
		case h.marked[fn]:
		case share < h.p.cfg.threshold:
			delete(h.why, fn)
			h.cold[fn] = true
		case r == nil || r.kind == calledInLoop || r.kind == calledByHot:
			h.why[fn] = &hotReason{kind: profiled}
		}
	}
}

// share returns the share of the profile's samples measured in fn, and
// false when no profile covers the package.
func (h *hotness) share(fn *types.Func) (float64, bool) {
	if !h.measured {
		return 0, false
	}
	if s, ok := h.shares[fn]; ok {
		return s, true
	}
	return h.p.cfg.profile.share(fn), true
}

// measuredCold reports whether a profile shows fn cold.
func (h *hotness) measuredCold(fn *types.Func) bool {
	return h.cold[fn]
}

// explain says why fn is hot, or returns "" when it is not.
func (h *hotness) explain(fn *types.Func) string {
	var parts []string
	seen := map[*types.Func]bool{}
	for fn != nil && !seen[fn] {
		if len(parts) == 4 {
			parts = append(parts, "…")
			break
		}
		seen[fn] = true
		r := h.why[fn]
		if r == nil {
			return ""
		}
		switch r.kind {
		case recursive:
			parts = append(parts, "recursive: "+h.cycle(fn))
			fn = nil
		case annotated:
			parts = append(parts, "marked "+hotDirective)
			fn = nil
		case calledInLoop:
			parts = append(parts, "called in a loop by "+r.via.caller.Name()+" at "+h.p.position(r.via.pos))
			fn = nil
		case calledByHot:
			parts = append(parts, "called by "+r.via.caller.Name()+" at "+h.p.position(r.via.pos))
			fn = r.via.caller
		case byRole:
			parts = append(parts, "role: "+r.role)
			fn = nil
		case profiled:
			parts = append(parts, "measured by the profile")
			fn = nil
		}
	}
	return strings.Join(parts, ", ")
}

// recursive reports whether fn is in a static call cycle — its strongly
// connected component has other functions, or it calls itself — through a
// call that is not what a return statement returns. A function whose only
// way back into its cycle is return f(...) hands its work on and does nothing
// after (delegation, as in "return k.Public().Thumbprint(h)"): the rest of
// its body runs once per outside call, not once per level.
func (h *hotness) recursive(fn *types.Func) bool {
	for _, c := range h.calls[fn] {
		if c.tail || h.comp[c.callee] != h.comp[fn] {
			continue
		}
		if c.callee == fn || h.compSize[h.comp[fn]] > 1 {
			return true
		}
	}
	return false
}

// proven reports whether fn is hot by strong evidence: recursion, a
// //hashalloc:hot directive, a role (the standard library calls it in a
// loop) or a share of a profile above the threshold, at the root of the chain
// of hot callers that makes it hot. Being called in a loop is weaker
// evidence: the loop may run a few times, each doing much more work than the
// call (a download, a key derivation), and the corpus shows that per-call
// hashers and sums reported on that evidence alone are not worth acting on.
func (h *hotness) proven(fn *types.Func) bool {
	r := h.why[h.root(fn)]
	return r != nil && (r.kind == recursive || r.kind == annotated || r.kind == byRole || r.kind == profiled)
}

// root returns the function at the root of the chain of hot callers that
// makes fn hot (fn itself when it is hot by its own evidence or not hot).
func (h *hotness) root(fn *types.Func) *types.Func {
	for seen := map[*types.Func]bool{}; !seen[fn]; {
		seen[fn] = true
		r := h.why[fn]
		if r == nil || r.kind != calledByHot {
			return fn
		}
		fn = r.via.caller
	}
	return fn
}

// takenAtItsWord reports whether fn is hot because a profile measures it or a
// directive marks it, at the root of the chain of hot callers that makes it
// hot: evidence that needs no guess at how much else it does.
func (h *hotness) takenAtItsWord(fn *types.Func) bool {
	r := h.why[h.root(fn)]
	return r != nil && (r.kind == annotated || r.kind == profiled)
}

// sameCycle reports whether g is fn or in fn's call cycle.
func (h *hotness) sameCycle(fn, g *types.Func) bool {
	if fn == g {
		return true
	}
	cf, ok1 := h.comp[fn]
	cg, ok2 := h.comp[g]
	return ok1 && ok2 && cf == cg
}

// signsPerIteration reports whether loop makes or checks a signature, or
// does modular arithmetic of the same cost, on every iteration: beside that,
// what the functions it calls allocate is noise (the corpus: gnark-crypto's
// ECDSA Sign, whose rejection-sampling loop draws a nonce into a 32-byte
// buffer and multiplies a curve point per try). Each loop is looked at once.
func (h *hotness) signsPerIteration(loop inspector.Cursor) bool {
	if h.signing == nil {
		h.signing = map[ast.Node]bool{}
	}
	n := loop.Node()
	signs, ok := h.signing[n]
	if !ok {
		signs = h.p.publicKeyOp(n)
		h.signing[n] = signs
	}
	return signs
}

// callsItself reports whether fn calls itself directly.
func (h *hotness) callsItself(fn *types.Func) bool {
	for _, c := range h.calls[fn] {
		if c.callee == fn {
			return true
		}
	}
	return false
}

// maxCycleSearch bounds the functions that the search for a cycle to show
// visits, so that explaining every member of a cycle of n functions costs
// O(n), not O(n²).
const maxCycleSearch = 64

// cycle spells the shortest call cycle from fn back to fn, found by a
// breadth-first search inside fn's component ("a → b → a"); in a component
// too large to search, the first calls of one and its size.
func (h *hotness) cycle(fn *types.Func) string {
	if c, ok := h.cycles[fn]; ok {
		return c // explain and evidence both ask
	}
	if h.cycles == nil {
		h.cycles = map[*types.Func]string{}
	}
	c := h.searchCycle(fn)
	h.cycles[fn] = c
	return c
}

func (h *hotness) searchCycle(fn *types.Func) string {
	prev := map[*types.Func]*types.Func{fn: nil}
	queue := []*types.Func{fn}
	for len(queue) > 0 && len(prev) <= maxCycleSearch {
		cur := queue[0]
		queue = queue[1:]
		for _, c := range h.calls[cur] {
			if h.comp[c.callee] != h.comp[fn] {
				continue
			}
			if c.callee == fn {
				names := []string{fn.Name()}
				for p := cur; p != nil; p = prev[p] {
					names = append(names, p.Name())
				}
				slices.Reverse(names)
				return strings.Join(names, " → ")
			}
			if _, seen := prev[c.callee]; !seen {
				prev[c.callee] = cur
				queue = append(queue, c.callee)
			}
		}
	}
	names := []string{fn.Name()}
	for cur := fn; len(names) < 3; {
		next := cur
		for _, c := range h.calls[cur] {
			if h.comp[c.callee] == h.comp[fn] && c.callee != cur {
				next = c.callee
				break
			}
		}
		if next == cur {
			break
		}
		names = append(names, next.Name())
		cur = next
	}
	return fmt.Sprintf("%s → … (a call cycle of %d functions)", strings.Join(names, " → "), h.compSize[h.comp[fn]])
}

// stronglyConnected numbers the strongly connected components of the call
// graph (Tarjan's algorithm, linear) and counts the functions of each.
func stronglyConnected(funcs []*types.Func, calls map[*types.Func][]call) (map[*types.Func]int, map[int]int) {
	var (
		index   = map[*types.Func]int{}
		low     = map[*types.Func]int{}
		onStack = map[*types.Func]bool{}
		stack   []*types.Func
		comp    = map[*types.Func]int{}
		next    int
		visit   func(fn *types.Func)
	)
	visit = func(fn *types.Func) {
		index[fn], low[fn] = next, next
		next++
		stack = append(stack, fn)
		onStack[fn] = true
		for _, c := range calls[fn] {
			if _, seen := index[c.callee]; !seen {
				visit(c.callee)
				low[fn] = min(low[fn], low[c.callee])
			} else if onStack[c.callee] {
				low[fn] = min(low[fn], index[c.callee])
			}
		}
		if low[fn] == index[fn] {
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top] = false
				comp[top] = index[fn]
				if top == fn {
					break
				}
			}
		}
	}
	for _, fn := range funcs {
		if _, seen := index[fn]; !seen {
			visit(fn)
		}
	}
	size := map[int]int{}
	for _, c := range comp {
		size[c]++
	}
	return comp, size
}

// testRole is what a function is to the testing package.
type testRole int

const (
	notTest   testRole = iota
	testFunc           // takes a *testing.T, *testing.F or testing.TB
	benchFunc          // takes a *testing.B
)

// testRoleOf says whether fn is test code: a function with a parameter of
// type *testing.T, *testing.B, *testing.F or testing.TB, wherever it is
// declared (a test helper in a non-test file is test code too), or a method
// of a struct that holds one (a test harness that keeps its t).
func testRoleOf(fn *types.Func) testRole {
	role := notTest
	sig := fn.Signature()
	for v := range sig.Params().Variables() {
		role = max(role, testingRole(v.Type()))
	}
	if recv := sig.Recv(); recv != nil {
		t := recv.Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if st, ok := t.Underlying().(*types.Struct); ok {
			for f := range st.Fields() {
				role = max(role, testingRole(f.Type()))
			}
		}
	}
	return role
}

// testingRole is the role of a value of type t: benchFunc for *testing.B,
// testFunc for *testing.T, *testing.F and testing.TB.
func testingRole(t types.Type) testRole {
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "testing" {
		return notTest
	}
	switch named.Obj().Name() {
	case "B":
		return benchFunc
	case "T", "F", "TB":
		return testFunc
	}
	return notTest
}

// isTestCode reports whether the function declared by decl is test code.
func (p *pass) isTestCode(decl *ast.FuncDecl) bool {
	fn, ok := p.TypesInfo.Defs[decl.Name].(*types.Func)
	return ok && testRoleOf(fn) != notTest
}

// repeatingLoop returns the loop that runs the code at cur again and again:
// the innermost for or range loop around it (crossing function literals),
// unless that loop is left right after cur runs, in which case cur runs at most
// once per execution of the loop and the question moves to the loop around it.
func repeatingLoop(cur inspector.Cursor) (inspector.Cursor, bool) {
	for {
		loop, ok := enclosingLoop(cur, true)
		if !ok {
			return inspector.Cursor{}, false
		}
		switch leavesLoop(cur, loop) {
		case staysInLoop:
			return loop, true
		case breaksLoop:
			cur = loop // the loop ends; what runs it again?
		case returnsFromFunc:
			return inspector.Cursor{}, false
		}
	}
}

// loopExit is what happens after some code in a loop body runs.
type loopExit int

const (
	staysInLoop     loopExit = iota // the loop may run it again
	breaksLoop                      // the loop is left by a break
	returnsFromFunc                 // the function returns (or panics)
)

// leavesLoop says whether control, once the code at cur has run, leaves loop
// before the next iteration whatever happens: cur is in a return statement,
// or its statement is followed in its block (and in the blocks around it, up
// to the loop body) by a return, a panic or a break out of the loop, with no
// continue, goto or other jump on the way. A function literal between cur and
// the loop, or any doubt, gives staysInLoop.
func leavesLoop(cur, loop inspector.Cursor) loopExit {
	var body ast.Node
	switch l := loop.Node().(type) {
	case *ast.ForStmt:
		body = l.Body
	case *ast.RangeStmt:
		body = l.Body
	}
	if n := cur.Node(); n.Pos() < body.Pos() || n.End() > body.End() {
		return staysInLoop // in the loop's condition or post statement
	}
	// The innermost statement that holds cur: it must not be able to start
	// the loop again itself (if f() { continue }).
	var stmt inspector.Cursor
	for c := cur; c.Node() != body; c = c.Parent() {
		switch n := c.Node().(type) {
		case *ast.FuncLit:
			return staysInLoop // a return there leaves the literal only
		case *ast.ReturnStmt:
			return returnsFromFunc
		case ast.Stmt:
			if !stmt.Valid() {
				stmt = c
				if mayRepeat(n, breaksOut(c, body)) {
					return staysInLoop
				}
			}
		}
	}
	if !stmt.Valid() {
		return staysInLoop
	}
	// The statements that follow, block after block, up to the loop body.
	for c := stmt; c.Node() != body; c = c.Parent() {
		var list []ast.Stmt
		switch parent := c.Parent().Node().(type) {
		case *ast.BlockStmt:
			if _, ok := c.Node().(ast.Stmt); !ok {
				continue // a switch or select body: its clauses are not in sequence
			}
			list = parent.List
		case *ast.CaseClause:
			list = parent.Body
		case *ast.CommClause:
			list = parent.Body
		default:
			continue // an if, a switch, a labeled statement: go on after it
		}
		out := breaksOut(c, body)
		following := list[slices.Index(list, c.Node().(ast.Stmt))+1:]
		for _, next := range following {
			switch n := next.(type) {
			case *ast.ReturnStmt:
				return returnsFromFunc
			case *ast.ExprStmt:
				if isPanic(n.X) {
					return returnsFromFunc
				}
			case *ast.BranchStmt:
				if n.Tok == token.BREAK && n.Label == nil && out {
					return breaksLoop
				}
				return staysInLoop // continue, goto, fallthrough, a labeled break, or a break out of a switch
			}
			if mayRepeat(next, out) {
				return staysInLoop
			}
		}
	}
	return staysInLoop
}

// breaksOut reports whether a break at c, in the body of a loop, leaves the
// loop: no switch or select lies between them.
func breaksOut(c inspector.Cursor, body ast.Node) bool {
	for ; c.Node() != body; c = c.Parent() {
		switch c.Node().(type) {
		case *ast.CaseClause, *ast.CommClause:
			return false
		}
	}
	return true
}

// mayRepeat reports whether stmt holds a jump that may start the loop around
// it again, or skip the statements that follow it: a continue or a break
// that targets no loop, switch or select inside stmt (a break is fine when it
// leaves the loop, breakOut), a goto, a fallthrough, or any labeled jump.
func mayRepeat(stmt ast.Stmt, breakOut bool) bool {
	repeat := false
	var visit func(n ast.Node, inLoop, inSwitch bool)
	visit = func(root ast.Node, inLoop, inSwitch bool) {
		ast.Inspect(root, func(n ast.Node) bool {
			if repeat {
				return false
			}
			if n == root {
				return true
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				visit(n, true, true)
				return false
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				visit(n, inLoop, true)
				return false
			case *ast.BranchStmt:
				switch {
				case n.Label != nil, n.Tok == token.GOTO, n.Tok == token.FALLTHROUGH:
					repeat = true
				case n.Tok == token.CONTINUE && !inLoop:
					repeat = true
				case n.Tok == token.BREAK && !inSwitch && !breakOut:
					repeat = true
				}
			}
			return true
		})
	}
	visit(&ast.BlockStmt{List: []ast.Stmt{stmt}}, false, false) // stmt itself too
	if _, ok := stmt.(*ast.BranchStmt); ok {
		return false // judged by the caller
	}
	return repeat
}

// isPanic reports whether e is a call of the builtin panic.
func isPanic(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	return ok && id.Name == "panic"
}

// enclosingLoop returns the innermost for or range loop whose body (or
// condition or post statement) holds cur. It stops at a function literal
// unless crossFuncLit, and always at the function declaration.
func enclosingLoop(cur inspector.Cursor, crossFuncLit bool) (inspector.Cursor, bool) {
	for c := cur; c.Valid(); c = c.Parent() {
		parent := c.Parent()
		if !parent.Valid() {
			break
		}
		switch n := parent.Node().(type) {
		case *ast.FuncDecl:
			return inspector.Cursor{}, false
		case *ast.FuncLit:
			if !crossFuncLit {
				return inspector.Cursor{}, false
			}
		case *ast.ForStmt:
			if c.Node() == n.Body || c.Node() == n.Cond || c.Node() == n.Post {
				return parent, true
			}
		case *ast.RangeStmt:
			if c.Node() == n.Body {
				return parent, true
			}
		}
	}
	return inspector.Cursor{}, false
}
