package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// This file is the allocation model's escape half: what a function does with a
// hasher decides whether a stack-friendly constructor's hasher reaches the heap.
// Every verdict below was measured with testing.AllocsPerRun on Go 1.26, and the
// oracle test re-measures every testdata case against it.

// escapeKind is what the model concludes about one hasher value.
type escapeKind int

const (
	// stays: only its methods are called (directly, in a deferred call or in a
	// closure that does not escape), so the compiler devirtualizes them and
	// keeps the hasher on the stack.
	stays escapeKind = iota
	// devirt: a parameter whose methods a function calls through an
	// interface, in a function the compiler may inline: where it is inlined
	// and the caller's hasher has a known concrete type, the calls are
	// devirtualized and the hasher stays; elsewhere it escapes. Not decided,
	// never reported, but not kept either.
	devirt
	// transient: passed to a function known to use it and let it go (io.Copy,
	// fmt.Fprintf, ...): the interface conversion makes it escape, but it does not
	// outlive the call, so reusing it is safe.
	transient
	// unknown: used in a way the model does not decide (passed to a function that
	// may or may not be inlined, address taken, method value, ...). Never reported.
	unknown
	// outlives: stored, returned, sent, appended or handed to a goroutine: it is
	// meant to outlive the call, so it is no per-call waste. Never reported.
	outlives
)

// escape is the model's verdict on a hasher value, with the reason and the
// position of the use that decided it.
type escape struct {
	kind   escapeKind
	reason string
	pos    token.Pos
}

// worse returns the verdict that dominates: outlives > unknown > transient > devirt > stays.
func worse(a, b escape) escape {
	if b.kind > a.kind {
		return b
	}
	return a
}

// transientCallees take an io.Writer, write to it and let it go. Passing a
// hasher to one converts it to an interface that escapes (measured: io.Copy 2
// allocs, fmt.Fprintf 1, io.WriteString 2), without keeping it.
var transientCallees = map[string]bool{
	"io.Copy":                   true,
	"io.CopyN":                  true,
	"io.CopyBuffer":             true,
	"io.WriteString":            true,
	"fmt.Fprint":                true,
	"fmt.Fprintf":               true,
	"fmt.Fprintln":              true,
	"encoding/binary.Write":     true,
	"(*bytes.Buffer).WriteTo":   true,
	"(*bytes.Reader).WriteTo":   true,
	"(*strings.Reader).WriteTo": true,
	"(*bufio.Reader).WriteTo":   true,
}

// flowModel is where the hashers, hash functions and byte slices of one
// package come from and where they go: whether a constructor's hasher
// escapes (see classify), what the package's functions do with their
// parameters, which functions return a constructor's hasher, what a call
// through a field, parameter or interface may call, and which function
// variables hash their argument.
type flowModel struct {
	info *types.Info
	vals *values.Index

	wrappers     map[*types.Func]*constructor   // the package's constructor wrappers, see wrapperCtor
	targets      map[types.Object][]*types.Func // the known targets of calls through fields, parameters, interfaces, see dynamicSink
	literalFacts map[*types.Var]*hashesArg      // the facts of function literals that package variables hold, see literalFact
	namedHashes  *[]string                      // the hashes whose crypto.Hash the package names, see namedHashes
	hashers      map[*types.Var]*Site           // the local variables that hold a constructor's hasher, see localHashers

	// What the package's functions do with their parameters (params.go),
	// and the facts of other packages' functions.
	flows    map[*types.Func]*paramFlow
	imported func(*types.Func) *paramFlow
	noInl    map[*types.Func]bool // see noInline

	// While the parameter summaries are computed: the function whose
	// parameter is classified, and whether it returns it.
	summarizing bool
	summFunc    *ast.FuncDecl
	returned    bool
}

// maxAliasDepth bounds how many local copies of a hasher are followed.
const maxAliasDepth = 3

