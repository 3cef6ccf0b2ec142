package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
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
	for cur := range p.callsIn(p.root) {
		if !p.suppress.analyzed(cur) {
			continue
		}
		call := cur.Node().(*ast.CallExpr)
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
