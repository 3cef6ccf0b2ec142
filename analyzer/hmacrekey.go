package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// hmacRekey is the category of hmac.New evaluated again and again with a key
// that does not change: every call re-derives the padded key and allocates
// two hashers (5 allocations), where a reused HMAC costs none.
const hmacRekey = "hmac-rekey"

// heldKey is an HMAC key that outlives the call that MACs with it: a field
// of a value the call reaches through a pointer, a package variable, or a
// variable that a function literal captures.
type heldKey struct {
	// holder says, for messages, whose key it is: "each *Signer (field key)".
	holder string
	// v is the field, variable or constant that holds the key.
	v types.Object
	// operand is the key as hmac.New is given it, without a conversion
	// from string; converted is set when there is one.
	operand   ast.Expr
	converted bool
	// lit is the function literal that captures v, for a captured key.
	lit inspector.Cursor
	// rotates names the atomic type of a field the key is loaded from
	// (s.key.Load().([]byte)): the holder may store another key at any
	// time (see values.Index.AtomicBytes).
	rotates string
}

// checkHMACRekey reports hmac.New(h, key) per iteration or per call when key
// is fixed for the loop, for the value whose field it is, for the package or
// for the closure that captures it.
func (p *siteChecks) checkHMACRekey(s *Site) {
	switch {
	case s.InWrapper:
		p.silent(s.Call, hmacRekey, "it is the HMAC a constructor wrapper returns: each call of the wrapper is judged where it is made")
		return
	case s.esc.kind == outlives:
		p.silent(s.Call, hmacRekey, "the HMAC is kept ("+s.esc.reason+"): built once for what keeps it")
		return
	case s.esc.kind == unknown:
		p.silent(s.Call, hmacRekey, "whether the HMAC is kept cannot be told ("+s.esc.reason+")")
		return
	case len(s.Call.Args) != 2 && s.ctor.wrapped == "":
		return
	}
	what := fmt.Sprintf("hmac.New(%s) re-keys an HMAC (%d allocations)", argsText(s.Call), s.ctor.allocs)
	if s.ctor.wrapped != "" {
		what = fmt.Sprintf("%s re-keys an HMAC (%d allocations: %s returns the HMAC of %s)", shorten(types.ExprString(s.Call)), s.ctor.allocs, s.ctor.name, s.ctor.wrapped)
	}
	often, loop, ok := p.often(s.cur, hmacRekey, s.ctor.allocs)
	if !ok {
		return // not per item, or a small part of what repeats it
	}
	// A wrapper keyed with the bytes its argument points to may get other
	// bytes in each iteration through the same pointer: not invariant.
	if loop.Valid() && !s.ctor.pointee {
		if ok, _ := p.argsInvariant(s, loop); ok {
			msg := fmt.Sprintf("%s %s, with a key that does not change in the loop", what, often)
			fix, why := p.hoistFix(s, loop)
			p.report(s.Call, hmacRekey, msg, fix, "build it once before the loop and Reset it", why)
			return
		}
	}
	// The first rung through a helper: the site makes the MAC of a function
	// that a loop calls with the same key on every iteration.
	helperWhy := ""
	if !loop.Valid() {
		fix, why, applies := p.helperLoopFix(s)
		if fix != nil {
			// sum-alloc defers to it where it deferred to the next rungs:
			// the MAC is reported, and its Sum is a small part of the same
			// repetition.
			if s.ctor.wrapped == "" {
				p.rekeyed[s.Call] = true
			} else if once, _ := p.oneShotFix(s); once != nil {
				p.rekeyed[s.Call] = true
			}
			msg := fmt.Sprintf("%s %s, with a key that the loop does not change", what, often)
			p.report(s.Call, hmacRekey, msg, fix, "", "")
			return
		}
		if applies {
			helperWhy = why
		}
	}
	if s.ctor.wrapped != "" {
		// Reject a wrapper's call outside a loop that keeps its key: the
		// hash and the key that a keyed pool or a one-shot HMAC needs are
		// hmac.New's arguments in the wrapper, not this call's.
		// The one-shot HMAC reads them from a wrapper that only returns
		// hmac.New of its arguments (see wrappedHMAC).
		fix, why := p.oneShotFix(s)
		if fix != nil {
			p.rekeyed[s.Call] = true // sum-alloc defers to it, as for a changing key
		}
		advice := "build the HMAC with hmac.New's hash and key here and compute it with a one-shot HMAC, or keep a keyed HMAC pool next to a held key"
		if s.ctor.choice != "" {
			advice = "build the MAC once where its key is fixed and Reset it per use, or compute a one-shot HMAC of the hash " + s.ctor.name + " chooses"
		}
		if fix == nil && s.ctor.choice != "" && helperWhy != "" {
			// The one-shot HMAC never holds for a choice: what stops the
			// rung that could is the reason.
			why = helperWhy
		}
		p.report(s.Call, hmacRekey, what+" "+often, fix, advice, why)
		return
	}
	key, ok := p.heldKey(s)
	if !ok {
		// A key not held across calls, where the call runs per item: 5
		// allocations each time, where the runtime's one-shot HMAC (inner and
		// outer hashers on the stack) makes none.
		msg := fmt.Sprintf("%s %s, %s", what, often, p.changingKey(s))
		fix, why := p.oneShotFix(s)
		p.rekeyed[s.Call] = true // shown or not: sum-alloc defers to it (see checkSumAlloc)
		p.report(s.Call, hmacRekey, msg, fix, "compute it with a one-shot HMAC", why)
		return
	}
	if !loop.Valid() && p.reusedInLoop(s) {
		p.silent(s.Call, hmacRekey, "it is built once, then Reset and reused across a loop")
		return
	}
	msg := fmt.Sprintf("%s %s, with a key fixed for %s", what, often, key.holder)
	if key.rotates != "" {
		msg = fmt.Sprintf("%s %s, with a key held by %s, which may rotate it (the keyed pool checks the key on every Get, so a rotated key is used from the next call on)", what, often, key.holder)
	}
	if key.converted {
		msg += ", converted from a string each time"
	}
	fix, why, equals := p.keyedPoolFix(s, key, loop.Valid())
	if fix != nil {
		if err := p.checkFix(s.Call, fix); err != nil {
			fix, why, equals = nil, err.Error(), nil
		}
	}
	if fix == nil {
		// The next rung: a one-shot HMAC keeps no key, so it needs no
		// field or variable beside the key; it is offered where the keyed
		// pool cannot be placed (a value receiver, a struct that may not
		// gain a field or is declared elsewhere).
		if once, _ := p.oneShotFix(s); once != nil {
			p.rekeyed[s.Call] = true // sum-alloc defers to it, as for a changing key
			msg += "; a keyed pool cannot be kept beside it (" + why + ")"
			fix, equals = once, nil
		}
	}
	fixed := p.report(s.Call, hmacRekey, msg, fix, "keep a keyed HMAC pool next to the key", why)
	if fixed || fix != nil && !p.cfg.checks.enabled(hmacRekey) {
		// The fix also compares these sums without allocating: sum-alloc
		// has nothing to add about them. So too when -checks turns
		// hmac-rekey off: a check's findings do not depend on which other
		// checks are on.
		for _, eq := range equals {
			p.macEqual[eq.Sum] = true
		}
	}
}

