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

// maxSmallLoop is the largest constant number of iterations that is not a
// collection's worth: a loop over the three coordinates of a point, the two
// halves of a key, runs a fixed handful of times per call.
const maxSmallLoop = 8

// loopInfo is what a loop repeats: per item of a collection or stream, or a
// small constant number of times.
type loopInfo struct {
	small bool   // bounded by a small constant
	item  string // what one iteration handles, for messages: "leaf of leaves", "line scanned"
}

// classifyLoop says what loop repeats.
func (m *Model) classifyLoop(loop inspector.Cursor) loopInfo {
	info := m.cfg.Info
	switch l := loop.Node().(type) {
	case *ast.RangeStmt:
		if n, ok := m.constCount(l.X); ok {
			return loopInfo{small: n <= maxSmallLoop, item: "iteration"}
		}
		if m.fieldsOfOne(l.X) {
			return loopInfo{small: true, item: "part"}
		}
		if m.table(l.X) || l.Value != nil && makesHasher(info.TypeOf(l.Value)) {
			return loopInfo{small: true, item: "entry"}
		}
		if m.merged(loop, l) {
			return loopInfo{small: true, item: "stream"}
		}
		what := types.ExprString(l.X)
		noun := ""
		if id, ok := l.Value.(*ast.Ident); ok {
			noun = nounOf(id.Name)
		}
		switch info.TypeOf(l.X).Underlying().(type) {
		case *types.Map:
			if noun == "" {
				noun = "entry"
			}
			return loopInfo{item: noun + " of " + what}
		case *types.Chan:
			if id, ok := l.Key.(*ast.Ident); ok {
				noun = nounOf(id.Name)
			}
			if noun == "" {
				noun = "value"
			}
			return loopInfo{item: noun + " received from " + what}
		case *types.Basic:
			if isBasic(info.TypeOf(l.X), types.IsInteger) {
				return loopInfo{item: "iteration up to " + what}
			}
		case *types.Signature:
			return loopInfo{item: "value " + what + " yields"}
		}
		if noun == "" {
			noun = "element"
		}
		return loopInfo{item: noun + " of " + what}
	case *ast.ForStmt:
		if n, ok := m.constBound(l); ok {
			return loopInfo{small: n <= maxSmallLoop, item: "iteration"}
		}
		if m.searchLoop(l) {
			return loopInfo{small: true, item: "try"}
		}
		if m.digestBlocks(l) {
			return loopInfo{small: true, item: "block"}
		}
		if l.Cond != nil {
			if call, ok := ast.Unparen(l.Cond).(*ast.CallExpr); ok {
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Scan" || sel.Sel.Name == "Next") {
					return loopInfo{item: "item " + types.ExprString(sel.X) + " yields"}
				}
			}
			if bin, ok := ast.Unparen(l.Cond).(*ast.BinaryExpr); ok {
				for _, side := range []ast.Expr{bin.Y, bin.X} {
					if call, ok := ast.Unparen(side).(*ast.CallExpr); ok && len(call.Args) == 1 {
						if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "len" {
							return loopInfo{item: "element of " + types.ExprString(call.Args[0])}
						}
					}
				}
			}
		}
		return loopInfo{item: "iteration"}
	}
	return loopInfo{item: "iteration"}
}

// merged reports whether the range loop l, at loop, visits the streams of
// a merge: beside it, its function, or a function of the package that it
// calls, up to two calls deep, runs a loop with no condition (it runs
// until a call says every stream is at its end) that, itself or through
// the functions it calls, visits the elements of the same collection again
// in each iteration (a page read from each input). Each element is then a
// stream of many items, and what l does once per element (a header read, a
// trailer checked) runs once per stream, not per item.
func (m *Model) merged(loop inspector.Cursor, l *ast.RangeStmt) bool {
	coll := collectionVar(m.cfg.Info, l.X)
	_, fn, _, ok := m.enclosing(loop)
	if coll == nil || !ok || m.funcs[fn] == nil {
		return false
	}
	// callees yields the functions of the package that region calls.
	callees := func(region inspector.Cursor, yield func(c inspector.Cursor, g *fnInfo) bool) bool {
		for c := range m.cfg.Calls.Within(region) {
			if g := m.funcs[c.Callee]; c.Callee != nil && g != nil && g.cur != region && yield(c.Cursor, g) {
				return true
			}
		}
		return false
	}
	// visits reports whether region ranges over coll, itself or through
	// the functions it calls, up to depth calls deep.
	var visits func(region inspector.Cursor, depth int) bool
	visits = func(region inspector.Cursor, depth int) bool {
		for c := range region.Preorder((*ast.RangeStmt)(nil)) {
			if collectionVar(m.cfg.Info, c.Node().(*ast.RangeStmt).X) == coll {
				return true
			}
		}
		return depth > 0 && callees(region, func(_ inspector.Cursor, g *fnInfo) bool { return visits(g.cur, depth-1) })
	}
	// streams reports whether fn, outside loop, runs a loop with no
	// condition that visits coll, or calls a function that does, up to
	// depth calls deep.
	var streams func(fn inspector.Cursor, depth int) bool
	streams = func(fn inspector.Cursor, depth int) bool {
		for c := range fn.Preorder((*ast.ForStmt)(nil)) {
			if c.Node().(*ast.ForStmt).Cond == nil && !encloses(c, loop) && !encloses(loop, c) && visits(loopBody(c), 2) {
				return true
			}
		}
		return depth > 0 && callees(fn, func(c inspector.Cursor, g *fnInfo) bool { return !encloses(loop, c) && streams(g.cur, depth-1) })
	}
	return streams(m.funcs[fn].cur, 2)
}