// classify decides what happens to the hasher produced by the expression at cur
// (a constructor call, or a use of a variable holding a hasher).
func (m *flowModel) classify(cur inspector.Cursor, depth int) escape {
	cur = outerParens(cur)
	pos := cur.Node().Pos()
	parent := cur.Parent()
	switch cur.ParentEdgeKind() {
	case edge.SelectorExpr_X:
		// h.Write(p): a direct method call is devirtualized.
		if parent.ParentEdgeKind() == edge.CallExpr_Fun {
			if parent.Parent().ParentEdgeKind() == edge.GoStmt_Call {
				return escape{outlives, "used by a goroutine", pos}
			}
			if m.summarizing {
				return m.paramMethod(parent, pos)
			}
			return escape{stays, "", pos}
		}
		return escape{unknown, "method value", pos}

	case edge.CallExpr_Args:
		call := parent.Node().(*ast.CallExpr)
		if tv, ok := m.info.Types[call.Fun]; ok && tv.IsType() {
			// A conversion, e.g. io.Writer(h): follow the converted value.
			return m.classify(parent, depth)
		}
		if parent.ParentEdgeKind() == edge.GoStmt_Call {
			return escape{outlives, "passed to a goroutine", pos}
		}
		if id, _ := ast.Unparen(call.Fun).(*ast.Ident); isBuiltin(m.info, call.Fun) && id.Name == "append" {
			return escape{outlives, "appended to a slice", pos}
		} else if isBuiltin(m.info, call.Fun) {
			return escape{unknown, "passed to " + id.Name, pos}
		}
		if fn := typeutil.StaticCallee(m.info, call); fn != nil {
			if transientCallees[fn.FullName()] {
				return escape{transient, "passed to " + shortName(fn), pos}
			}
			if i, ok := writerWrappers[fn.FullName()]; ok && (i < 0 || cur.ParentEdgeIndex() == i) && !call.Ellipsis.IsValid() {
				return m.keptByWriter(parent, fn, pos, depth)
			}
			if esc, ok := m.passedTo(parent, fn.Origin(), cur.ParentEdgeIndex(), depth); ok {
				return esc
			}
			return escape{unknown, "passed to " + shortName(fn), pos}
		}
		return escape{unknown, "passed to a function value", pos}

	case edge.ReturnStmt_Results:
		if m.summarizing {
			// A parameter returned: the caller decides what becomes of it.
			if fn, ok := values.EnclosingFunc(cur); ok && fn.Node() == m.summFunc {
				m.returned = true
				return escape{stays, "", pos}
			}
			return escape{unknown, "returned by a function literal", pos}
		}
		return kept(cur.ParentEdgeKind(), pos)

	case edge.SendStmt_Value:
		return kept(cur.ParentEdgeKind(), pos)

	case edge.CompositeLit_Elts, edge.KeyValueExpr_Value:
		return m.element(cur, depth)

	case edge.TypeAssertExpr_X:
		return m.classify(parent, depth)

	case edge.BinaryExpr_X, edge.BinaryExpr_Y, edge.ExprStmt_X:
		return escape{stays, "", pos}

	case edge.AssignStmt_Rhs, edge.ValueSpec_Values:
		lhs := values.AssignedAt(cur, true) // h, err := blake2b.New256(nil) assigns h
		if lhs == nil {
			return escape{unknown, "multiple assignment", pos}
		}
		return m.assignedTo(cur, lhs, depth)
	}
	return escape{unknown, "used as " + cur.ParentEdgeKind().String(), pos}
}

// paramMethod is the verdict on a parameter whose method is called
// through selector: through an interface, it escapes unless the function is inlined and
// the call devirtualized (devirt); on a hasher type of the catalog, it
// stays; on any other concrete type, the model does not know the method.
func (m *flowModel) paramMethod(selector inspector.Cursor, pos token.Pos) escape {
	sel := selector.Node().(*ast.SelectorExpr)
	s, ok := m.info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return escape{unknown, "method expression", pos}
	}
	if types.IsInterface(s.Recv()) {
		return escape{devirt, "calls " + sel.Sel.Name + " through an interface", pos}
	}
	if pkg := s.Obj().Pkg(); pkg != nil && stackHasherPkgs[pkg.Path()] {
		return escape{stays, "", pos}
	}
	return escape{unknown, "calls " + types.ExprString(sel), pos}
}