// heldKey returns the key of the hmac.New call s when it is held across
// calls, or false.
func (p *pass) heldKey(s *Site) (heldKey, bool) {
	k := heldKey{operand: ast.Unparen(s.Call.Args[1])}
	if x, ok := values.ConversionOf(p.TypesInfo, k.operand); ok && values.IsString(p.TypesInfo.TypeOf(x)) {
		k.operand, k.converted = ast.Unparen(x), true // []byte(s.secret)
	}
	fn, inFunc := values.EnclosingFunc(s.cur)
	if !inFunc {
		return k, false
	}
	// A key loaded from an atomic field may be rotated while its holder is
	// in use, and is held by the field's value as a plain field's is: the
	// keyed pool compares the key it is given on every Get and re-keys when
	// it changed, so the MAC of a call is keyed with the key that call loaded.
	if sel, rotates, ok := p.vals.AtomicBytes(fn, k.operand); ok && !k.converted {
		// Reject a field of anything but the receiver, as below, and one
		// that this very function stores into: its key changes per call.
		field, ok := p.TypesInfo.Selections[sel]
		if !ok || field.Kind() != types.FieldVal || !p.isReceiver(s.cur, rootIdent(sel)) || p.vals.StoresAtomic(fn, field.Obj().(*types.Var)) {
			return k, false
		}
		k.operand, k.v, k.rotates = sel, field.Obj(), rotates
		k.holder = fmt.Sprintf("each %s (field %s, an %s)", typeName(field.Recv()), field.Obj().Name(), rotates)
		return k, true
	}
	switch e := k.operand.(type) {
	case *ast.SelectorExpr:
		if sel, ok := p.TypesInfo.Selections[e]; ok {
			// Reject a field of anything but the receiver (s.key, s.cfg.key):
			// a value at hand (a global signer, a parameter) says nothing
			// about how often the call is made with it.
			if sel.Kind() != types.FieldVal || !p.isReceiver(s.cur, rootIdent(e)) {
				return k, false
			}
			field := sel.Obj().(*types.Var)
			// Reject a field that this very function sets: it changes per call.
			if p.vals.Written(fn, field) {
				return k, false
			}
			k.v, k.holder = field, fmt.Sprintf("each %s (field %s)", typeName(sel.Recv()), field.Name())
			return k, true
		}
		// pkg.Key: a package variable of another package.
		v, ok := p.TypesInfo.Uses[e.Sel].(*types.Var)
		if !ok || v.Parent() != v.Pkg().Scope() {
			return k, false
		}
		k.v, k.holder = v, fmt.Sprintf("the package (variable %s)", types.ExprString(e))
		return k, !p.vals.Written(fn, v)
	case *ast.Ident:
		if c, ok := p.TypesInfo.Uses[e].(*types.Const); ok && k.converted && c.Parent() == c.Pkg().Scope() {
			k.v, k.holder = c, fmt.Sprintf("the package (constant %s)", c.Name())
			return k, true
		}
		v, ok := p.TypesInfo.Uses[e].(*types.Var)
		if !ok {
			return k, false
		}
		k.v = v
		if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			k.holder = fmt.Sprintf("the package (variable %s)", v.Name())
			return k, !p.vals.Written(fn, v)
		}
		// A variable captured by the function literal around the call, which
		// the literal does not write: fixed for each closure made.
		for lit := range s.cur.Enclosing((*ast.FuncLit)(nil)) {
			n := lit.Node()
			if v.Pos() >= n.Pos() && v.Pos() < n.End() || p.vals.Written(lit, v) {
				return k, false
			}
			k.lit = lit
			k.holder = fmt.Sprintf("the closure (captured variable %s)", v.Name())
			return k, true
		}
	}
	return k, false
}

