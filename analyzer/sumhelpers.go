package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// Helpers that compute a standard sum of their argument, such as cometbft's
//
//	func Sum(bz []byte) []byte { h := sha256.Sum256(bz); return h[:] }
//
// are called with concatenations from other packages. What such a helper
// returns is part of the hashesArg fact (Result), so that a caller in another
// package can compute the same sum of the parts without building their
// concatenation; and a variadic form of it in its own package (cometbft's
// SumMany) carries the hashesParts fact, so that the caller uses it when it
// exists.

// Result forms of a helper that returns a standard sum of its argument, or
// the sum of that sum (btcd's chainhash.DoubleHashH and DoubleHashB).
const (
	resultArray       = "array"        // return sha256.Sum256(b)
	resultSlice       = "slice"        // s := sha256.Sum256(b); return s[:]
	resultDoubleArray = "double-array" // first := sha256.Sum256(b); return Hash(sha256.Sum256(first[:]))
	resultDoubleSlice = "double-slice" // first := sha256.Sum256(b); second := sha256.Sum256(first[:]); return second[:]
)

// sumResult says what the helper whose body is body returns, when its body
// is only the sum of param, or the sum of that sum: one of the result forms,
// or "".
func (p *pass) sumResult(block *ast.BlockStmt, param *types.Var, sum string) string {
	body := block.List
	// sumOf returns x of sum(x), or of T(sum(x)) with T a type (a named
	// array's conversion, which computes nothing) when conv is set.
	sumOf := func(e ast.Expr, conv bool) ast.Expr {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if ok && conv && len(call.Args) == 1 && p.TypesInfo.Types[call.Fun].IsType() {
			call, ok = ast.Unparen(call.Args[0]).(*ast.CallExpr)
		}
		if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() || p.qualifiedCallee(call) != sum {
			return nil
		}
		return call.Args[0]
	}
	isParam := func(e ast.Expr) bool { return e != nil && p.TypesInfo.Uses[values.IdentOf(e)] == param }
	// def returns v of v := sum(x), with x the parameter or, when of is
	// set, of[:].
	def := func(s ast.Stmt, of types.Object) types.Object {
		as, ok := s.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return nil
		}
		x := sumOf(as.Rhs[0], false)
		if of == nil && !isParam(x) || of != nil && !p.fullSlice(x, of) {
			return nil
		}
		return p.TypesInfo.Defs[values.IdentOf(as.Lhs[0])]
	}
	switch len(body) {
	case 1:
		if isParam(sumOf(onlyResult(body[0]), false)) {
			return resultArray
		}
	case 2:
		first := def(body[0], nil)
		switch ret := onlyResult(body[1]); {
		case first == nil || ret == nil:
		case p.fullSlice(ret, first):
			return resultSlice
		case p.fullSlice(sumOf(ret, true), first):
			return resultDoubleArray
		}
	case 3:
		if first := def(body[0], nil); first != nil {
			if second := def(body[1], first); second != nil && p.fullSlice(onlyResult(body[2]), second) {
				return resultDoubleSlice
			}
		}
	}
	return ""
}

// fullSlice reports whether e is v[:].
func (p *pass) fullSlice(e ast.Expr, v types.Object) bool {
	slice, ok := ast.Unparen(e).(*ast.SliceExpr)
	return ok && v != nil && p.TypesInfo.Uses[values.IdentOf(slice.X)] == v && slice.Low == nil && slice.High == nil && !slice.Slice3
}

// hashesParts is the fact that a variadic function returns h.Sum(nil) of one
// standard hasher h into which it writes each of its []byte parameters in
// order: func SumMany(data []byte, rest ...[]byte) []byte.
type hashesParts struct {
	// Ctor is the hasher's constructor, as "importpath.Func".
	Ctor string
}

func (*hashesParts) AFact() {}

func (f *hashesParts) String() string { return "sums its parts with " + f.Ctor }

// partsSum returns the constructor of the hasher that the variadic fn writes
// its parameters into, in order, before returning its Sum(nil); or "".
//
//	h := sha256.New()
//	h.Write(data)               // each leading []byte parameter, in order
//	for _, b := range rest {    // the variadic one
//		h.Write(b)
//	}
//	return h.Sum(nil)
func (p *pass) partsSum(cur inspector.Cursor, fn *types.Func) string {
	sig := fn.Signature()
	if sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), byteSlice) {
		return ""
	}
	params := sig.Params()
	for i := range params.Len() - 1 {
		if !types.Identical(params.At(i).Type(), byteSlice) {
			return ""
		}
	}
	if !types.Identical(params.At(params.Len()-1).Type(), types.NewSlice(byteSlice)) {
		return ""
	}
	h, ctor, writes := p.sumBody(cur.Node().(*ast.FuncDecl).Body.List)
	if _, ok := stdConstructors[ctor]; !ok || len(writes) != params.Len() {
		return ""
	}
	for i, w := range writes[:len(writes)-1] {
		if p.TypesInfo.Uses[values.IdentOf(p.methodArg(w, h, "Write"))] != params.At(i) {
			return ""
		}
	}
	loop, ok := writes[len(writes)-1].(*ast.RangeStmt)
	if !ok || p.TypesInfo.Uses[values.IdentOf(loop.X)] != params.At(params.Len()-1) || p.TypesInfo.Uses[values.IdentOf(p.eachWritten(loop))] != h {
		return ""
	}
	return ctor
}