// kept is the verdict on a value that its parent keeps beyond the call:
// returned, sent on a channel, or stored in a composite literal.
func kept(k edge.Kind, pos token.Pos) escape {
	switch k {
	case edge.ReturnStmt_Results:
		return escape{outlives, "returned", pos}
	case edge.SendStmt_Value:
		return escape{outlives, "sent on a channel", pos}
	}
	return escape{outlives, "stored in a composite literal", pos}
}

// element classifies the hasher at, an element of a composite literal:
// kept, unless the literal is a map, slice or array of interfaces of the
// function that only reads its elements (m[k], s[i], range); then the reads
// decide, and the hasher escapes without outliving the call (a map's
// elements reach the heap, and so does a hasher called through an interface).
func (m *flowModel) element(at inspector.Cursor, depth int) escape {
	lit := at.Parent()
	if at.ParentEdgeKind() == edge.KeyValueExpr_Value {
		lit = lit.Parent()
	}
	verdict := escape{transient, "held by a container literal that does not outlive the call", at.Node().Pos()}
	c, isContainer := m.info.TypeOf(lit.Node().(ast.Expr)).Underlying().(interface{ Elem() types.Type })
	id, _ := values.AssignedAt(lit, false).(*ast.Ident)
	v, _ := m.info.ObjectOf(id).(*types.Var)
	fn, ok := values.EnclosingFunc(lit)
	switch {
	case m.summarizing || !isContainer || !types.IsInterface(c.Elem()) || depth >= maxAliasDepth || !ok:
	case lit.ParentEdgeKind() == edge.IndexExpr_X, lit.ParentEdgeKind() == edge.RangeStmt_X:
		return m.elementRead(lit, verdict, depth) // map[string]hash.Hash{...}[name]
	case v != nil && v.Parent() != v.Pkg().Scope():
		reads, onlyRead := m.vals.UsedAs(fn, v, edge.IndexExpr_X, edge.RangeStmt_X)
		for _, use := range reads {
			verdict = m.elementRead(use, worse(verdict, m.captured(use, v)), depth)
		}
		if onlyRead {
			return verdict
		}
	}
	var decl *ast.FuncDecl
	if ok {
		decl, _ = fn.Node().(*ast.FuncDecl)
	}
	if decl != nil && !isContainer && (lit.ParentEdgeKind() == edge.ReturnStmt_Results || v != nil && slices.ContainsFunc(slices.Collect(m.vals.Uses(fn, v)), func(u inspector.Cursor) bool { return u.ParentEdgeKind() == edge.ReturnStmt_Results })) {
		t := types.TypeString(m.info.TypeOf(lit.Node().(ast.Expr)), (*types.Package).Name)
		return escape{outlives, "returned in a " + t + " to the callers of " + decl.Name.Name + ", where the analysis does not follow it (" + decl.Name.Name + " is no constructor it knows): how often they make one and drop it is not judged", at.Node().Pos()}
	}
	return kept(at.ParentEdgeKind(), at.Node().Pos())
}

// literalHashers counts the hashers that the literal holding the element
// at elt makes each time it is evaluated (its elements that are calls
// returning a hasher): 0 when elt is not an element of a literal.
func literalHashers(info *types.Info, elt inspector.Cursor) (n int) {
	lit := elt.Parent()
	if elt.ParentEdgeKind() == edge.KeyValueExpr_Value {
		lit = lit.Parent()
	}
	if c, ok := lit.Node().(*ast.CompositeLit); ok {
		for _, e := range c.Elts {
			if kv, isKV := e.(*ast.KeyValueExpr); isKV {
				e = kv.Value
			}
			if call, isCall := ast.Unparen(e).(*ast.CallExpr); isCall && values.IsHasher(info.TypeOf(call)) {
				n++
			}
		}
	}
	return n
}

