// Package callindex lists the call expressions of a package's syntax once, in
// preorder, with the function each calls statically. Many checks look at
// every call of the package, or of one function: walking the whole syntax
// tree for each is most of what they cost.
package callindex

import (
	"go/ast"
	"go/types"
	"iter"
	"sort"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Call is one call expression.
type Call struct {
	Cursor inspector.Cursor
	Node   *ast.CallExpr
	// Callee is typeutil.StaticCallee of the call: nil for a call through
	// a function value or an interface, a conversion or a builtin.
	Callee *types.Func
}

// Index holds the calls of each inspector it is asked of.
type Index struct {
	info  *types.Info
	lists map[*inspector.Inspector][]Call
}

// New returns an index of the calls of the syntax that info describes.
func New(info *types.Info) *Index {
	return &Index{info: info, lists: map[*inspector.Inspector][]Call{}}
}

// list returns the calls of in, in preorder.
func (x *Index) list(in *inspector.Inspector) []Call {
	calls, ok := x.lists[in]
	if !ok {
		for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			calls = append(calls, Call{Cursor: cur, Node: call, Callee: typeutil.StaticCallee(x.info, call)})
		}
		x.lists[in] = calls
	}
	return calls
}

// Within yields the calls in the subtree at region, region itself included,
// in the order of region.Preorder((*ast.CallExpr)(nil)).
func (x *Index) Within(region inspector.Cursor) iter.Seq[Call] {
	return func(yield func(Call) bool) {
		calls := x.list(region.Inspector())
		if region.Node() == nil { // the root
			for _, c := range calls {
				if !yield(c) {
					return
				}
			}
			return
		}
		at := region.Index()
		// A cursor's index grows in preorder, and the nodes of a subtree
		// follow its root: the calls of region are the run of calls from
		// the first at or after region that region contains.
		for i := sort.Search(len(calls), func(i int) bool { return calls[i].Cursor.Index() >= at }); i < len(calls) && region.Contains(calls[i].Cursor); i++ {
			if !yield(calls[i]) {
				return
			}
		}
	}
}
