package values

// The values of a local variable that meet where branches join.

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// Joined reports whether the identifiers at assigns, each of which assigns
// the local variable v of fn and which are in source order, give v values
// that meet where branches join, one value chosen among them: between two
// of them nothing reads v but in the earlier one's branch, which the later
// one is not in (switch { case a: h = x(); case b: h = y() }; h := x(); if
// c { h = y() }). Two assignments with a read between them in the code
// that runs both are two values (h := x(); use(h); h = y()).
func (x *Index) Joined(fn inspector.Cursor, v *types.Var, assigns []inspector.Cursor) bool {
	if len(assigns) < 2 {
		return false
	}
	for i := 1; i < len(assigns); i++ {
		a, b := assigns[i-1], assigns[i]
		// The largest block or clause around a that b is not in: a's
		// branch, where a's value may be read.
		var branch inspector.Cursor
		for cur := range a.Enclosing((*ast.BlockStmt)(nil), (*ast.CaseClause)(nil), (*ast.CommClause)(nil)) {
			if cur.Contains(b) {
				break
			}
			branch = cur
		}
		for use := range x.Uses(fn, v) {
			if use.Node().Pos() <= a.Node().Pos() || use.Node().Pos() >= b.Node().Pos() {
				continue
			}
			if !branch.Valid() || !branch.Contains(use) {
				return false
			}
		}
	}
	return true
}

// Join returns the statement whose branches choose among the values of the
// assignments at assigns (see Joined): the innermost if, switch or select
// around all of them, else around all but the first (h := x(); if c { h =
// y() }).
func Join(assigns []inspector.Cursor) (inspector.Cursor, bool) {
	for _, set := range [][]inspector.Cursor{assigns, assigns[1:]} {
		if len(set) == 0 {
			break
		}
	outer:
		for cur := range set[0].Enclosing((*ast.IfStmt)(nil), (*ast.SwitchStmt)(nil), (*ast.TypeSwitchStmt)(nil), (*ast.SelectStmt)(nil), (*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
			switch cur.Node().(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				break outer
			}
			for _, a := range set[1:] {
				if !cur.Contains(a) {
					continue outer
				}
			}
			return cur, true
		}
	}
	return inspector.Cursor{}, false
}
