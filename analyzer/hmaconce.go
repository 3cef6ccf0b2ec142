package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
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

// changingKey says what the key of s, not held across calls (see heldKey),
// is: computed in the function per call, passed by its callers, or read
// from something nothing shows to be fixed (a package variable it writes, a
// field of a value it is given).
func (p *pass) changingKey(s *Site) string {
	key := ast.Unparen(s.Call.Args[1])
	if x, ok := values.ConversionOf(p.TypesInfo, key); ok {
		key = ast.Unparen(x) // []byte(secret)
	}
	text := shorten(types.ExprString(key))
	if tv, ok := p.TypesInfo.Types[key]; ok && tv.Value != nil {
		return "with the constant key " + text + ", converted on every call"
	}
	id := rootIdent(key)
	v, ok := p.TypesInfo.Uses[values.IdentOf(id)].(*types.Var)
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
	for loop, ok := frequency.EnclosingLoop(cur, false); ok; loop, ok = frequency.EnclosingLoop(loop, false) {
		if n := loop.Node(); n.Pos() <= v.Pos() && v.Pos() < n.End() {
			return true
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
//
// A MAC whose size is read before its Writes is summed where hmac.New was
// instead, and the size is the length of the sum (see sizeReads).
func (p *pass) oneShotFix(s *Site) (*analysis.SuggestedFix, string) {
	f := p.file(s.Call.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	// hmac.New's arguments, or those a wrapper of it passes (see
	// wrappedHMAC).
	var hashArg, keyArg ast.Expr
	keyText := ""
	if s.ctor.wrapped != "" {
		var why string
		if hashArg, keyArg, keyText, why = p.wrappedHMAC(s); why != "" {
			return nil, why
		}
	} else {
		hashArg, keyArg = s.Call.Args[0], s.Call.Args[1]
	}
	def, _, why := p.definition(s, false)
	var chosen *chosenHash
	if def == nil {
		// A MAC assigned in branches, each with a hash of its own: the
		// variable holds the crypto.Hash each chose.
		if chosen, why = p.branchedMAC(s, why); chosen == nil {
			return nil, why
		}
	}
	// The hash: a standard constructor, the New of a crypto.Hash chosen at
	// run time (hmac.New(s.hash.New, key)), on which AppendHMAC
	// dispatches, or else a hash function known only at run time, which
	// AppendHMACFunc calls (see funcHashOperand).
	var name string
	var fn *types.Func
	var hashDef ast.Stmt
	fnCur, _ := values.EnclosingFunc(s.cur)
	cryptoHash := p.cryptoHashOperand(hashArg)
	var funcHash ast.Expr
	switch {
	case chosen != nil:
		cryptoHash = chosen.hash
	case cryptoHash != nil:
		if !values.Operand(cryptoHash) {
			return nil, "the hash " + shorten(types.ExprString(cryptoHash)) + " runs code (a call) that the one-shot HMAC would run at the Sum instead of at hmac.New"
		}
		if p.inlinePools() && len(p.namedHashes()) == 0 {
			return nil, "-pool=inline declares a one-shot HMAC of each hash that the package names, and it names none of crypto.SHA256 and its kin: -pool=runtime's hashsum.AppendHMAC dispatches on " + shorten(types.ExprString(cryptoHash))
		}
	default:
		var why string
		fn, hashDef, why = p.hashConstructor(fnCur, hashArg)
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
			if whyNot := p.funcHashOperand(hashArg); whyNot != "" {
				return nil, why + ", and " + whyNot
			}
			funcHash = hashArg
		}
	}
	if s.ctor.wrapped != "" && (cryptoHash != nil || funcHash != nil) {
		return nil, "the hash " + shorten(types.ExprString(hashArg)) + " inside " + s.ctor.name + " has no one-shot HMAC of the runtime"
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
	key := keyArg
	hoistKey := !values.Operand(key) && !values.PlainConversion(p.TypesInfo, key)
	if hoistKey {
		key = nil // a variable of its own: nothing between can change it
	}
	var mac *types.Var
	var defCur inspector.Cursor
	if chosen != nil {
		mac, defCur = chosen.mac, chosen.join
	} else {
		mac, defCur = p.TypesInfo.Defs[def.Lhs[0].(*ast.Ident)].(*types.Var), s.cur.Parent()
	}
	if !isListEdge(defCur.ParentEdgeKind()) {
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
	var sizes []ast.Expr // the MAC's size, read before its first Write (see sizeReads)
	var spread ast.Node  // a loop that writes each part of a slice (see rangeWrite)
	dstText := ""        // what a Sum through a helper appends to (see helperSum)
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
		if w == nil {
			if w = p.rangeWrite(next.Node(), mac); w != nil {
				spread = next.Node()
			}
		}
		if w != nil {
			hoist := printed != "" || !values.Operand(w) && !values.PlainConversion(p.TypesInfo, w)
			// Reject, when the sum is computed where hmac.New was to give
			// the size read before, a part that runs code or may panic:
			// it would run before the statements between.
			if len(sizes) > 0 && (hoist || !values.CannotPanic(p.TypesInfo, w)) {
				return nil, fmt.Sprintf("the MAC's size is read before its Write, so the one-shot HMAC would be computed where hmac.New was, and %s, written at %s, runs code or may panic, and it would be evaluated before the statements between", shorten(types.ExprString(w)), p.position(next.Node().Pos()))
			}
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
		if !values.Mentions(p.TypesInfo, next.Node(), mac) && len(sizes) > 0 {
			continue // the parts are read before it instead: see below
		}
		if !values.Mentions(p.TypesInfo, next.Node(), mac) {
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
		if sum == nil && fn != nil && len(sizes) == 0 {
			sum, dstText = p.helperSum(next, mac, digestSizes[funcKey(fn)])
		}
		if sum == nil && len(parts) == 0 && chosen == nil {
			reads, why := p.sizeReads(next, mac)
			if why != "" {
				return nil, why
			}
			if reads != nil {
				sizes = append(sizes, reads...)
				continue
			}
		}
		if as, ok := next.Node().(*ast.AssignStmt); ok && sum == nil && len(as.Rhs) == 1 && p.macWrite(as.Rhs[0], mac) != nil {
			if as.Tok == token.ASSIGN && len(as.Lhs) == 2 {
				return nil, fmt.Sprintf("the error of %s at %s is assigned to %s, which nothing shows to hold nil before it: deleted with the Write, it would keep what it held", shorten(p.text(as)), p.position(as.Pos()), shorten(types.ExprString(as.Lhs[1])))
			}
			return nil, fmt.Sprintf("the error of %s at %s is used beyond an if err != nil that follows it", shorten(p.text(as)), p.position(as.Pos()))
		}
		if sum == nil {
			return nil, fmt.Sprintf("the MAC is used for more than Write and one Sum, by %s at %s", shorten(p.text(next.Node())), p.position(next.Node().Pos()))
		}
	}
	if sum == nil || len(parts) == 0 {
		return nil, "the MAC is not written and summed in the statements that follow"
	}
	// Reject a loop of Writes beside other Writes: a call passes a slice
	// of parts (parts...) alone.
	if spread != nil && len(parts) > 1 {
		return nil, "the loop at " + p.position(spread.Pos()) + " writes each part of a slice, beside other Writes, and one call cannot pass that slice with other parts"
	}
	if len(sizes) > 0 {
		// The one-shot HMAC, computed where hmac.New was, reads the parts
		// before the statements up to the Sum instead of at their Writes:
		// those must leave them as they were. The key and the hash are
		// read there, as hmac.New read them.
		if !p.TypesInfo.Types[sum.Args[0]].IsNil() {
			return nil, "the MAC's size is read before its Write, and its Sum appends to " + shorten(types.ExprString(sum.Args[0])) + ": the length of the sum would not be the size"
		}
		// Reject a key that runs code: the parts, read in the same call,
		// could be read before it or after it (Go does not say which).
		if hoistKey {
			return nil, "the MAC's size is read before its Write, and the key " + shorten(types.ExprString(keyArg)) + " runs code (a call), which the one-shot HMAC computed where hmac.New was would call beside reading the parts, in an order Go leaves open"
		}
		for c, _ := defCur.NextSibling(); c != sumCur; c, _ = c.NextSibling() {
			if st := c.Node().(ast.Stmt); !slices.Contains(writes, st) {
				if why := p.movable(c, nil, "", partStmts, parts); why != "" {
					return nil, why
				}
			}
		}
	}
	if mayPanic && len(sizes) == 0 {
		// Reject a call that the Sum's statement makes before the Sum or
		// in its argument (append(prefix(), mac.Sum(nil)...)): it too
		// would run before the hash function is called.
		for ic := range p.calls.Within(sumCur) {
			if n := ic.Node; n.End() <= sum.Pos() || n.Pos() > sum.Lparen && n.End() <= sum.Rparen {
				if values.SomeCall(p.TypesInfo, ic.Node) != nil {
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
	if chosen != nil {
		uses -= chosen.assigns
	}
	if uses != len(parts)+1+len(sizes) {
		if other.IsValid() {
			return nil, "the MAC is used for more than Write and one Sum, after the Sum at " + p.position(other)
		}
		return nil, "the MAC is used for more than Write and one Sum"
	}
	spec := fixes.OneShotSpec{Runtime: name, Hash: cryptoHash, Func: funcHash, HashDef: hashDef, Key: keyArg, KeyText: keyText, DstText: dstText, HoistKey: hoistKey && sizes == nil, SizeReads: sizes, Parts: parts, PartStmts: partStmts, Hoisted: hoisted, HoistTexts: texts, Spread: spread != nil, Inline: p.inlinePools()}
	if fn != nil {
		// -pool=inline declares the same one-shot HMAC in the file.
		spec.Ctor = funcKey(fn)
		_, spec.KeySum = splitQualified(ctorSums[spec.Ctor])
		spec.Size = digestSizes[spec.Ctor]
	}
	var stmt ast.Stmt = def
	if chosen != nil {
		stmt, spec.Choices, spec.Consts, spec.DeclType = chosen.decl, chosen.calls, chosen.consts, chosen.declType
	}
	if cryptoHash != nil && spec.Inline {
		// It declares a dispatch on the crypto.Hash, to a one-shot HMAC
		// of each hash the package names (see namedHashes), and of each
		// hash a branch chooses.
		for _, ctor := range p.dispatchedHashes() {
			c := fixes.OneShotSpec{Runtime: oneShotHMACs[ctor], Inline: true, Ctor: ctor, Size: digestSizes[ctor]}
			_, c.KeySum = splitQualified(ctorSums[ctor])
			spec.Cases = append(spec.Cases, c)
		}
	}
	// A caller that only compares what the function returns with a MAC
	// received gets a compare form that sums into an array on the stack.
	if sizes == nil && dstText == "" {
		spec.EqualForm = p.equalForm(f, fnCur, mac)
	}
	fix := fixes.OneShotHMAC(f, stmt, writes, sum, spec)
	return &fix, ""
}

// rangeWrite returns the slice of parts that the statement n writes into
// the MAC one by one, "for _, d := range data { mac.Write(d) }", as a
// variadic helper writes its parts (go-ntlmssp's hmacMd5(key []byte, data
// ...[]byte)): the one-shot HMAC is given them all, data..., read at the Sum
// instead of at the loop. data must be a slice of byte slices that runs no
// code (a variable, a field); any other loop gives nil.
func (p *pass) rangeWrite(n ast.Node, mac *types.Var) ast.Expr {
	rs, ok := n.(*ast.RangeStmt)
	if !ok || !values.Operand(rs.X) || !values.IsIdentOf(p.TypesInfo, p.eachWritten(rs), mac) {
		return nil
	}
	slice, ok := p.TypesInfo.TypeOf(rs.X).Underlying().(*types.Slice)
	if !ok || !types.Identical(slice.Elem(), byteSlice) {
		return nil
	}
	return rs.X
}

// helperSum returns the call helper(mac, &x) that is the statement at cur,
// when helper is a function of the package that sums its hasher into the
// array its second argument points to and checks the length of the sum, a
// check that cannot fail when the array has the size of the hash's digest:
//
//	func hashSum(h hash.Hash, dest *[32]byte) {
//		r := h.Sum(dest[:0])
//		if len(r) != len(dest) {
//			panic("hash size inconsistency")
//		}
//	}
//	h := hmac.New(sha256.New, key)
//	h.Write(text)                      => var sum [32]byte
//	var sum [32]byte                      hashsum.AppendHMACSHA256(sum[:0], key, text)
//	hashSum(h, &sum)
//
// dst is what the one-shot HMAC appends to instead: x[:0], the array's
// bytes, as h.Sum(dest[:0]) did. The helper stays for its other callers.
// Any other helper, an argument other than the address of a variable, and
// an array of another size (the check could fail, and the helper panic)
// give nil.
func (p *pass) helperSum(cur inspector.Cursor, mac *types.Var, size int64) (sum *ast.CallExpr, dst string) {
	es, ok := cur.Node().(*ast.ExprStmt)
	if !ok {
		return nil, ""
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 2 || call.Ellipsis.IsValid() || !values.IsIdentOf(p.TypesInfo, call.Args[0], mac) {
		return nil, ""
	}
	// The argument: &x, of a variable x.
	addr, ok := ast.Unparen(call.Args[1]).(*ast.UnaryExpr)
	if !ok || addr.Op != token.AND {
		return nil, ""
	}
	x, ok := ast.Unparen(addr.X).(*ast.Ident)
	if _, isVar := p.TypesInfo.Uses[x].(*types.Var); !ok || !isVar {
		return nil, ""
	}
	helper := typeutil.StaticCallee(p.TypesInfo, call)
	if helper == nil || helper.Pkg() != p.Pkg || helper.Signature().Recv() != nil || helper.Signature().Results().Len() != 0 {
		return nil, ""
	}
	decl, ok := p.decl(helper)
	if !ok {
		return nil, ""
	}
	fd := decl.Node().(*ast.FuncDecl)
	if fd.Body == nil || fd.Type.TypeParams != nil || len(fd.Body.List) != 2 {
		return nil, ""
	}
	params := helper.Signature().Params()
	h, dest := params.At(0), params.At(1)
	ptr, ok := dest.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil, ""
	}
	arr, ok := ptr.Elem().Underlying().(*types.Array)
	if !ok || arr.Len() != size || !types.Identical(arr.Elem(), types.Typ[types.Byte]) {
		return nil, ""
	}
	// r := h.Sum(dest[:0])
	as, ok := fd.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, ""
	}
	sl, ok := ast.Unparen(p.methodArg(ast.Unparen(as.Rhs[0]), h, "Sum")).(*ast.SliceExpr)
	if !ok || sl.Low != nil || sl.Max != nil || sl.High == nil || !values.IsIdentOf(p.TypesInfo, sl.X, dest) {
		return nil, ""
	}
	if c := p.TypesInfo.Types[sl.High].Value; c == nil || c.String() != "0" {
		return nil, ""
	}
	r, ok := p.TypesInfo.Defs[values.IdentOf(as.Lhs[0])].(*types.Var)
	if !ok {
		return nil, ""
	}
	// if len(r) != len(dest) { panic(constant) }
	cond, v, ok := p.panicsIf(fd.Body.List[1])
	if !ok || !values.LenOf(p.TypesInfo, cond.X, r) || !values.LenOf(p.TypesInfo, cond.Y, dest) || p.TypesInfo.Types[v].Value == nil {
		return nil, ""
	}
	return call, x.Name + "[:0]"
}

// sizeReads returns the calls mac.Size() in the statement at cur when they
// are its only uses of mac, or nil. The one-shot HMAC's sum then gives the
// size: it is computed where hmac.New was, and len(sum) replaces each read.
//
//	mac := hmac.New(h.h, h.key)                  mac := hashsum.AppendHMACFunc(h.h, nil, h.key, data)
//	if n > uint32(mac.Size()) {                  if n > uint32(len(mac)) {
//		return nil, fmt.Errorf("%d", mac.Size()) =>     return nil, fmt.Errorf("%d", len(mac))
//	}                                            }
//	mac.Write(data)
//	return mac.Sum(nil)[:n], nil                 return mac[:n], nil
//
// A read of the MAC's block size, which the sum does not tell, stops the fix:
// it says why.
func (p *pass) sizeReads(cur inspector.Cursor, mac *types.Var) ([]ast.Expr, string) {
	var reads []ast.Expr
	for c := range p.vals.Uses(cur, mac) {
		switch call := c.Parent().Parent().Node(); {
		case values.MethodCallOn(c, "Size"):
			reads = append(reads, call.(*ast.CallExpr))
		case values.MethodCallOn(c, "BlockSize"):
			return nil, fmt.Sprintf("%s at %s reads the MAC's block size, which the one-shot HMAC's sum does not tell", shorten(p.text(call)), p.position(call.Pos()))
		default:
			return nil, ""
		}
	}
	return reads, ""
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
	if !ok || !isSel || !values.IsIdentOf(p.TypesInfo, call.Args[0], mac) {
		return nil, ""
	}
	// Reject the MAC among what is printed: it would be used before its Sum.
	for _, arg := range call.Args[1:] {
		if values.Mentions(p.TypesInfo, arg, mac) {
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
	if !ok || sel.Sel.Name != "New" || !values.IsCryptoHash(p.TypesInfo.TypeOf(sel.X)) {
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
		call := returnedCall(lit.Body)
		if call == nil {
			return nil, nil, "the hash function is a function literal that does more than return a constructor's hasher"
		}
		ctor, ok := p.funcValue(call.Fun)
		if !ok || len(call.Args) != 0 {
			return nil, nil, "the hash function is a function literal that returns " + shorten(types.ExprString(call)) + ", not a standard constructor's hasher"
		}
		return ctor, nil, ""
	}
	switch obj := p.TypesInfo.Uses[values.IdentOf(e)].(type) {
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
		value, id, ok := p.vals.Only(fn, obj)
		if !ok {
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
	if _, ok := ast.Unparen(e).(*ast.FuncLit); !ok && !values.Operand(e) {
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
	switch obj := p.TypesInfo.Uses[values.IdentOf(e)].(type) {
	case *types.Func:
		return true
	case *types.Var:
		value, _, ok := p.vals.Only(fn, obj)
		return ok && obj.Kind() == types.LocalVar && p.neverNilFunc(fn, value)
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
		if ok && values.IsCryptoHash(c.Type()) {
			named[cryptoHashConstructors[c.Name()]] = true
		}
	}
	ctors := inCryptoOrder(named)
	p.model.namedHashes = &ctors
	return ctors
}

// inCryptoOrder returns the constructors in set that have a one-shot HMAC, in
// crypto's order of their hashes (crypto.MD5 first).
func inCryptoOrder(set map[string]bool) []string {
	var ctors []string
	for _, name := range []string{"MD5", "SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "SHA512_224", "SHA512_256"} {
		if ctor := cryptoHashConstructors[name]; set[ctor] {
			ctors = append(ctors, ctor)
		}
	}
	return ctors
}

// macWrite returns the argument of mac.Write(x), a call or its statement,
// or the string s of io.WriteString(mac, s), which writes []byte(s) (an HMAC
// has no WriteString method); or nil.
func (p *pass) macWrite(n ast.Node, mac *types.Var) ast.Expr {
	if es, ok := n.(*ast.ExprStmt); ok {
		n = es.X
	}
	if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 2 && values.IsIdentOf(p.TypesInfo, call.Args[0], mac) {
		if fn, ok := typeutil.Callee(p.TypesInfo, call).(*types.Func); ok && funcKey(fn) == "io.WriteString" {
			return call.Args[1]
		}
	}
	return p.methodArg(n, mac, "Write")
}

// checkedWrite recognizes a Write into mac whose error is checked, in the
// statement at cur: "if _, err := mac.Write(x); err != nil { ... }", or
// "_, err := mac.Write(x)" followed by "if err != nil { ... }" (then check is
// that if), where err is used nowhere but in that if. It returns x.
//
// An error assigned to a variable declared before, "_, err = mac.Write(x)"
// followed by "if err != nil { ... }", may be used anywhere after: the Write
// leaves it nil, and so does the fix, which deletes both, when err holds nil
// already (see nilBefore):
//
//	func verify(key []byte, ts string) (ok bool, err error) {
//		mac := hmac.New(sha256.New, key)
//		_, err = io.WriteString(mac, ts)    =>   (deleted: err is nil before and after it)
//		if err != nil {
//			return false, err
//		}
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
	if write == nil || cond == nil || cond.Else != nil || len(write.Lhs) != 2 || len(write.Rhs) != 1 {
		return nil, inspector.Cursor{}, false
	}
	if blank, ok := write.Lhs[0].(*ast.Ident); !ok || blank.Name != "_" {
		return nil, inspector.Cursor{}, false
	}
	errID, ok := write.Lhs[1].(*ast.Ident)
	if !ok {
		return nil, inspector.Cursor{}, false
	}
	assigned := write.Tok == token.ASSIGN && cond.Init == nil
	errVar, ok := p.TypesInfo.Defs[errID].(*types.Var)
	if assigned {
		errVar, ok = p.TypesInfo.Uses[errID].(*types.Var)
	}
	if !ok || write.Tok != token.DEFINE && !assigned {
		return nil, inspector.Cursor{}, false
	}
	// The condition is err != nil, and err is used nowhere but in the if,
	// which goes.
	if !p.notNil(cond.Cond, errVar) {
		return nil, inspector.Cursor{}, false
	}
	if assigned {
		if !p.nilBefore(fn, cur, errVar, mac) {
			return nil, inspector.Cursor{}, false
		}
	} else if _, ok := p.vals.UsedOutside(fn, errVar, cond.Pos(), cond.End()); ok {
		return nil, inspector.Cursor{}, false
	}
	x = p.macWrite(write.Rhs[0], mac)
	return x, check, x != nil
}

// nilBefore reports whether the error variable v holds nil when the
// statement at cur runs: the statements before it in its list mention v
// only in checked Writes into mac (which leave it nil), and the list starts
// at its declaration without a value (var err error), or is the body of the
// function whose named result v is. No label before it (a goto could come
// back with another error), and no code that could write v without naming
// it (its address taken, or a function literal capturing it). The Writes
// into mac that it passes leave v nil: hash.Hash's Write never returns an
// error, so the ifs after them do not run.
func (p *pass) nilBefore(fn, cur inspector.Cursor, v *types.Var, mac *types.Var) bool {
	if p.vals.AddressTaken(fn, v) {
		return false
	}
	checks := func(c inspector.Cursor) bool { // if v != nil { ... } after _, v = a Write into mac
		st, ok := c.Node().(*ast.IfStmt)
		prev, ok2 := c.PrevSibling()
		if !ok || !ok2 || st.Init != nil || st.Else != nil {
			return false
		}
		as, ok := prev.Node().(*ast.AssignStmt)
		return ok && as.Tok == token.ASSIGN && len(as.Lhs) == 2 && len(as.Rhs) == 1 && p.TypesInfo.Uses[values.IdentOf(as.Lhs[1])] == v &&
			p.macWrite(as.Rhs[0], mac) != nil && p.notNil(st.Cond, v)
	}
	for c, ok := cur.PrevSibling(); ; c, ok = c.PrevSibling() {
		if !ok {
			// The start of the list: the function's body, and v its
			// named result.
			body := cur.Parent()
			kind := body.ParentEdgeKind()
			return body.Parent() == fn && (kind == edge.FuncDecl_Body || kind == edge.FuncLit_Body) &&
				v.Kind() == types.ResultVar && fn.Node().Pos() <= v.Pos() && v.Pos() < body.Node().Pos()
		}
		switch n := c.Node().(type) {
		case *ast.LabeledStmt:
			return false
		case *ast.DeclStmt:
			if gen, ok := n.Decl.(*ast.GenDecl); ok {
				for _, spec := range gen.Specs {
					if vs, ok := spec.(*ast.ValueSpec); ok && slices.ContainsFunc(vs.Names, func(id *ast.Ident) bool { return p.TypesInfo.Defs[id] == v }) {
						return len(vs.Values) == 0
					}
				}
			}
		case *ast.IfStmt:
			if checks(c) {
				c, _ = c.PrevSibling() // and its Write
				continue
			}
		}
		if values.Mentions(p.TypesInfo, c.Node(), v) {
			return false
		}
	}
}

// macSum returns the one call mac.Sum(x) in the statement at cur, not in a
// function literal, or nil.
func (p *pass) macSum(cur inspector.Cursor, mac *types.Var) *ast.CallExpr {
	var found *ast.CallExpr
	for ic := range p.calls.Within(cur) {
		c, call := ic.Cursor, ic.Node
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || p.TypesInfo.Uses[values.IdentOf(sel.X)] != mac {
			continue
		}
		if sel.Sel.Name != "Sum" || len(call.Args) != 1 || found != nil || insideFuncLit(c, cur) {
			return nil
		}
		found = call
	}
	return found
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
//     functions of the values.CheapStd packages, when the key or a part is read through a
//     package variable, a field, an index or a variable whose address is
//     taken or that a function literal captures: code it calls could then
//     change it without naming it;
//   - starts no goroutine.
//
// A statement that returns or branches is no obstacle: the MAC is not
// summed then, before or after the fix.
func (p *pass) movable(cur inspector.Cursor, key ast.Expr, what string, writes []ast.Stmt, parts []ast.Expr) string {
	fn, _ := values.EnclosingFunc(cur)
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
		local := map[*ast.Ident]bool{} // fields of local values (see values.Index.OwnField)
		for n := range ast.Preorder(m.expr) {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if p.vals.OwnField(fn, n) {
					local[n.Sel] = true
				}
			case *ast.Ident:
				v, ok := p.TypesInfo.Uses[n].(*types.Var)
				if !ok {
					continue
				}
				if values.Mentions(p.TypesInfo, stmt, v) {
					return fmt.Sprintf("%s is read from %s, which %s uses before the Sum", m.what, v.Name(), where)
				}
				if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() || v.IsField() && !local[n] || p.vals.AddressTaken(fn, v) {
					reachable = true
				}
			case *ast.IndexExpr, *ast.StarExpr, *ast.SliceExpr:
				reachable = true
			}
		}
		if !reachable {
			continue
		}
		if call := values.SomeCall(p.TypesInfo, stmt); call != nil {
			return fmt.Sprintf("%s is read through %s, which %s, called by %s, could change before the Sum", m.what, types.ExprString(m.expr), shorten(types.ExprString(call.Fun)), where)
		}
	}
	for n := range ast.Preorder(stmt) {
		if _, ok := n.(*ast.GoStmt); ok {
			return where + " starts a goroutine before the Sum"
		}
	}
	return ""
}

// text is the source text of n, as written.
func (p *pass) text(n ast.Node) string {
	if f := p.file(n.Pos()); f != nil {
		return strings.Join(strings.Fields(f.Text(n)), " ")
	}
	return ""
}

// splitQualified splits "importpath.Func" at its last dot.
func splitQualified(qualified string) (path, name string) {
	dot := strings.LastIndex(qualified, ".")
	return qualified[:dot], qualified[dot+1:]
}

// chosenHash is a MAC variable that the branches of an if or a switch
// assign hmac.New calls of one key and of a hash each (see branchedMAC).
type chosenHash struct {
	mac      *types.Var
	hash     ast.Expr         // an identifier of mac: what the one-shot HMAC dispatches on
	decl     ast.Stmt         // var mac hash.Hash, or mac := hmac.New(...)
	declType ast.Expr         // the type of var mac hash.Hash, or nil
	join     inspector.Cursor // the if or switch whose branches assign it
	calls    []*ast.CallExpr  // the hmac.New calls it is assigned, in order
	consts   []string         // the crypto.Hash constant of each one's hash
	assigns  int              // the uses of mac that assign it
}

// branchedMAC recognizes the MAC of s as a variable that chooses its hash
// in branches, then is written and summed after them:
//
//	var mac hash.Hash                     mac := hmac.New(sha1.New, key)
//	switch alg {                          if v2 {
//	case "sha256":                        	mac = hmac.New(sha256.New, key)
//		mac = hmac.New(sha256.New, key)   }
//	default:                              mac.Write(msg)
//		mac = hmac.New(sha1.New, key)     tag := mac.Sum(nil)
//	}
//	mac.Write(msg)
//	tag := mac.Sum(nil)
//
// Each branch assigns it last, or does not reach the Writes (it returns or
// panics); a variable declared without a value is assigned in every branch
// that reaches them (the if has an else, the switch a default). Every call
// has the same key, which runs no code, and a standard hash with a one-shot
// HMAC. When s is not such an assignment, it returns why, as given.
func (p *pass) branchedMAC(s *Site, why string) (*chosenHash, string) {
	if s.cur.ParentEdgeKind() != edge.AssignStmt_Rhs {
		return nil, why
	}
	assign := s.cur.Parent().Node().(*ast.AssignStmt)
	if len(assign.Lhs) != 1 || len(assign.Rhs) != 1 {
		return nil, why
	}
	fnCur, ok1 := values.EnclosingFunc(s.cur)
	id, ok2 := assign.Lhs[0].(*ast.Ident)
	if !ok1 || !ok2 {
		return nil, why
	}
	mac, ok := p.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || mac.Kind() != types.LocalVar {
		return nil, why
	}
	idCur, ok := p.vals.Def(fnCur, mac)
	if !ok {
		return nil, why
	}
	c := &chosenHash{mac: mac, hash: id}
	var declCur inspector.Cursor
	switch n := idCur.Parent().Node().(type) {
	case *ast.ValueSpec:
		gen, _ := idCur.Parent().Parent().Node().(*ast.GenDecl)
		if gen == nil || len(gen.Specs) != 1 || len(n.Names) != 1 || len(n.Values) != 0 || n.Type == nil {
			return nil, why
		}
		declCur, c.declType = idCur.Parent().Parent().Parent(), n.Type
	case *ast.AssignStmt:
		if n.Tok != token.DEFINE || len(n.Lhs) != 1 || len(n.Rhs) != 1 || !p.isHMACNew(n.Rhs[0]) {
			return nil, why
		}
		declCur = idCur.Parent()
		c.calls = append(c.calls, ast.Unparen(n.Rhs[0]).(*ast.CallExpr))
	default:
		return nil, why
	}
	c.decl, _ = declCur.Node().(ast.Stmt)
	if !isListEdge(declCur.ParentEdgeKind()) {
		return nil, why
	}
	key := s.Call.Args[1]
	if !values.Operand(key) && !values.PlainConversion(p.TypesInfo, key) {
		return nil, why + ", and the key " + shorten(types.ExprString(key)) + " runs code (a call), in each branch"
	}
	// Between a definition with a value and the Sum, the key read at
	// the definition must stay as it was: it is read at the Sum.
	movable := func(cur inspector.Cursor) string {
		if c.declType != nil {
			return ""
		}
		return p.movable(cur, key, "the key", nil, nil)
	}
	// The statements up to the if or switch leave the MAC alone.
	for next, ok := declCur.NextSibling(); ; next, ok = next.NextSibling() {
		if !ok {
			return nil, why
		}
		if !values.Mentions(p.TypesInfo, next.Node(), mac) {
			if w := movable(next); w != "" {
				return nil, w
			}
			continue
		}
		c.join = next
		break
	}
	where := p.position(c.join.Node().Pos())
	var headers []ast.Node // what runs before a branch: if conditions, switch tags and cases
	var branches [][]ast.Stmt
	complete := false // a branch runs whichever value the conditions have
	switch n := c.join.Node().(type) {
	case *ast.IfStmt:
		for n != nil {
			headers = append(headers, n.Init, n.Cond)
			branches = append(branches, n.Body.List)
			switch e := n.Else.(type) {
			case *ast.BlockStmt:
				branches, complete = append(branches, e.List), true
			case *ast.IfStmt:
				n = e
				continue
			}
			break
		}
	case *ast.SwitchStmt:
		headers = append(headers, n.Init, n.Tag)
		for _, cc := range n.Body.List {
			cc := cc.(*ast.CaseClause)
			for _, e := range cc.List {
				headers = append(headers, e)
			}
			complete = complete || cc.List == nil
			branches = append(branches, cc.Body)
		}
	default:
		return nil, fmt.Sprintf("%s (the statement at %s that assigns it is not an if or a switch)", why, where)
	}
	for _, h := range headers {
		if h == nil {
			continue
		}
		if values.SomeCall(p.TypesInfo, h) == nil {
			continue // an expression that calls nothing changes nothing
		}
		hc, _ := c.join.FindNode(h)
		if w := movable(hc); w != "" {
			return nil, w
		}
	}
	for _, list := range branches {
		var last ast.Stmt
		if len(list) > 0 {
			last = list[len(list)-1]
		}
		call := p.assignedMAC(last, mac)
		switch {
		case call != nil:
			c.calls, c.assigns = append(c.calls, call), c.assigns+1
			list = list[:len(list)-1]
		case terminates(last):
		case c.declType != nil:
			return nil, fmt.Sprintf("%s, and a branch of the %s at %s leaves it unassigned", why, stmtWord(c.join.Node()), where)
		}
		for _, st := range list {
			if values.Mentions(p.TypesInfo, st, mac) {
				return nil, fmt.Sprintf("%s, and %s at %s uses it in a branch", why, shorten(p.text(st)), p.position(st.Pos()))
			}
			// A branch left by break, goto or fallthrough may reach the
			// Writes without having assigned the MAC.
			for n := range ast.Preorder(st) {
				if b, ok := n.(*ast.BranchStmt); ok && b.Tok != token.CONTINUE {
					return nil, fmt.Sprintf("%s, and %s at %s may leave a branch before it assigns it", why, b.Tok, p.position(b.Pos()))
				}
			}
			sc, _ := c.join.FindNode(st)
			if w := movable(sc); w != "" {
				return nil, w
			}
		}
	}
	if c.declType != nil && !complete {
		word, other := stmtWord(c.join.Node()), "default"
		if word == "if" {
			other = "else"
		}
		return nil, fmt.Sprintf("%s, and the %s at %s has no %s: when none of its branches runs, %s is nil", why, word, where, other, mac.Name())
	}
	// One key, and a hash with a one-shot HMAC, in every call.
	for _, call := range c.calls {
		if len(call.Args) != 2 || !p.vals.SameOperand(call.Args[1], key) {
			return nil, fmt.Sprintf("%s, and %s at %s is given another key than %s", why, shorten(p.text(call)), p.position(call.Pos()), shorten(types.ExprString(key)))
		}
		ctor, def, w := p.hashConstructor(fnCur, call.Args[0])
		if ctor == nil || def != nil {
			if w == "" {
				w = "the hash function " + shorten(types.ExprString(call.Args[0])) + " is defined by a variable of its own"
			}
			return nil, w
		}
		name, ok := oneShotHMACs[funcKey(ctor)]
		if !ok {
			return nil, "the runtime has no one-shot HMAC of " + shortName(ctor)
		}
		c.consts = append(c.consts, name)
	}
	return c, ""
}

// assignedMAC returns the call of the statement mac = hmac.New(...), or nil.
func (p *pass) assignedMAC(st ast.Stmt, mac *types.Var) *ast.CallExpr {
	as, ok := st.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || p.TypesInfo.Uses[values.IdentOf(as.Lhs[0])] != mac || !p.isHMACNew(as.Rhs[0]) {
		return nil
	}
	return ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
}

// isHMACNew reports whether e is a call of hmac.New.
func (p *pass) isHMACNew(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && p.qualifiedCallee(call) == "crypto/hmac.New"
}

// terminates reports whether st, the last statement of a branch, leaves the
// function: a return or a call of panic.
func terminates(st ast.Stmt) bool {
	es, ok := st.(*ast.ExprStmt)
	_, ret := st.(*ast.ReturnStmt)
	return ret || ok && frequency.IsPanic(es.X)
}

// stmtWord names the statement n: if or switch.
func stmtWord(n ast.Node) string {
	if _, ok := n.(*ast.IfStmt); ok {
		return "if"
	}
	return "switch"
}

// dispatchedHashes returns the constructors of the hashes that -pool=inline's
// copy of hashsum.AppendHMAC dispatches on: those the package names (see
// namedHashes) and those that the package's MACs assigned in branches
// choose (hmac.New(sha1.New, key) assigned to a variable assigned again), in
// crypto's order. They are the same for every file of the package: two
// fixes of one file declare the same copy, and the hash that a branch
// chooses never falls to crypto/hmac, for which its package would have to
// be linked still.
func (p *pass) dispatchedHashes() []string {
	set := map[string]bool{}
	for _, ctor := range p.namedHashes() {
		set[ctor] = true
	}
	for cur := range p.prod.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		as, ok := cur.Parent().Node().(*ast.AssignStmt)
		if !ok || cur.ParentEdgeKind() != edge.AssignStmt_Rhs || len(as.Lhs) != 1 || len(call.Args) != 2 || !p.isHMACNew(call) {
			continue
		}
		v, ok := p.TypesInfo.ObjectOf(values.IdentOf(as.Lhs[0])).(*types.Var)
		fn, inFunc := values.EnclosingFunc(cur)
		if !ok || !inFunc || !p.vals.Written(fn, v) {
			continue
		}
		if ctor, def, _ := p.hashConstructor(fn, call.Args[0]); ctor != nil && def == nil {
			set[funcKey(ctor)] = true // as branchedMAC finds it
		}
	}
	return inCryptoOrder(set)
}
