package frequency

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// buildCalls records the calls between the package's functions: static
// calls, calls through an interface the package declares to the package's
// methods that implement it (an interface of another package, io.Reader,
// has implementations all over the program: the package's few are no
// evidence of what a call reaches), and calls through a function value to the package's functions of the
// same type whose value is taken. A call in a function literal that does not
// run in place is a call of the literal, whose frequency is unknown: it is
// kept only when a loop of the literal repeats it, or when the literal runs
// per item by presumption (see litEntry): then it is kept apart, in
// litCalls, as the call of no function of the package.
func (m *Model) buildCalls() {
	info := m.cfg.Info
	// The package's methods by name, and its functions taken as values.
	methods := map[string][]*fnInfo{}
	var values []*fnInfo
	taken := map[*types.Func]bool{}
	for cur := range m.cfg.Root.Preorder((*ast.Ident)(nil)) {
		fn, ok := info.Uses[cur.Node().(*ast.Ident)].(*types.Func)
		if !ok || fn.Pkg() != m.cfg.Pkg || m.funcs[fn.Origin()] == nil {
			continue
		}
		e := cur
		if e.ParentEdgeKind() == edge.SelectorExpr_Sel {
			e = e.Parent()
		}
		if e.ParentEdgeKind() != edge.CallExpr_Fun && !taken[fn.Origin()] {
			taken[fn.Origin()] = true
			values = append(values, m.funcs[fn.Origin()])
		}
	}
	for _, f := range m.order {
		if f.fn.Signature().Recv() != nil {
			methods[f.fn.Name()] = append(methods[f.fn.Name()], f)
		}
	}
	m.taken = taken
	entries := map[inspector.Cursor]bool{} // litEntry of each literal met

	for _, f := range m.order {
		if f.test {
			continue // no evidence: see Config.Tests
		}
		seen := map[*fnInfo]bool{}
		for c := range m.cfg.Calls.Within(f.cur) {
			cur, call := c.Cursor, c.Node
			lit := m.literalOf(cur, f.cur)
			var targets []*fnInfo
			via := ""
			if callee := c.Callee; callee != nil {
				if g := m.funcs[callee.Origin()]; g != nil {
					targets = append(targets, g)
				}
			} else if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodVal && m.ownInterface(s.Recv()) {
					iface, _ := s.Recv().Underlying().(*types.Interface)
					for _, g := range methods[sel.Sel.Name] {
						recv := g.fn.Signature().Recv().Type()
						if iface != nil && (types.Implements(recv, iface) || types.Implements(types.NewPointer(recv), iface)) {
							targets = append(targets, g)
						}
					}
					via = "through the interface " + types.TypeString(s.Recv(), types.RelativeTo(m.cfg.Pkg))
				}
			}
			if len(targets) == 0 && !isFuncName(info, call.Fun) {
				if sig, ok := info.TypeOf(call.Fun).Underlying().(*types.Signature); ok {
					for _, g := range values {
						if types.Identical(sig, g.fn.Signature()) {
							targets = append(targets, g)
						}
					}
					via = "through the function value " + types.ExprString(call.Fun)
				}
			}
			if len(targets) == 0 {
				continue
			}
			e := callEdge{caller: f, pos: call.Pos(), tail: cur.ParentEdgeKind() == edge.ReturnStmt_Results && !lit.Valid(), via: via}
			if loop, info, ok := m.repeatingLoop(cur); ok {
				e.loop, e.item = loop, info.item
				e.rareAt, e.rareIn = cur, loopBody(loop)
			} else if lit.Valid() {
				entry, ok := entries[lit]
				if !ok {
					entry = m.litEntry(lit)
					entries[lit] = entry
				}
				if each := m.iteratorCallback(lit); each != "" {
					e.loop, e.item, e.rareKnown = lit, each, true
				} else if entry {
					e.lit, e.rareAt, e.rareIn = lit, cur, lit
				} else {
					continue // a literal that runs an unknown number of times
				}
			} else {
				e.rareAt, e.rareIn = cur, f.cur
			}
			for _, g := range targets {
				if len(targets) > 1 && seen[g] {
					continue
				}
				seen[g] = true
				ge := e
				ge.callee = g
				if ge.lit.Valid() {
					m.litCalls = append(m.litCalls, &ge)
				} else {
					f.calls = append(f.calls, &ge)
				}
			}
		}
	}
}

// rareOf returns the rare condition that guards the call of c, worked out
// the first time it is asked: most edges never are.
func (m *Model) rareOf(c *callEdge) string {
	if !c.rareKnown {
		c.rare, c.rareKnown = m.rareBranch(c.rareAt, c.rareIn), true
	}
	return c.rare
}

// isFuncName reports whether fun names a function, a method or a builtin,
// or is a type (a conversion): not a function value.
func isFuncName(info *types.Info, fun ast.Expr) bool {
	switch e := ast.Unparen(fun).(type) {
	case *ast.Ident:
		switch info.Uses[e].(type) {
		case *types.Func, *types.Builtin, *types.TypeName:
			return true
		}
	case *ast.SelectorExpr:
		if s, ok := info.Selections[e]; ok {
			return s.Kind() != types.FieldVal
		}
		switch info.Uses[e.Sel].(type) {
		case *types.Func, *types.Builtin, *types.TypeName:
			return true
		}
	case *ast.IndexExpr, *ast.IndexListExpr, *ast.ArrayType, *ast.FuncType, *ast.MapType, *ast.ChanType, *ast.InterfaceType, *ast.StructType:
		return true
	}
	if tv, ok := info.Types[fun]; ok && tv.IsType() {
		return true
	}
	return false
}

// literalOf returns the innermost function literal between cur and top that
// does not run in place, or an invalid cursor.
func (m *Model) literalOf(cur, top inspector.Cursor) inspector.Cursor {
	for c := cur.Parent(); c.Valid() && c != top; c = c.Parent() {
		if _, ok := c.Node().(*ast.FuncLit); ok && !inPlace(c) {
			return c
		}
	}
	return inspector.Cursor{}
}

