package frequency

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/internal/callindex"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Config is what the model reads of one package.
type Config struct {
	Fset *token.FileSet
	Info *types.Info
	Pkg  *types.Package
	// Root holds the package's production files: only they are evidence
	// (a loop in a test makes nothing hot), so that a package and its test
	// variant give one estimate at every position.
	Root inspector.Cursor
	// Skip reports whether a function is left out of the model: test code
	// without -tests, or a file that is not analyzed.
	Skip func(fn *types.Func, decl *ast.FuncDecl) bool
	// Tests, when valid, is the root of the package's syntax with its test
	// files (with -tests): their functions' own loops repeat the sites in
	// them, but what test code calls or takes is no evidence of how often
	// it runs in real use (a benchmark calls what it measures b.N times).
	Tests inspector.Cursor
	// Test reports whether fn, in Root, is test code all the same (it takes
	// a *testing.T): its calls are no evidence either.
	Test func(fn *types.Func) bool
	// Hashes reports whether the body of a function of the package (or of
	// a function literal, for which fn is nil) hashes (calls a hash
	// constructor or a sum function, writes to or sums a hasher).
	Hashes func(fn *types.Func, body inspector.Cursor) bool
	// Role returns the role of fn (the standard library calls it in a
	// loop), or a Role with no text.
	Role func(fn *types.Func) Role
	// Directive reports whether fn is marked //hashalloc:hot.
	Directive func(fn *types.Func, decl *ast.FuncDecl) bool
	// Profile, when it covers the package, decides: nil for none.
	Profile   Profile
	Threshold float64
	// ImportCost returns the cost fact of a function of another package.
	ImportCost func(fn *types.Func) (*CostFact, bool)
	// ExportAllocs says that Cost also gives the functions that make calls
	// that allocate their results (CostFact.Allocs): for a package of a
	// module, whose callers in other packages of the module (an encoding
	// helper, a key's accessor) add them to their own. The standard
	// library's allocating functions are known by name instead (see
	// allocatingFuncs), not by what their bodies call, error paths included.
	ExportAllocs bool
	// Calls, when not nil, is the index of the calls of Root and Tests
	// that the caller has built already; else New builds one.
	Calls *callindex.Index
	// Vals, when not nil, is the def-use index of Root and Tests that the
	// caller has built already; else New builds one.
	Vals *values.Index
}

// Role is what the standard library makes of a function it calls
// repeatedly: how often, and what else each call costs.
type Role struct {
	// Text says what the function is and how often it is called ("Less of
	// a sort.Interface, which sort.Sort calls O(n log n) times").
	Text string
	// Around is what the code that calls it does per call, beside it:
	// serving an HTTP request is Heavy, a comparison of sort.Sort Cheap.
	Around Class
	// What names that work ("serving an HTTP request").
	What string
}

// Profile is a measured profile of the program, as the model reads it.
type Profile interface {
	// Covers reports whether the profile covers the package (one of its
	// functions appears in it).
	Covers(pkg *types.Package) bool
	// Share is the share of the profile's samples in fn, inclusive.
	Share(fn *types.Func) float64
	// Unit names what a share is a share of ("sampled CPU time").
	Unit() string
}

// Cost is what a site allocates per run.
type Cost struct {
	Allocs int
	// Bytes is the size of the allocation when it is a buffer of a constant
	// size, or 0: a buffer of largeBuffer bytes or more costs its zeroing
	// too, beyond what an allocation costs.
	Bytes int64
}

// CostFact is the fact of an exported function that costs more than an
// allocation per call, for the packages that call it: its class, or the
// calls it makes that allocate their results (see allocsOf), which a
// caller counts with its own.
type CostFact struct {
	Class Class
	What  string
	// Allocs is the number of calls that allocate what they return, when
	// Class is Cheap.
	Allocs int
	// Derives is set when the function derives key material (see
	// derivesKey): its callers are not presumed to call it per item.
	Derives bool
}

// AFact implements analysis.Fact.
func (*CostFact) AFact() {}

