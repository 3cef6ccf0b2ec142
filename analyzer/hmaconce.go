package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// oneShotHMACs maps the hash constructors that hmac.New is given to the
// runtime's one-shot HMAC of the same hash (hashsum.AppendHMACSHA256, ...).
var oneShotHMACs = map[string]string{
	"crypto/sha256.New":        "SHA256",
	"crypto/sha256.New224":     "SHA224",
	"crypto/sha512.New":        "SHA512",
	"crypto/sha512.New384":     "SHA384",
	"crypto/sha512.New512_224": "SHA512_224",
	"crypto/sha512.New512_256": "SHA512_256",
	"crypto/sha1.New":          "SHA1",
	"crypto/md5.New":           "MD5",
}

// checkChangingKey reports hmac.New(h, key) with a key that is not held
// across calls, where the call runs per item: 5 allocations each time, where the runtime's one-shot HMAC
// (inner and outer hashers on the stack) makes none.
func (p *siteChecks) checkChangingKey(s *Site, what, often string) {
	msg := fmt.Sprintf("%s %s, %s", what, often, p.changingKey(s))
	fix, why := p.oneShotFix(s)
	p.rekeyed[s.Call] = true // shown or not: sum-alloc defers to it (see checkSumAlloc)
	p.report(s.Call, hmacRekey, msg, fix, "compute it with a one-shot HMAC", why)
}

// changingKey says what the key of s, not held across calls (see heldKey),
// is: computed in the function per call, passed by its callers, or read
// from something nothing shows to be fixed (a package variable it writes, a
// field of a value it is given).
func (p *pass) changingKey(s *Site) string {
	key := ast.Unparen(s.Call.Args[1])
	if conv, ok := key.(*ast.CallExpr); ok && len(conv.Args) == 1 {
		if tv, ok := p.TypesInfo.Types[conv.Fun]; ok && tv.IsType() {
			key = ast.Unparen(conv.Args[0]) // []byte(secret)
		}
	}
	text := shorten(types.ExprString(key))
	if tv, ok := p.TypesInfo.Types[key]; ok && tv.Value != nil {
		return "with the constant key " + text + ", converted on every call"
	}
	id := rootIdent(key)
	v, ok := p.TypesInfo.Uses[identOf(id)].(*types.Var)
	switch {
	case ok && v.Kind() == types.ParamVar:
		return "with key " + text + ", which its callers pass"
	case ok && v.Parent() == v.Pkg().Scope():
		return "with key " + text + ", which nothing shows to be fixed across calls"
	case ok && declaredInLoop(s.cur, v):
		return "with a key that changes from iteration to iteration (" + text + ")"
	}
	return "with a key read or computed per call (" + text + ")"
}

// declaredInLoop reports whether v is declared in a loop around cur (its
// body, or the loop's own variables), in cur's function.
func declaredInLoop(cur inspector.Cursor, v *types.Var) bool {
	for c := cur.Parent(); c.Valid(); c = c.Parent() {
		switch c.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if n := c.Node(); n.Pos() <= v.Pos() && v.Pos() < n.End() {
				return true
			}
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		}
	}
	return false
}