// resolve decides why each function runs per item, if it does: first by
// its own evidence (a directive, a role, recursion, a hashing function that
// code outside it calls), then by the loops that call it, then by the
// function literals that run per item by presumption and call it (what Site
// says of the literal's own sites, it says of the functions it calls), then
// by its callers, breadth first, so that each function keeps the shortest
// chain to its evidence. A profile that covers the package overrides the
// call graph.
func (m *Model) resolve() {
	var queue []*fnInfo
	for _, f := range m.order {
		switch {
		case f.marked:
			f.reason = &reason{kind: byDirective, text: "is marked //hashalloc:hot"}
		case m.cfg.Role != nil && m.cfg.Role(f.fn).Text != "":
			f.reason = &reason{kind: byRole, text: "is " + m.cfg.Role(f.fn).Text}
		case m.inCycle(f):
			f.reason = &reason{kind: byRecursion, text: "recurses: " + m.cycle(f) + ", once per node it walks"}
		case m.isEntry(f):
			if why := m.perCollection(f); why != "" {
				m.shown[f] = why
				break
			}
			f.reason = &reason{kind: byEntry, text: m.entryTextOf(f) + ": its callers call it once per item they hash"}
		case m.isChild(f):
			f.reason = &reason{kind: byChild, text: "derives a child of its receiver by index: its callers call it once per child"}
		}
		if f.reason != nil {
			queue = append(queue, f)
		}
	}
	for _, f := range m.order {
		for _, c := range f.calls {
			if c.loop.Valid() && c.callee.reason == nil && m.rareOf(c) == "" {
				c.callee.reason = &reason{kind: byLoop, via: c}
				queue = append(queue, c.callee)
			}
		}
	}
	for _, c := range m.litCalls {
		if c.callee.reason == nil && m.rareOf(c) == "" {
			c.callee.reason = &reason{kind: byLiteral, via: c}
			queue = append(queue, c.callee)
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, c := range f.calls {
			if c.callee.reason == nil && m.rareOf(c) == "" {
				c.callee.reason = &reason{kind: byCaller, via: c}
				queue = append(queue, c.callee)
			}
		}
	}
	if p := m.cfg.Profile; p != nil && p.Covers(m.cfg.Pkg) {
		m.measured = true
		for _, f := range m.order {
			share := p.Share(f.fn)
			switch {
			case f.marked, f.test: // a profile of the program says nothing of its tests
			case share < m.cfg.Threshold:
				f.reason, f.cold = nil, true
			case f.reason == nil || f.reason.kind == byLoop || f.reason.kind == byCaller || f.reason.kind == byEntry || f.reason.kind == byLiteral || f.reason.kind == byChild:
				f.reason = &reason{kind: byProfile, text: "is hot in the profile"} // its share is in the evidence
			}
		}
	}
}

// perCollection says what the package itself shows of how often the entry
// f runs, when that is once per collection: f presumes callers that call
// it once per item they hash, but the package calls it, and every call is
// made once per call of a function that hashes a whole collection beside it
// (an epoch's seed drawn before the loop that hashes each validator with
// it): not in a loop that repeats it, nor in a function literal, whose
// frequency is unknown, and f's value is not taken nor its method reached
// through an interface the package declares, whose calls are not its
// calls. Then the presumption yields to what the package shows, and "" is
// returned when it does not show that. A caller that makes a value (a
// token built, a request signed) shows nothing of how often it runs: the
// entry's presumption stands beside it.
func (m *Model) perCollection(f *fnInfo) string {
	if f.fn.Signature().Recv() != nil && m.cfg.Vals.InterfaceMethod(m.cfg.Root.Inspector(), f.fn.Name()) {
		return ""
	}
	calls, ok := m.callsOf(f)
	if !ok {
		return "" // its value is taken
	}
	var callers []string
	seen := map[*fnInfo]bool{}
	for _, call := range calls {
		_, fn, lit, ok := m.enclosing(call)
		g := m.funcs[fn]
		switch {
		case !ok || g == nil || g.test:
			continue // a package initializer, test code: no evidence
		case g == f || lit.Valid():
			return "" // a recursion, or a literal that runs an unknown number of times
		}
		// Neither does g hash a collection, nor derive a key (in counter
		// mode or by a chain of hashes), itself or through a function of
		// the package it calls but f.
		if _, _, repeats := m.repeatingLoop(call); repeats || !m.hashesCollection(g, f, 3) && !m.derivesKey(g, 0) && !m.chainsKeys(g) && !slices.ContainsFunc(g.calls, func(c *callEdge) bool {
			return c.callee != f && c.callee != g && m.rareOf(c) == "" && (m.derivesKey(c.callee, 1) || m.chainsKeys(c.callee))
		}) {
			return ""
		}
		if !seen[g] {
			seen[g] = true
			callers = append(callers, g.fn.Name()+" ("+m.position(call.Node().Pos())+")")
		}
	}
	if len(callers) == 0 {
		return ""
	}
	if len(callers) > 3 {
		callers = append(callers[:3], "…")
	}
	return "which the package calls only beside hashing a collection or deriving a key, once per collection or key: from " + strings.Join(callers, ", ")
}

// hashesCollection reports whether g hashes a whole collection per call,
// in a loop of its own, through a recursive helper, or through a function
// of the package it calls (but f), up to depth calls deep.
func (m *Model) hashesCollection(g, f *fnInfo, depth int) bool {
	return m.hashingLoop(g).Valid() || m.hashesByRecursion(g) || depth > 0 && slices.ContainsFunc(g.calls, func(c *callEdge) bool {
		return c.callee != f && c.callee != g && m.rareOf(c) == "" && m.hashesCollection(c.callee, f, depth-1)
	})
}

// ownInterface reports whether t is an interface type the package declares.
func (m *Model) ownInterface(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	return ok && types.IsInterface(named) && named.Obj().Pkg() == m.cfg.Pkg
}

// isEntry reports whether f is a hashing function that code outside it
// calls once per item it hashes: it is given data (a parameter that is not a
// number: integers index or count, they are not what is hashed); its results
// are a digest, a MAC or a verdict on one (byte slices and arrays, strings,
// booleans, integers and errors, but for an integer with an error, which is
// a count); it hashes, itself or through a function of the package it calls,
// but in no loop of its own (then it hashes a collection per call); and code
// outside it can call it: it is exported, or a method with an exported name
// (an interface may reach it), or its value is taken. A function that makes
// a value (a constructor: its result is a struct, a pointer, a map or an
// interface) runs once per value made, not per item, unless what it returns
// is what a hash of what it is given selects (see selects); one that returns a
// count, as io.Writer's Write and io.Reader's Read do, runs once per chunk
// of a stream its role decides on; one given a reader or a writer hashes or
// writes a whole stream per call, a collection; a decoding method
// (UnmarshalBinary and the like, see decoder) runs once per value decoded.
func (m *Model) isEntry(f *fnInfo) bool {
	if !(f.fn.Exported() || m.taken[f.fn]) || decoder(f.fn) {
		return false
	}
	sig := f.fn.Signature()
	shape := hashShape(sig)
	if !shape && !givenData(sig) || !m.hashes(f, 2) || m.hashingLoop(f).Valid() || m.hashesByRecursion(f) || m.derivesKey(f, 2) || m.chainsKeys(f) || m.keptForMethods(sig) {
		return false
	}
	return shape || verifierShape(sig) && m.compares(f) || m.selects(f) || m.returnsHash(f)
}

// entryTextOf is entryText of f, or, when f returns what a hash of what it
// is given selects (see selects), says so.
func (m *Model) entryTextOf(f *fnInfo) string {
	if sig := f.fn.Signature(); !hashShape(sig) && m.selects(f) {
		return "returns what a hash of what it is given selects"
	}
	return entryText(f.fn.Signature())
}

// selects reports whether f returns what a hash of what it is given
// selects: a result is, or is computed from, an element of a map or a
// slice read at an index that a hash computes, through the local variables
// it is assigned to (a ring's node at the position of a key's hash, a
// shard's value). Such a lookup runs once per key its callers look up: the
// element is one the collection holds, not a value made per call, whatever
// its type.
func (m *Model) selects(f *fnInfo) bool {
	var picks func(region inspector.Cursor, depth int) bool
	// picks reports whether what region computes is an element read at a
	// hashed index, itself or through the local variables it reads.
	picks = func(region inspector.Cursor, depth int) bool {
		for cur := range region.Preorder((*ast.IndexExpr)(nil)) {
			ix := cur.Node().(*ast.IndexExpr)
			switch m.cfg.Info.TypeOf(ix.X).Underlying().(type) {
			case *types.Map, *types.Slice:
				if m.hashed(f, cur.ChildAt(edge.IndexExpr_Index, -1), 4) {
					return true
				}
			}
		}
		return depth > 0 && m.fromLocals(f, region, func(def inspector.Cursor) bool { return picks(def, depth-1) })
	}
	if m.cfg.Hashes == nil {
		return false
	}
	for cur := range f.cur.Preorder((*ast.ReturnStmt)(nil)) {
		if m.literalOf(cur, f.cur).Valid() {
			continue
		}
		for res := range cur.Children() {
			if picks(res, 4) {
				return true
			}
		}
	}
	return false
}

// hashed reports whether what region, in f, computes comes from a hash,
// through the local variables it reads, up to depth definitions back.
func (m *Model) hashed(f *fnInfo, region inspector.Cursor, depth int) bool {
	return m.cfg.Hashes(nil, region) || depth > 0 && m.fromLocals(f, region, func(def inspector.Cursor) bool { return m.hashed(f, def, depth-1) })
}

// returnsHash reports whether f returns a hash of what it is given as a
// value of an interface type (an expression's value, as any): a return
// gives a result of an interface type a digest's value (bytes, a string, a
// number) that a hash computes from what derives from f's parameters. Its
// type says nothing of it; its value does.
func (m *Model) returnsHash(f *fnInfo) bool {
	results := f.fn.Signature().Results()
	for cur := range f.cur.Preorder((*ast.ReturnStmt)(nil)) {
		ret := cur.Node().(*ast.ReturnStmt)
		if len(ret.Results) != results.Len() || m.literalOf(cur, f.cur).Valid() {
			continue
		}
		for i, r := range ret.Results {
			rt, t := results.At(i).Type(), m.cfg.Info.TypeOf(r)
			if !types.IsInterface(rt) || values.IsError(rt) || t == nil || types.IsInterface(t) || !digestLike(t) || isBasic(t, types.IsBoolean) {
				continue
			}
			if res := cur.ChildAt(edge.ReturnStmt_Results, i); m.hashed(f, res, 4) && m.derives(f, res, 4) {
				return true
			}
		}
	}
	return false
}

// derives reports whether what region, in f, computes derives from a
// parameter of f that gives it data (not a number), itself or through the
// values of the local variables it reads (see fromLocals), up to depth
// variables back.
func (m *Model) derives(f *fnInfo, region inspector.Cursor, depth int) bool {
	params := f.cur.Node().(*ast.FuncDecl).Type.Params
	for cur := range region.Preorder((*ast.Ident)(nil)) {
		if v, ok := m.cfg.Info.Uses[cur.Node().(*ast.Ident)].(*types.Var); ok && params.Pos() <= v.Pos() && v.Pos() < params.End() && !isBasic(v.Type(), types.IsNumeric) {
			return true
		}
	}
	return depth > 0 && m.fromLocals(f, region, func(def inspector.Cursor) bool { return m.derives(f, def, depth-1) })
}

// fromLocals reports whether an expression that a local variable of f
// read in region may take its value from (see values.Index.Sources)
// satisfies ok.
func (m *Model) fromLocals(f *fnInfo, region inspector.Cursor, ok func(def inspector.Cursor) bool) bool {
	body := f.cur.Node().(*ast.FuncDecl).Body
	seen := map[*types.Var]bool{}
	for cur := range region.Preorder((*ast.Ident)(nil)) {
		v, isVar := m.cfg.Info.Uses[cur.Node().(*ast.Ident)].(*types.Var)
		if !isVar || seen[v] || v.IsField() || v.Pos() < body.Pos() || v.Pos() >= body.End() {
			continue // not a local variable of f
		}
		seen[v] = true
		for src := range m.cfg.Vals.Sources(f.cur, v) {
			if ok(src) {
				return true
			}
		}
	}
	return false
}

// keptForMethods reports whether a result of sig is of a type the package
// declares whose methods hash with the value as an argument, as a key
// (MessageIntegrity(md5 of a password), whose AddTo MACs each message with
// it): a value made to be kept, once per credential or per session, while
// its methods do the work of each item. Such a method is given the item (it
// has a parameter) and does not derive another value of the type (a Merkle
// hash's method that hashes it with a sibling is a digest's use, not a
// key's).
func (m *Model) keptForMethods(sig *types.Signature) bool {
	for v := range sig.Results().Variables() {
		named, ok := types.Unalias(v.Type()).(*types.Named)
		if !ok || named.Obj().Pkg() != m.cfg.Pkg {
			continue
		}
		for meth := range named.Methods() {
			g, recv := m.funcs[meth], meth.Signature().Recv()
			if g == nil || recv == nil || meth.Signature().Params().Len() == 0 || slices.ContainsFunc(slices.Collect(meth.Signature().Results().Variables()), func(r *types.Var) bool {
				return types.Identical(r.Type(), named) || types.Identical(r.Type(), types.NewPointer(named))
			}) {
				continue // it derives another value of the type
			}
			for cur := range g.cur.Preorder((*ast.CallExpr)(nil)) {
				call := cur.Node().(*ast.CallExpr)
				callee := typeutil.StaticCallee(m.cfg.Info, call)
				if callee == nil || m.funcs[callee] == nil || !m.hashes(m.funcs[callee], 1) {
					continue
				}
				for _, arg := range call.Args {
					if id, ok := ast.Unparen(arg).(*ast.Ident); ok && m.cfg.Info.Uses[id] == recv {
						return true
					}
				}
			}
		}
	}
	return false
}

// derivesKey reports whether f derives key material, itself or through
// the functions of the package it calls, up to depth calls deep: it hashes,
// in a loop that counts the digest-sized blocks of an output (counter
// mode: TLS's P_hash, HKDF's Expand), or calls, outside its rare branches,
// a function of another package that does: HKDF's, or one whose fact says
// so. A key is derived once per session, handshake or login that needs
// it, and the derivation is the work of each call, not an item among many:
// its callers are not presumed to call it per item.
func (m *Model) derivesKey(f *fnInfo, depth int) bool {
	if _, ok := m.kdfLoop(f); ok {
		return true
	}
	for c := range m.cfg.Calls.Within(f.cur) {
		fn := c.Callee
		if fn == nil || fn.Pkg() == nil || fn.Pkg() == m.cfg.Pkg || !fn.Exported() || m.literalOf(c.Cursor, f.cur).Valid() {
			continue
		}
		fact, ok := &CostFact{}, false
		if m.cfg.ImportCost != nil {
			fact, ok = m.cfg.ImportCost(fn)
		}
		if (kdfPkgs[fn.Pkg().Path()] || ok && fact.Derives) && m.rareBranch(c.Cursor, f.cur) == "" {
			return true
		}
	}
	return depth > 0 && slices.ContainsFunc(f.calls, func(c *callEdge) bool {
		return c.callee != f && m.rareOf(c) == "" && m.derivesKey(c.callee, depth-1)
	})
}

// kdfPkgs are the packages whose functions derive key material in counter
// mode.
var kdfPkgs = map[string]bool{"crypto/hkdf": true, "golang.org/x/crypto/hkdf": true}

// minKeyChain is the number of hashes, each of the one before, from which
// a chain of them derives a key: a double hash is a digest's own.
const minKeyChain = 3

// chainsKeys reports whether f returns a key it derives by a chain of
// hashes, each given what the one before returned, minKeyChain of them or
// more (a signing key derived from a secret, then a date, a region and a
// service, each an HMAC keyed with the one before), the last given nothing
// beside the one before but constants (the label that closes the key's
// scope, "aws4_request"): a key derivation, run once per key its callers
// need, as in counter mode. A function that goes on to hash what it is
// given with the key (a signer deriving its key per call) returns a hash of
// an item, not a key. A link is a call that hashes and returns bytes (a
// function of the package that hashes, a sum function, a hasher's Sum),
// given the bytes the link before returned, directly, through a call that
// only converts or encodes them, or through a local variable, in f's own
// body.
func (m *Model) chainsKeys(f *fnInfo) (chains bool) {
	if chains, ok := m.keyChains[f]; ok {
		return chains
	}
	defer func() { m.keyChains[f] = chains }()
	depth := map[*types.Var]int{}
	labeled := map[*types.Var]bool{} // its link's other arguments are constants
	// link returns the length of the chain that ends at the call at cur
	// (0 when none does), and whether its last link, when the call is
	// one, is given nothing but the chain and constants.
	var link func(cur inspector.Cursor) (int, bool)
	link = func(cur inspector.Cursor) (int, bool) {
		call := cur.Node().(*ast.CallExpr)
		n, labels := 0, true
		nested := false
		for i := range call.Args {
			arg := cur.ChildAt(edge.CallExpr_Args, i)
			chain, item := 0, false
			for c := range arg.Preorder((*ast.Ident)(nil), (*ast.CallExpr)(nil)) {
				switch a := c.Node().(type) {
				case *ast.Ident:
					if v, ok := m.cfg.Info.Uses[a].(*types.Var); ok {
						chain, item = max(chain, depth[v]), item || depth[v] == 0
					}
				case *ast.CallExpr:
					d, _ := link(c)
					chain, nested = max(chain, d), nested || m.cfg.Hashes != nil && m.cfg.Hashes(nil, c)
				}
			}
			n = max(n, chain)
			labels = labels && (chain > 0 || !item)
		}
		if !m.linkCall(cur, nested) {
			return n, false // not a link: what it is given passes through
		}
		return n + 1, labels
	}
	for cur := range f.cur.Preorder((*ast.AssignStmt)(nil), (*ast.ReturnStmt)(nil)) {
		if m.literalOf(cur, f.cur).Valid() {
			continue
		}
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != 1 || len(n.Rhs) != 1 {
				continue
			}
			id, ok := n.Lhs[0].(*ast.Ident)
			if _, isCall := n.Rhs[0].(*ast.CallExpr); !ok || !isCall {
				continue
			}
			if v, _ := m.cfg.Info.ObjectOf(id).(*types.Var); v != nil {
				depth[v], labeled[v] = link(cur.ChildAt(edge.AssignStmt_Rhs, 0))
			}
		case *ast.ReturnStmt:
			for res := range cur.Children() {
				switch r := res.Node().(type) {
				case *ast.CallExpr:
					if d, labels := link(res); d >= minKeyChain && labels {
						return true
					}
				case *ast.Ident:
					if v, ok := m.cfg.Info.Uses[r].(*types.Var); ok && depth[v] >= minKeyChain && labeled[v] {
						return true
					}
				}
			}
		}
	}
	return false
}