// collectionVar returns the variable that x, what a range loop ranges
// over, reads: the field of a selector (the same field in every method),
// or a variable; nil for anything else.
func collectionVar(info *types.Info, x ast.Expr) *types.Var {
	switch x := ast.Unparen(x).(type) {
	case *ast.SelectorExpr:
		v, _ := info.Uses[x.Sel].(*types.Var)
		return v
	case *ast.Ident:
		v, _ := info.Uses[x].(*types.Var)
		return v
	}
	return nil
}

// searchLoop reports whether l is a search that tries until it finds, up to
// a constant number of tries (rejection sampling: a candidate derived from
// a counter, kept when it is in range):
//
//	for {
//		key := derive(counter)
//		if inRange(key) {
//			break                      // found: the usual first try
//		}
//		counter++
//		if counter > 0xFF {
//			return errExhausted        // the bound on tries
//		}
//	}
//
// It has no condition; it leaves when a test that is no error check holds;
// and it counts its tries in an integer declared outside it, which a test
// against a constant also leaves on. Such a loop repeats nothing per item:
// its first try succeeds but for a small chance each time, so what it does
// runs about once per call.
func (m *Model) searchLoop(l *ast.ForStmt) bool {
	if l.Cond != nil {
		return false
	}
	info := m.cfg.Info
	counters := map[*types.Var]bool{}
	for _, stmt := range l.Body.List {
		if inc, ok := stmt.(*ast.IncDecStmt); ok && inc.Tok == token.INC {
			if v, ok := info.Uses[plainIdent(inc.X)].(*types.Var); ok && isBasic(v.Type(), types.IsInteger) && !(l.Pos() <= v.Pos() && v.Pos() < l.End()) {
				counters[v] = true
			}
		}
	}
	if len(counters) == 0 {
		return false
	}
	bounded, found := false, false
	for _, stmt := range l.Body.List {
		ifs, ok := stmt.(*ast.IfStmt)
		if !ok || ifs.Else != nil || !leaves(ifs.Body) {
			continue
		}
		if m.mentionsError(ifs.Cond) {
			continue // an error check, not a verdict on a try
		}
		if bin, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr); ok {
			if v, ok := info.Uses[plainIdent(bin.X)].(*types.Var); ok && counters[v] {
				if _, ok := m.intValue(bin.Y); ok {
					bounded = true
					continue
				}
			}
		}
		found = true
	}
	return bounded && found
}

// splitters are the functions that split one string by a separator, by the index of the separator among their arguments.
var splitters = map[string]int{
	"strings.Split": 1, "strings.SplitN": 1, "strings.SplitAfter": 1, "strings.SplitAfterN": 1, "strings.SplitSeq": 1, "strings.SplitAfterSeq": 1,
}

// fieldsOfOne reports whether x, what a range loop ranges over, is the
// parts of one value split by a separator that is no line break (the steps
// of a derivation path, the names of a dotted key, the values of a header),
// directly, sliced, or through a variable defined so and never assigned
// again: a handful of parts of one item, not a collection. Lines are
// records of a document and stay a collection.
func (m *Model) fieldsOfOne(x ast.Expr) bool {
	info := m.cfg.Info
	x = ast.Unparen(x)
	if s, ok := x.(*ast.SliceExpr); ok {
		x = ast.Unparen(s.X)
	}
	if id, ok := x.(*ast.Ident); ok {
		if x, ok = m.localValue(id, true); !ok {
			return false
		}
		x = ast.Unparen(x)
		if s, ok := x.(*ast.SliceExpr); ok {
			x = ast.Unparen(s.X)
		}
	}
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	sep, ok := splitters[fn.Pkg().Path()+"."+fn.Name()]
	if !ok || sep >= len(call.Args) {
		return false
	}
	tv := info.Types[call.Args[sep]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return false // a separator the caller chooses: maybe lines
	}
	text := constant.StringVal(tv.Value)
	return text != "" && !strings.ContainsAny(text, "\n\r")
}