// oneShotFix computes the MAC with the runtime's one-shot HMAC when it is
// built, written and summed in statements of one list:
//
//	mac := hmac.New(sha256.New, key)
//	payload, err := json.Marshal(v)         payload, err := json.Marshal(v)
//	if err != nil {                         if err != nil {
//		return nil, err                =>       return nil, err
//	}                                       }
//	mac.Write(payload)
//	tag = mac.Sum(nil)                      tag = hashsum.AppendHMACSHA256(nil, key, payload)
//
// The key and the parts move to the Sum, so the statements between that are
// not Writes must leave them as they were (see movable) and not use the MAC.
// A key or a part that runs code stays where it was, assigned to a variable
// that the Sum reads:
//
//	mac := hmac.New(sha1.New, []byte(key()))        k := []byte(key())
//	mac.Write([]byte(u.Path + "?" + u.RawQuery)) => part := []byte(u.Path + "?" + u.RawQuery)
//	tag := mac.Sum(nil)                             tag := hashsum.AppendHMACSHA1(nil, k, part)
func (p *pass) oneShotFix(s *Site) (*analysis.SuggestedFix, string) {
	f := p.file(s.Call.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	def, why := p.definition(s)
	if def == nil {
		return nil, why
	}
	// The hash: a standard constructor, the New of a crypto.Hash chosen at
	// run time (hmac.New(s.hash.New, key)), on which AppendHMAC
	// dispatches, or else a hash function known only at run time, which
	// AppendHMACFunc calls (see funcHashOperand).
	var name string
	var fn *types.Func
	var hashDef ast.Stmt
	fnCur, _ := enclosingFunc(s.cur)
	cryptoHash := p.cryptoHashOperand(s.Call.Args[0])
	var funcHash ast.Expr
	switch {
	case cryptoHash != nil:
		if !sigOperand(cryptoHash) {
			return nil, "the hash " + shorten(types.ExprString(cryptoHash)) + " runs code (a call) that the one-shot HMAC would run at the Sum instead of at hmac.New"
		}
		if p.inlinePools() && len(p.namedHashes()) == 0 {
			return nil, "-pool=inline declares a one-shot HMAC of each hash that the package names, and it names none of crypto.SHA256 and its kin: -pool=runtime's hashsum.AppendHMAC dispatches on " + shorten(types.ExprString(cryptoHash))
		}
	default:
		var why string
		fn, hashDef, why = p.hashConstructor(fnCur, s.Call.Args[0])
		if fn != nil {
			var ok bool
			if name, ok = oneShotHMACs[funcKey(fn)]; !ok {
				fn, hashDef, why = nil, nil, "the runtime has no one-shot HMAC of "+shortName(fn)
			}
		}
		if fn == nil {
			// The next rung: the hash function's own one-shot HMAC,
			// which calls it once, and reads the variable that may hold
			// it (so its definition stays).
			hashDef = nil
			if whyNot := p.funcHashOperand(s.Call.Args[0]); whyNot != "" {
				return nil, why + ", and " + whyNot
			}
			funcHash = s.Call.Args[0]
		}
	}
	// The hash (a crypto.Hash or a function value) is read at the Sum
	// instead of at hmac.New: what runs between must leave it as it was.
	movedHash, hashText := cryptoHash, ""
	if funcHash != nil {
		movedHash = funcHash
	}
	if movedHash != nil {
		hashText = "the hash " + shorten(types.ExprString(movedHash))
	}
	// A hash function that may be nil makes hmac.New panic before anything
	// after it runs; the one-shot HMAC calls it at the Sum. So nothing may
	// run between but Writes of operands that run no code.
	mayPanic := funcHash != nil && !p.neverNilFunc(fnCur, funcHash)
	between := func(n ast.Node) string {
		return fmt.Sprintf("the hash function %s may be nil, which makes hmac.New panic before %s at %s runs, and the one-shot HMAC would call it after", shorten(types.ExprString(funcHash)), shorten(p.text(n)), p.position(n.Pos()))
	}
	// A key or a part that runs code (a call) is evaluated into a variable
	// where it was, in the same order, and the one-shot HMAC reads the
	// variable: the code still runs once, at its place.
	key := s.Call.Args[1]
	hoistKey := !sigOperand(key) && !p.plainConversion(key)
	if hoistKey {
		key = nil // a variable of its own: nothing between can change it
	}
	mac := p.TypesInfo.Defs[def.Lhs[0].(*ast.Ident)].(*types.Var)
	defCur := s.cur.Parent()
	switch defCur.ParentEdgeKind() {
	case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
	default:
		return nil, "the MAC is not defined in a statement list"
	}
	// The statements after the definition, up to the one with the Sum:
	// Writes, and statements that do not touch the MAC, the key or the
	// parts written before them (see movable).
	var parts, moved []ast.Expr
	var writes, movedWrites, partStmts []ast.Stmt
	var hoisted []bool
	var texts []string
	var sum *ast.CallExpr
	var sumCur inspector.Cursor
	for next, ok := defCur.NextSibling(); ok && sum == nil; next, ok = next.NextSibling() {
		// A Write, or _, err := mac.Write(x) and if err != nil { ... }:
		// hash.Hash's Write never returns an error, so the check goes with
		// it.
		w, check, checked := p.checkedWrite(fnCur, next, mac)
		if !checked {
			w = p.macWrite(next.Node(), mac)
		}
		printed := ""
		if w == nil {
			w, printed = p.macPrint(f, next.Node(), mac)
		}
		if w != nil {
			hoist := printed != "" || !sigOperand(w) && !p.plainConversion(w)
			if hoist {
				// The code it runs stays before the Sum, like a statement
				// between: it must leave the key and the parts before it
				// as they were.
				at := next
				if c, ok := next.FindNode(w); ok {
					at = c // the part's code, not the Write that takes it
				}
				if why := p.movable(at, key, "the key", movedWrites, moved); why != "" {
					return nil, why
				}
				if movedHash != nil {
					if why := p.movable(at, movedHash, hashText, nil, nil); why != "" {
						return nil, why
					}
				}
				if mayPanic {
					return nil, between(w)
				}
			} else {
				moved, movedWrites = append(moved, w), append(movedWrites, next.Node().(ast.Stmt))
			}
			parts, hoisted, texts = append(parts, w), append(hoisted, hoist), append(texts, printed)
			partStmts = append(partStmts, next.Node().(ast.Stmt))
			writes = append(writes, next.Node().(ast.Stmt))
			if check.Valid() {
				writes = append(writes, check.Node().(ast.Stmt))
				next = check
			}
			continue
		}
		if !p.mentions(next.Node(), mac) {
			// Moved to the Sum, the key and the parts written so far are
			// read after this statement instead of before it.
			if why := p.movable(next, key, "the key", movedWrites, moved); why != "" {
				return nil, why
			}
			if movedHash != nil {
				if why := p.movable(next, movedHash, hashText, nil, nil); why != "" {
					return nil, why
				}
			}
			if mayPanic {
				return nil, between(next.Node())
			}
			continue
		}
		sum, sumCur = p.macSum(next, mac), next
		if as, ok := next.Node().(*ast.AssignStmt); ok && sum == nil && len(as.Rhs) == 1 && p.macWriteCall(as.Rhs[0], mac) != nil {
			return nil, fmt.Sprintf("the error of %s at %s is used beyond an if err != nil that follows it", shorten(p.text(as)), p.position(as.Pos()))
		}
		if sum == nil {
			return nil, fmt.Sprintf("the MAC is used for more than Write and one Sum, by %s at %s", shorten(p.text(next.Node())), p.position(next.Node().Pos()))
		}
	}
	if sum == nil || len(parts) == 0 {
		return nil, "the MAC is not written and summed in the statements that follow"
	}
	if mayPanic {
		// Reject a call that the Sum's statement makes before the Sum or
		// in its argument (append(prefix(), mac.Sum(nil)...)): it too
		// would run before the hash function is called.
		for ic := range p.calls.Within(sumCur) {
			if n := ic.Node; n.End() <= sum.Pos() || n.Pos() > sum.Lparen && n.End() <= sum.Rparen {
				if _, ok := p.someCall(ic.Node); ok {
					return nil, between(ic.Node)
				}
			}
		}
	}
	// Every use of the MAC must be one of those.
	uses := 0
	var other token.Pos
	for id := range p.vals.Uses(fnCur, mac) {
		uses++
		if id.Node().Pos() > sum.End() && !other.IsValid() {
			other = id.Node().Pos()
		}
	}
	if uses != len(parts)+1 {
		if other.IsValid() {
			return nil, "the MAC is used for more than Write and one Sum, after the Sum at " + p.position(other)
		}
		return nil, "the MAC is used for more than Write and one Sum"
	}
	spec := fixes.OneShotSpec{Runtime: name, Hash: cryptoHash, Func: funcHash, HashDef: hashDef, Key: s.Call.Args[1], HoistKey: hoistKey, Parts: parts, PartStmts: partStmts, Hoisted: hoisted, HoistTexts: texts, Inline: p.inlinePools()}
	if fn != nil {
		// -pool=inline declares the same one-shot HMAC in the file.
		spec.Ctor = funcKey(fn)
		_, spec.KeySum = splitQualified(ctorSums[spec.Ctor])
		spec.Size = digestSizes[spec.Ctor]
	}
	if cryptoHash != nil && spec.Inline {
		// It declares a dispatch on the crypto.Hash, to a one-shot HMAC
		// of each hash the package names (see namedHashes).
		for _, ctor := range p.namedHashes() {
			c := fixes.OneShotSpec{Runtime: oneShotHMACs[ctor], Inline: true, Ctor: ctor, Size: digestSizes[ctor]}
			_, c.KeySum = splitQualified(ctorSums[ctor])
			spec.Cases = append(spec.Cases, c)
		}
	}
	// A caller that only compares what the function returns with a MAC
	// received gets a compare form that sums into an array on the stack.
	spec.EqualForm = p.equalForm(f, fnCur, mac)
	fix := fixes.OneShotHMAC(f, def, writes, sum, spec)
	return &fix, ""
}

// fmtAppends maps the fmt functions that print to a writer to those that
// append to a slice.
var fmtAppends = map[string]string{"fmt.Fprintf": "Appendf", "fmt.Fprint": "Append", "fmt.Fprintln": "Appendln"}

// macPrint recognizes a statement that prints into the MAC, as a part of its
// message, and returns the call and what appends the same bytes to an array
// on the stack (fmt.Appendf, Go 1.19), which the one-shot HMAC then reads:
//
//	fmt.Fprintf(mac, "%s:%d", id, t)   =>   part := fmt.Appendf(make([]byte, 0, 64), "%s:%d", id, t)
//
// The arguments are converted to interfaces as Fprintf converted them; a
// text longer than the array grows it once.
func (p *pass) macPrint(f *fixes.File, n ast.Node, mac *types.Var) (ast.Expr, string) {
	es, ok := n.(*ast.ExprStmt)
	if !ok {
		return nil, ""
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || len(call.Args) < 1 || !f.AtLeast("go1.19") {
		return nil, ""
	}
	appendFn, ok := fmtAppends[p.qualifiedCallee(call)]
	sel, isSel := call.Fun.(*ast.SelectorExpr)
	if !ok || !isSel || p.TypesInfo.Uses[identOf(call.Args[0])] != mac || ast.Unparen(call.Args[0]) != identOf(call.Args[0]) {
		return nil, ""
	}
	// Reject the MAC among what is printed: it would be used before its Sum.
	for _, arg := range call.Args[1:] {
		if p.mentions(arg, mac) {
			return nil, ""
		}
	}
	args := []string{"make([]byte, 0, 64)"}
	for _, arg := range call.Args[1:] {
		args = append(args, f.Text(arg))
	}
	ellipsis := ""
	if call.Ellipsis.IsValid() {
		ellipsis = "..."
	}
	return call, f.Text(sel.X) + "." + appendFn + "(" + strings.Join(args, ", ") + ellipsis + ")"
}

// cryptoHashOperand returns h when e is h.New for a crypto.Hash h (a
// method value), or nil.
func (p *pass) cryptoHashOperand(e ast.Expr) ast.Expr {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "New" || !isCryptoHash(p.TypesInfo.TypeOf(sel.X)) {
		return nil
	}
	return sel.X
}

// hashConstructor returns the standard constructor that the hash function
// e, given to hmac.New in the function at fn, is:
//
//	hmac.New(sha256.New, key)
//	hmac.New(func() hash.Hash { return sha256.New() }, key)
//	newHash := func() hash.Hash { return sha256.New() }; hmac.New(newHash, key)
//	hmac.New(s.newHash, key) // the package stores only sha256.New in the field
//
// a package function, a function literal that only returns its call, a
// local variable that one of those defines and nothing writes (def is its
// definition, which goes with the MAC: so it must have no other use), or a
// field, parameter or package variable whose one possible value the
// package shows (see funcValueTargets). Otherwise it says why not.
func (p *pass) hashConstructor(fn inspector.Cursor, e ast.Expr) (ctor *types.Func, def ast.Stmt, why string) {
	e = ast.Unparen(e)
	text := shorten(types.ExprString(e))
	if lit, ok := e.(*ast.FuncLit); ok {
		// Reject a literal that does more than return a constructor's
		// hasher: hashAlg(bits) chooses one at run time.
		var ret *ast.ReturnStmt
		if len(lit.Body.List) == 1 {
			ret, _ = lit.Body.List[0].(*ast.ReturnStmt)
		}
		var call *ast.CallExpr
		if ret != nil && len(ret.Results) == 1 {
			call, _ = ast.Unparen(ret.Results[0]).(*ast.CallExpr)
		}
		if call == nil {
			return nil, nil, "the hash function is a function literal that does more than return a constructor's hasher"
		}
		ctor, ok := p.funcValue(call.Fun)
		if !ok || len(call.Args) != 0 {
			return nil, nil, "the hash function is a function literal that returns " + shorten(types.ExprString(call)) + ", not a standard constructor's hasher"
		}
		return ctor, nil, ""
	}
	switch obj := p.TypesInfo.Uses[identOf(e)].(type) {
	case *types.Func:
		if ctor, ok := p.funcValue(e); ok {
			return ctor, nil, ""
		}
		// Reject a method value (opts.Algorithm.Hash): its receiver
		// chooses the hasher at run time, and a function value cannot
		// be compared to dispatch on it.
		return nil, nil, "the hash function " + text + " is a method value, whose receiver chooses the hash at run time"
	case *types.Var:
		if obj.Kind() != types.LocalVar {
			break
		}
		// Reject a variable assigned again: which function it holds
		// depends on the path taken.
		id, ok := p.vals.Def(fn, obj)
		value, defined := values.DefinedWith(id)
		if !ok || !defined || p.vals.Written(fn, obj) {
			return nil, nil, "the hash function " + text + " is a variable assigned where its value is not known here"
		}
		// Reject a variable used again: the fix deletes its definition
		// with the MAC's, or it would be left unused; with two uses,
		// each fix would leave the other's MAC undefined or, applied
		// together, the variable unused.
		if n := p.vals.Count(fn, obj); n != 1 {
			return nil, nil, fmt.Sprintf("the hash function %s is used %d times: the fix of one MAC deletes it, and the others use it", text, n)
		}
		// The definition is a statement of its own: newHash := ... or
		// var newHash = ..., defining it alone.
		switch stmt := id.Parent().Node().(type) {
		case *ast.AssignStmt:
			if len(stmt.Lhs) == 1 {
				def = stmt
			}
		case *ast.ValueSpec:
			if decl, ok := id.Parent().Parent().Node().(*ast.GenDecl); ok && len(decl.Specs) == 1 && len(stmt.Names) == 1 {
				def, _ = id.Parent().Parent().Parent().Node().(*ast.DeclStmt)
			}
		}
		if def == nil {
			return nil, nil, "the hash function " + text + " is defined with other variables"
		}
		ctor, inner, why := p.hashConstructor(fn, value)
		if inner != nil {
			return nil, nil, "the hash function " + text + " is defined by another variable, " + shorten(types.ExprString(value))
		}
		return ctor, def, why
	}
	// A field, parameter or package variable: the functions that the
	// package stores in it. Reject several: a function value cannot be
	// compared to dispatch on it.
	targets, ok := p.funcValueTargets(e)
	switch {
	case !ok || len(targets) == 0:
		return nil, nil, "the hash function " + text + " is a function value whose targets the package does not show (neither a standard constructor nor the New of a crypto.Hash)"
	case len(targets) > 1:
		names := make([]string, len(targets))
		for i, t := range targets {
			names[i] = shortName(t)
		}
		return nil, nil, "the hash function " + text + " may be any of " + strings.Join(names, ", ") + ", and the one-shot HMAC is of one hash"
	}
	return targets[0], nil, ""
}

// funcHashOperand says why the hash function e, given to hmac.New, cannot
// be passed to the one-shot HMAC of a hash function known only at run time
// (hashsum.AppendHMACFunc), which calls it at the Sum instead; or "":
//
//	mac := hmac.New(c.hash, key)
//	mac.Write(msg)                 =>   tag := hashsum.AppendHMACFunc(c.hash, nil, key, msg)
//	tag := mac.Sum(nil)
//
// A function literal, a variable, a field, a method value: each is read at
// the Sum, so the statements between must leave what it reads as it was
// (see movable), and one that may be nil must not be passed code that would
// run before hmac.New panicked (see neverNilFunc).
func (p *pass) funcHashOperand(e ast.Expr) string {
	// Reject a hash function that runs code to be evaluated (newHash()
	// returning a function): it would run at the Sum, after what is
	// between.
	if _, ok := ast.Unparen(e).(*ast.FuncLit); !ok && !sigOperand(e) {
		return "the hash function " + shorten(types.ExprString(e)) + " runs code (a call) that the one-shot HMAC would run at the Sum instead of at hmac.New"
	}
	return ""
}

// neverNilFunc reports whether the function value e, in the function at fn,
// cannot be nil and its evaluation cannot panic: a function literal, a
// declared function, a method value of a receiver reached without a
// pointer or an interface, or a local variable that one of those defines and nothing
// writes.
func (p *pass) neverNilFunc(fn inspector.Cursor, e ast.Expr) bool {
	e = ast.Unparen(e)
	if _, ok := e.(*ast.FuncLit); ok {
		return true
	}
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if s, ok := p.TypesInfo.Selections[sel]; ok {
			// A method value's receiver is evaluated with it: through a
			// pointer or an interface, it may be nil.
			switch s.Recv().Underlying().(type) {
			case *types.Pointer, *types.Interface:
				return false
			}
			return s.Kind() == types.MethodVal && !s.Indirect()
		}
	}
	switch obj := p.TypesInfo.Uses[identOf(e)].(type) {
	case *types.Func:
		return true
	case *types.Var:
		if obj.Kind() != types.LocalVar || p.vals.Written(fn, obj) {
			return false
		}
		id, ok := p.vals.Def(fn, obj)
		value, defined := values.DefinedWith(id)
		return ok && defined && p.neverNilFunc(fn, value)
	}
	return false
}

// namedHashes returns the constructors of the hashes whose crypto.Hash
// constant (crypto.SHA256, ...) the package's production code names, and
// that have a one-shot HMAC, in crypto's order (crypto.MD5 first). A
// crypto.Hash chosen at run time is one of them unless it comes from
// another package: -pool=inline's dispatch computes those with a one-shot
// HMAC declared in the file, and any other with crypto/hmac, as before the
// fix.
func (p *pass) namedHashes() []string {
	if p.model.namedHashes != nil {
		return *p.model.namedHashes
	}
	named := map[string]bool{}
	for cur := range p.prod.Preorder((*ast.SelectorExpr)(nil)) {
		c, ok := p.TypesInfo.Uses[cur.Node().(*ast.SelectorExpr).Sel].(*types.Const)
		if ok && isCryptoHash(c.Type()) {
			named[cryptoHashConstructors[c.Name()]] = true
		}
	}
	var ctors []string
	for _, name := range []string{"MD5", "SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "SHA512_224", "SHA512_256"} {
		if ctor := cryptoHashConstructors[name]; named[ctor] {
			ctors = append(ctors, ctor)
		}
	}
	p.model.namedHashes = &ctors
	return ctors
}

// macWrite returns the argument of a statement mac.Write(x), or nil.
func (p *pass) macWrite(n ast.Node, mac *types.Var) ast.Expr {
	es, ok := n.(*ast.ExprStmt)
	if !ok {
		return nil
	}
	return p.macWriteCall(es.X, mac)
}

// macWriteCall returns the argument of the call mac.Write(x) that e is, or
// the string s of io.WriteString(mac, s), which writes []byte(s) (an HMAC
// has no WriteString method); or nil.
func (p *pass) macWriteCall(e ast.Expr, mac *types.Var) ast.Expr {
	call, ok := e.(*ast.CallExpr)
	if ok && len(call.Args) == 2 && p.TypesInfo.Uses[identOf(call.Args[0])] == mac && ast.Unparen(call.Args[0]) == identOf(call.Args[0]) {
		if fn, ok := typeutil.Callee(p.TypesInfo, call).(*types.Func); ok && funcKey(fn) == "io.WriteString" {
			return call.Args[1]
		}
	}
	if !ok || len(call.Args) != 1 {
		return nil
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Write" || p.TypesInfo.Uses[identOf(sel.X)] != mac {
		return nil
	}
	return call.Args[0]
}

// checkedWrite recognizes a Write into mac whose error is checked, in the
// statement at cur: "if _, err := mac.Write(x); err != nil { ... }", or
// "_, err := mac.Write(x)" followed by "if err != nil { ... }" (then check is
// that if), where err is used nowhere but in that if. It returns x.
func (p *pass) checkedWrite(fn, cur inspector.Cursor, mac *types.Var) (x ast.Expr, check inspector.Cursor, ok bool) {
	var write *ast.AssignStmt
	var cond *ast.IfStmt
	switch n := cur.Node().(type) {
	case *ast.IfStmt:
		write, _ = n.Init.(*ast.AssignStmt)
		cond = n
	case *ast.AssignStmt:
		write = n
		next, ok := cur.NextSibling()
		if !ok {
			return nil, inspector.Cursor{}, false
		}
		cond, _ = next.Node().(*ast.IfStmt)
		check = next
		if cond != nil && cond.Init != nil {
			return nil, inspector.Cursor{}, false
		}
	}
	if write == nil || cond == nil || cond.Else != nil || write.Tok != token.DEFINE || len(write.Lhs) != 2 || len(write.Rhs) != 1 {
		return nil, inspector.Cursor{}, false
	}
	if blank, ok := write.Lhs[0].(*ast.Ident); !ok || blank.Name != "_" {
		return nil, inspector.Cursor{}, false
	}
	errID, ok := write.Lhs[1].(*ast.Ident)
	if !ok {
		return nil, inspector.Cursor{}, false
	}
	errVar, ok := p.TypesInfo.Defs[errID].(*types.Var)
	if !ok {
		return nil, inspector.Cursor{}, false
	}
	// The condition is err != nil, and err is used nowhere but in the if,
	// which goes.
	bin, ok := ast.Unparen(cond.Cond).(*ast.BinaryExpr)
	if !ok || bin.Op != token.NEQ || p.TypesInfo.Uses[identOf(bin.X)] != errVar || !p.TypesInfo.Types[bin.Y].IsNil() {
		return nil, inspector.Cursor{}, false
	}
	for use := range p.vals.Uses(fn, errVar) {
		if n := use.Node(); n.Pos() < cond.Pos() || n.End() > cond.End() {
			return nil, inspector.Cursor{}, false
		}
	}
	x = p.macWriteCall(write.Rhs[0], mac)
	return x, check, x != nil
}

// macSum returns the one call mac.Sum(x) in the statement at cur, not in a
// function literal, or nil.
func (p *pass) macSum(cur inspector.Cursor, mac *types.Var) *ast.CallExpr {
	var found *ast.CallExpr
	for ic := range p.calls.Within(cur) {
		c, call := ic.Cursor, ic.Node
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || p.TypesInfo.Uses[identOf(sel.X)] != mac {
			continue
		}
		if sel.Sel.Name != "Sum" || len(call.Args) != 1 || found != nil || insideFuncLit(c, cur) {
			return nil
		}
		found = call
	}
	return found
}

// plainConversion reports whether e converts a plain expression: []byte(s).
func (p *pass) plainConversion(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	tv, ok := p.TypesInfo.Types[call.Fun]
	return ok && tv.IsType() && plainExpr(call.Args[0])
}

// movable says why the statement at cur, between hmac.New and the MAC's Sum,
// stops the one-shot fix from moving the key (key, nil when it is kept in a
// variable of its own) and the parts already
// written (parts, by the statements writes) to the Sum, after the
// statement; or "". It does not stop it when it:
//
//   - mentions none of the variables the key and those parts are read from
//     (so it neither assigns them nor hands them to code that could write
//     their bytes);
//   - makes no call, other than builtins, conversions and the byte
//     functions of cheapStd, when the key or a part is read through a
//     package variable, a field, an index or a variable whose address is
//     taken or that a function literal captures: code it calls could then
//     change it without naming it;
//   - starts no goroutine.
//
// A statement that returns or branches is no obstacle: the MAC is not
// summed then, before or after the fix.
func (p *pass) movable(cur inspector.Cursor, key ast.Expr, what string, writes []ast.Stmt, parts []ast.Expr) string {
	fn, _ := enclosingFunc(cur)
	stmt := cur.Node()
	where := shorten(p.text(stmt)) + " at " + p.position(stmt.Pos())
	type moved struct {
		expr ast.Expr
		what string
	}
	var list []moved
	if key != nil {
		list = append(list, moved{key, what})
	}
	for i, part := range parts {
		list = append(list, moved{part, types.ExprString(part) + " (written into the MAC at " + p.position(writes[i].Pos()) + ")"})
	}
	for _, m := range list {
		reachable := false
		local := map[*ast.Ident]bool{} // fields of local values (see localField)
		for n := range ast.Preorder(m.expr) {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if p.localField(fn, n) {
					local[n.Sel] = true
				}
			case *ast.Ident:
				v, ok := p.TypesInfo.Uses[n].(*types.Var)
				if !ok {
					continue
				}
				if p.mentions(stmt, v) {
					return fmt.Sprintf("%s is read from %s, which %s uses before the Sum", m.what, v.Name(), where)
				}
				if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() || v.IsField() && !local[n] || p.addressTaken(fn, v) {
					reachable = true
				}
			case *ast.IndexExpr, *ast.StarExpr, *ast.SliceExpr:
				reachable = true
			}
		}
		if !reachable {
			continue
		}
		if callee, ok := p.someCall(stmt); ok {
			return fmt.Sprintf("%s is read through %s, which %s, called by %s, could change before the Sum", m.what, types.ExprString(m.expr), callee, where)
		}
	}
	for n := range ast.Preorder(stmt) {
		if _, ok := n.(*ast.GoStmt); ok {
			return where + " starts a goroutine before the Sum"
		}
	}
	return ""
}

