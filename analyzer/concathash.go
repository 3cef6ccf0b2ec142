package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// concatHash is the category of a byte concatenation built only to be hashed:
// the buffer is allocated, filled, hashed and dropped, where writing the parts
// one after another into the hash costs nothing.
const concatHash = "concat-hash"

// hashesArg is the fact that a function only hashes one of its []byte
// parameters: it passes it to a sum function or a hasher's Write and uses it
// for nothing else, so a concatenation built only to be passed there is
// built only to be hashed.
type hashesArg struct {
	// Param is the index of the parameter.
	Param int
	// Sum is the sum function ("importpath.Func") the parameter goes to, or
	// the standard sum of the catalog's hasher it is written to when the
	// function returns that hasher's Sum(nil) (see writeSum); "" when it is
	// written to another hasher, whose algorithm is not proved.
	Sum string
	// Result says what the function returns when it returns nothing but that
	// sum: resultArray or resultSlice; "" otherwise.
	Result string
	// Parts: the parameter is variadic (...[]byte) and each of its elements
	// is written, in order, into one hasher: the function hashes the
	// concatenation of its arguments (geth's crypto.Keccak256).
	Parts bool
}

func (*hashesArg) AFact() {}

func (f *hashesArg) String() string { return fmt.Sprintf("hashes parameter %d", f.Param) }

// sink is a place where bytes are hashed.
type sink struct {
	call  *ast.CallExpr
	arg   ast.Expr // the hashed argument
	name  string   // how messages spell the consumer: "sha256.Sum256", "h.Write", "leafHash"
	sum   string   // the sum function, "importpath.Func", when the sink is one
	write bool     // a hasher's Write whose result is not used
	// spread: the sink is a variadic function that hashes each of its
	// ...[]byte arguments in order, called with one of them.
	spread bool
	// helper is the function whose parameter is hashed, of this package or
	// of another (by its fact).
	helper     *types.Func
	helperFact *hashesArg
	// funcVar is the package variable of function type that the call goes
	// through (see varSink); sliceResult says that the sum it computes is
	// returned as a slice (s := sha256.Sum256(b); return s[:]).
	funcVar     *types.Var
	sliceResult bool
	// dynamic: the call goes through a field or parameter of function type
	// or an interface method, whose possible targets all hash the argument
	// (see dynamicSink); unknown, that the package does not know them (a
	// function value of a hash's shape, see digestValueSink).
	dynamic, unknown bool
}

// concat is a concatenation of byte slices built only to be hashed.
type concat struct {
	expr  ast.Expr   // the expression that builds it, or the variable that holds it
	parts []ast.Expr // what it concatenates, in order
	// def is the statement that defines the variable holding it (nil when the
	// concatenation is the sink's argument itself), and stmts the statements
	// that fill it (make+copy).
	def   ast.Stmt
	stmts []ast.Stmt
	// spread: parts is one list of byte slices whose elements are the
	// parts (a copy loop, see values.Copied).
	spread bool
	// aliasing is the first operand of an append that may have spare
	// capacity (a parameter, a field): append writes into it.
	aliasing ast.Expr
	what     string // "append(a, b...)", "make+copy", "bytes.Join"
	// sprintf is the fmt.Sprintf call whose string, converted to []byte, is
	// what is hashed: []byte(fmt.Sprintf(...)), or []byte(s) of a string
	// s := fmt.Sprintf(...) defined right before. It has no parts.
	sprintf *ast.CallExpr
	// noFix says why no fix is offered, when none is (a bytes.Buffer's
	// writes, see bufferConcat).
	noFix string
	// between counts the statements between def and the sink's.
	between int
}

// checkConcatHash reports the concatenations built only to be hashed.
func (p *pass) checkConcatHash() {
	helpers := p.hashHelpers()
	returned := map[*types.Func]bool{} // builders reported, or found not to be
	for ic := range p.calls.Within(p.root) {
		cur := ic.Cursor
		s, ok := p.sinkOf(cur, ic.Callee, helpers)
		if !ok {
			continue
		}
		call, why := p.whyNoConcat(s.arg)
		if !p.suppress.analyzed(cur) {
			if why != "" {
				p.suppress.notAnalyzed(cur, call, concatHash)
			}
			continue
		}
		c, ok := p.concatOf(cur, s.arg)
		if !ok {
			if why != "" {
				p.silent(call, concatHash, why)
			}
			p.reportReturnedConcat(cur, s, helpers, returned)
			continue
		}
		what, allocs, advice := fmt.Sprintf("%s builds a buffer only to hash it with %s", c.what, s.name), 1, "hash the parts one after another"
		// The site is what allocates: the sink's argument, or the
		// formatting of a string defined before it, which is not other
		// work of the repetition.
		site := cur
		if c.sprintf != nil {
			// A formatted string is two allocations, each a copy of
			// everything formatted: the string and its []byte.
			what, allocs, advice = fmt.Sprintf("%s formats a string, copied again by []byte, only to hash it with %s", c.what, s.name), 2, "format the parts into a hasher with fmt.Fprintf"
			if fn, ok := values.EnclosingFunc(cur); ok && c.def != nil {
				if at, ok := fn.FindNode(c.sprintf); ok {
					site = at
				}
			}
		}
		often, _, ok := p.often(site, concatHash, allocs)
		found := concatFound{pos: c.expr.Pos(), what: what, shown: ok && p.shows(c.expr, concatHash)}
		p.out.concats = append(p.out.concats, found)
		if !ok {
			continue // not per item, or a small part of what repeats it
		}
		p.out.estimates[c.expr] = p.out.estimates[site.Node()]
		msg := what + " " + often
		if c.aliasing != nil {
			msg += fmt.Sprintf(" (and may write into the spare capacity of %s, overwriting the caller's data)", types.ExprString(c.aliasing))
		}
		fix, why := p.concatFix(cur, s, c)
		p.report(c.expr, concatHash, msg, fix, advice, why)
	}
}

// sinkAt returns the sink that the call at cur is, if it is one.
func (p *pass) sinkAt(cur inspector.Cursor, helpers map[*types.Func]*hashesArg) (sink, bool) {
	return p.sinkOf(cur, typeutil.StaticCallee(p.TypesInfo, cur.Node().(*ast.CallExpr)), helpers)
}