func (f *CostFact) String() string {
	var c string
	switch {
	case f.Derives && f.Class == Cheap && f.Allocs == 0:
		return "derives a key"
	case f.Class == Cheap:
		calls := "calls"
		if f.Allocs == 1 {
			calls = "call"
		}
		return fmt.Sprintf("costs: %d allocating %s (%s)", f.Allocs, calls, f.What)
	case f.Class == Moderate:
		c = "moderate"
	case f.Class == Decoding:
		c = "decoding"
	default:
		c = "heavy"
	}
	return "costs: " + c + " (" + f.What + ")"
}

// Estimate is the model's answer for one site.
type Estimate struct {
	// PerItem is set when the site runs per item of repeated work and is
	// a visible share of it: worth a finding.
	PerItem bool
	// Text says how often it runs, to follow what a message says of the
	// site: "once per leaf of leaves (the loop at merkle.go:30)".
	Text string
	// Loop is the loop of the site's own function that repeats it, if
	// that is what does (fixes hoist out of it).
	Loop inspector.Cursor
	// Why says, when PerItem is not set, why the site is not worth a
	// finding: for the audit.
	Why string
	// Evidence is what the estimate rests on, for tools.
	Evidence []Evidence
	// Presumed is set when the repetition rests on a presumption about
	// callers outside the package (an exported function, or a function
	// literal, that returns a hash of what it is given) rather than on a
	// loop, a recursion, a role, a directive or a profile that the package
	// shows.
	Presumed bool
}

// Evidence is one piece of what an estimate rests on.
type Evidence struct {
	Pos  token.Pos
	Kind string // loop, caller-chain, recursion, role, directive, profile, hashing-function
	Msg  string
}

// Model estimates how often the sites of one package run.
type Model struct {
	cfg   Config
	funcs map[*types.Func]*fnInfo
	order []*fnInfo
	costs map[*types.Func]work
	// implCosts memoizes implCost.
	implCosts map[implKey]work
	compSize  []int // the number of functions of each strongly connected component
	// search is the number of cycle searches so far: a function whose
	// seen is search is reached by the current one.
	search   int
	measured bool                 // a profile covers the package
	taken    map[*types.Func]bool // the functions whose value is taken
	// litCalls are the calls made by function literals that run per item
	// by presumption (see litEntry), whose callers are no function of the
	// package.
	litCalls []*callEdge
	// ownHashes memoizes Config.Hashes of each function's own body: every
	// entry and recursion question asks it of the same callees again.
	ownHashes map[*fnInfo]bool
	// hashingLoops memoizes hashingLoop: the first loop of each function
	// that hashes per item, or an invalid cursor.
	hashingLoops map[*fnInfo]inspector.Cursor
	// rareThens memoizes rareThen.
	rareThens map[*ast.IfStmt]string
	// shown holds, for each entry that the package shows to run once per
	// collection, what it shows (see perCollection).
	shown     map[*fnInfo]string
	callers   map[*fnInfo]callSites // memoizes callsOf
	keyChains map[*fnInfo]bool      // memoizes chainsKeys
	tables    map[*types.Var]bool   // memoizes table
	keys      bool                  // a package of costlyPkgs that does heavy work is reached: see privateKeyArg
	// resolved says that the call graph is built and every function's
	// reason decided (see graph): the cost of a function needs neither, and
	// a package without a site asks only that.
	resolved bool
}

// fnInfo is what the model knows of one function of the package.
type fnInfo struct {
	fn     *types.Func
	cur    inspector.Cursor
	calls  []*callEdge
	reason *reason // why it runs per item; nil when it does not
	cold   bool    // a profile measures it below the threshold
	marked bool    // //hashalloc:hot
	test   bool    // test code: see Config.Tests

	// Its strongly connected component of the call graph (see
	// stronglyConnected), and Tarjan's numbering that finds it: index and
	// low count from 1, 0 is not visited.
	comp, index, low int
	onStack          bool
	// The last cycle search that reached it (Model.search), and the
	// function it reached it from: no map per search.
	seen int
	prev *fnInfo
}

// callEdge is one call between two functions of the package.
type callEdge struct {
	caller, callee *fnInfo
	pos            token.Pos
	loop           inspector.Cursor // the loop of the caller that repeats the call
	item           string           // what one iteration of that loop handles
	rare           string           // the rare condition that guards the call, once rareKnown: see rareOf
	rareKnown      bool
	rareAt, rareIn inspector.Cursor // the call and the code whose rare branches rareOf looks for
	tail           bool             // what a return statement returns
	via            string           // how the call reaches the callee, when not directly
	lit            inspector.Cursor // the literal of the caller that makes the call, when it runs per item by presumption (see litEntry)
}