// table reports whether x, what a range loop ranges over, is a field of a
// slice type (a.f) that every composite literal and every assignment of the
// package sets, when it sets it, to a slice literal of at most maxSmallLoop
// elements, at least once. It is a table the code is written for (a
// protocol's pattern of handshake tokens, each pattern a value of the
// package), a handful of entries per call, not a collection of items; one
// the package also fills otherwise (appended to, given a caller's slice,
// changed element by element) stays a collection. A package variable
// declared with a short list is no table: it stands for whatever list the
// program holds (a list of items a loop hashes).
func (m *Model) table(x ast.Expr) bool {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, _ := m.cfg.Info.Uses[sel.Sel].(*types.Var)
	if v == nil || !v.IsField() {
		return false
	}
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	if ok, known := m.tables[v]; known {
		return ok
	}
	stored, ok := m.cfg.Vals.Stored(m.cfg.Root, v)
	lits := 0
	for _, e := range stored {
		switch e := ast.Unparen(e).(type) {
		case *ast.CompositeLit:
			if len(e.Elts) <= maxSmallLoop {
				lits++
				continue
			}
		case *ast.Ident:
			if e.Name == "nil" && m.cfg.Info.Uses[e] == types.Universe.Lookup("nil") {
				continue
			}
		}
		ok = false
	}
	m.tables[v] = ok && lits > 0
	return m.tables[v]
}

// localValue returns the value of the local variable id when its
// declaration gives it one, alone (x := value, now := time.Now()), and, with
// once, nothing writes it again.
func (m *Model) localValue(id *ast.Ident, once bool) (ast.Expr, bool) {
	v, ok := m.cfg.Info.Uses[id].(*types.Var)
	if !ok || v.Parent() == nil || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return nil, false // not a local variable: a field, a package variable
	}
	def, ok := m.cfg.Vals.Def(m.cfg.Root, v)
	if !ok || once && m.cfg.Vals.Written(m.cfg.Root, v) {
		return nil, false
	}
	return values.DefinedWith(def)
}

// digestBlocks reports whether l counts the digest-sized blocks of an
// output (for i := 1; i <= n; i++, with n a length divided by a hash's
// Size, directly or through a local variable defined so): a key derived in
// counter mode, one or two blocks of a key's length, not a collection.
func (m *Model) digestBlocks(l *ast.ForStmt) bool {
	bin, ok := ast.Unparen(l.Cond).(*ast.BinaryExpr)
	if !ok || bin.Op != token.LSS && bin.Op != token.LEQ {
		return false
	}
	bound := ast.Unparen(bin.Y)
	if id, ok := bound.(*ast.Ident); ok {
		if bound, ok = m.localValue(id, true); !ok {
			return false
		}
	}
	found := false
	ast.Inspect(bound, func(n ast.Node) bool {
		if q, ok := n.(*ast.BinaryExpr); ok && q.Op == token.QUO && m.digestSize(q.Y) {
			found = true
		}
		return !found
	})
	return found
}

// digestSize reports whether e is, or converts, a call of the Size method
// of a hasher: a value with Size, BlockSize and Sum methods.
func (m *Model) digestSize(e ast.Expr) bool {
	e = ast.Unparen(e)
	if conv, ok := e.(*ast.CallExpr); ok && len(conv.Args) == 1 && m.cfg.Info.Types[conv.Fun].IsType() {
		e = ast.Unparen(conv.Args[0])
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Size" && isHasher(m.cfg.Info.TypeOf(sel.X))
}

// isHasher reports whether t is a hasher's type: it has BlockSize and Sum.
func isHasher(t types.Type) bool {
	if t == nil {
		return false
	}
	ms := types.NewMethodSet(t)
	return ms.Lookup(nil, "BlockSize") != nil && ms.Lookup(nil, "Sum") != nil
}

// makesHasher reports whether each value of type t makes a hasher: a
// function of no parameters that returns one, or a value whose New method
// does (crypto.Hash). A loop over such values runs once per hash algorithm
// its caller asked for, a handful, not per item: each iteration hashes
// with another algorithm, where items are hashed with one.
func makesHasher(t types.Type) bool {
	if t == nil {
		return false
	}
	if _, ok := t.Underlying().(*types.Signature); !ok {
		sel := types.NewMethodSet(t).Lookup(nil, "New")
		if sel == nil {
			return false
		}
		t = sel.Type()
	}
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && isHasher(sig.Results().At(0).Type())
}

// plainIdent returns e when it is an identifier, or nil.
func plainIdent(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// leaves reports whether the block ends by leaving the loop around it: a
// break, a return or a panic.
func leaves(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch last := b.List[len(b.List)-1].(type) {
	case *ast.BranchStmt:
		return last.Tok == token.BREAK && last.Label == nil
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		return IsPanic(last.X)
	}
	return false
}

// mentionsError reports whether e mentions a value of type error.
func (m *Model) mentionsError(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok && values.IsError(m.cfg.Info.TypeOf(x)) {
			found = true
		}
		return !found
	})
	return found
}