// localField reports whether sel selects a field of a local variable or
// parameter of the function at fn without going through a pointer
// (opts.Algorithm, of a struct parameter opts), and the function takes the
// address of none of it: code can then change the field only by naming the
// variable, as for a local variable.
func (p *pass) localField(fn inspector.Cursor, sel *ast.SelectorExpr) bool {
	for e := ast.Expr(sel); ; {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			s, ok := p.TypesInfo.Selections[x]
			if !ok || s.Kind() != types.FieldVal || s.Indirect() {
				return false
			}
			e = x.X
		case *ast.Ident:
			v, ok := p.TypesInfo.Uses[x].(*types.Var)
			if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || p.addressTaken(fn, v) {
				return false
			}
			// Reject a method with a pointer receiver called on the
			// variable or a field of it (v.f.Set()): the call takes its
			// address, which the method may keep.
			for use := range p.vals.Uses(fn, v) {
				c := use
				for c.ParentEdgeKind() == edge.SelectorExpr_X {
					s, ok := p.TypesInfo.Selections[c.Parent().Node().(*ast.SelectorExpr)]
					if ok && s.Kind() == types.MethodVal {
						if _, ptr := s.Obj().(*types.Func).Signature().Recv().Type().(*types.Pointer); ptr && !s.Indirect() {
							return false
						}
					}
					if !ok || s.Kind() != types.FieldVal {
						break
					}
					c = c.Parent()
				}
			}
			return true
		default:
			return false
		}
	}
}