type reasonKind int

const (
	byDirective reasonKind = iota
	byProfile
	byRole
	byRecursion
	byEntry
	byChild
	byLoop
	byCaller
	byLiteral // called by a function literal that runs per item by presumption
)

// reason is why one function runs per item.
type reason struct {
	kind reasonKind
	text string    // what the estimate says after "once per call of f"
	via  *callEdge // byLoop, byCaller, byLiteral
}

// New builds the model of the package that cfg describes.
func New(cfg Config) *Model {
	if cfg.Calls == nil {
		cfg.Calls = callindex.New(cfg.Info)
	}
	if cfg.Vals == nil {
		cfg.Vals = values.New(cfg.Info)
	}
	m := &Model{cfg: cfg, funcs: map[*types.Func]*fnInfo{}, costs: map[*types.Func]work{}, implCosts: map[implKey]work{}, ownHashes: map[*fnInfo]bool{}, hashingLoops: map[*fnInfo]inspector.Cursor{}, rareThens: map[*ast.IfStmt]string{}, tables: map[*types.Var]bool{}, shown: map[*fnInfo]string{}, callers: map[*fnInfo]callSites{}, keyChains: map[*fnInfo]bool{},
		keys: values.Reaches(cfg.Pkg, func(p *types.Package) bool { return costlyPkgs[p.Path()].class == Heavy })}
	add := func(root inspector.Cursor, test bool) {
		for cur := range root.Preorder((*ast.FuncDecl)(nil)) {
			decl := cur.Node().(*ast.FuncDecl)
			fn, ok := cfg.Info.Defs[decl.Name].(*types.Func)
			if !ok || decl.Body == nil || m.funcs[fn] != nil || cfg.Skip != nil && cfg.Skip(fn, decl) {
				continue
			}
			f := &fnInfo{fn: fn, cur: cur, test: test || cfg.Test != nil && cfg.Test(fn)}
			f.marked = cfg.Directive != nil && cfg.Directive(fn, decl)
			m.funcs[fn] = f
			m.order = append(m.order, f)
		}
	}
	add(cfg.Root, false)
	if cfg.Tests.Valid() {
		add(cfg.Tests, true)
	}
	return m
}

// graph builds the call graph and decides why each function runs per item,
// the first time a question needs it.
func (m *Model) graph() {
	if m.resolved {
		return
	}
	m.resolved = true
	m.buildCalls()
	m.compSize = stronglyConnected(m.order)
	m.resolve()
}