// sinkOf is sinkAt of the call at cur, whose static callee is fn (nil for
// none), as the call index has it.
func (p *pass) sinkOf(cur inspector.Cursor, fn *types.Func, helpers map[*types.Func]*hashesArg) (sink, bool) {
	call := cur.Node().(*ast.CallExpr)
	if fn != nil && fn.Signature().Recv() == nil && fn.Pkg() != nil {
		if s, ok := p.funcSink(call, fn, helpers); ok {
			return s, true
		}
	}
	if fn == nil { // a call of a function value or an interface method
		if s, ok := p.varSink(call, helpers); ok {
			return s, true
		}
		if s, ok := p.dynamicSink(call, helpers); ok {
			return s, true
		}
		if s, ok := p.digestValueSink(call); ok {
			return s, true
		}
	}
	if h, _ := p.hasherCall(call, "Write"); h == nil {
		return sink{}, false
	}
	return sink{call: call, arg: call.Args[0], name: types.ExprString(call.Fun), write: cur.ParentEdgeKind() == edge.ExprStmt_X}, true
}

// funcSink returns the sink that call, a call of the package function fn, is:
// a sum function, a variadic sum, or a helper that only hashes one of its
// parameters (of this package, or of another by its fact).
func (p *pass) funcSink(call *ast.CallExpr, fn *types.Func, helpers map[*types.Func]*hashesArg) (sink, bool) {
	key := funcKey(fn)
	if sum, ok := p.cfg.lookupSum(fn, key); ok && len(call.Args) == 1 && !call.Ellipsis.IsValid() {
		return sink{call: call, arg: call.Args[0], name: shortName(fn), sum: sum}, true
	}
	if partsFuncs[key] && len(call.Args) == 1 && !call.Ellipsis.IsValid() {
		return sink{call: call, arg: call.Args[0], name: fn.Pkg().Name() + "." + fn.Name(), spread: true}, true
	}
	fact := p.helperFact(fn, helpers)
	// A variadic helper is a sink when it is called with one element.
	if fact != nil && fact.Parts && len(call.Args) != fact.Param+1 {
		fact = nil
	}
	if fact != nil && fact.Param < len(call.Args) && !call.Ellipsis.IsValid() {
		return sink{call: call, arg: call.Args[fact.Param], name: p.targetName(fn), helper: fn.Origin(), helperFact: fact, spread: fact.Parts}, true
	}
	return sink{}, false
}

// hashHelpers finds the package's functions that only hash one of their
// []byte parameters, and exports the fact for the other packages; and
// exports hashesParts for its exported variadic functions that match it.
func (p *pass) hashHelpers() map[*types.Func]*hashesArg {
	helpers := map[*types.Func]*hashesArg{}
	for fn, cur := range p.vals.Funcs(p.root.Inspector()) {
		decl := cur.Node().(*ast.FuncDecl)
		if decl.Body == nil {
			continue
		}
		if fn.Exported() && decl.Recv == nil && fn.Signature().Variadic() {
			if ctor := p.partsSum(cur, fn); ctor != "" {
				p.ExportObjectFact(fn, &hashesParts{Ctor: ctor})
			}
		}
		if fact := p.paramFact(cur, decl.Body, fn.Signature()); fact != nil {
			helpers[fn] = fact
			// Export it for the packages that import this one, which
			// look facts up for functions only, not for methods.
			if fn.Exported() && decl.Recv == nil {
				p.ExportObjectFact(fn, fact)
			}
		}
	}
	p.exportVarFacts(helpers)
	return helpers
}

// paramFact returns the hashesArg fact of the function (or literal) at cur,
// of signature sig and body body: of its first parameter that only flows
// into a hash, a []byte one or a variadic ...[]byte one whose parts are
// hashed in order, with the sum it computes and returns; or nil.
func (p *pass) paramFact(cur inspector.Cursor, body *ast.BlockStmt, sig *types.Signature) *hashesArg {
	params := sig.Params()
	for i := range params.Len() {
		param := params.At(i)
		var fact *hashesArg
		switch {
		case types.Identical(param.Type(), byteSlice):
			fact = p.onlyHashed(cur, param)
		case i == params.Len()-1 && sig.Variadic() && types.Identical(param.Type(), types.NewSlice(byteSlice)):
			fact = p.partsHashed(cur, param)
		}
		if fact == nil {
			continue
		}
		fact.Param = i
		switch {
		case fact.Parts:
		case fact.Sum != "":
			fact.Result = p.sumResult(body, param, fact.Sum)
		default:
			if fact.Sum = p.writeSum(body, sig.Results(), param); fact.Sum != "" {
				fact.Result = resultSlice
			}
		}
		return fact
	}
	return nil
}

// helperFact returns the hashesArg fact of fn: a helper of this package
// (helpers), or a function of another by its fact; nil when it has none.
func (p *pass) helperFact(fn *types.Func, helpers map[*types.Func]*hashesArg) *hashesArg {
	fact := helpers[fn.Origin()]
	if fact == nil && fn.Pkg() != p.Pkg {
		fact = new(hashesArg)
		if !p.ImportObjectFact(fn.Origin(), fact) {
			return nil
		}
	}
	return fact
}

// onlyHashed returns the fact that param, used exactly once in fn, is the
// argument of a sum function or of a hasher's Write, or nil.
func (p *pass) onlyHashed(fn inspector.Cursor, param *types.Var) *hashesArg {
	var fact *hashesArg
	for use := range p.vals.Uses(fn, param) {
		if fact != nil || use.ParentEdgeKind() != edge.CallExpr_Args {
			return nil
		}
		s, ok := p.sinkAt(use.Parent(), nil)
		if !ok || s.helper != nil || s.funcVar != nil || s.dynamic || s.arg != use.Node() {
			return nil
		}
		fact = &hashesArg{Sum: s.sum}
	}
	return fact
}

// partsHashed returns the fact that the variadic param is used once, as
//
//	for _, b := range param {
//		h.Write(b)
//	}
//
// with h a hasher: each part is hashed in order, as their concatenation
// would be. Or nil.
func (p *pass) partsHashed(fn inspector.Cursor, param *types.Var) *hashesArg {
	var loop *ast.RangeStmt
	for use := range p.vals.Uses(fn, param) {
		if loop != nil || use.ParentEdgeKind() != edge.RangeStmt_X {
			return nil
		}
		loop = use.Parent().Node().(*ast.RangeStmt)
	}
	if loop == nil || p.eachWritten(loop) == nil {
		return nil
	}
	return &hashesArg{Parts: true}
}