// someCall returns the name of a call in n that may run code of its own: not
// a builtin, a conversion or a function of cheapStd.
func (p *pass) someCall(n ast.Node) (string, bool) {
	name := ""
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if name != "" || !ok {
			return name == ""
		}
		if tv, ok := p.TypesInfo.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return true
		}
		if fn, ok := typeutil.Callee(p.TypesInfo, call).(*types.Func); ok && fn.Pkg() != nil && cheapStd[fn.Pkg().Path()] {
			return true
		}
		name = shorten(types.ExprString(call.Fun))
		return false
	})
	return name, name != ""
}

// addressTaken reports whether the function at fn takes the address of the
// local variable v, or captures it in a function literal: code that is then
// called may write it without naming it.
func (p *pass) addressTaken(fn inspector.Cursor, v *types.Var) bool {
	for cur := range p.vals.Uses(fn, v) {
		if capturedBy(cur, v) {
			return true
		}
		for c := cur; ; c = c.Parent() {
			if u, ok := c.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
				return true
			}
			switch c.ParentEdgeKind() {
			case edge.SelectorExpr_X, edge.IndexExpr_X, edge.ParenExpr_X, edge.SliceExpr_X:
				continue
			}
			break
		}
	}
	return false
}

// text is the source text of n, as written.
func (p *pass) text(n ast.Node) string {
	if f := p.file(n.Pos()); f != nil {
		return strings.Join(strings.Fields(f.Text(n)), " ")
	}
	return ""
}

// cheapStd are the standard packages whose functions compute on bytes in
// memory: they change nothing but what they are handed, and run no code of
// the package that calls them.
var cheapStd = map[string]bool{
	"bytes":           true,
	"crypto/subtle":   true,
	"encoding/binary": true,
	"math/bits":       true,
	"unicode/utf8":    true,
}

// splitQualified splits "importpath.Func" at its last dot.
func splitQualified(qualified string) (path, name string) {
	dot := strings.LastIndex(qualified, ".")
	return qualified[:dot], qualified[dot+1:]
}
