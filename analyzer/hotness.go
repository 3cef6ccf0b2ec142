package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// hotness knows which functions of the package run often enough for a
// per-call allocation to matter, and why:
//  1. they are in a static call cycle (recursion, direct or mutual);
//  2. they are called from a loop body, or from a hot function, transitively;
//  3. their doc comment carries //hashalloc:hot.
type hotness struct {
	p        *pass
	why      map[*types.Func]*hotReason
	calls    map[*types.Func][]call
	comp     map[*types.Func]int // the strongly connected component of each function
	compSize map[int]int         // the functions in each component
}

// call is one static call between two functions of the package.
type call struct {
	caller, callee *types.Func
	pos            token.Pos
	inLoop         token.Pos // the loop around the call, or NoPos
}

type hotKind int

const (
	recursive hotKind = iota
	annotated
	calledInLoop
	calledByHot
)

// hotReason is why one function is hot.
type hotReason struct {
	kind hotKind
	via  call // the call that made it hot (calledInLoop, calledByHot)
}

// hotDirective in a function's doc comment marks it hot.
const hotDirective = "//hashalloc:hot"

func newHotness(p *pass) *hotness {
	h := &hotness{p: p, why: map[*types.Func]*hotReason{}, calls: map[*types.Func][]call{}}
	var funcs []*types.Func
	// Only production code is evidence: a loop in a test does not make
	// what it calls hot, and a package and its test variant agree.
	for cur := range p.prod.Preorder((*ast.FuncDecl)(nil)) {
		decl := cur.Node().(*ast.FuncDecl)
		fn, ok := p.TypesInfo.Defs[decl.Name].(*types.Func)
		if !ok || decl.Body == nil || p.suppress.skipped[p.Fset.File(decl.Pos())] {
			continue
		}
		funcs = append(funcs, fn)
		if decl.Doc != nil {
			for _, c := range decl.Doc.List {
				if strings.HasPrefix(c.Text, hotDirective) {
					h.why[fn] = &hotReason{kind: annotated}
				}
			}
		}
		for cc := range cur.Preorder((*ast.CallExpr)(nil)) {
			callee := typeutil.StaticCallee(p.TypesInfo, cc.Node().(*ast.CallExpr))
			if callee == nil || callee.Pkg() != p.Pkg {
				continue
			}
			c := call{caller: fn, callee: callee.Origin(), pos: cc.Node().Pos()}
			if loop, ok := enclosingLoop(cc, true); ok {
				c.inLoop = loop.Node().Pos()
			}
			h.calls[fn] = append(h.calls[fn], c)
		}
	}

	h.comp, h.compSize = stronglyConnected(funcs, h.calls)
	for _, fn := range funcs {
		if h.recursive(fn) {
			h.why[fn] = &hotReason{kind: recursive}
		}
	}
	var queue []*types.Func
	for _, fn := range funcs {
		if h.why[fn] != nil {
			queue = append(queue, fn)
		}
		for _, c := range h.calls[fn] {
			if c.inLoop.IsValid() && h.why[c.callee] == nil {
				h.why[c.callee] = &hotReason{kind: calledInLoop, via: c}
				queue = append(queue, c.callee)
			}
		}
	}
	// Everything a hot function calls is hot too.
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		for _, c := range h.calls[fn] {
			if h.why[c.callee] == nil {
				h.why[c.callee] = &hotReason{kind: calledByHot, via: c}
				queue = append(queue, c.callee)
			}
		}
	}
	return h
}

// explain says why fn is hot, or returns "" when it is not.
func (h *hotness) explain(fn *types.Func) string {
	var parts []string
	seen := map[*types.Func]bool{}
	for fn != nil && !seen[fn] {
		if len(parts) == 4 {
			parts = append(parts, "…")
			break
		}
		seen[fn] = true
		r := h.why[fn]
		if r == nil {
			return ""
		}
		switch r.kind {
		case recursive:
			parts = append(parts, "recursive: "+h.cycle(fn))
			fn = nil
		case annotated:
			parts = append(parts, "marked "+hotDirective)
			fn = nil
		case calledInLoop:
			parts = append(parts, "called in a loop by "+r.via.caller.Name()+" at "+h.p.position(r.via.pos))
			fn = nil
		case calledByHot:
			parts = append(parts, "called by "+r.via.caller.Name()+" at "+h.p.position(r.via.pos))
			fn = r.via.caller
		}
	}
	return strings.Join(parts, ", ")
}