// elementRead adds to verdict what becomes of the element read from the
// container at x: x[k], or the value variable of a range over x.
func (m *flowModel) elementRead(x inspector.Cursor, verdict escape, depth int) escape {
	rng, ok := x.Parent().Node().(*ast.RangeStmt)
	if !ok && x.Parent().ParentEdgeKind() == edge.AssignStmt_Lhs {
		return verdict // x[k] = v stores into it
	} else if !ok {
		return worse(verdict, m.classify(x.Parent(), depth+1))
	}
	id, _ := rng.Value.(*ast.Ident)
	switch v, ok := m.info.Defs[id].(*types.Var); {
	case rng.Value == nil || id != nil && id.Name == "_":
		return verdict
	case ok && rng.Tok == token.DEFINE:
		return worse(verdict, m.classifyVar(x, v, depth+1))
	}
	return escape{outlives, "stored in a composite literal", verdict.pos}
}

// assignedTo classifies the hasher at, assigned to lhs: a local variable is
// followed through its uses; anything else (a field, an element, a global)
// keeps it.
func (m *flowModel) assignedTo(at inspector.Cursor, lhs ast.Expr, depth int) escape {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return escape{outlives, "stored in " + types.ExprString(lhs), lhs.Pos()}
	}
	if id.Name == "_" {
		return escape{stays, "", id.Pos()}
	}
	v, ok := m.info.ObjectOf(id).(*types.Var)
	if !ok {
		return escape{unknown, "assigned to " + id.Name, id.Pos()}
	}
	if v.Parent() == v.Pkg().Scope() {
		return escape{outlives, "stored in the package variable " + v.Name(), id.Pos()}
	}
	if depth >= maxAliasDepth {
		return escape{unknown, "copied too many times", id.Pos()}
	}
	return m.classifyVar(at, v, depth+1)
}

// classifyVar classifies every use of the local variable v, searched in the
// function that encloses at, the value v is defined with (a hasher's
// constructor call, or the declaration of a parameter).
func (m *flowModel) classifyVar(at inspector.Cursor, v *types.Var, depth int) escape {
	fn, ok := values.EnclosingFunc(at)
	if !ok {
		return escape{unknown, "not in a function", v.Pos()}
	}
	verdict := escape{kind: stays}
	// The hashers v holds, by the package of the constructor that makes
	// each: the one at at, and those assigned to v again (v = other, in a
	// branch or a case of a switch), merged where the branches join.
	origins := map[string]bool{calleePkg(m.info, at.Node()): true}
	var again *ast.Ident
	if decl, ok := m.vals.Def(fn, v); ok {
		if def, ok := values.DefinedWith(decl); ok {
			origins[calleePkg(m.info, def)] = true
		}
	}
	for use := range m.vals.Uses(fn, v) {
		id := use.Node().(*ast.Ident)
		switch use.ParentEdgeKind() {
		case edge.AssignStmt_Lhs:
			assign := use.Parent().Node().(*ast.AssignStmt)
			origin := ""
			if len(assign.Lhs) == len(assign.Rhs) {
				origin = calleePkg(m.info, assign.Rhs[use.ParentEdgeIndex()])
			}
			origins[origin] = true
			if again == nil {
				again = id
			}
			continue
		case edge.IncDecStmt_X:
			continue // a write to v, not a use of the hasher
		}
		if esc := m.captured(use, v); esc.kind != stays {
			verdict = worse(verdict, esc)
			continue
		}
		verdict = worse(verdict, m.classify(use, depth))
	}
	if again == nil {
		return verdict
	}
	switch {
	case origins[""]:
		// v = other, where other is not a constructor's hasher: what v
		// holds is not known.
		return worse(verdict, escape{unknown, v.Name() + " is assigned again", again.Pos()})
	case len(origins) == 1 && origins["crypto/hmac"]:
		// HMACs, whatever the branch: one type, which always allocates;
		// what the uses do decides whether it is kept.
		return verdict
	case len(origins) == 1:
		// Hashers of one package may be of one type, whose method calls
		// the compiler devirtualizes, or not.
		return worse(verdict, escape{unknown, v.Name() + " is assigned again", again.Pos()})
	}
	// Hashers of several packages, so of several types, merged at a join:
	// the compiler cannot devirtualize v's method calls, and each hasher
	// escapes (measured: sha256 or sha512 by a branch, 1 allocation each).
	return worse(verdict, escape{transient, v.Name() + " holds hashers of several types (it is assigned again), whose method calls the compiler cannot devirtualize", again.Pos()})
}

