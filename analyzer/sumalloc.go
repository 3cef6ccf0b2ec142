package analyzer

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// sumAlloc is the category of h.Sum(nil) whose result is only compared,
// copied, encoded or appended, per iteration or per hot call: Sum appends the
// digest to nil, which allocates a new slice (Go 1.26, measured: 1 allocation
// per call, even when the result does not escape), where summing into a stack
// array or into the destination costs nothing.
const sumAlloc = "sum-alloc"

// transientSumUses are the functions that only read a digest passed to them,
// by "importpath.Func" (or "(*importpath.Type).Method"), with the index of the
// argument that is read (-1: any) and what they do with it.
var transientSumUses = map[string]struct {
	arg  int
	verb string
}{
	"bytes.Equal":                                {-1, "compared"},
	"crypto/hmac.Equal":                          {-1, "compared"},
	"crypto/subtle.ConstantTimeCompare":          {-1, "compared"},
	"encoding/hex.EncodeToString":                {0, "encoded"},
	"encoding/hex.Encode":                        {1, "encoded"},
	"(*encoding/base64.Encoding).EncodeToString": {0, "encoded"},
	"(*encoding/base64.Encoding).Encode":         {1, "encoded"},
}

// digestSizes are the digest sizes, in bytes, of the hashers of the
// constructors that the compiler inlines and devirtualizes, by "importpath.Func".
var digestSizes = func() map[string]int64 {
	m := map[string]int64{}
	for key, ctor := range stdConstructors {
		if ctor.size > 0 {
			m[key] = ctor.size
		}
	}
	return m
}()

// sumUse is what is done with the result of h.Sum(nil).
type sumUse struct {
	verb     string          // "compared", "copied", "encoded", "appended"
	by       string          // the consumer as written: "bytes.Equal", "copy"
	appended *ast.CallExpr   // append(dst, h.Sum(nil)...), when appended
	dst      ast.Expr        // its dst
	returned *returnedDigest // returned to callers that copy it (see returnedCopied)
}