// reusedInLoop reports whether the MAC that s defines is reset or summed in
// a loop that does not hold its definition: one MAC per call then serves
// many messages.
func (p *pass) reusedInLoop(s *Site) bool {
	mac, _, fn, ok := p.model.assignedLocal(s.cur)
	if !ok || s.cur.Parent().Node().(*ast.AssignStmt).Tok != token.DEFINE {
		return false
	}
	assign := s.cur.Parent().Node()
	for use := range p.vals.Uses(fn, mac) {
		// Reused: Reset, or summed, in a loop that does not make it. A
		// loop that only writes into it (the parts of one message, a
		// variadic ComputeMAC(data ...[]byte)) makes one MAC per call.
		if loop, ok := frequency.EnclosingLoop(use, false); ok && !(loop.Node().Pos() <= assign.Pos() && assign.Pos() < loop.Node().End()) && values.MethodCallOn(use, "Reset", "Sum") {
			return true
		}
	}
	return false
}

// keyedPoolFix takes the MAC from a keyed HMAC pool held next to the key: a
// field beside the key's, a package variable beside it, or a variable
// declared before the function literal that captures it. It also returns the
// comparisons of the MAC's sum that the fix makes without allocating.
func (p *siteChecks) keyedPoolFix(s *Site, key heldKey, inLoop bool) (*analysis.SuggestedFix, string, []fixes.MACEqual) {
	f := p.file(s.Call.Pos())
	if f == nil {
		return nil, "the source file cannot be read", nil
	}
	def, mac, why := p.definition(s, false)
	if def == nil {
		return nil, why, nil
	}
	fn, _ := values.EnclosingFunc(s.cur)
	spec := fixes.HMACSpec{Key: f.Text(s.Call.Args[1]), Inline: p.inlinePools()}
	if why := p.hashOf(f, s.Call.Args[0], &spec); why != "" {
		return nil, why, nil
	}
	// Reject a key used with several hash functions: one pool holds the MACs
	// of one hash function at a time, and would be re-keyed back and forth.
	if p.hashesPerKey()[key.v] > 1 {
		return nil, key.v.Name() + " keys HMACs of several hash functions", nil
	}
	spec.Last = p.releasePoint(s.cur.Parent(), mac, false)
	if spec.Last == nil && inLoop {
		return nil, "the MAC is not given back in straight-line code within the loop", nil
	}
	if !spec.Inline || f.InlineEqualReady() {
		spec.Equals = p.macEquals(fn, mac)
		spec.EqualForm = p.equalForm(f, fn, mac)
	}

	var receiverEdits []analysis.TextEdit
	// The name the fix declares is unexported whatever the key's: a fix
	// never adds to a package's API.
	want := unexported(key.v.Name()) + "MACs"
	switch {
	case key.lit.Valid():
		stmt, block, ok := listStatement(key.lit.Parent())
		if !ok || !f.StartsLine(stmt.Pos()) {
			return nil, "the function literal is not in a statement of its own", nil
		}
		scope := p.TypesInfo.Scopes[block]
		name := f.FreeName(s.Call.Pos(), want)
		for i := 2; scope == nil || scope.Lookup(name) != nil; i++ {
			if scope == nil {
				return nil, "the function literal's block has no scope", nil
			}
			name = f.FreeName(s.Call.Pos(), want+strconv.Itoa(i))
		}
		spec.Name, spec.Pool = name, name
		spec.DeclAt = f.LineStart(stmt.Pos())
		spec.Decl = f.Indent(stmt.Pos()) + "var " + name + " %s\n"

	case isField(key.v):
		sel := key.operand.(*ast.SelectorExpr)
		// A value reached without a pointer (a value receiver) is a copy,
		// and so would be a pool in it, lost after each call: the fix gives
		// the type's methods pointer receivers, when every value of the
		// type reaches them through a pointer.
		if !p.TypesInfo.Selections[sel].Indirect() {
			named, ok := types.Unalias(p.TypesInfo.TypeOf(sel.X)).(*types.Named)
			if !ok {
				return nil, types.ExprString(sel.X) + " is a copy: a pool in it would not outlive the call", nil
			}
			edits, why := p.pointerReceivers(f, named)
			if why != "" {
				return nil, types.ExprString(sel.X) + " is a copy, and a pool in it would not outlive the call; pointer receivers would keep it, but " + why, nil
			}
			receiverEdits = edits
		}
		if spec.Struct, spec.Name, why = p.newField(f, key.v.(*types.Var), sel.X, want); why != "" {
			return nil, why, nil
		}
		spec.Pool = f.Text(sel.X) + "." + spec.Name

	default: // a package variable
		name, declare := f.Names.Declare(f, want, func(obj types.Object) bool {
			return p.isHMACPool(obj.Type())
		})
		spec.Name, spec.Pool = name, name
		if !declare {
			break
		}
		spec.DeclAt = f.AST.FileEnd
		if decl, ok := p.declIn(f, key.v); ok {
			spec.DeclAt = f.NextLine(decl.End())
		}
		spec.Decl = "\n// " + name + " reuses the HMACs keyed with " + key.v.Name() + ".\nvar " + name + " %s\n"
	}
	spec.More = receiverEdits
	fix := fixes.HMACPool(f, def, spec)
	if len(receiverEdits) > 0 {
		fix.Message += " (the methods of " + types.TypeString(p.TypesInfo.TypeOf(key.operand.(*ast.SelectorExpr).X), types.RelativeTo(p.Pkg)) + " take a pointer receiver)"
	}
	return &fix, "", spec.Equals
}