// eachWritten returns h of a loop that writes each element of a list, in
// order, into the hasher h, and does nothing else; or nil.
//
//	for _, b := range list {
//		h.Write(b)
//	}
func (p *pass) eachWritten(loop *ast.RangeStmt) ast.Expr {
	part := values.RangeElem(p.TypesInfo, loop)
	if part == nil || len(loop.Body.List) != 1 {
		return nil
	}
	es, ok := loop.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return nil
	}
	h, call := p.hasherCall(es.X, "Write")
	if h == nil || p.TypesInfo.Uses[values.IdentOf(call.Args[0])] != part || values.Mentions(p.TypesInfo, h, part) {
		return nil
	}
	return h
}

// concatOf returns the concatenation that the sink's argument arg is, when it
// is one that really allocates and is used for nothing but the hash.
func (p *pass) concatOf(sinkCur inspector.Cursor, arg ast.Expr) (*concat, bool) {
	switch e := ast.Unparen(arg).(type) {
	case *ast.CallExpr:
		if x, ok := p.byteConversion(e); ok {
			return p.formatted(sinkCur, x)
		}
		if c, ok := p.bufferConcat(sinkCur, e); ok {
			return c, true
		}
		return p.concatExpr(e)
	case *ast.Ident:
		return p.concatVar(sinkCur, e)
	}
	return nil, false
}

// byteConversion returns x of a conversion []byte(x) of a string.
func (p *pass) byteConversion(call *ast.CallExpr) (ast.Expr, bool) {
	x, ok := values.ConversionOf(p.TypesInfo, call)
	return x, ok && types.Identical(p.TypesInfo.TypeOf(call).Underlying(), byteSlice) && values.IsString(p.TypesInfo.TypeOf(x))
}

// formatted recognizes x of a hashed []byte(x) that is a string formatted
// only to be hashed: fmt.Sprintf(...) itself, or a local variable defined
// by it in the statement right before the sink's and used nowhere else.
// The string and its []byte copy are both made per call; fmt.Fprintf into
// the hasher makes neither.
func (p *pass) formatted(sinkCur inspector.Cursor, x ast.Expr) (*concat, bool) {
	// A byte slice formatted with the rest is what makes the copies cost:
	// a payload, copied into the string and again into the []byte, in
	// proportion to its size. Numbers and names formatted alone make a
	// few bytes, beside which the hash is the work.
	sprintf := func(e ast.Expr) (*ast.CallExpr, bool) {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || p.qualifiedCallee(call) != "fmt.Sprintf" || len(call.Args) < 2 || call.Ellipsis.IsValid() {
			return nil, false
		}
		for _, arg := range call.Args[1:] {
			if _, lit := ast.Unparen(arg).(*ast.CompositeLit); !lit && types.Identical(p.TypesInfo.TypeOf(arg).Underlying(), byteSlice) {
				return call, true
			}
		}
		return nil, false
	}
	if call, ok := sprintf(x); ok {
		return &concat{expr: call, sprintf: call, what: shorten(types.ExprString(call))}, true
	}
	l, ok := p.declaredBefore(sinkCur, x)
	if !ok || l.def == nil || p.vals.Count(l.fn, l.v) != 1 {
		return nil, false
	}
	call, ok := sprintf(l.def.Rhs[0])
	if !ok {
		return nil, false
	}
	return &concat{expr: call, def: l.def, between: l.end - l.at - 1, sprintf: call, what: shorten(l.v.Name() + " := " + types.ExprString(call))}, true
}

// local is a variable that the sink hashes, or reads, declared in the
// sink's block before the sink's statement (see declaredBefore).
type local struct {
	v       *types.Var
	fn      inspector.Cursor // the function around the sink
	list    []ast.Stmt       // the statements of the sink's block
	at, end int              // the indexes of v's declaration and of the sink's statement
	def     *ast.AssignStmt  // v's declaration, when it is v := e
}

// declaredBefore returns the variable that e, hashed or read by the sink at
// sinkCur, names, when it is declared before the sink's statement in the
// sink's block and the sink is in no loop or function literal of its
// statement.
func (p *pass) declaredBefore(sinkCur inspector.Cursor, e ast.Expr) (l local, ok bool) {
	id, _ := ast.Unparen(e).(*ast.Ident)
	v, isVar := p.TypesInfo.Uses[id].(*types.Var)
	stmt, list, inList := statementIn(sinkCur)
	fn, inFunc := values.EnclosingFunc(sinkCur)
	if !isVar || !inList || !inFunc {
		return local{}, false
	}
	// A sink in a loop or a function literal of its statement may run many
	// times, after the parts have changed.
	for c := sinkCur.Parent(); c.Node() != stmt; c = c.Parent() {
		switch c.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			return local{}, false
		}
	}
	l = local{v: v, fn: fn, list: list, at: -1, end: slices.Index(list, stmt)}
	for i, s := range list[:l.end] {
		if s.Pos() <= v.Pos() && v.Pos() < s.End() {
			l.at = i
		}
	}
	if l.at < 0 {
		return local{}, false
	}
	if as, isDef := list[l.at].(*ast.AssignStmt); isDef && as.Tok == token.DEFINE && len(as.Lhs) == 1 && len(as.Rhs) == 1 && p.TypesInfo.Defs[values.IdentOf(as.Lhs[0])] == v {
		l.def = as
	}
	return l, true
}

// concatExpr recognizes what call concatenates (see values.Joins), when it
// allocates.
func (p *pass) concatExpr(call *ast.CallExpr) (*concat, bool) {
	j, ok := values.Joins(p.TypesInfo, call)
	if !ok {
		return nil, false
	}
	c := &concat{expr: call, parts: j.Parts, what: shorten(types.ExprString(call))}
	if j.Join {
		c.what = "bytes.Join"
	}
	if j.Bases == nil {
		return c, true // a new slice per call, as long as the parts together
	}
	if len(c.parts) > 2 && values.EmptyMake(p.TypesInfo, c.parts[0]) {
		c.parts = c.parts[1:] // append(make([]byte, 0, n), a...): a buffer, no part
	}
	// Reject append(buf[:0], ...): it reuses a scratch buffer's capacity.
	allocates := false
	for _, base := range j.Bases {
		alloc, alias := p.appendBase(base)
		allocates = allocates || alloc
		if alias && c.aliasing == nil {
			c.aliasing = base
		}
	}
	if !allocates {
		return nil, false
	}
	return c, true
}

