package analyzer

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// auditOtherHashers gives the audit a line for every call that returns a
// hasher and is not a constructor call of the package's sites (known): a function of the package
// that does more than a constructor wrapper, one that hands back a hasher
// it is given, a method or a function value whose constructor is not known
// here. Each such value is made somewhere else, where it is judged; the
// line says so, so that no call that yields a hasher goes unaccounted.
func (p *pass) auditOtherHashers(known map[*ast.CallExpr]bool) {
	for ic := range p.calls.Within(p.root) {
		call := ic.Node
		result := values.FirstResult(p.TypesInfo.TypeOf(call))
		holder, yields := values.HasherMethod(result)
		if known[call] || !values.HasherLike(result) && !yields {
			continue
		}
		if tv, ok := p.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
			continue // a conversion
		}
		if !p.suppress.analyzed(ic.Cursor) {
			p.suppress.notAnalyzed(ic.Cursor, call, hasherAlloc)
			continue
		}
		why := "the hasher comes from a function value or a method whose constructor is not known here; where it is made, it is judged"
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if s, ok := p.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodVal && types.IsInterface(s.Recv()) {
				why = s.Obj().Name() + " is a method of an interface that no type of the package implements by making a hasher: it may return one it holds (an accessor), which is judged where it is made"
			}
		}
		fn := typeutil.StaticCallee(p.TypesInfo, call)
		switch {
		case yields && fn != nil && fn.Pkg() != p.Pkg:
			why = types.ExprString(call.Fun) + " returns a " + types.TypeString(result, (*types.Package).Name) + ", whose " + holder + " method hands out a hasher made with it in " + fn.Pkg().Name() + ", which no fact of this package describes: what the call allocates is not counted, and " + holder + "() is an accessor of what it holds"
		case yields:
			why = types.ExprString(call.Fun) + " returns a " + types.TypeString(result, (*types.Package).Name) + ", whose " + holder + " method hands out a hasher made where the value is made, which is judged there"
		case fn != nil:
			why = fn.Name() + " returns a hasher, but is not a constructor the analysis knows"
			if fn.Pkg() == p.Pkg {
				why += " (a wrapper returns a constructor's hasher made from its parameters and constants, and does nothing else)"
			} else {
				why += " (-constructors adds one)"
			}
			why += "; the constructor calls in it are judged where they are"
			if len(call.Args) > 0 && values.IsHasher(p.TypesInfo.TypeOf(call.Args[0])) {
				why = fn.Name() + " is given a hasher and returns one: the hasher it is given is judged where it is made"
			}
		}
		p.silent(call, hasherAlloc, why)
	}
}

// auditHashedArgs gives the audit a line for what a hashing call (a
// hasher's Write, a function that takes bytes and returns a digest) is
// given that no check judges there: the contents of a strings.Builder or a
// bytes.Buffer (see values.Contents), and a []byte conversion of a string
// given to a sum function.
func (p *pass) auditHashedArgs(cur inspector.Cursor, call *ast.CallExpr) {
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	write := isSel && sel.Sel.Name == "Write" && values.HasherLike(p.TypesInfo.TypeOf(sel.X))
	fn := typeutil.StaticCallee(p.TypesInfo, call)
	sum := write || fn != nil && fn.Signature().Recv() == nil && fn.Signature().Results().Len() > 0 && values.DigestType(fn.Signature().Results().At(0).Type())
	var helper *hashesArg // a function of another package that only hashes one of its parameters
	if !sum && fn != nil {
		helper = p.helperFact(fn, nil)
	}
	if !p.cfg.audit || !sum && helper == nil {
		return
	}
	fnCur, _ := values.EnclosingFunc(cur)
	for i, arg := range call.Args {
		argCur := cur.ChildAt(edge.CallExpr_Args, i)
		if n := p.vals.Appended(argCur); n > 0 && (helper == nil || helper.Param == i) {
			p.silent(arg, concatHash, fmt.Sprintf("it hashes %s, a slice built only to be hashed by %d appends to an empty slice, which allocate it once per call at least (again as it grows); concat-hash rewrites a concatenation made in one statement right before the hash (v := append(a, b...)) or by copies into a make, not a slice grown by appends in several statements", types.ExprString(arg), n))
			continue
		}
		if helper != nil {
			continue
		}
		conv, converted := ast.Unparen(arg).(*ast.CallExpr)
		var x ast.Expr
		if converted {
			x, converted = p.byteConversion(conv)
		}
		if from, ok := p.vals.Contents(argCur); ok {
			b := ast.Unparen(from.Node().(*ast.CallExpr).Fun).(*ast.SelectorExpr).X
			where := "in this function"
			if f, _ := values.EnclosingFunc(from); f.Node() != fnCur.Node() {
				where = "in a function literal (" + p.position(from.Node().Pos()) + ")"
				if decl, ok := f.Node().(*ast.FuncDecl); ok {
					where = "in " + decl.Name.Name + " (" + p.position(from.Node().Pos()) + ")"
				}
			}
			copied := ""
			if converted {
				copied = ", and the []byte copy of its string"
			}
			p.silent(arg, concatHash, "it hashes the contents of "+types.ExprString(b)+", a "+types.TypeString(p.TypesInfo.TypeOf(b), (*types.Package).Name)+" filled "+where+" only to be hashed: writing the parts into a hasher instead would save the buffer's growth"+copied+"; concat-hash rewrites only a buffer that the hashing function fills with its parts itself")
		} else if converted && !write && p.TypesInfo.Types[x].Value == nil {
			p.silent(arg, hotBuffer, "the copy escapes only if "+types.ExprString(call.Fun)+" lets it; a sum function that does not keep it (the standard ones) has a copy of up to 32 bytes on the stack, and makes a longer one on the heap once per call, which no safe form avoids: the sum functions take no string")
		}
	}
}