// macEquals finds, in the function at fn, the constant-time comparisons of
// mac.Sum(nil) with a MAC received that a pooled MAC can make without
// allocating the sum:
//
//	hmac.Equal(mac.Sum(nil), sig)                         mac.Equal(sig)
//	hmac.Equal(sig, mac.Sum(nil))                   =>    mac.Equal(sig)
//	subtle.ConstantTimeCompare(mac.Sum(nil), sig) == 1    mac.Equal(sig)
//	subtle.ConstantTimeCompare(mac.Sum(nil), sig) != 1    !mac.Equal(sig)
func (p *pass) macEquals(fn inspector.Cursor, mac *types.Var) []fixes.MACEqual {
	var equals []fixes.MACEqual
	for cur := range p.callsIn(fn) {
		sum := cur.Node().(*ast.CallExpr)
		if !values.IsIdentOf(p.TypesInfo, p.sumNil(sum), mac) {
			continue
		}
		arg := outerParens(cur)
		if arg.ParentEdgeKind() != edge.CallExpr_Args {
			continue // kept, returned, stored: the sum is meant to outlive the comparison
		}
		cmp := arg.Parent().Node().(*ast.CallExpr)
		if len(cmp.Args) != 2 || cmp.Ellipsis.IsValid() {
			continue
		}
		eq := fixes.MACEqual{Sum: sum, Expr: cmp, Sig: cmp.Args[1-arg.ParentEdgeIndex()]}
		switch p.qualifiedCallee(cmp) {
		case "crypto/hmac.Equal":
		case "crypto/subtle.ConstantTimeCompare":
			// Only a comparison of the result with 1 says "equal"; an int
			// used otherwise (added up, returned) is left alone.
			up := outerParens(arg.Parent())
			bin, ok := up.Parent().Node().(*ast.BinaryExpr)
			if !ok || up.ParentEdgeKind() != edge.BinaryExpr_X && up.ParentEdgeKind() != edge.BinaryExpr_Y {
				continue
			}
			other := bin.Y
			if up.ParentEdgeKind() == edge.BinaryExpr_Y {
				other = bin.X
			}
			if v := p.TypesInfo.Types[other].Value; v == nil || v.String() != "1" || bin.Op != token.EQL && bin.Op != token.NEQ {
				continue
			}
			eq.Expr, eq.Not = bin, bin.Op == token.NEQ
		default:
			continue
		}
		// Reject a received MAC that is not a plain value (a call, a
		// receive): Equal evaluates it before the sum is taken, where the
		// comparison took the sum first, so it must not be able to run
		// code, and in particular write to the MAC.
		if !values.Operand(eq.Sig) {
			continue
		}
		equals = append(equals, eq)
	}
	return equals
}