// nounOf returns the name of a loop's variable as what one iteration
// handles (leaf, node, msg), or "" for a name too short to say it (i, v, it,
// _).
func nounOf(name string) string {
	if len(name) < 3 {
		return ""
	}
	return name
}

// constCount returns the number of iterations of a range over x when it is
// a constant: an array, a pointer to one, or a constant integer.
func (m *Model) constCount(x ast.Expr) (int64, bool) {
	tv, ok := m.cfg.Info.Types[x]
	if !ok {
		return 0, false
	}
	if tv.Value != nil {
		if n, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok {
			return n, true
		}
	}
	t := tv.Type.Underlying()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	if a, ok := t.(*types.Array); ok {
		return a.Len(), true
	}
	// A slice or map literal: as many as it lists.
	if lit, ok := ast.Unparen(x).(*ast.CompositeLit); ok {
		return int64(len(lit.Elts)), true
	}
	return 0, false
}

// constBound returns the number of iterations of for i := a; i < b; i++ (or
// <=, >, >=, with ++, --, += c) when a and b are constants.
func (m *Model) constBound(l *ast.ForStmt) (int64, bool) {
	bin, ok := ast.Unparen(l.Cond).(*ast.BinaryExpr)
	if !ok || l.Init == nil {
		return 0, false
	}
	init, ok := l.Init.(*ast.AssignStmt)
	if !ok || len(init.Rhs) != 1 {
		return 0, false
	}
	lo, ok1 := m.intValue(init.Rhs[0])
	hi, ok2 := m.intValue(bin.Y)
	if !ok1 || !ok2 {
		return 0, false
	}
	n := max(hi-lo, lo-hi)
	switch bin.Op {
	case token.LEQ, token.GEQ:
		n++
	case token.LSS, token.GTR, token.NEQ:
	default:
		return 0, false
	}
	return n, true
}

func (m *Model) intValue(e ast.Expr) (int64, bool) {
	tv, ok := m.cfg.Info.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(tv.Value))
}

// repeatingLoop returns the innermost loop around cur, inside its function
// (and the function literals called in place within it), that repeats it
// per item: not a loop bounded by a small constant, and not one that cur
// leaves right after it runs (then the loop around that one is asked).
func (m *Model) repeatingLoop(cur inspector.Cursor) (inspector.Cursor, loopInfo, bool) {
	for {
		loop, ok := EnclosingLoop(cur, true)
		if !ok {
			return inspector.Cursor{}, loopInfo{}, false
		}
		switch leavesLoop(cur, loop) {
		case returnsFromFunc:
			return inspector.Cursor{}, loopInfo{}, false
		case breaksLoop:
			cur = loop
			continue
		}
		info := m.classifyLoop(loop)
		if info.small {
			cur = loop
			continue
		}
		return loop, info, true
	}
}

// EnclosingLoop returns the innermost for or range loop whose body (or
// condition or post statement) holds cur, within cur's function: it crosses
// a function literal only with crossInPlace, when the literal is called in
// place (see inPlace).
func EnclosingLoop(cur inspector.Cursor, crossInPlace bool) (inspector.Cursor, bool) {
	for c := cur; c.Valid(); c = c.Parent() {
		parent := c.Parent()
		if !parent.Valid() {
			break
		}
		switch n := parent.Node().(type) {
		case *ast.FuncDecl:
			return inspector.Cursor{}, false
		case *ast.FuncLit:
			if !crossInPlace || !inPlace(parent) {
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

// inPlace reports whether the function literal at lit runs where it is
// written, once each time control reaches it: called at once (func(){...}()),
// deferred, or run by go.
func inPlace(lit inspector.Cursor) bool {
	return lit.ParentEdgeKind() == edge.CallExpr_Fun
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
				if IsPanic(n.X) {
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

// IsPanic reports whether e is a call of the builtin panic.
func IsPanic(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	return ok && id.Name == "panic"
}

// encloses reports whether the syntax at b lies within the syntax at a.
// Unlike Cursor.Contains it holds for cursors of different inspectors of
// the same syntax (a package's files with and without its tests), where
// Cursor.Contains panics.
func encloses(a, b inspector.Cursor) bool {
	return a.Node().Pos() <= b.Node().Pos() && b.Node().End() <= a.Node().End()
}