// position spells pos as file:line.
func (m *Model) position(pos token.Pos) string {
	p := m.cfg.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// Initializer says how often code of a package-level initializer at cur
// runs: once, when the package is initialized, and so does a function
// literal that the initializer calls there; a literal it passes, stores or
// returns instead runs each time it is called, which the model does not
// follow from an initializer (a closure registered when the package is
// initialized and called per message).
func Initializer(cur inspector.Cursor) string {
	for c := range cur.Enclosing((*ast.FuncLit)(nil)) {
		if cur.Valid() && !inPlace(c) {
			return "it is in a function literal that a package-level initializer does not call but passes, stores or returns: it runs each time it is called, which the analysis does not follow from an initializer"
		}
	}
	return "a package-level initializer runs once, when the package is initialized"
}

// Site estimates how often the site at cur runs, and whether an allocation
// of cost c there is worth a finding.
func (m *Model) Site(cur inspector.Cursor, c Cost) Estimate {
	m.graph()
	fnCur, fn, lit, ok := m.enclosing(cur)
	if !ok {
		return Estimate{Why: Initializer(cur)}
	}
	f := m.funcs[fn]
	if f == nil {
		return Estimate{Why: "it is in test code, or in a file that is not analyzed"}
	}
	if f.cold && !f.marked {
		return Estimate{Why: fmt.Sprintf("the profile measures %s below the threshold", fn.Name())}
	}
	if call, isCall := cur.Node().(*ast.CallExpr); isCall {
		// The allocation of a call is its callee's: so is heavy work beside it.
		c := callindex.Call{Cursor: cur, Node: call, Callee: typeutil.StaticCallee(m.cfg.Info, call)}
		if w := m.calleeCost(c, false); w.class == Heavy {
			return Estimate{Why: "the call also does " + w.what + " at " + m.position(w.pos) + ", beside which its allocation is noise"}
		}
	}
	// A loop of its own (in the literal, when it is in one that does not
	// run in place).
	if loop, info, ok := m.repeatingLoop(cur); ok {
		body := loopBody(loop)
		if why := m.rareBranch(cur, body); why != "" {
			return Estimate{Why: "it runs " + why}
		}
		est := Estimate{Loop: loop, Text: fmt.Sprintf("once per %s (the loop at %s)", info.item, m.position(loop.Node().Pos()))}
		est.Evidence = append(est.Evidence, Evidence{loop.Node().Pos(), "loop", "repeated by the loop at " + m.position(loop.Node().Pos())})
		w := m.regionCost(body, cur, true, true)
		// The heavy work of the other loops over the same items is theirs
		// too (a process started for each).
		for _, other := range m.sameCollection(fnCur, loop) {
			if o := m.regionCost(loopBody(other), inspector.Cursor{}, true, true); o.class == Heavy {
				w = w.more(o)
			}
		}
		est.Why = m.noise(c, w, "each iteration also calls")
		est.PerItem = est.Why == ""
		return est
	}
	if lit.Valid() {
		if each := m.iteratorCallback(lit); each != "" {
			est := Estimate{Text: "once per " + each, Why: m.noise(c, m.regionCost(lit, cur, true, true), "each call also calls")}
			est.PerItem = est.Why == ""
			return est
		}
		if calls := m.localCalls(fnCur, lit); len(calls) > 0 {
			// Called only where it is defined: it runs as often as those
			// calls do, with its own work beside the site.
			if why := m.rareBranch(cur, lit); why != "" {
				return Estimate{Why: "it runs " + why}
			}
			var first Estimate
			for i, call := range calls {
				est := m.Site(call, c)
				// The loop repeats the call, not the site's statement: no fix
				// may hoist anything out of it.
				est.Loop = inspector.Cursor{}
				if i == 0 {
					first = est
				}
				if est.PerItem {
					if why := m.noise(c, m.regionCost(lit, cur, true, true), "each call also calls"); why != "" {
						est.PerItem, est.Why = false, why
					}
					return est
				}
			}
			return first
		}
		if m.litEntry(lit) {
			return Estimate{PerItem: true, Presumed: true, Text: "once per call of the function literal at " + m.position(lit.Node().Pos()) +
				" (it returns a hash of what it is given: its holder calls it once per item it hashes)",
				Evidence: []Evidence{{lit.Node().Pos(), "hashing-function", "the function literal returns a hash of what it is given, which its holder calls it for once per item"}}}
		}
		return Estimate{Why: "it is in a function literal that runs an unknown number of times"}
	}
	if f.reason == nil {
		if why := m.shown[f]; why != "" {
			return Estimate{Why: "it runs once per call of " + fn.Name() + ", " + why}
		}
		return Estimate{Why: "it runs once per call of " + fn.Name() + ", and nothing shows " + fn.Name() + " to run per item"}
	}
	if why := m.rareBranch(cur, fnCur); why != "" {
		return Estimate{Why: "it runs " + why}
	}
	// Each caller's path is its own: work that one caller does beside the
	// call is not work of the calls another makes (an encryption's random
	// IV beside each record's MAC, which decryption computes without it).
	// The cheapest call that repeats f decides: one in a loop, or by a
	// function that runs per item by evidence of its own, not rarely.
	est := m.chainSite(f, fnCur, cur, c)
	for _, g := range m.order {
		for _, e := range g.calls {
			if est.PerItem || f.reason.kind != byCaller && f.reason.kind != byLoop {
				return est
			}
			if e.callee != f || e == f.reason.via || m.rareOf(e) != "" || !e.loop.Valid() && (g.reason == nil || g.reason.kind == byCaller) {
				continue
			}
			saved := f.reason
			f.reason = &reason{kind: byCaller, via: e}
			if e.loop.Valid() {
				f.reason.kind = byLoop
			}
			if alt := m.chainSite(f, fnCur, cur, c); alt.PerItem {
				est = alt
			}
			f.reason = saved
		}
	}
	return est
}

// chainSite estimates the site at cur, of cost c, in the function f (at
// fnCur) that runs per item by f.reason: what each repetition does beside
// it, in f and along the chain of its callers.
func (m *Model) chainSite(f *fnInfo, fnCur, cur inspector.Cursor, c Cost) Estimate {
	est := Estimate{Text: "once per call of " + f.fn.Name() + m.reasonText(f)}
	est.Evidence = m.evidence(f)
	root := m.funcs[m.Root(f.fn)]
	est.Presumed = root != nil && root.reason != nil && (root.reason.kind == byEntry || root.reason.kind == byLiteral)
	w := m.regionCost(fnCur, cur, true, true)
	// A call that hashes per item in a loop of its own hashes a collection:
	// what it allocates once beside that loop is shared by every item. Not
	// so in a recursion, whose loop hands each item to a call of its own
	// (a tree's children, each hashed by the same function).
	if loop := m.hashingLoop(f); loop.Valid() && !m.inCycle(f) {
		hash := work{class: Moderate, what: "a hash per iteration of its loop", pos: loop.Node().Pos()}
		if call := m.hashingCall(f, loop); call != nil {
			// Each iteration calls a function that builds a hasher of
			// its own (PBKDF2's s.hmac(password, prev)): a hasher built
			// once beside them, however costly, is one of many.
			hash = work{class: Heavy, what: "a hasher built per iteration of its loop by " + types.ExprString(call.Fun), pos: call.Pos()}
		}
		w = w.more(hash)
	}
	seen := map[*fnInfo]bool{f: true}
	for r, n := f.reason, 0; r != nil && r.via != nil && n < 8; r, n = r.via.caller.reason, n+1 {
		if seen[r.via.caller] {
			break // a recursion: its work beside the call is counted already
		}
		seen[r.via.caller] = true
		region := r.via.caller.cur
		if r.kind == byLoop {
			region = loopBody(r.via.loop)
		} else if r.kind == byLiteral {
			region = r.via.lit
		} else if m.hashesCollection(r.via.caller, r.via.callee, 3) {
			// Once per call of a caller that hashes a whole collection
			// beside the call (an epoch's seed, then every validator
			// shuffled with it): a hash per item of that collection is the
			// work of each repetition.
			w = w.more(work{class: Moderate, what: r.via.caller.fn.Name() + "'s hashing of a whole collection beside the call", pos: r.via.pos})
		}
		w = w.more(m.regionCost(region, m.callAt(region, r.via.pos), true, false))
		if r.kind == byLiteral || r.kind == byLoop && m.iterates(r.via) {
			// The literal's holder, which repeats it, is not its
			// enclosing function; what runs around a loop whose
			// iterations go on from each other (PBKDF2's, a log's
			// replay) runs once for all of them, not beside each.
			break
		}
	}
	if root != nil && root.reason != nil && root.reason.kind == byRole {
		if role := m.cfg.Role(root.fn); role.Around > Cheap {
			w = w.more(work{class: role.Around, what: role.What, pos: root.fn.Pos()})
		}
	}
	est.Why = m.noise(c, w, "each call also does")
	est.PerItem = est.Why == ""
	if est.PerItem && est.Presumed {
		// The presumption yields to what the package shows of the entry's
		// callers: the request it is given, or the work of every call the
		// package makes of it.
		if why := m.noise(c, w.more(m.handlesRequest(root)), "each call also does"); why != "" {
			return Estimate{Why: "it runs once per call of " + root.fn.Name() + ": " + why}
		}
		if why := m.besideCallers(root, c, w, 3); why != "" {
			return Estimate{Why: "it runs once per call of " + root.fn.Name() + ", which the package calls only beside costlier work: " + why}
		}
	}
	return est
}

// iterates reports whether each iteration of the loop that repeats the call
// of the edge e goes on from the one before: the loop has no condition (it
// runs until what it reads ends), or the call is given a variable that the
// loop's body assigns, and works on what the one before produced (prev = ui
// of ui := s.hmac(password, prev)), as an iterated hash does.
func (m *Model) iterates(e *callEdge) bool {
	if l, ok := e.loop.Node().(*ast.ForStmt); ok && l.Cond == nil {
		return true
	}
	body := loopBody(e.loop)
	call := m.callAt(body, e.pos)
	if !call.Valid() || call.ParentEdgeKind() != edge.AssignStmt_Rhs {
		return false
	}
	// The variables the call's results go to: ui, err := s.hmac(...).
	results := map[types.Object]bool{}
	for _, lhs := range call.Parent().Node().(*ast.AssignStmt).Lhs {
		if id, ok := lhs.(*ast.Ident); ok {
			results[m.cfg.Info.ObjectOf(id)] = true
		}
	}
	args := map[types.Object]bool{}
	for _, arg := range call.Node().(*ast.CallExpr).Args {
		if id, ok := ast.Unparen(arg).(*ast.Ident); ok {
			if v, ok := m.cfg.Info.Uses[id].(*types.Var); ok && !v.IsField() {
				args[v] = true
			}
		}
	}
	// An argument that a result is, or is assigned: prev = ui.
	for v := range args {
		if results[v] {
			return true
		}
	}
	for c := range body.Preorder((*ast.AssignStmt)(nil)) {
		as := c.Node().(*ast.AssignStmt)
		if len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, lhs := range as.Lhs {
			l, lok := lhs.(*ast.Ident)
			r, rok := ast.Unparen(as.Rhs[i]).(*ast.Ident)
			if lok && rok && args[m.cfg.Info.ObjectOf(l)] && results[m.cfg.Info.Uses[r]] {
				return true
			}
		}
	}
	return false
}

// callAt returns the call at pos within region, or an invalid cursor.
func (m *Model) callAt(region inspector.Cursor, pos token.Pos) inspector.Cursor {
	for c := range m.cfg.Calls.Within(region) {
		if c.Node.Pos() == pos {
			return c.Cursor
		}
	}
	return inspector.Cursor{}
}

// sameCollection returns the other range loops of the function at fn over
// the collection that loop ranges over (the same variable or field): the
// work each item costs is the work of every loop over it (processes started
// in one loop, waited for in the next, their outputs summed in a third).
func (m *Model) sameCollection(fn, loop inspector.Cursor) []inspector.Cursor {
	rs, ok := loop.Node().(*ast.RangeStmt)
	if !ok || collectionVar(m.cfg.Info, rs.X) == nil {
		return nil
	}
	var others []inspector.Cursor
	for c := range fn.Preorder((*ast.RangeStmt)(nil)) {
		// Nested loops are not the same items' work.
		if !encloses(loop, c) && !encloses(c, loop) && collectionVar(m.cfg.Info, c.Node().(*ast.RangeStmt).X) == collectionVar(m.cfg.Info, rs.X) {
			others = append(others, c)
		}
	}
	return others
}

// loopBody returns the cursor of the body of the loop at loop.
func loopBody(loop inspector.Cursor) inspector.Cursor {
	for c := range loop.Children() {
		if _, ok := c.Node().(*ast.BlockStmt); ok {
			return c
		}
	}
	return loop
}

// enclosing returns the function declaration that holds cur (or is cur), its
// function, and the innermost function literal between them that does not
// run in place.
func (m *Model) enclosing(cur inspector.Cursor) (decl inspector.Cursor, fn *types.Func, lit inspector.Cursor, ok bool) {
	for c := cur; c.Valid(); c = c.Parent() {
		switch n := c.Node().(type) {
		case *ast.FuncLit:
			if !lit.Valid() && !inPlace(c) {
				lit = c
			}
		case *ast.FuncDecl:
			fn, _ = m.cfg.Info.Defs[n.Name].(*types.Func)
			return c, fn, lit, true
		}
	}
	return inspector.Cursor{}, nil, inspector.Cursor{}, false
}

// perItemCallbacks are the functions that call their function argument once
// per element of what they are given.
var perItemCallbacks = map[string]string{
	"sort.Slice":             "comparison sort.Slice makes",
	"sort.SliceStable":       "comparison sort.SliceStable makes",
	"slices.SortFunc":        "comparison slices.SortFunc makes",
	"slices.SortStableFunc":  "comparison slices.SortStableFunc makes",
	"slices.IndexFunc":       "element slices.IndexFunc visits",
	"slices.ContainsFunc":    "element slices.ContainsFunc visits",
	"slices.DeleteFunc":      "element slices.DeleteFunc visits",
	"path/filepath.Walk":     "file filepath.Walk visits",
	"path/filepath.WalkDir":  "file filepath.WalkDir visits",
	"io/fs.WalkDir":          "file fs.WalkDir visits",
	"(*sync.Map).Range":      "entry sync.Map.Range visits",
	"strings.Map":            "rune strings.Map maps",
	"strings.FieldsFunc":     "rune strings.FieldsFunc tests",
	"(*bufio.Scanner).Split": "token the scanner splits",
}

// localCalls returns the calls of the function literal at lit when it is
// the value of a local variable of the function at fn that is assigned
// once and only ever called, outside the literal (get := func(...) {...};
// get(a); get(b)); else nil: the literal runs as often as those calls.
func (m *Model) localCalls(fn, lit inspector.Cursor) []inspector.Cursor {
	id, _ := values.AssignedAt(lit, false).(*ast.Ident)
	v, ok := m.cfg.Info.Defs[id].(*types.Var)
	if !ok || v == nil || v.Parent() == v.Pkg().Scope() {
		return nil // assigned, not defined, here; or a package variable
	}
	uses, ok := m.cfg.Vals.UsedAs(fn, v, edge.CallExpr_Fun)
	if !ok || slices.ContainsFunc(uses, lit.Contains) {
		return nil // assigned again, passed, stored, or called by itself
	}
	for i, use := range uses {
		uses[i] = use.Parent()
	}
	return uses
}

// iteratorCallback says what one call of the function literal at lit
// handles, when lit is passed to a function that calls it once per element
// of something, or returns "".
func (m *Model) iteratorCallback(lit inspector.Cursor) string {
	if lit.ParentEdgeKind() != edge.CallExpr_Args {
		return ""
	}
	call := lit.Parent().Node().(*ast.CallExpr)
	fn, ok := typeutil.Callee(m.cfg.Info, call).(*types.Func)
	if !ok {
		return ""
	}
	return perItemCallbacks[fn.FullName()]
}

// reasonText says why f runs per item, after "once per call of f": the
// chain of its callers up to the one that runs per item by its own
// evidence, and that evidence ("which visit calls (visit is marked
// //hashalloc:hot)"; "(it recurses: a → b → a, once per node it walks)").
func (m *Model) reasonText(f *fnInfo) string {
	var b strings.Builder
	g := f
	for n := 0; g.reason != nil; n++ {
		r := g.reason
		switch r.kind {
		case byCaller, byLoop:
			if n == 3 {
				b.WriteString(", …")
				for g.reason.kind == byCaller {
					g = g.reason.via.caller
				}
				continue
			}
			fmt.Fprintf(&b, ", which %s calls%s", r.via.caller.fn.Name(), r.via.viaText())
			if r.kind == byLoop {
				fmt.Fprintf(&b, " once per %s (the loop at %s)", r.via.item, m.position(r.via.loop.Node().Pos()))
				return b.String()
			}
			g = r.via.caller
			continue
		case byLiteral:
			fmt.Fprintf(&b, ", which the function literal at %s calls%s (it returns a hash of what it is given: its holder calls it once per item it hashes)", m.position(r.via.lit.Node().Pos()), r.via.viaText())
			return b.String()
		}
		subject := "it"
		if g != f {
			subject = g.fn.Name()
		}
		fmt.Fprintf(&b, " (%s %s)", subject, r.text)
		return b.String()
	}
	return b.String()
}

func (e *callEdge) viaText() string {
	if e.via == "" {
		return ""
	}
	return " " + e.via
}

// evidence lists what f's estimate rests on, from f to the root of its
// chain of callers.
func (m *Model) evidence(f *fnInfo) []Evidence {
	var ev []Evidence
	for r, n := f.reason, 0; r != nil && n < 16; n++ {
		fn := f.fn
		switch r.kind {
		case byCaller:
			ev = append(ev, Evidence{r.via.pos, "caller-chain", fn.Name() + " is called by " + r.via.caller.fn.Name()})
			f, r = r.via.caller, r.via.caller.reason
			continue
		case byLoop:
			ev = append(ev, Evidence{r.via.pos, "caller-chain", fn.Name() + " is called in a loop by " + r.via.caller.fn.Name()})
		case byRecursion:
			ev = append(ev, Evidence{fn.Pos(), "recursion", m.cycle(f)})
		case byRole:
			ev = append(ev, Evidence{fn.Pos(), "role", fn.Name() + " is " + m.cfg.Role(fn).Text})
		case byDirective:
			ev = append(ev, Evidence{fn.Pos(), "directive", fn.Name() + " is marked //hashalloc:hot"})
		case byProfile:
			ev = append(ev, Evidence{fn.Pos(), "profile", fmt.Sprintf("%s has %.0f%% of %s", fn.Name(), 100*m.cfg.Profile.Share(fn), m.cfg.Profile.Unit())})
		case byEntry:
			ev = append(ev, Evidence{fn.Pos(), "hashing-function", fn.Name() + " " + m.entryTextOf(f) + ", which its callers call it for once per item"})
		case byLiteral:
			ev = append(ev, Evidence{r.via.pos, "caller-chain", fn.Name() + " is called by the function literal at " + m.position(r.via.lit.Node().Pos())},
				Evidence{r.via.lit.Node().Pos(), "hashing-function", "the function literal returns a hash of what it is given, which its holder calls it for once per item"})
		case byChild:
			ev = append(ev, Evidence{fn.Pos(), "child-derivation", fn.Name() + " derives a child of its receiver by index, which its callers call it for once per child"})
		}
		break
	}
	return ev
}

// Repeats reports whether fn, a function of the package, runs per item.
func (m *Model) Repeats(fn *types.Func) bool {
	m.graph()
	f := m.funcs[fn]
	return f != nil && f.reason != nil
}

// HashesCollection reports whether fn, a function of the package, hashes a
// whole collection per call: in a loop of its own that repeats per item, or
// through a recursive helper of the package that walks it. What it
// allocates once per call is then shared by every item hashed.
func (m *Model) HashesCollection(fn *types.Func) bool {
	m.graph()
	f := m.funcs[fn]
	return f != nil && (m.hashingLoop(f).Valid() || m.hashesByRecursion(f))
}

// CallsItself reports whether fn calls itself directly.
func (m *Model) CallsItself(fn *types.Func) bool {
	m.graph()
	f := m.funcs[fn]
	return f != nil && slices.ContainsFunc(f.calls, func(c *callEdge) bool { return c.callee == f })
}

// Cost returns the fact of fn, a function of the package, when it costs
// more than an allocation per call, or makes calls that allocate their
// results: what exported functions export.
func (m *Model) Cost(fn *types.Func) (*CostFact, bool) {
	m.graph()
	f := m.funcs[fn]
	if f == nil {
		return nil, false
	}
	w, derives := m.funcCost(fn), m.derivesKey(f, 2)
	switch {
	case w.class > Cheap:
		return &CostFact{Class: w.class, What: w.what, Derives: derives}, true
	case w.allocs > 0 && m.cfg.ExportAllocs && !onlyError(fn.Signature()):
		// What a function that returns only an error allocates, beside
		// its work, is mostly its error, on failure (xerrors.Errorf).
		return &CostFact{What: w.allocWhat, Allocs: w.allocs, Derives: derives}, true
	}
	return &CostFact{Derives: true}, derives
}

// Share returns the share of the profile's samples in fn, when a profile
// covers the package.
func (m *Model) Share(fn *types.Func) (float64, bool) {
	m.graph()
	if !m.measured {
		return 0, false
	}
	return m.cfg.Profile.Share(fn), true
}

// ShortName spells fn as a reader knows it: io.Copy, (*bytes.Buffer).WriteTo.
func ShortName(fn *types.Func) string {
	if recv := fn.Signature().Recv(); recv != nil {
		qual := func(p *types.Package) string { return p.Name() }
		return "(" + types.TypeString(recv.Type(), qual) + ")." + fn.Name()
	}
	if fn.Pkg() == nil {
		return fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}

// Root returns the function at the root of the chain of callers that makes
// fn run per item: fn itself when its own evidence does, or when it does
// not run per item.
func (m *Model) Root(fn *types.Func) *types.Func {
	m.graph()
	f := m.funcs[fn]
	for n := 0; f != nil && f.reason != nil && f.reason.via != nil && f.reason.kind == byCaller && n < 64; n++ {
		f = f.reason.via.caller
	}
	if f == nil {
		return fn
	}
	return f.fn
}