// sumBody returns h, the constructor ("importpath.Func") and the statements
// between of a body that makes a hasher and returns its sum, or nil:
//
//	h := ctor()      (or var h = ctor())
//	...
//	return h.Sum(nil)
func (p *pass) sumBody(body []ast.Stmt) (h types.Object, ctor string, between []ast.Stmt) {
	if len(body) < 2 {
		return nil, "", nil
	}
	call, h, errVar := p.hasherDef(body[0])
	if call == nil || errVar != nil || len(call.Args) != 0 {
		return nil, "", nil
	}
	if !p.TypesInfo.Types[p.methodArg(ast.Unparen(onlyResult(body[len(body)-1])), h, "Sum")].IsNil() {
		return nil, "", nil
	}
	return h, p.qualifiedCallee(call), body[1 : len(body)-1]
}

// methodArg returns x of h.name(x), an expression or its statement, or nil.
func (p *pass) methodArg(n ast.Node, h types.Object, name string) ast.Expr {
	if es, ok := n.(*ast.ExprStmt); ok {
		n = es.X
	}
	call, ok := n.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name || p.TypesInfo.Uses[values.IdentOf(sel.X)] != h {
		return nil
	}
	return call.Args[0]
}

// otherHelperFix computes, at a call of another package's helper that
// returns a standard sum of its argument, the same sum of the parts: with the
// helper package's own variadic form when it has one (cometbft's
// tmhash.SumMany), else with the runtime's multi-part sum of the same result
// form.
//
//	tmhash.Sum(append(prefix, leaf...))   =>   tmhash.SumMany(prefix, leaf)
//	                                      or   hashsum.AppendSHA256(nil, prefix, leaf)
func (p *pass) otherHelperFix(f *fixes.File, s sink, fc fixes.Concat) (*analysis.SuggestedFix, string) {
	fact := s.helperFact
	name := shortName(s.helper)
	if fact.Sum == "" {
		// A fork that hashes with a digest of its own (sha256-simd's, in
		// assembly): its name says SHA-256, nothing proves it. The message
		// gives the -sums entry that would let hashalloc fix it.
		fn := s.helper.Pkg().Path() + "." + s.helper.Name()
		alg, what := "ALGORITHM", "the hash ALGORITHM names"
		if a, ok := stdAlgorithmNamed(s.helper); ok {
			alg, what = a, "what "+algorithms[a]+" does"
		}
		return nil, fn + " hashes with a hasher of its own, whose algorithm hashalloc cannot prove; if it computes " + what + ", -sums=" + fn + "=" + alg + " lets hashalloc fix it"
	}
	if fact.Result == "" {
		return nil, name + " does more than return a standard sum of its argument"
	}
	if len(fc.Parts) < 1 || s.call.Ellipsis.IsValid() || len(s.call.Args) != 1 {
		return nil, name + " is not called with one argument"
	}
	if fact.Result == resultDoubleArray || fact.Result == resultDoubleSlice {
		return p.doubleSumFix(f, s, fc)
	}
	// The helper's variadic form, in its own package, written as the call
	// writes the helper: pkg.SumMany.
	if sel, ok := ast.Unparen(s.call.Fun).(*ast.SelectorExpr); ok && fact.Result == resultSlice {
		_, isPkg := p.TypesInfo.Uses[values.IdentOf(sel.X)].(*types.PkgName)
		if many := p.partsForm(s.helper, fact.Sum); many != nil && isPkg && len(fc.Parts) >= many.Signature().Params().Len()-1 && (!fc.Spread || many.Signature().Params().Len() == 1) {
			fix := fixes.CallParts(f, s.call, fc, f.Text(sel.X)+"."+many.Name(), "Hash the parts with "+shortName(many)+", the variadic form of "+name)
			return &fix, ""
		}
	}
	spec, why := p.sumSpec(fact.Sum, fact.Result == resultSlice)
	if spec == nil {
		return nil, why
	}
	fix := fixes.SumParts(f, s.call, fc, *spec)
	return &fix, ""
}