// linkCall reports whether the call at cur is a link of a chain of hashes
// (see chainsKeys): it returns bytes, and hashes itself (a function of the
// package that hashes, or a call that hashes when none of its arguments,
// nested says, does: a sum function, a hasher's Sum), not only through
// what it is given.
func (m *Model) linkCall(cur inspector.Cursor, nested bool) bool {
	call := cur.Node().(*ast.CallExpr)
	if !digestLike(m.cfg.Info.TypeOf(call)) || values.IsError(m.cfg.Info.TypeOf(call)) || isBasic(m.cfg.Info.TypeOf(call), types.IsBoolean|types.IsInteger) {
		return false // no bytes: a hasher, a verdict, a count
	}
	if callee := typeutil.StaticCallee(m.cfg.Info, call); callee != nil && m.funcs[callee.Origin()] != nil {
		return m.hashes(m.funcs[callee.Origin()], 1)
	}
	return !nested && m.cfg.Hashes != nil && m.cfg.Hashes(nil, cur)
}

// kdfLoop returns the loop of f, outside the function literals that do not
// run in place, that counts the digest-sized blocks of an output, when f
// hashes: f derives key material in counter mode.
func (m *Model) kdfLoop(f *fnInfo) (inspector.Cursor, bool) {
	if !m.hashes(f, 0) {
		return inspector.Cursor{}, false
	}
	for cur := range f.cur.Preorder((*ast.ForStmt)(nil)) {
		if !m.literalOf(cur, f.cur).Valid() && m.digestBlocks(cur.Node().(*ast.ForStmt)) {
			return cur, true
		}
	}
	return inspector.Cursor{}, false
}