// whyNoConcat says, for the audit, why the append, slices.Concat or
// bytes.Join call that e is, hashed as it is, is not a concatenation the
// check reports, when it is not; "" when e is none of them.
func (p *pass) whyNoConcat(e ast.Expr) (*ast.CallExpr, string) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	switch {
	case !ok:
		return nil, ""
	case values.AppendAll(p.TypesInfo, call):
		return call, "its first operand may have room for the parts (a reused buffer, one whose capacity is not known here, or a short conversion the compiler keeps on the stack), so it need not allocate"
	case values.Builtin(p.TypesInfo, call) == "append":
		return call, "it appends single values, not byte slices the check can write one after another"
	case p.qualifiedCallee(call) == "bytes.Join":
		return call, "bytes.Join of a slice of parts built elsewhere, or with a separator: not one whose parts the check can write one after another"
	case p.qualifiedCallee(call) == "slices.Concat":
		return call, "slices.Concat of one part, a spread list of parts, or not of byte slices: not one whose parts the check can write one after another"
	}
	return call, ""
}

// appendBase decides whether append(base, ...) allocates a new array, and
// whether it may write into spare capacity that the caller sees. It answers
// yes only when it knows: a literal or a package variable set from one has no
// spare capacity; a parameter or a field may have some, which append would
// overwrite, and usually has none.
func (p *pass) appendBase(base ast.Expr) (allocates, aliasing bool) {
	switch b := ast.Unparen(base).(type) {
	case *ast.CompositeLit:
		return true, false
	case *ast.CallExpr:
		if values.AppendAll(p.TypesInfo, b) {
			// append(append(x, a...), b...) allocates when x does: the
			// inner append's new array is sized for it alone. On a buffer
			// made with room for the parts, both fit: a constant size stays
			// on the stack (sia's hashKeys: 0 allocations measured), a size
			// known only at run time goes to the heap above 32 bytes (the
			// 65 bytes of transparency-dev's HashChildren).
			inner := ast.Unparen(b.Args[0])
			for {
				c, ok := inner.(*ast.CallExpr)
				if !ok || values.Builtin(p.TypesInfo, c) != "append" || len(c.Args) == 0 {
					break
				}
				inner = ast.Unparen(c.Args[0]) // append(make(...), prefix): the make
			}
			if mk, ok := inner.(*ast.CallExpr); ok && values.Builtin(p.TypesInfo, mk) == "make" && len(mk.Args) >= 2 {
				size := mk.Args[len(mk.Args)-1]
				return p.TypesInfo.Types[size].Value == nil, false
			}
			allocates, _ := p.appendBase(b.Args[0])
			return allocates, false
		}
		// A function's result is as likely to be full as a parameter (a
		// conversion is not: its capacity is rounded up to a size class).
		if tv, ok := p.TypesInfo.Types[b.Fun]; ok && !tv.IsType() && !isBuiltin(p.TypesInfo, b.Fun) {
			return true, true
		}
	case *ast.IndexExpr:
		// An element of a slice, an array or a map (nodes[i] in a Merkle
		// level): as likely to be full as a parameter.
		if _, isGeneric := p.TypesInfo.Types[b.X].Type.(*types.Signature); !isGeneric {
			return true, true
		}
	case *ast.SelectorExpr:
		if sel, ok := p.TypesInfo.Selections[b]; ok && sel.Kind() == types.FieldVal {
			return true, true
		}
		if v, ok := p.TypesInfo.Uses[b.Sel].(*types.Var); ok {
			return p.literalVar(v), false
		}
	case *ast.SliceExpr:
		// a[:] of an array: its length is its capacity, so appending to it
		// always allocates, and never writes into the array.
		if values.WholeArray(p.TypesInfo, b) != nil {
			return true, false
		}
	case *ast.Ident:
		v, ok := p.TypesInfo.Uses[b].(*types.Var)
		if !ok {
			return false, false
		}
		if v.Parent() == v.Pkg().Scope() {
			return p.literalVar(v), false
		}
		if v.Kind() == types.ParamVar {
			return true, true
		}
	}
	return false, false // a scratch buffer, a slice of an array: unknown
}

// literalVar reports whether the package variable v is declared with a
// composite literal or a conversion of a constant (no spare capacity) and
// never written.
func (p *pass) literalVar(v *types.Var) bool {
	if p.Pkg != v.Pkg() || !p.fixedPackageVar(v) {
		return false
	}
	switch value := ast.Unparen(p.declaredValue(v)).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.CallExpr:
		return p.TypesInfo.Types[value.Fun].IsType() && len(value.Args) == 1 && p.TypesInfo.Types[value.Args[0]].Value != nil && p.TypesInfo.TypeOf(value) != nil
	}
	return false
}

// concatVar recognizes a local variable that holds a concatenation, defined in
// the statement right before the sink's (v := append(a, b...)), or made and
// filled by copies right before it (v := make([]byte, len(a)+len(b)); n :=
// copy(v, a); copy(v[n:], b)), and used nowhere else.
func (p *pass) concatVar(sinkCur inspector.Cursor, e *ast.Ident) (*concat, bool) {
	l, ok := p.declaredBefore(sinkCur, e)
	if !ok || l.def == nil {
		return nil, false
	}
	if call, ok := ast.Unparen(l.def.Rhs[0]).(*ast.CallExpr); ok && p.vals.Count(l.fn, l.v) == 1 && l.at+1 == l.end {
		if c, ok := p.concatExpr(call); ok {
			c.expr, c.def = call, l.def
			c.what = shorten(l.v.Name() + " := " + types.ExprString(call))
			return c, true
		}
	}
	// A make+copy; one of a constant size stays on the stack.
	cp, ok := p.vals.Copied(l.fn, l.list, l.at, l.end)
	if !ok || p.TypesInfo.Types[cp.Make.Args[1]].Value != nil {
		return nil, false
	}
	return &concat{expr: cp.Make, def: l.def, stmts: cp.Stmts, parts: cp.Parts, spread: cp.Spread, what: l.v.Name() + " := make+copy"}, true
}