// checkSumAlloc reports h.Sum(nil) on a known hasher whose result is used
// only for the time of one call, per iteration or per hot call.
func (p *siteChecks) checkSumAlloc() {
	declared := map[ast.Node]map[string]bool{} // the arrays that fixes declare, by block
	for cur := range p.callsIn(p.root) {
		call := cur.Node().(*ast.CallExpr)
		if !p.suppress.analyzed(cur) {
			if p.sumNil(call) != nil {
				p.suppress.notAnalyzed(cur, call, sumAlloc)
			}
			continue
		}
		if p.macEqual[call] {
			p.silent(call, sumAlloc, "the hmac-rekey fix of its MAC pools the MAC and compares without this sum")
			continue
		}
		if p.sumNil(call) == nil {
			continue
		}
		sites, field, pooledVar := p.sumNilHasher(cur)
		if len(sites) == 0 && field == nil && !pooledVar {
			p.silent(call, sumAlloc, "its hasher is not one the analysis follows to where it is made (a local hasher of a known constructor or of those its branches choose, a field's, or one from a pool)")
			continue
		}
		var s *Site
		if len(sites) > 0 {
			s = sites[0]
		}
		if s != nil && !slices.ContainsFunc(sites, func(s *Site) bool { return !s.ctor.hmac || !p.rekeyed[s.Call] }) {
			// A MAC keyed anew each time: its 5 allocations are the
			// finding, whose one-shot HMAC replaces this very Sum (or
			// which one MAC kept across a loop makes once); the sum's
			// allocation is a small part of the same repetition.
			p.silent(call, sumAlloc, fmt.Sprintf("the MAC's hmac.New at %s, keyed anew each time, is reported, and its fix covers this sum's repetition (a one-shot HMAC in its place, or one MAC kept across the loop)", p.position(s.Call.Pos())))
			continue
		}
		use, ok := p.transientSumUse(cur)
		direct := ok
		if !ok && (field != nil || s != nil) {
			use, ok = p.readSumVar(cur, field) // sum := h.Sum(nil), then only read
		}
		if !ok {
			use, ok = p.returnedCopied(cur)
		}
		if !ok {
			p.silent(call, sumAlloc, "its result is kept (returned, stored, or used beyond the call): it is meant to outlive the call")
			continue
		}
		often, _, ok := p.often(cur, sumAlloc, 1)
		if !ok {
			continue // not per item, or a small part of what repeats it
		}
		msg := fmt.Sprintf("%s allocates its result %s, only to be %s by %s", types.ExprString(call), often, use.verb, use.by)
		if use.appended != nil {
			msg = fmt.Sprintf("%s allocates its result %s, only to be appended to %s", types.ExprString(call), often, shorten(types.ExprString(use.dst)))
		}
		var fix *analysis.SuggestedFix
		why := "the hasher is taken from a pool, and a stack array passed to a pooled hasher would escape"
		switch {
		case !p.TypesInfo.Types[call.Args[0]].IsNil():
			// Reject a nil slice of its own (var tmp []byte): summed
			// elsewhere, it would be left declared and unused.
			why = "the sum appends to " + shorten(types.ExprString(call.Args[0])) + ", a nil slice declared for it, which the fix would leave unused: sum into a buffer declared in its place"
		case use.returned != nil:
			fix, why = p.sumValueFix(cur, s, use.returned)
		case field != nil && use.appended == nil:
			fix, why = p.fieldSumFix(cur, field, direct)
		case len(sites) > 1 && use.appended == nil:
			why = "its hasher is the one each branch chooses, of several types, whose Sum is called through an interface: a stack array passed to it would escape"
			// Unless the hasher-alloc fix pools every branch's hasher: a pooled
			// buffer of the largest digest serves whichever a branch chose.
			if !slices.ContainsFunc(sites, func(s *Site) bool { _, ok := p.digestSize(s); return !ok || !p.pooled[s] }) {
				fix, why = p.sumFix(cur, slices.MaxFunc(sites, func(a, b *Site) int { x, _ := p.digestSize(a); y, _ := p.digestSize(b); return cmp.Compare(x, y) }), use, declared)
			}
		case !pooledVar: // s is nil for a field's hasher, whose Sum(nil) is appended
			fix, why = p.sumFix(cur, s, use, declared)
		}
		p.report(call, sumAlloc, msg, fix, "sum into a reused buffer", why)
	}
}

// sumNil returns the hasher h when e is a call h.Sum(nil) (see hasherCall):
// its argument is nil, or a local slice declared without a value and never
// written (var tmp []byte; h.Sum(tmp)), which holds nil wherever it is
// read. Nil otherwise.
func (p *pass) sumNil(e ast.Expr) ast.Expr {
	h, call := p.hasherCall(e, "Sum")
	if h == nil || !p.nilValue(call.Args[0]) {
		return nil
	}
	return h
}

// hasherCall returns the call e and its receiver h when e calls the method
// name of hash.Hash (Write, Sum: each takes one argument) on a hasher (see
// isHasherRecv: a variable of a hasher type with pointer methods too); or
// nils.
func (p *pass) hasherCall(e ast.Expr, name string) (h ast.Expr, call *ast.CallExpr) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name || !values.IsHasherRecv(p.TypesInfo.TypeOf(sel.X)) {
		return nil, nil
	}
	return sel.X, call
}