// isChild reports whether f derives a child of its receiver by index and
// hashes to do so: a method with an exported name whose one parameter is an
// integer and whose result is a value of the receiver's own type, alone or
// with an error (an HD key's Derive(i uint32) (*ExtendedKey, error)). Code
// outside it enumerates the children, calling it once per index: per item.
// One that hashes in a loop of its own hashes a collection per call.
func (m *Model) isChild(f *fnInfo) bool {
	sig := f.fn.Signature()
	if sig.Recv() == nil || !f.fn.Exported() || sig.Params().Len() != 1 || !isBasic(sig.Params().At(0).Type(), types.IsInteger) {
		return false
	}
	res := sig.Results()
	if res.Len() == 0 || res.Len() > 2 || !types.Identical(res.At(0).Type(), sig.Recv().Type()) ||
		res.Len() == 2 && !values.IsError(res.At(1).Type()) {
		return false
	}
	return m.hashes(f, 2) && !m.hashingLoop(f).Valid()
}

// verifierShape reports whether sig is that of a function that checks what
// it is given and returns what it checked with its verdict (a parsed
// request's user and whether its MAC is valid): it is given data, and a
// boolean or an error is among its results. With a comparison of the hash
// it computes in its own body (see compares), it is a hashing function; a
// constructor (New(key) (*T, error)) compares nothing itself.
func verifierShape(sig *types.Signature) bool {
	verdict := false
	for v := range sig.Results().Variables() {
		b, ok := v.Type().Underlying().(*types.Basic)
		verdict = verdict || values.IsError(v.Type()) || ok && b.Kind() == types.Bool
	}
	return verdict && givenData(sig)
}