// hashOf fills in how spec's pool identifies the hash function hash, as
// hmac.New is given it, or says why it cannot.
func (p *pass) hashOf(f *fixes.File, hash ast.Expr, spec *fixes.HMACSpec) string {
	spec.Hash = f.Text(hash)
	if fn, ok := p.funcValue(hash); ok {
		// Named as the code names it (sha256.New) when the standard
		// library declares it, whose hash packages' names differ; by its
		// import path otherwise, which no standard name equals
		// (github.com/minio/sha256-simd.New).
		id := fn.FullName()
		if isStdPkg(fn.Pkg().Path()) {
			id = fn.Pkg().Name() + "." + fn.Name()
		}
		spec.HashID = strconv.Quote(id)
		return ""
	}
	if h := p.cryptoHashOperand(hash); h != nil {
		if !values.Plain(h) {
			return "the crypto.Hash is not a plain expression"
		}
		spec.CryptoHash = f.Text(h) // s.hash.New
		return ""
	}
	if _, ok := p.TypesInfo.TypeOf(hash).Underlying().(*types.Signature); ok && values.Plain(hash) {
		spec.FuncValue = true // the pool compares the func value itself
		return ""
	}
	return "the hash function is neither a named function, a crypto.Hash nor a variable"
}

// hashesPerKey counts, for each field or variable that keys hmac.New calls of
// the package that a keyed pool would serve, the hash functions it is used
// with.
func (p *siteChecks) hashesPerKey() map[types.Object]int {
	if p.keyHashes != nil {
		return p.keyHashes
	}
	p.keyHashes = map[types.Object]int{}
	type keyHash struct {
		key  types.Object
		hash string
	}
	seen := map[keyHash]bool{}
	for _, s := range p.sites {
		if !s.ctor.hmac || len(s.Call.Args) != 2 {
			continue
		}
		if loop, ok := frequency.EnclosingLoop(s.cur, false); ok {
			if invariant, _ := p.argsInvariant(s, loop); invariant {
				continue // hoisted out of its loop: it takes nothing from a pool
			}
		}
		key, ok := p.heldKey(s)
		if !ok {
			continue // not a key any pool would hold
		}
		if kh := (keyHash{key.v, types.ExprString(s.Call.Args[0])}); !seen[kh] {
			seen[kh] = true
			p.keyHashes[key.v]++
		}
	}
	return p.keyHashes
}

