package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hashalloc/hashalloc/fixes"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// Strings hashed through a function value:
//
//	hash := m.hash([]byte(key))    // m.hash func([]byte) uint32
//
// A []byte conversion of a string passed to a function value of a hash's
// shape copies the string to the heap on every call: the compiler cannot
// see the target, so the argument escapes (and crc32.ChecksumIEEE, a common
// target, lets it escape itself). No fix: hashing the string's bytes without
// the copy takes unsafe, or a hash function that takes a string.
func (p *pass) checkHashedConversions() {
	taken := map[ast.Node]map[string]bool{} // the arrays that fixes declare before each loop
	for cur := range p.callsIn(p.root) {
		call := cur.Node().(*ast.CallExpr)
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Write" && len(call.Args) == 1 && hasherLike(p.TypesInfo.TypeOf(sel.X)) {
			p.checkWrittenConversion(cur, sel.X, call.Args[0], taken)
			continue
		}
		if !p.suppress.analyzed(cur) {
			continue
		}
		s, ok := p.digestValueSink(call)
		if !ok {
			continue
		}
		conv, ok := ast.Unparen(s.arg).(*ast.CallExpr)
		if !ok {
			continue
		}
		x, ok := p.byteConversion(conv)
		if !ok || p.TypesInfo.Types[x].Value != nil {
			continue // not a conversion, or of a constant (no copy per call)
		}
		if bin, ok := ast.Unparen(x).(*ast.BinaryExpr); ok && bin.Op == token.ADD {
			continue // []byte(a + b): the compiler builds the bytes at once, no copy of its own
		}
		if fn, ok := enclosingFunc(cur); !ok || !p.callDynamic(fn, call.Fun, false) {
			continue // the target may be known where the function is inlined
		}
		arg, ok := cur.FindNode(conv)
		if !ok {
			continue
		}
		often, _, ok := p.often(arg, hotBuffer, 1)
		if !ok {
			continue
		}
		what := fmt.Sprintf("%s copies %s to the heap (passed to %s, a function value of a hash's shape) %s",
			shorten(types.ExprString(conv)), shorten(types.ExprString(x)), types.ExprString(call.Fun), often)
		p.report(conv, hotBuffer, what, nil, "hash the string's bytes without the copy (a hash function that takes a string)",
			fmt.Sprintf("the only form without the copy, unsafe.Slice(unsafe.StringData(%[1]s), len(%[1]s)), is safe only if %[2]s never keeps or modifies its argument, and its target is not known here",
				shorten(types.ExprString(x)), types.ExprString(call.Fun)))
	}
}

// checkWrittenConversion judges arg, written into the hasher h at cur, when
// it is a []byte conversion of a string that Write lets escape (a dynamic
// Write, crc32's): a heap copy per write, which an array declared before
// the loop replaces (it escapes once; measured in testdata/src/catalogued).
func (p *pass) checkWrittenConversion(cur inspector.Cursor, h, arg ast.Expr, taken map[ast.Node]map[string]bool) {
	conv, _ := ast.Unparen(arg).(*ast.CallExpr)
	if conv == nil {
		return
	}
	x, ok := p.byteConversion(conv)
	fn, inFunc := enclosingFunc(cur)
	convCur, found := cur.FindNode(conv)
	id, _ := ast.Unparen(h).(*ast.Ident)
	v, _ := p.TypesInfo.Uses[id].(*types.Var)
	made := p.model.hashers[v] // a local hasher's constructor call
	why := "its Write is a dynamic call, which lets what it is given escape"
	switch {
	case !ok || !inFunc || !found:
		return
	case !p.suppress.analyzed(cur):
		p.suppress.notAnalyzed(convCur, conv, hotBuffer)
		return
	case made != nil && made.ctor.writeEscapes:
		why = made.ctor.name + "'s Write lets what it is given escape"
	case !p.callDynamic(fn, h, true):
		p.silent(conv, hotBuffer, "the copy escapes only if "+types.ExprString(h)+"'s Write lets it, which the compiler decides where it sees the hasher (a standard hasher made in the function keeps a copy of up to 32 bytes on the stack)")
		return
	}
	often, loop, ok := p.often(convCur, hotBuffer, 1)
	what := fmt.Sprintf("%s copies %s to the heap on each write (%s: %s) %s", shorten(types.ExprString(conv)), shorten(types.ExprString(x)), types.ExprString(h), why, often)
	switch {
	case !ok:
		return
	case !loop.Valid():
		p.silent(conv, hotBuffer, what+": one copy per call, and an array for it would escape as the copy does")
		return
	case made != nil && loop.Node().Pos() <= made.Call.Pos() && made.Call.End() <= loop.Node().End():
		p.silent(conv, hotBuffer, what+", into a hasher made anew in the same loop, which is judged where it is made")
		return
	}
	// Before the outermost loop of the function around the conversion: the
	// array is made once per run of it, and no goroutine of the loop shares it.
	var outer ast.Stmt
	for c := range convCur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		loop, isLoop := c.Node().(ast.Stmt)
		if !isLoop {
			break
		}
		outer = loop
		if labeled, ok := c.Parent().Node().(*ast.LabeledStmt); ok {
			outer = labeled
		}
	}
	var fix *analysis.SuggestedFix
	if f := p.file(conv.Pos()); f != nil && outer != nil {
		if taken[outer] == nil {
			taken[outer] = map[string]bool{}
		}
		fixed := fixes.LoopArray(f, outer, conv, x, f.FreshName(conv.Pos(), "buf", taken[outer]))
		fix = &fixed
	}
	p.report(conv, hotBuffer, what, fix, "copy it into an array declared before the loop", "the source file cannot be read, or no loop of the function holds the write")
}