// recursive reports whether fn is in a static call cycle: its strongly
// connected component has other functions, or it calls itself.
func (h *hotness) recursive(fn *types.Func) bool {
	return h.compSize[h.comp[fn]] > 1 || h.callsItself(fn)
}

// callsItself reports whether fn calls itself directly.
func (h *hotness) callsItself(fn *types.Func) bool {
	for _, c := range h.calls[fn] {
		if c.callee == fn {
			return true
		}
	}
	return false
}

// maxCycleSearch bounds the functions that the search for a cycle to show
// visits, so that explaining every member of a cycle of n functions costs
// O(n), not O(n²).
const maxCycleSearch = 64

// cycle spells the shortest call cycle from fn back to fn, found by a
// breadth-first search inside fn's component ("a → b → a"); in a component
// too large to search, the first calls of one and its size.
func (h *hotness) cycle(fn *types.Func) string {
	prev := map[*types.Func]*types.Func{fn: nil}
	queue := []*types.Func{fn}
	for len(queue) > 0 && len(prev) <= maxCycleSearch {
		cur := queue[0]
		queue = queue[1:]
		for _, c := range h.calls[cur] {
			if h.comp[c.callee] != h.comp[fn] {
				continue
			}
			if c.callee == fn {
				names := []string{fn.Name()}
				for p := cur; p != nil; p = prev[p] {
					names = append(names, p.Name())
				}
				slices.Reverse(names)
				return strings.Join(names, " → ")
			}
			if _, seen := prev[c.callee]; !seen {
				prev[c.callee] = cur
				queue = append(queue, c.callee)
			}
		}
	}
	names := []string{fn.Name()}
	for cur := fn; len(names) < 3; {
		next := cur
		for _, c := range h.calls[cur] {
			if h.comp[c.callee] == h.comp[fn] && c.callee != cur {
				next = c.callee
				break
			}
		}
		if next == cur {
			break
		}
		names = append(names, next.Name())
		cur = next
	}
	return fmt.Sprintf("%s → … (a call cycle of %d functions)", strings.Join(names, " → "), h.compSize[h.comp[fn]])
}

// stronglyConnected numbers the strongly connected components of the call
// graph (Tarjan's algorithm, linear) and counts the functions of each.
func stronglyConnected(funcs []*types.Func, calls map[*types.Func][]call) (map[*types.Func]int, map[int]int) {
	var (
		index   = map[*types.Func]int{}
		low     = map[*types.Func]int{}
		onStack = map[*types.Func]bool{}
		stack   []*types.Func
		comp    = map[*types.Func]int{}
		next    int
		visit   func(fn *types.Func)
	)
	visit = func(fn *types.Func) {
		index[fn], low[fn] = next, next
		next++
		stack = append(stack, fn)
		onStack[fn] = true
		for _, c := range calls[fn] {
			if _, seen := index[c.callee]; !seen {
				visit(c.callee)
				low[fn] = min(low[fn], low[c.callee])
			} else if onStack[c.callee] {
				low[fn] = min(low[fn], index[c.callee])
			}
		}
		if low[fn] == index[fn] {
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top] = false
				comp[top] = index[fn]
				if top == fn {
					break
				}
			}
		}
	}
	for _, fn := range funcs {
		if _, seen := index[fn]; !seen {
			visit(fn)
		}
	}
	size := map[int]int{}
	for _, c := range comp {
		size[c]++
	}
	return comp, size
}

// enclosingLoop returns the innermost for or range loop whose body (or
// condition or post statement) holds cur. It stops at a function literal
// unless crossFuncLit, and always at the function declaration.
func enclosingLoop(cur inspector.Cursor, crossFuncLit bool) (inspector.Cursor, bool) {
	for c := cur; c.Valid(); c = c.Parent() {
		parent := c.Parent()
		if !parent.Valid() {
			break
		}
		switch n := parent.Node().(type) {
		case *ast.FuncDecl:
			return inspector.Cursor{}, false
		case *ast.FuncLit:
			if !crossFuncLit {
				return inspector.Cursor{}, false
			}
		case *ast.ForStmt:
			if c.Node() == n.Body || c.Node() == n.Cond || c.Node() == n.Post {
				return parent, true
			}
		case *ast.RangeStmt:
			if c.Node() == n.Body {
				return parent, true
			}
		}
	}
	return inspector.Cursor{}, false
}