// structOf returns the struct type, declared at package level in f, that
// declares field.
func (p *pass) structOf(f *fixes.File, field *types.Var) (*ast.StructType, bool) {
	gen, ok := f.DeclAt(field.Pos()).(*ast.GenDecl)
	if !ok || gen.Tok != token.TYPE {
		return nil, false
	}
	for _, spec := range gen.Specs {
		ts := spec.(*ast.TypeSpec)
		st, ok := ts.Type.(*ast.StructType)
		if !ok || field.Pos() < st.Pos() || field.Pos() >= st.End() {
			continue
		}
		for _, fl := range st.Fields.List {
			for _, name := range fl.Names {
				if name.Pos() == field.Pos() {
					return st, true
				}
			}
		}
	}
	return nil, false
}

// newField returns the struct type, declared at package level in f, that
// declares field, and a name for the field that a fix adds to it: want, or
// want2, ... when the type of x, the value that holds field, has a field or
// method of that name. Or it says why the struct may not gain a field (see
// fieldAddable).
func (p *pass) newField(f *fixes.File, field *types.Var, x ast.Expr, want string) (st *ast.StructType, name, why string) {
	st, ok := p.structOf(f, field)
	if !ok {
		return nil, "", "the struct that holds " + field.Name() + " is not declared at package level in this file"
	}
	if why := p.fieldAddable(st); why != "" {
		return nil, "", why
	}
	if f.OneLineComment(st) {
		return nil, "", "the struct that holds " + field.Name() + " is declared on one line, with a comment in it"
	}
	name = want
	for i := 2; fieldOrMethod(p.TypesInfo.TypeOf(x), name); i++ {
		name = want + strconv.Itoa(i)
	}
	return st, name, ""
}

// declIn returns the package-level declaration of v in f.
func (p *pass) declIn(f *fixes.File, v types.Object) (*ast.GenDecl, bool) {
	if v.Pos() < f.AST.FileStart || v.Pos() > f.AST.FileEnd {
		return nil, false
	}
	if gen, ok := f.DeclAt(v.Pos()).(*ast.GenDecl); ok && (gen.Tok == token.VAR || gen.Tok == token.CONST) {
		return gen, true
	}
	return nil, false
}

// isHMACPool reports whether t is the keyed HMAC pool a fix declares:
// hashpool.HMAC, or the inline pool type.
func (p *pass) isHMACPool(t types.Type) bool {
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	if p.inlinePools() {
		return named.Obj().Pkg() == p.Pkg && hasMethod(named, "get") && hasMethod(named, "put")
	}
	return named.Obj().Pkg().Path() == fixes.RuntimePool && named.Obj().Name() == "HMAC"
}

// hasMethod reports whether *named has a method called name.
func hasMethod(named *types.Named, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), false, named.Obj().Pkg(), name)
	_, ok := obj.(*types.Func)
	return ok
}

// isReceiver reports whether id names the receiver of the method around cur.
func (p *pass) isReceiver(cur inspector.Cursor, id *ast.Ident) bool {
	if id == nil {
		return false
	}
	_, decl, ok := p.funcOf(cur)
	if !ok || decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
		return false
	}
	recv := p.TypesInfo.Defs[decl.Recv.List[0].Names[0]]
	return recv != nil && p.TypesInfo.Uses[id] == recv
}