// calleePkg returns the import path of the package of the function that
// the call n calls, when n is a call of a hash constructor whose callee is
// known: where the hasher n yields is made; "" otherwise.
func calleePkg(info *types.Info, n ast.Node) string {
	e, _ := n.(ast.Expr)
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || !values.IsHasher(info.TypeOf(call)) {
		return ""
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return ""
	}
	return fn.Pkg().Path()
}

// captured decides what the function literals between the use of v at use and
// v's declaration do to v: nothing (stays) when each is called at once,
// deferred, or only ever called through a local variable.
func (m *flowModel) captured(use inspector.Cursor, v *types.Var) escape {
	for lit := range use.Enclosing((*ast.FuncLit)(nil)) {
		body := lit.Node().(*ast.FuncLit)
		if body.Pos() <= v.Pos() && v.Pos() < body.End() {
			break // v is the closure's own variable
		}
		switch lit.ParentEdgeKind() {
		case edge.CallExpr_Fun:
			// func() { h.Write(p) }(): called at once, or deferred.
			if lit.Parent().ParentEdgeKind() == edge.GoStmt_Call {
				return escape{outlives, "captured by a goroutine", use.Node().Pos()}
			}
			continue
		case edge.AssignStmt_Rhs:
			// f := func() { h.Write(p) } with f only ever called, not by a goroutine.
			if f, _, fn, ok := m.assignedLocal(lit); ok {
				if calls, ok := m.vals.UsedAs(fn, f, edge.CallExpr_Fun); ok && !slices.ContainsFunc(calls, func(c inspector.Cursor) bool { return c.Parent().ParentEdgeKind() == edge.GoStmt_Call }) {
					continue
				}
			}
		}
		return escape{unknown, "captured by a closure", use.Node().Pos()}
	}
	return escape{kind: stays}
}

// assignedLocal returns the local variable that the assignment whose only
// value is at rhs assigns (v := rhs, v = rhs), the identifier that names it
// there, and the function that holds the assignment.
func (m *flowModel) assignedLocal(rhs inspector.Cursor) (*types.Var, *ast.Ident, inspector.Cursor, bool) {
	id, _ := values.AssignedAt(rhs, false).(*ast.Ident)
	v, ok := m.info.ObjectOf(id).(*types.Var)
	if !ok || rhs.ParentEdgeKind() != edge.AssignStmt_Rhs || len(rhs.Parent().Node().(*ast.AssignStmt).Lhs) != 1 || v.Parent() == v.Pkg().Scope() {
		return nil, nil, inspector.Cursor{}, false
	}
	fn, ok := values.EnclosingFunc(rhs)
	return v, id, fn, ok
}

// shortName spells fn as a reader knows it (see frequency.ShortName), by
// its path when its package forks a standard one.
func shortName(fn *types.Func) string {
	if fn.Pkg() != nil && fn.Signature().Recv() == nil && forksStd(fn.Pkg()) {
		return fn.Pkg().Path() + "." + fn.Name()
	}
	return frequency.ShortName(fn)
}

// forksStd reports whether pkg has the name of a standard hash package but
// another path (a fork: github.com/minio/sha256-simd is sha256 too): its
// functions are named by their path, so that no message reads as if it were
// about the standard library.
func forksStd(pkg *types.Package) bool {
	for _, std := range algorithms {
		path := std[:strings.LastIndex(std, ".")]
		if path != pkg.Path() && path[strings.LastIndex(path, "/")+1:] == pkg.Name() {
			return true
		}
	}
	return false
}
