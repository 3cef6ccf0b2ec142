package values

// The values of a local variable that meet where branches join.

import (
	"cmp"
	"go/ast"
	"go/types"
	"slices"

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

// Choice is a value that branches choose (see Choices): the variable that
// holds it, the indices of the expressions that it is one of, in source
// order, and the statement that chooses among them, when one does.
type Choice struct {
	Var  *types.Var
	At   []int
	Join inspector.Cursor
}

// Choices groups the expressions exprs under root, of which kind says each
// one's kind (a check's category), by the value they are one of: those of
// a kind assigned, each alone, to a local variable (h := e, h = e, h, err
// := e) where branches join, so that the variable holds one of them (see
// Joined). A group of one is no choice, and is left out.
func (x *Index) Choices(root inspector.Cursor, exprs []ast.Expr, kind func(i int) string) []Choice {
	type key struct {
		kind string
		v    *types.Var
	}
	var keys []key // in the order found
	at := map[key][]int{}
	ids := map[int]inspector.Cursor{}
	for i, e := range exprs {
		cur, ok := root.FindNode(e)
		id, _ := AssignedAt(cur, true).(*ast.Ident)
		if !ok || id == nil {
			continue
		}
		v, isVar := x.info.ObjectOf(id).(*types.Var)
		idCur, found := cur.Parent().FindNode(id)
		if !isVar || !found || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
			continue
		}
		k := key{kind(i), v}
		if at[k] == nil {
			keys = append(keys, k)
		}
		at[k], ids[i] = append(at[k], i), idCur
	}
	var choices []Choice
	for _, k := range keys {
		in := at[k]
		slices.SortFunc(in, func(i, j int) int { return cmp.Compare(exprs[i].Pos(), exprs[j].Pos()) })
		assigns := make([]inspector.Cursor, len(in))
		for j, i := range in {
			assigns[j] = ids[i]
		}
		fn, ok := EnclosingFunc(assigns[0])
		if !ok || !x.Joined(fn, k.v, assigns) {
			continue
		}
		join, _ := Join(assigns)
		choices = append(choices, Choice{Var: k.v, At: in, Join: join})
	}
	return choices
}