// givenData reports whether a function of signature sig is given data to
// hash (a parameter that is not a number: integers index or count, they are
// not what is hashed) and no stream, which it would hash or write whole per
// call: a collection.
func givenData(sig *types.Signature) bool {
	given := false
	for v := range sig.Params().Variables() {
		if isStream(v.Type()) {
			return false
		}
		given = given || !isBasic(v.Type(), types.IsNumeric)
	}
	return given
}

// compares reports whether f compares bytes or strings itself
// (hmac.Equal, subtle.ConstantTimeCompare, bytes.Equal, == or != of
// strings or arrays, neither of them a constant): a function that returns
// a value with its verdict is a hashing function when the verdict is on a
// hash it computes, a verifier.
func (m *Model) compares(f *fnInfo) bool {
	info := m.cfg.Info
	for cur := range f.cur.Preorder((*ast.CallExpr)(nil), (*ast.BinaryExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(info, n).(*types.Func); ok && fn.Pkg() != nil {
				switch fn.FullName() {
				case "crypto/hmac.Equal", "crypto/subtle.ConstantTimeCompare", "bytes.Equal", "bytes.Compare":
					return true
				}
			}
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ || info.Types[n.X].Value != nil || info.Types[n.Y].Value != nil {
				continue // not an equality, or with a constant: no hash compared
			}
			switch t := info.TypeOf(n.X).Underlying().(type) {
			case *types.Basic:
				if t.Info()&types.IsString != 0 {
					return true
				}
			case *types.Array:
				return true
			}
		}
	}
	return false
}