// statementIn returns the statement of a statement list that holds cur, and
// the list.
func statementIn(cur inspector.Cursor) (ast.Stmt, []ast.Stmt, bool) {
	stmt, ok := listStatementCursor(cur)
	if !ok {
		return nil, nil, false
	}
	switch list := stmt.Parent().Node().(type) {
	case *ast.BlockStmt:
		return stmt.Node().(ast.Stmt), list.List, true
	case *ast.CaseClause:
		return stmt.Node().(ast.Stmt), list.Body, true
	case *ast.CommClause:
		return stmt.Node().(ast.Stmt), list.Body, true
	}
	return nil, nil, false
}

// concatFix hashes the parts one after another: into the hasher for a Write,
// with a multi-part sum for a sum function, through a variadic form of a
// package's own hashing helper.
func (p *pass) concatFix(cur inspector.Cursor, s sink, c *concat) (*analysis.SuggestedFix, string) {
	if c.noFix != "" {
		return nil, c.noFix
	}
	f := p.file(s.call.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	if why := p.partsRejected(c, true); why != "" {
		return nil, why
	}
	// Reject a call through a function value or an interface: a fix would
	// call its target directly, right only while the package stores no
	// other value.
	if s.unknown {
		// One call of it hashes the whole: no fix splits the parts across
		// calls of a function whose target is not known.
		return nil, "the call goes through " + types.ExprString(s.call.Fun) + ", a function value whose target is not known here: it hashes what one call gives it, and no fix can split that into parts"
	}
	if s.dynamic {
		return nil, "the call goes through " + types.ExprString(s.call.Fun) + ", which a fix does not replace by its target"
	}
	fc := fixes.Concat{Parts: c.parts, Spread: c.spread}
	if c.def != nil {
		fc.Remove = append([]ast.Stmt{c.def}, c.stmts...)
	}
	if why := p.literalParts(cur, s, c, &fc); why != "" {
		return nil, why
	}
	if c.sprintf != nil {
		return p.formattedFix(cur, s, c, f, fc)
	}
	switch {
	case s.spread:
		// The variadic sum hashes its arguments one after another.
		//
		//	crypto.Keccak256(append(a, b...))   =>   crypto.Keccak256(a, b)
		fix := fixes.SpreadParts(f, s.arg, fc, "Pass the parts to "+s.name+", which hashes them one after another")
		return &fix, ""

	case s.sum != "":
		spec, why := p.sumSpec(s.sum, s.sliceResult)
		if spec == nil {
			return nil, why
		}
		fix := fixes.SumParts(f, s.call, fc, *spec)
		return &fix, ""

	case s.helper != nil:
		return p.helperFix(f, s, fc)

	case s.funcVar != nil:
		// A literal that does more than return a standard sum of its
		// argument, or hashes with a hasher whose algorithm is not proved.
		return nil, s.funcVar.Name() + " does more than return a standard sum of its argument"
	}
	// A hasher's Write.
	sel := ast.Unparen(s.call.Fun).(*ast.SelectorExpr)
	if !values.Plain(sel.X) {
		return nil, types.ExprString(sel.X) + " is not a plain variable"
	}
	if !s.write {
		return p.checkedWriteFix(cur, s, f, fc)
	}
	fix := fixes.WriteParts(f, cur.Parent().Node().(*ast.ExprStmt), types.ExprString(sel.X), fc)
	return &fix, ""
}

// partsRejected says why the parts of c cannot be hashed one after another,
// or "". With literals, a part that holds single bytes (see literalPart) is
// left to literalParts.
func (p *pass) partsRejected(c *concat, literals bool) string {
	// Reject string parts (append(b, s...)): the parts are written as []byte.
	// Reject a part that is itself a buffer made per call
	// (append(make([]byte, 0, n), prefix) in transparency-dev's
	// HashChildren): written alone, it allocates as much as the whole.
	for _, part := range c.parts {
		t := p.TypesInfo.TypeOf(part).Underlying()
		if slice, ok := t.(*types.Slice); ok && c.spread {
			t = slice.Elem().Underlying()
		}
		if !types.Identical(t, byteSlice) {
			return types.ExprString(part) + " is not a []byte"
		}
		if literals && p.literalPart(part) != nil {
			continue
		}
		if call, ok := ast.Unparen(part).(*ast.CallExpr); ok && isBuiltin(p.TypesInfo, call.Fun) {
			return "a part, " + shorten(types.ExprString(part)) + ", is a buffer made per call too"
		}
	}
	return ""
}

// literalPart returns v1, ..., vk of a part append(make([]byte, 0, n), v1,
// ..., vk), a buffer made per call only to hold a few bytes (the prefix of
// transparency-dev's HashChildren), which []byte{v1, ..., vk} holds as well;
// or nil.
func (p *pass) literalPart(part ast.Expr) []ast.Expr {
	call, ok := ast.Unparen(part).(*ast.CallExpr)
	if !ok || values.Builtin(p.TypesInfo, call) != "append" || call.Ellipsis.IsValid() || len(call.Args) < 2 || !values.EmptyMake(p.TypesInfo, call.Args[0]) {
		return nil
	}
	return call.Args[1:]
}

// literalParts writes the parts that hold single bytes (see literalPart) as
// composite literals, []byte{v1, ..., vk}, where they stay on the stack: in a
// multi-part sum (its hasher is local), or written into a hasher the model
// keeps on the stack. Written into a hasher that may be on the heap, a
// literal would escape through the interface's Write, and allocate per call
// still: the bytes, when constant, are held by a package variable declared
// in the file, which a hasher's Write only reads (io.Writer: "Write must not
// modify the slice data").
//
//	b := append(append(make([]byte, 0, 1+len(l)), prefix), l...)      h.Write(prefixBytes)
//	h.Write(b)                                                    =>   h.Write(l)
//	                                                                   ...
//	                                                                   var prefixBytes = []byte{prefix}
//
// It says why no such form holds, or "".
func (p *pass) literalParts(cur inspector.Cursor, s sink, c *concat, fc *fixes.Concat) string {
	for i, part := range c.parts {
		values := p.literalPart(part)
		if values == nil {
			continue
		}
		if fc.Literals == nil {
			fc.Literals = make([]fixes.Literal, len(c.parts))
		}
		lit := fixes.Literal{Values: values}
		switch {
		case s.sum != "":
		case s.write && !s.dynamic && s.funcVar == nil && s.helper == nil && p.writtenOnStack(s) != "":
		default:
			for _, v := range values {
				if p.TypesInfo.Types[v].Value == nil {
					return "a part, " + shorten(types.ExprString(part)) + ", is a buffer made per call too, of bytes that are not constant: a literal of them would escape through " + s.name
				}
			}
			if !s.write || s.dynamic || s.funcVar != nil || s.helper != nil {
				return "a part, " + shorten(types.ExprString(part)) + ", is a buffer made per call too"
			}
			lit.Var = true
			// The variable is named after the package constant it holds
			// (a local one's name may stand for another value elsewhere
			// in the file: the bytes in hex name it then).
			if id, ok := ast.Unparen(values[0]).(*ast.Ident); ok && len(values) == 1 {
				if c, ok := p.TypesInfo.Uses[id].(*types.Const); ok && c.Parent() == p.Pkg.Scope() {
					lit.Want = unexported(id.Name) + "Bytes"
				}
			}
		}
		fc.Literals[i] = lit
	}
	return ""
}

// writtenOnStack says why the hasher of the Write sink s stays on the
// stack, or "": it is of a concrete type, or a local hasher that the model
// keeps on the stack. A composite literal written into it stays on the
// stack too; passed as an io.Writer, it would move to the heap.
func (p *pass) writtenOnStack(s sink) string {
	sel, ok := ast.Unparen(s.call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if !types.IsInterface(p.TypesInfo.TypeOf(sel.X)) {
		return types.ExprString(sel.X) + " is not an interface"
	}
	if v, ok := p.TypesInfo.Uses[values.IdentOf(sel.X)].(*types.Var); ok {
		if site := p.model.hashers[v]; site != nil && !site.Heap {
			return v.Name() + " stays on the stack"
		}
	}
	return ""
}

// checkedWriteFix writes the parts one after another into the hasher whose
// Write's error is checked: every part but the last as a statement before
// the check, the last in its place. A hasher's Write never returns an error
// (hash.Hash says so), so checking the last one alone loses nothing.
//
//	if _, err := h.Write(append(a, b...)); err != nil {   =>   h.Write(a)
//	                                                           if _, err := h.Write(b); err != nil {
func (p *pass) checkedWriteFix(cur inspector.Cursor, s sink, f *fixes.File, fc fixes.Concat) (*analysis.SuggestedFix, string) {
	// Reject a count that is kept (it would be the last part's length), and
	// a list of parts (written in a loop).
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 2 || values.IdentOf(as.Lhs[0]) == nil || values.IdentOf(as.Lhs[0]).Name != "_" || fc.Spread {
		return nil, "the result of Write is used"
	}
	// The writes go before the assignment, or the if statement it begins.
	at := cur.Parent()
	if at.ParentEdgeKind() == edge.IfStmt_Init {
		at = at.Parent()
	}
	if _, _, ok := statementIn(at); !ok {
		return nil, "the result of Write is used"
	}
	fix := fixes.WritePartsChecked(f, at.Node().(ast.Stmt), s.arg, types.ExprString(ast.Unparen(s.call.Fun).(*ast.SelectorExpr).X), fc)
	return &fix, ""
}

// inert reports whether code moved across stmts computes what it did: each
// statement only defines a hasher by a call of a constructor of the catalog
// with plain arguments, which writes no variable and no byte, and the moved
// expressions mention none of the names they define.
//
//	toSign := fmt.Sprintf("%s.%d", id, ts)
//	h := hmac.New(sha256.New, key)             <- inert
//	h.Write([]byte(toSign))
func (p *pass) inert(stmts []ast.Stmt, moved []ast.Expr) bool {
	for _, s := range stmts {
		def, ok := s.(*ast.AssignStmt)
		if !ok || def.Tok != token.DEFINE || len(def.Lhs) != 1 || len(def.Rhs) != 1 {
			return false
		}
		call, ok := ast.Unparen(def.Rhs[0]).(*ast.CallExpr)
		if !ok || !values.Plain(call.Fun) || !slices.ContainsFunc(p.sites, func(site *Site) bool {
			return site.Call == call && !site.ctor.funcValue && site.Wraps == ""
		}) {
			return false
		}
		for _, a := range call.Args {
			if !values.Plain(a) {
				return false
			}
		}
		for _, e := range moved {
			for n := range ast.Preorder(e) {
				if id, ok := n.(*ast.Ident); ok && id.Name == values.IdentOf(def.Lhs[0]).Name {
					return false
				}
			}
		}
	}
	return true
}

// sumSpec says how the fixes compute the sum function's hash of several
// parts, appended to nil when the sum is wanted as a slice.
func (p *pass) sumSpec(sum string, slice bool) (*fixes.SumSpec, string) {
	name := sum[strings.LastIndex(sum, "/")+1:]
	if p.inlinePools() {
		// The file declares a variadic sum on the standard hasher of the
		// same hash: the sum function (a fork's too) need not be in scope.
		ctor, ok := sumConstructors[sum]
		if !ok {
			return nil, "no standard hasher computes " + name
		}
		return &fixes.SumSpec{Ctor: ctor, Size: digestSizes[ctor], Inline: true, Append: slice}, ""
	}
	runtime := sumFuncs[sum]
	if runtime == "" {
		return nil, "the runtime module has no multi-part " + name
	}
	return &fixes.SumSpec{Runtime: runtime, Append: slice}, ""
}

// helperFix calls a variadic form of a package's own hashing helper, declared
// next to it in the same file.
func (p *pass) helperFix(f *fixes.File, s sink, fc fixes.Concat) (*analysis.SuggestedFix, string) {
	helperDecl, ok := p.decl(s.helper)
	if !ok {
		return p.otherHelperFix(f, s, fc)
	}
	d := helperDecl.Node().(*ast.FuncDecl)
	switch {
	case p.Fset.File(d.Pos()) != p.Fset.File(s.call.Pos()):
		// Every edit stays in the finding's file: the same sum of the
		// parts computed at the call, when the helper returns nothing else.
		if fix, _ := p.otherHelperFix(f, s, fc); fix != nil {
			return fix, ""
		}
		return nil, s.helper.Name() + " is declared in another file, and returns more than a standard sum of its argument"
	case s.helper.Signature().Params().Len() != 1 || s.helper.Signature().Variadic():
		return nil, s.helper.Name() + " has other parameters"
	case d.Recv != nil || d.Type.TypeParams != nil:
		return nil, s.helper.Name() + " is a method or generic"
	}
	param := s.helper.Signature().Params().At(0)
	spec := fixes.HelperSpec{Decl: d, Param: param, Name: s.helper.Name() + "Parts"}
	// Find the sink inside the helper.
	for ic := range p.calls.Within(helperDecl) {
		cur, call := ic.Cursor, ic.Node
		if in, ok := p.sinkAt(cur, nil); ok && p.TypesInfo.Uses[values.IdentOf(in.arg)] == param {
			spec.Sink = call
			if in.sum != "" {
				sum, why := p.sumSpec(in.sum, false)
				if sum == nil {
					return nil, why
				}
				spec.Sum = sum
			} else if !in.write {
				return nil, "the result of Write is used in " + s.helper.Name()
			}
		}
	}
	if spec.Sink == nil {
		return nil, "the hashing call in " + s.helper.Name() + " is not found"
	}
	// The variadic form the package already has, else a new one under an
	// unexported name: a fix never adds to a package's API.
	variadic := func(obj types.Object) bool {
		fn, ok := obj.(*types.Func)
		return ok && fn.Signature().Variadic() && fn.Signature().Params().Len() == 1
	}
	if obj := p.Pkg.Scope().Lookup(spec.Name); obj != nil && variadic(obj) {
		spec.Exists = true
	} else {
		spec.Name = unexported(s.helper.Name()) + "Parts"
		if obj := p.Pkg.Scope().Lookup(spec.Name); obj != nil {
			if !variadic(obj) {
				return nil, spec.Name + " is already declared"
			}
			spec.Exists = true
		}
	}
	fix := fixes.HelperParts(f, s.call, fc, spec)
	return &fix, ""
}

// formattedFix formats into the hasher with fmt.Fprintf what c formatted
// into a string only to write it into the hasher:
//
//	s := fmt.Sprintf("%s.%d", id, ts)
//	mac.Write([]byte(s))                 =>   fmt.Fprintf(mac, "%s.%d", id, ts)
func (p *pass) formattedFix(cur inspector.Cursor, s sink, c *concat, f *fixes.File, fc fixes.Concat) (*analysis.SuggestedFix, string) {
	// Reject a sum function: the parts are formatted, and no multi-part sum
	// formats them.
	if !s.write {
		return nil, "the string is hashed by " + s.name + ", not written into a hasher that fmt.Fprintf could write into"
	}
	// Statements between the formatting and the Write: the arguments that
	// run code are evaluated where the string was formatted, into
	// temporaries, and the others (variables, fields, constants) at the
	// Write, which only hashers' definitions may precede (see inert).
	//
	//	toSign := fmt.Sprintf("%s.%d", id, t.Unix())     unix := t.Unix()
	//	h := hmac.New(sha256.New, key)              =>   h := hmac.New(sha256.New, key)
	//	h.Write([]byte(toSign))                          fmt.Fprintf(h, "%s.%d", id, unix)
	var early []ast.Expr
	if c.between > 0 {
		_, list, _ := statementIn(cur)
		at := slices.Index(list, c.def)
		var kept []ast.Expr
		for _, a := range c.sprintf.Args {
			if values.Plain(a) || p.TypesInfo.Types[a].Value != nil {
				kept = append(kept, a)
			} else {
				early = append(early, a)
			}
		}
		if at < 0 || !p.inert(list[at+1:at+1+c.between], kept) {
			return nil, "statements between the formatting and " + s.name + " would run before the arguments are evaluated"
		}
	}
	sel := ast.Unparen(s.call.Fun).(*ast.SelectorExpr)
	if !values.Plain(sel.X) {
		return nil, types.ExprString(sel.X) + " is not a plain variable"
	}
	// Reject a hasher of a concrete type, or one the model keeps on the
	// stack: passed to fmt.Fprintf as an io.Writer, it would move to the
	// heap.
	if why := p.writtenOnStack(s); why != "" {
		return nil, why + ": fmt.Fprintf would move it to the heap"
	}
	fix := fixes.WriteFormatted(f, cur.Parent().Node().(*ast.ExprStmt), types.ExprString(sel.X), c.sprintf, fc, early)
	return &fix, ""
}

// reportReturnedConcat reports the concatenation that a function of the
// package builds and returns only for the sink at cur, and its other
// callers, to hash: the builder is unexported, its last statement, its only
// return, returns the concatenation, and every use of it is a call whose
// result a sink hashes.
//
//	func formatLeaf(b []byte) []byte {
//		return bytes.Join([][]byte{prefix, b}, nil)   <- reported here
//	}
//	func HashLeaf(b []byte) Hash { return crypto.HashBytes(formatLeaf(b)) }
//
// There is no automatic fix: each caller would hash the builder's parts.
// done records the builders already decided.
func (p *pass) reportReturnedConcat(cur inspector.Cursor, s sink, helpers map[*types.Func]*hashesArg, done map[*types.Func]bool) {
	call, ok := ast.Unparen(s.arg).(*ast.CallExpr)
	if !ok {
		return
	}
	fn := typeutil.StaticCallee(p.TypesInfo, call)
	if fn == nil || fn.Pkg() != p.Pkg || fn.Exported() || fn.Signature().Recv() != nil || done[fn] {
		return
	}
	done[fn] = true
	declCur, ok := p.decl(fn)
	if !ok {
		return
	}
	decl := declCur.Node().(*ast.FuncDecl)
	if decl.Body == nil || len(decl.Body.List) == 0 {
		return
	}
	ret, ok := decl.Body.List[len(decl.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return
	}
	for c := range declCur.Preorder((*ast.ReturnStmt)(nil)) {
		if c.Node() != ret {
			return // another return: the concatenation is not all it returns
		}
	}
	built, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok {
		return
	}
	c, ok := p.concatExpr(built)
	if !ok {
		return
	}
	// Every use of the builder is a call whose result a sink hashes.
	var sinks []sink
	for use := range p.vals.Uses(p.root, fn) {
		callCur := use.Parent()
		if use.ParentEdgeKind() != edge.CallExpr_Fun || callCur.ParentEdgeKind() != edge.CallExpr_Args {
			return // used as a value, or its result is not an argument
		}
		in, ok := p.sinkAt(callCur.Parent(), helpers)
		if !ok || ast.Unparen(in.arg) != callCur.Node() {
			return
		}
		sinks = append(sinks, in)
	}
	if len(sinks) == 0 {
		return
	}
	site, ok := declCur.FindNode(built)
	if !ok || !p.suppress.analyzed(site) {
		return
	}
	what := fmt.Sprintf("%s builds a buffer that %s returns only to be hashed, with %s", c.what, fn.Name(), s.name)
	often, _, ok := p.often(site, concatHash, 1)
	found := concatFound{pos: built.Pos(), what: what, shown: ok && p.shows(built, concatHash)}
	p.out.concats = append(p.out.concats, found)
	if !ok {
		return
	}
	fix, why := p.returnedFix(fn, decl, c, sinks)
	p.report(built, concatHash, what+" "+often, fix, "hash the parts one after another where "+fn.Name()+" is called", why)
}

// returnedFix makes the builder fn, whose callers only hash what it returns
// with sinks that compute one standard sum, return that sum of its parts
// instead, under a name that says so; its callers call it in place of the
// sink.
//
//	func formatLeaf(b []byte) []byte {                   func formatLeafSum(b []byte) crypto.Hash {
//		prefix := []byte{0}                                  prefix := []byte{0}
//		return bytes.Join([][]byte{prefix, b}, nil)    =>    return hashsum.SHA256(prefix, b)
//	}                                                    }
//	crypto.HashBytes(formatLeaf(leaf))                   formatLeafSum(leaf)
func (p *pass) returnedFix(fn *types.Func, decl *ast.FuncDecl, c *concat, sinks []sink) (*analysis.SuggestedFix, string) {
	if why := p.partsRejected(c, false); why != "" {
		return nil, why
	}
	// Every sink computes the same standard sum, of the same result type,
	// and is a call with the builder's call as its only argument.
	first := sinks[0]
	sum, result := sinkSum(first), p.TypesInfo.TypeOf(first.call)
	for _, in := range sinks {
		switch {
		case sinkSum(in) == partsSum{}:
			return nil, in.name + " is not a standard sum, which " + fn.Name() + " could return of its parts"
		case sinkSum(in) != sum || !types.Identical(p.TypesInfo.TypeOf(in.call), result):
			return nil, fn.Name() + "'s callers hash what it returns with different sums"
		case len(in.call.Args) != 1 || in.call.Ellipsis.IsValid():
			return nil, in.name + " is called with other arguments"
		case p.Fset.File(in.call.Pos()) != p.Fset.File(decl.Pos()):
			// Every edit stays in the finding's file.
			return nil, fn.Name() + " is called in another file"
		}
	}
	name := fn.Name() + "Sum"
	if p.Pkg.Scope().Lookup(name) != nil {
		return nil, name + " is already declared"
	}
	spec, why := p.sumSpec(sum.sum, sum.slice)
	if spec == nil {
		return nil, why
	}
	f := p.file(decl.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	calls := make([]*ast.CallExpr, len(sinks))
	for i, in := range sinks {
		calls[i] = in.call
	}
	fix := fixes.ReturnParts(f, decl, c.expr, calls, fixes.Concat{Parts: c.parts, Spread: c.spread}, *spec, name, result)
	return &fix, ""
}

// partsSum is the standard sum a sink computes, and whether it returns it
// as a slice.
type partsSum struct {
	sum   string
	slice bool
}

// sinkSum returns the standard sum that s computes and returns, as a sum
// function or a helper that returns nothing but it; the zero partsSum when
// s is none of them.
func sinkSum(s sink) partsSum {
	switch {
	case s.sum != "":
		return partsSum{s.sum, s.sliceResult}
	case s.helper != nil && s.helperFact.Sum != "" && !s.helperFact.Parts &&
		(s.helperFact.Result == resultArray || s.helperFact.Result == resultSlice):
		return partsSum{s.helperFact.Sum, s.helperFact.Result == resultSlice}
	}
	return partsSum{}
}

// Concatenations built in a bytes.Buffer only to be hashed:
//
//	buf := bytes.NewBuffer(make([]byte, 0, len(l)+len(r)))
//	buf.Write(l)                                    h.Write(l)
//	buf.Write(r)                             =>     h.Write(r)
//	h.Write(buf.Bytes())
//
// The buffer (its make, or the growth of its first Write) is allocated on
// every call only to hold the parts until they are hashed. What is
// recognized: a local variable defined in the sink's block by
// bytes.NewBuffer(make([]byte, 0, n)), bytes.NewBuffer(nil), new(bytes.Buffer)
// or var buf bytes.Buffer; used by Write, WriteString and WriteByte
// statements (their results discarded) between its definition and the
// sink, and by the sink's buf.Bytes() only; the sink in no loop or function
// literal of its statement. The fix removes the buffer and its writes and
// hashes the parts at the sink, when nothing but hashers' definitions runs
// among the writes (see inert).

// bufferConcat recognizes the concatenation that sel, a buf.Bytes() call
// that the sink at sinkCur hashes, reads (see values.BufferWrites).
func (p *pass) bufferConcat(sinkCur inspector.Cursor, call *ast.CallExpr) (*concat, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Bytes" || len(call.Args) != 0 || !values.IsBytesBuffer(p.TypesInfo.TypeOf(sel.X)) {
		return nil, false
	}
	l, ok := p.declaredBefore(sinkCur, sel.X)
	if !ok {
		return nil, false
	}
	w, ok := p.vals.BufferWrites(l.fn, l.v, l.list, l.at, l.end)
	if !ok {
		return nil, false
	}
	c := &concat{expr: w.Made, parts: w.Parts, def: l.list[l.at], stmts: w.Writes, what: "a bytes.Buffer filled with " + plural(len(w.Parts), "part")}
	// The parts are evaluated at the sink instead of at their writes: the
	// statements among the writes must not change them.
	if !p.inert(w.Others, w.Parts) {
		c.noFix = "statements other than its writes run between the bytes.Buffer and the hash, and could change the parts"
	}
	return c, true
}