// nilValue reports whether e is nil: the literal, or a local variable
// declared without a value and never written.
func (p *pass) nilValue(e ast.Expr) bool {
	if p.TypesInfo.Types[e].IsNil() {
		return true
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	v, isVar := p.TypesInfo.Uses[id].(*types.Var)
	if !ok || !isVar || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || v.IsField() {
		return false
	}
	def, ok := p.vals.Def(p.root, v)
	if !ok || def.ParentEdgeKind() != edge.ValueSpec_Names || len(def.Parent().Node().(*ast.ValueSpec).Values) != 0 {
		return false // a parameter, or given a value
	}
	return !p.vals.Written(p.root, v)
}

// sumNilHasher says where the hasher of h.Sum(nil), the call at cur, comes
// from, when the analysis follows it there: the constructor site of a local
// hasher h that the allocation model decides on, or the sites of those that
// the branches before choose (see chosenSites); a struct field, x.f of
// x.f.Sum(nil) (see fieldsum.go); or a local hasher taken from a pool — h :=
// hashpool.X.Get(), or h := pool.Get().(hash.Hash) from a sync.Pool — and
// never assigned again (pooled): its result allocates as any Sum(nil) does,
// and no stack array can take its place.
func (p *pass) sumNilHasher(cur inspector.Cursor) (sites []*Site, field *fieldHasher, pooled bool) {
	h := ast.Unparen(ast.Unparen(cur.Node().(*ast.CallExpr).Fun).(*ast.SelectorExpr).X)
	if sel, ok := h.(*ast.SelectorExpr); ok {
		if s, ok := p.TypesInfo.Selections[sel]; ok && s.Kind() == types.FieldVal && values.Plain(sel) {
			return nil, &fieldHasher{sel: sel, field: s.Obj().(*types.Var)}, false
		}
		return nil, nil, false
	}
	id, _ := h.(*ast.Ident)
	v, ok := p.TypesInfo.Uses[id].(*types.Var)
	fn, inFunc := values.EnclosingFunc(cur)
	if !ok || !inFunc {
		return nil, nil, false
	}
	if s, ok := p.model.hashers[v]; ok && s.esc.kind != unknown {
		return []*Site{s}, nil, false // not an unknown hasher, nor one the model cannot tell about
	}
	if sites := p.chosenSites(fn, v); sites != nil {
		return sites, nil, false
	}
	def, _, ok := p.vals.Only(fn, v)
	if assert, isAssert := ast.Unparen(def).(*ast.TypeAssertExpr); ok && isAssert {
		def = assert.X
	}
	getCall, isCall := ast.Unparen(def).(*ast.CallExpr)
	if !ok || !isCall {
		return nil, nil, false
	}
	getter := typeutil.StaticCallee(p.TypesInfo, getCall)
	if getter == nil || getter.Name() != "Get" || getter.Signature().Recv() == nil {
		return nil, nil, false
	}
	t := unpointer(getter.Signature().Recv().Type())
	return nil, nil, values.IsNamed(t, fixes.RuntimePool, "Pool", false) || values.IsNamed(t, "sync", "Pool", false)
}

// transientSumUse says what is done with the result of the Sum call at cur,
// when it is used only for the time of one call.
func (p *pass) transientSumUse(cur inspector.Cursor) (sumUse, bool) {
	cur = outerParens(cur)
	if cur.ParentEdgeKind() != edge.CallExpr_Args {
		return sumUse{}, false
	}
	consumer := cur.Parent().Node().(*ast.CallExpr)
	index := cur.ParentEdgeIndex()
	switch values.Builtin(p.TypesInfo, consumer) {
	case "":
	case "copy":
		return sumUse{verb: "copied", by: "copy"}, index == 1
	case "append":
		if index == 1 && len(consumer.Args) == 2 && consumer.Ellipsis.IsValid() {
			return sumUse{verb: "appended", by: "append", appended: consumer, dst: consumer.Args[0]}, true
		}
		return sumUse{}, false
	default:
		return sumUse{}, false
	}
	fn := typeutil.StaticCallee(p.TypesInfo, consumer)
	if fn == nil {
		return sumUse{}, false
	}
	known, ok := transientSumUses[fn.FullName()]
	if !ok || (known.arg >= 0 && known.arg != index) {
		return sumUse{}, false
	}
	return sumUse{verb: known.verb, by: shorten(types.ExprString(consumer.Fun))}, true
}

// sumFix removes the allocation of h.Sum(nil): append(dst, h.Sum(nil)...)
// becomes h.Sum(dst); otherwise the sum goes into an array on the stack, when
// the hasher's Sum is devirtualized and its digest size is known.
func (p *siteChecks) sumFix(cur inspector.Cursor, s *Site, use sumUse, declared map[ast.Node]map[string]bool) (*analysis.SuggestedFix, string) {
	f := p.file(cur.Node().Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	call := cur.Node().(*ast.CallExpr)
	if use.appended != nil {
		// Reject a dst of a named slice type: append returns that type, Sum
		// returns []byte.
		if !types.Identical(p.TypesInfo.TypeOf(use.dst), byteSlice) {
			return nil, types.ExprString(use.dst) + " is not a []byte"
		}
		fix := fixes.SumAppend(f, use.appended, call)
		return &fix, ""
	}
	// Reject a hasher that the compiler does not devirtualize (hmac.New,
	// crypto.Hash.New, a third-party constructor that is not inlined): an
	// array passed to its Sum through the interface escapes (measured: the
	// allocation moves to the array).
	if s.ctor.alloc == always {
		return nil, fmt.Sprintf("%s is called through an interface, so a stack array passed to it would escape", types.ExprString(call.Fun))
	}
	// A hasher that stays on the stack, or one that only transiently escapes
	// (passed to io.Copy): its own method calls are still devirtualized, and
	// the array stays on the stack (measured). Anything else is not measured.
	if s.esc.kind != stays && s.esc.kind != transient {
		return nil, "the hasher is " + s.esc.reason
	}
	size, ok := p.digestSize(s)
	if !ok {
		return nil, "the digest size of " + s.ctor.name + " is not known"
	}
	stmt, block, ok := listStatement(cur)
	if !ok {
		return nil, "the call is not in a statement of a block"
	}
	// Reject a statement that shares its line with code before it (a case
	// clause on one line): the array goes on a line of its own before it.
	if !f.StartsLine(stmt.Pos()) {
		return nil, "the statement does not start its line"
	}
	// A hasher that the hasher-alloc fix takes from a pool is an interface,
	// and an array passed to its Sum would escape in its place: the sum goes
	// into a pooled buffer, given back when the function returns, so not in
	// a loop.
	pooled := p.pooled[s]
	if _, inLoop := frequency.EnclosingLoop(cur, false); pooled && inLoop {
		return nil, "the hasher-alloc fix takes " + types.ExprString(call.Fun.(*ast.SelectorExpr).X) + " from a pool, and a stack array passed to a pooled hasher would escape, and a pooled buffer given back with defer in a loop would be kept until the function returns"
	}
	name, ok := p.arrayName(f, block, call.Pos(), "sum", declared)
	if !ok {
		return nil, "no free name for the array"
	}
	if pooled {
		fix := fixes.SumPooled(f, stmt, call, name, size, p.inlinePools())
		return &fix, ""
	}
	fix := fixes.SumArray(f, stmt, call, name, size)
	return &fix, ""
}

// digestSize returns the size of the digest of the hasher that the
// constructor call of s makes, when it is known.
func (p *pass) digestSize(s *Site) (int64, bool) {
	key := p.qualifiedCallee(s.Call)
	if s.ctor.wrapped != "" {
		key = s.ctor.wraps // a wrapper returns that constructor's hasher
	}
	size, ok := digestSizes[key]
	return size, ok
}

// arrayName chooses the name of an array declared in block and used at pos:
// want, or want2, ..., free at pos, in the whole block (a later declaration in
// the block would clash) and among the names earlier fixes gave in the block.
func (p *pass) arrayName(f *fixes.File, block ast.Node, pos token.Pos, want string, declared map[ast.Node]map[string]bool) (string, bool) {
	scope := p.TypesInfo.Scopes[block]
	if scope == nil {
		return "", false
	}
	if declared[block] == nil {
		declared[block] = map[string]bool{}
	}
	for i := 1; i < 100; i++ {
		name := want
		if i > 1 {
			name = fmt.Sprintf("%s%d", want, i)
		}
		if f.FreeName(pos, name) == name && scope.Lookup(name) == nil && !declared[block][name] {
			declared[block][name] = true
			return name, true
		}
	}
	return "", false
}