// decoder reports whether fn is the method of a standard decoding
// interface (encoding.BinaryUnmarshaler, encoding.TextUnmarshaler,
// json.Unmarshaler, gob.GobDecoder): func([]byte) error, which a decoder
// calls once per value it decodes (a filter loaded from a file), not once
// per item hashed.
func decoder(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 ||
		!types.Identical(sig.Params().At(0).Type(), types.NewSlice(types.Typ[types.Byte])) || !values.IsError(sig.Results().At(0).Type()) {
		return false
	}
	switch fn.Name() {
	case "UnmarshalBinary", "UnmarshalText", "UnmarshalJSON", "GobDecode":
		return true
	}
	return false
}

// hashesByRecursion reports whether f calls a function of the package that
// recurses and hashes: a tree's root hashed by a recursive helper, once per
// call of f (cometbft's HashFromByteSlices makes one hasher and hands it to
// hashFromByteSlices, which walks the tree).
func (m *Model) hashesByRecursion(f *fnInfo) bool {
	return slices.ContainsFunc(f.calls, func(c *callEdge) bool {
		return c.callee != f && !m.inCycle(f) && m.inCycle(c.callee) && m.rareOf(c) == "" && m.hashes(c.callee, 1)
	})
}

// hashingLoop returns the first loop of f that repeats per item and hashes
// in its body, or an invalid cursor: then f hashes a collection per call (a
// Merkle root of its leaves), and its callers call it once per collection,
// not per item.
func (m *Model) hashingLoop(f *fnInfo) inspector.Cursor {
	if loop, ok := m.hashingLoops[f]; ok {
		return loop
	}
	var loop inspector.Cursor
	if m.cfg.Hashes != nil {
		for cur := range f.cur.Preorder((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
			if m.literalOf(cur, f.cur).Valid() || m.classifyLoop(cur).small {
				continue
			}
			if m.cfg.Hashes(nil, loopBody(cur)) || m.hashingCall(f, cur) != nil {
				loop = cur
				break
			}
		}
	}
	m.hashingLoops[f] = loop
	return loop
}

// hashingCall returns the first call in the loop at loop, in f, of a
// function of the package that hashes itself (PBKDF2's s.hmac(password,
// prev), once per iteration: the loop hashes then as if it did so itself),
// or nil.
func (m *Model) hashingCall(f *fnInfo, loop inspector.Cursor) *ast.CallExpr {
	for c := range m.cfg.Calls.Within(loopBody(loop)) {
		if c.Callee == nil {
			continue
		}
		if g := m.funcs[c.Callee.Origin()]; g != nil && g != f && !m.literalOf(c.Cursor, f.cur).Valid() && m.rareBranch(c.Cursor, loopBody(loop)) == "" && m.hashes(g, 0) {
			return c.Node
		}
	}
	return nil
}

// hashShape reports whether sig is that of a function that returns a hash
// of what it is given (see isEntry).
func hashShape(sig *types.Signature) bool {
	if sig.Results().Len() == 0 || !givenData(sig) {
		return false // it gives nothing back, or hashes nothing it is given
	}
	for v := range sig.Results().Variables() {
		if !digestLike(v.Type()) {
			return false
		}
		if isBasic(v.Type(), types.IsNumeric) && sig.Results().Len() == 2 && values.IsError(sig.Results().At(1).Type()) {
			return false // an integer with an error: a count of bytes, io's shape
		}
	}
	return true
}

// entryText says what a hashing function of signature sig does with what
// it is given: it returns its hash; it returns only a verdict (a bool, with
// or without an error: it checks a signature or a digest); or it returns
// only an error (it checks the hash, or keeps it in what it is given: a
// key's ID, a request's signature).
func entryText(sig *types.Signature) string {
	if onlyError(sig) {
		return "hashes what it is given and returns only an error"
	}
	verdict := false
	for v := range sig.Results().Variables() {
		switch {
		case values.IsError(v.Type()):
		case isBasic(v.Type(), types.IsBoolean):
			verdict = true
		default:
			return "returns a hash of what it is given"
		}
	}
	if verdict {
		return "checks what it is given against a hash"
	}
	return "returns a hash of what it is given"
}

// onlyError reports whether a function of signature sig returns an error
// and nothing else.
func onlyError(sig *types.Signature) bool {
	return sig.Results().Len() == 1 && values.IsError(sig.Results().At(0).Type())
}

// litEntry reports whether the function literal at lit, which does not run
// in place, is a hashing function its holder calls once per item: it has
// the shape of one (see isEntry) and hashes.
func (m *Model) litEntry(lit inspector.Cursor) bool {
	sig, ok := m.cfg.Info.TypeOf(lit.Node().(*ast.FuncLit)).(*types.Signature)
	return ok && hashShape(sig) && m.cfg.Hashes != nil && m.cfg.Hashes(nil, lit)
}

// hashes reports whether f hashes, itself or through the functions of the
// package it calls, up to depth calls deep.
func (m *Model) hashes(f *fnInfo, depth int) bool {
	if m.cfg.Hashes == nil {
		return false
	}
	own, ok := m.ownHashes[f]
	if !ok {
		own = m.cfg.Hashes(f.fn, f.cur)
		m.ownHashes[f] = own
	}
	return own || depth > 0 && slices.ContainsFunc(f.calls, func(c *callEdge) bool { return c.callee != f && m.hashes(c.callee, depth-1) })
}

// isStream reports whether t is a reader or a writer: a type with the
// method Read or Write of io.Reader's or io.Writer's signature, or ReadAt or
// WriteAt of io.ReaderAt's or io.WriterAt's (a file's region read through
// it), but for a hasher (it has Sum too), which its caller hands over to be
// written.
func isStream(t types.Type) bool {
	if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Sum"); obj != nil {
		return false
	}
	for _, name := range []string{"Read", "Write", "ReadAt", "WriteAt"} {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		fn, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Signature()
		params := 1
		if name == "ReadAt" || name == "WriteAt" {
			params = 2 // and the offset: io.ReaderAt, io.WriterAt
		}
		if sig.Params().Len() == params && sig.Results().Len() == 2 && values.IsError(sig.Results().At(1).Type()) {
			if s, ok := sig.Params().At(0).Type().Underlying().(*types.Slice); ok && values.IsByte(s.Elem()) {
				return true
			}
		}
	}
	return false
}

