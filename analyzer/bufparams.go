package analyzer

import (
	"go/ast"
	"go/types"
)

// Byte slices passed to functions. A buffer handed to a helper of its
// package stays where it is when the helper only reads, writes, slices or
// copies it, as merkledb's
//
//	func extendIntoBuffer(buffer []byte, val Key, bitsOffset int) { ... }
//
// writes a key into the buffer its caller made; a helper that returns its
// argument (or a view of it: unsafe.String(unsafe.SliceData(bs), len(bs)))
// hands the caller a value that holds the buffer's bytes, which the caller's
// uses then decide. The summary of every []byte parameter is computed on
// demand from the helper's body, with the rules of the buffer's own
// function (sliceEscape); a function of another package has none (the
// paramEscapes fact carries hasher parameters only), so a buffer passed to
// one is not decided.

// bufferParamFlow is what a function does with one []byte parameter.
type bufferParamFlow struct {
	kind   escapeKind
	result bool // returned, or a value holding its bytes, as the only result
}

// bufferParam returns fn's summary of its parameter i, and false when fn has
// none: i is not a []byte parameter, or fn is of another package, or has no
// body. A call cycle reaches fn again while its summaries are computed: the
// call is not decided then (unknown), which errs on silence.
func (p *hotBufferCheck) bufferParam(fn *types.Func, i int) (bufferParamFlow, bool) {
	fn = fn.Origin()
	params := fn.Signature().Params()
	if fn.Pkg() != p.Pkg || i >= params.Len() || fn.Signature().Variadic() && i == params.Len()-1 || !types.Identical(params.At(i).Type(), byteSlice) {
		return bufferParamFlow{}, false
	}
	flows, ok := p.bufParams[fn]
	if ok {
		return flows[i], flows != nil
	}
	cur, ok := p.decl(fn)
	if !ok || cur.Node().(*ast.FuncDecl).Body == nil {
		p.bufParams[fn] = nil
		return bufferParamFlow{}, false
	}
	flows = make([]bufferParamFlow, params.Len())
	for j := range flows {
		flows[j].kind = unknown // while they are computed
	}
	p.bufParams[fn] = flows
	for j := range flows {
		v := params.At(j)
		switch {
		case !types.Identical(v.Type(), byteSlice) || fn.Signature().Variadic() && j == params.Len()-1:
			// never asked
		case v.Name() == "" || v.Name() == "_":
			flows[j].kind = stays
		default:
			esc, returned := p.sliceEscape(cur, v, true)
			flows[j] = bufferParamFlow{kind: esc.kind, result: returned}
			if returned && fn.Signature().Results().Len() != 1 {
				flows[j].kind = unknown
			}
		}
	}
	return flows[i], true
}