// doubleSumFix computes, at a call of a helper that returns the sum of the
// sum of its argument, the same double sum of the parts, with a function
// declared in the file that returns what the helper returns: the first sum
// of the parts, hashed one after another, then the sum of that.
//
//	chainhash.DoubleHashH(append(hash[:], prev[:]...))   =>   doubleHashHParts(hash[:], prev[:])
//	                                                          ...
//	                                                          func doubleHashHParts(parts ...[]byte) chainhash.Hash {
//	                                                              first := hashsum.SHA256(parts...)
//	                                                              return hashsum.SHA256(first[:])
//	                                                          }
func (p *pass) doubleSumFix(f *fixes.File, s sink, fc fixes.Concat) (*analysis.SuggestedFix, string) {
	fact, name := s.helperFact, s.name
	spec, why := p.sumSpec(fact.Sum, false)
	if spec == nil {
		return nil, why
	}
	// The declared function returns the helper's result type, spelled as
	// the file can: a named type of the helper's package through the
	// call's qualifier (chainhash.Hash), or one of this package.
	result := s.helper.Signature().Results().At(0).Type()
	text := types.TypeString(result, nil)
	keepImport := false
	if named, ok := result.(*types.Named); ok {
		obj := named.Obj()
		switch {
		case named.TypeArgs() != nil:
			return nil, "the type of " + name + "'s result, " + obj.Name() + ", is generic"
		case obj.Pkg() == p.Pkg:
			text = obj.Name()
		default:
			// Reject a type of another package than the helper's, or a
			// call not written pkg.Func: the file may not import it.
			var pkgName *types.PkgName
			if sel, ok := ast.Unparen(s.call.Fun).(*ast.SelectorExpr); ok {
				pkgName, _ = p.TypesInfo.Uses[values.IdentOf(sel.X)].(*types.PkgName)
			}
			if pkgName == nil || obj.Pkg() != s.helper.Pkg() || !obj.Exported() || pkgName.Imported() != obj.Pkg() {
				return nil, "the type of " + name + "'s result, " + obj.Name() + ", is not named in this file"
			}
			text, keepImport = pkgName.Name()+"."+obj.Name(), true
		}
	}
	fix := fixes.DoubleSumParts(f, s.call, fc, *spec, fixes.DoubleSpec{
		Name:       unexported(s.helper.Name()) + "Parts",
		Helper:     name,
		Result:     result,
		ResultText: text,
		Slice:      fact.Result == resultDoubleSlice,
		KeepImport: keepImport,
	})
	return &fix, ""
}

// partsForm returns the exported variadic function of helper's package that
// sums its parts with the constructor of sum, if there is one.
func (p *pass) partsForm(helper *types.Func, sum string) *types.Func {
	want := sumConstructors[sum]
	if want == "" {
		return nil
	}
	scope := helper.Pkg().Scope()
	for _, n := range scope.Names() {
		fn, ok := scope.Lookup(n).(*types.Func)
		if !ok || !fn.Exported() {
			continue
		}
		var fact hashesParts
		if p.ImportObjectFact(fn, &fact) && fact.Ctor == want {
			return fn
		}
	}
	return nil
}

// writeSum returns the standard sum that the helper whose body is block,
// with the given results, computes when it writes param into the hasher of
// a constructor whose algorithm is known (the catalog's standard
// constructors, or one that -sums names) and returns its Sum(nil); or "".
// The helper's algorithm is proved by the
// constructor, not by its name: a fork that hashes with a hasher of its own
// (sha256-simd's digest, assembly) proves nothing.
//
//	h := sha256.New()
//	h.Write(b)
//	return h.Sum(nil)
func (p *pass) writeSum(block *ast.BlockStmt, results *types.Tuple, param *types.Var) string {
	if results.Len() != 1 || !types.Identical(results.At(0).Type(), byteSlice) {
		return ""
	}
	h, ctor, writes := p.sumBody(block.List)
	sum := p.cfg.ctorSum(ctor)
	if h == nil || sum == "" || len(writes) != 1 || p.TypesInfo.Uses[values.IdentOf(p.methodArg(writes[0], h, "Write"))] != param {
		return ""
	}
	return sum
}

// stdAlgorithmNamed returns the algorithm (a -sums value) of the standard sum
// whose package name and function name fn has, as a fork of sha256 has
// Sum256: what fn's name says it computes, which nothing proves.
func stdAlgorithmNamed(fn *types.Func) (string, bool) {
	for alg, std := range algorithms {
		dot := strings.LastIndex(std, ".")
		if pkg := std[:dot]; pkg[strings.LastIndex(pkg, "/")+1:] == fn.Pkg().Name() && std[dot+1:] == fn.Name() {
			return alg, true
		}
	}
	return "", false
}