// digestLike reports whether t can be a digest, a MAC or a verdict on one.
func digestLike(t types.Type) bool {
	return values.IsError(t) || isBasic(t, types.IsString|types.IsBoolean|types.IsInteger) || values.IsBytes(t)
}

// inCycle reports whether f is in a call cycle through calls that are not
// tail calls: a function whose only way back into its cycle is return f(...)
// hands its work on and does nothing after it.
func (m *Model) inCycle(f *fnInfo) bool {
	for _, c := range f.calls {
		if c.tail || c.callee.comp != f.comp || m.rareOf(c) != "" {
			continue
		}
		if c.callee == f || m.compSize[f.comp] > 1 {
			return true
		}
	}
	return false
}

// cycle spells the shortest call cycle from f back to f: "a → b → a".
func (m *Model) cycle(f *fnInfo) string {
	// A breadth-first search bounded to 64 functions, which marks the
	// functions it reaches in them (seen, prev) rather than in a map of
	// its own: on a ring of thousands of functions, the maps of the
	// searches were most of what the model allocated.
	m.search++
	f.seen, f.prev = m.search, nil
	reached := 1
	queue := make([]*fnInfo, 1, 72)
	queue[0] = f
	text := ""
	for len(queue) > 0 && reached <= 64 && text == "" {
		cur := queue[0]
		queue = queue[1:]
		for _, c := range cur.calls {
			if c.callee.comp != f.comp {
				continue
			}
			if c.callee == f {
				names := []string{f.fn.Name()}
				for p := cur; p != nil; p = p.prev {
					names = append(names, p.fn.Name())
				}
				slices.Reverse(names)
				text = strings.Join(names, " → ")
				break
			}
			if c.callee.seen != m.search {
				c.callee.seen, c.callee.prev = m.search, cur
				reached++
				queue = append(queue, c.callee)
			}
		}
	}
	if text == "" {
		text = fmt.Sprintf("%s → … (a call cycle of %d functions)", f.fn.Name(), m.compSize[f.comp])
	}
	return text
}

// stronglyConnected numbers the strongly connected components of the call
// graph (Tarjan's algorithm, linear) in the functions' comp, and returns the
// number of functions of each.
func stronglyConnected(funcs []*fnInfo) []int {
	var (
		stack []*fnInfo
		size  []int
		next  int
		visit func(f *fnInfo)
	)
	visit = func(f *fnInfo) {
		next++
		f.index, f.low = next, next
		stack = append(stack, f)
		f.onStack = true
		for _, c := range f.calls {
			g := c.callee
			if g.index == 0 {
				visit(g)
				f.low = min(f.low, g.low)
			} else if g.onStack {
				f.low = min(f.low, g.index)
			}
		}
		if f.low == f.index {
			id := len(size)
			size = append(size, 0)
			for {
				g := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				g.onStack = false
				g.comp = id
				size[id]++
				if g == f {
					break
				}
			}
		}
	}
	for _, f := range funcs {
		if f.index == 0 {
			visit(f)
		}
	}
	return size
}

// besideCallers says what the package shows beside every call it makes of
// the entry f, when that is work beside which a site of cost c is noise,
// with w the work each repetition does already: f presumes callers that
// call it once per item they hash, but when each of the package's own
// calls of it is made beside costlier work (a request sent with the
// signature f computes, a body read to its end before f checks it), the
// presumption yields to what the package shows. A caller whose own work is
// not enough is judged by its callers in turn, up to depth callers up: all
// of them must show it. It returns "" when the package makes no call of f,
// when f's value is taken, when a call is in a function literal or a
// recursion, or when any call is made beside less.
func (m *Model) besideCallers(f *fnInfo, c Cost, w work, depth int) string {
	calls, ok := m.callsOf(f)
	if !ok {
		return ""
	}
	var first string
	for _, call := range calls {
		_, fn, lit, ok := m.enclosing(call)
		g := m.funcs[fn]
		switch {
		case !ok || g == nil || g.test:
			continue // a package initializer, test code: no evidence
		case g == f || lit.Valid():
			return "" // a recursion, or a literal that runs an unknown number of times
		}
		region := g.cur
		loop, _, inLoop := m.repeatingLoop(call)
		if inLoop {
			region = loopBody(loop)
		}
		gw := w.more(m.ownCost(region, call)).more(m.handlesRequest(g))
		if r := m.cfg.Role; r != nil {
			if role := r(g.fn); role.Text != "" && role.Around > Cheap {
				gw = gw.more(work{class: role.Around, what: role.What, pos: g.fn.Pos()})
			}
		}
		why := m.noise(c, gw, ", which also does")
		if why == "" && !inLoop && depth > 0 {
			if up := m.besideCallers(g, c, gw, depth-1); up != "" {
				why = ", called " + up
			}
		}
		if why == "" {
			return ""
		}
		if first == "" {
			first = "from " + g.fn.Name() + " (" + m.position(call.Node().Pos()) + ")" + why
		}
	}
	return first
}

// ownCost is the costliest work that the code at region does itself beside
// the call at except, whose arguments it evaluates: what it calls of other
// packages (I/O, a body read, encoding, a signature, calls that allocate
// their results), but not what the package's own functions cost, whose
// summaries take the costliest of their branches (a key type's derivation
// among many): the presumption of an entry yields only to what its caller
// does on every call.
func (m *Model) ownCost(region, except inspector.Cursor) work {
	var w work
	_, self, _, _ := m.enclosing(region)
	for c := range m.cfg.Calls.Within(region) {
		if cur := c.Cursor; cur == except || c.Callee == self || m.literalOf(cur, region).Valid() || m.rareBranch(cur, region) != "" || otherArm(cur, except) {
			continue
		}
		if fn, ok := typeutil.Callee(m.cfg.Info, c.Node).(*types.Func); ok && fn.Pkg() == m.cfg.Pkg {
			continue
		}
		if sel, ok := ast.Unparen(c.Node.Fun).(*ast.SelectorExpr); ok {
			if s, ok := m.cfg.Info.Selections[sel]; ok && s.Kind() == types.MethodVal && m.ownInterface(s.Recv()) {
				continue // the package's own implementations, summarized
			}
		}
		w = w.more(m.callCost(c, true))
	}
	return w
}

// otherArm reports whether cur and except are in different arms of one
// branching statement (the then and else of an if, two clauses of a
// switch or a select): what runs in one arm is not beside what runs in the
// other (a key type's encryption, beside another type's).
func otherArm(cur, except inspector.Cursor) bool {
	for a := cur; a.Valid(); a = a.Parent() {
		if encloses(a, except) {
			return false
		}
		switch a.ParentEdgeKind() {
		case edge.IfStmt_Body, edge.IfStmt_Else:
			other := edge.IfStmt_Else
			if a.ParentEdgeKind() == edge.IfStmt_Else {
				other = edge.IfStmt_Body
			}
			if a.Parent().Node().(*ast.IfStmt).Else != nil && encloses(a.Parent().ChildAt(other, -1), except) {
				return true
			}
		case edge.BlockStmt_List:
			switch a.Node().(type) {
			case *ast.CaseClause, *ast.CommClause:
				if encloses(a.Parent(), except) {
					return true // another clause of the same switch
				}
			}
		}
	}
	return false
}

// callsOf returns the calls the package's production code makes of f:
// static calls, and, for a method an interface the package declares may
// reach, the calls of that method through such an interface that f's type
// implements. It reports false when f's value is taken, or its method may
// be reached through an interface of the package in a way it cannot
// follow (a method value).
func (m *Model) callsOf(f *fnInfo) (calls []inspector.Cursor, ok bool) {
	if c, ok := m.callers[f]; ok {
		return c.calls, c.ok
	}
	defer func() { m.callers[f] = callSites{calls, ok} }()
	if m.taken[f.fn] {
		return nil, false
	}
	for use := range m.cfg.Vals.Uses(m.cfg.Root, f.fn) {
		call := use
		if call.ParentEdgeKind() == edge.SelectorExpr_Sel {
			call = call.Parent()
		}
		if call.ParentEdgeKind() != edge.CallExpr_Fun {
			return nil, false // its value: see taken
		}
		calls = append(calls, call.Parent())
	}
	recv := f.fn.Signature().Recv()
	if recv == nil || !m.cfg.Vals.InterfaceMethod(m.cfg.Root.Inspector(), f.fn.Name()) {
		return calls, true
	}
	for cur := range m.cfg.Root.Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		s, ok := m.cfg.Info.Selections[sel]
		if !ok || sel.Sel.Name != f.fn.Name() || !m.ownInterface(s.Recv()) {
			continue
		}
		iface := s.Recv().Underlying().(*types.Interface)
		if !types.Implements(recv.Type(), iface) && !types.Implements(types.NewPointer(recv.Type()), iface) {
			continue
		}
		if s.Kind() != types.MethodVal || cur.ParentEdgeKind() != edge.CallExpr_Fun {
			return nil, false // a method value or expression: calls it cannot follow
		}
		calls = append(calls, cur.Parent())
	}
	return calls, true
}

// callSites memoizes callsOf.
type callSites struct {
	calls []inspector.Cursor
	ok    bool
}

// handlesRequest is the work of a function that sends or serves an HTTP
// request it is given or builds (a parameter of type *http.Request, a call
// of http.NewRequest or NewRequestWithContext): it runs once per request,
// whose round trip is network I/O. What shows the request sent is what the
// function does with it (see sends), or, for one it is given, an
// http.ResponseWriter beside it (a request served). A request only read (a
// URL presigned from it, a digest of its path) is not enough, nor is a
// struct that holds one (a signing context), nor a request's query.
func (m *Model) handlesRequest(g *fnInfo) work {
	params := slices.Collect(g.fn.Signature().Params().Variables())
	served := slices.ContainsFunc(params, func(v *types.Var) bool { return httpType(v.Type(), "ResponseWriter") })
	for _, v := range params {
		if isHTTPRequest(v.Type()) && (served || m.sends(g, v)) {
			return work{class: Heavy, what: "the round trip of the HTTP request it is given (" + v.Name() + ")", pos: v.Pos()}
		}
	}
	for c := range m.cfg.Calls.Within(g.cur) {
		if fn, ok := typeutil.Callee(m.cfg.Info, c.Node).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "net/http" &&
			(fn.Name() == "NewRequest" || fn.Name() == "NewRequestWithContext") {
			id, _ := values.AssignedAt(c.Cursor, true).(*ast.Ident)
			if v, _ := m.cfg.Info.ObjectOf(id).(*types.Var); c.Cursor.ParentEdgeKind() == edge.ReturnStmt_Results || v != nil && m.sends(g, v) {
				return work{class: Heavy, what: "the round trip of the HTTP request it builds with " + ShortName(fn), pos: c.Node.Pos()}
			}
		}
	}
	return work{}
}

// sends reports whether g sends the request v holds or hands it on to be
// sent: returns it, passes it to a call that yields an *http.Response (a
// Client's Do, a RoundTripper's RoundTrip), or writes it (a field assigned,
// a header set: a method with no results called on a map it holds).
func (m *Model) sends(g *fnInfo, v *types.Var) bool {
	_, ok := m.cfg.Vals.HandedOn(g.cur, v, func(call *ast.CallExpr) bool {
		sig, ok := m.cfg.Info.TypeOf(call.Fun).Underlying().(*types.Signature)
		if fn, isFn := typeutil.Callee(m.cfg.Info, call).(*types.Func); ok && isFn && sig.Results().Len() == 0 && fn.Signature().Recv() != nil {
			_, isMap := fn.Signature().Recv().Type().Underlying().(*types.Map)
			return isMap
		}
		return ok && slices.ContainsFunc(slices.Collect(sig.Results().Variables()), func(r *types.Var) bool { return httpType(r.Type(), "Response") })
	})
	return ok
}

// httpType reports whether t, or what it points to, is net/http's type name.
func httpType(t types.Type, name string) bool {
	path, n := named(t)
	return path == "net/http" && n == name
}

// isHTTPRequest reports whether t is net/http's *Request.
func isHTTPRequest(t types.Type) bool {
	_, ptr := t.(*types.Pointer)
	return ptr && httpType(t, "Request")
}
