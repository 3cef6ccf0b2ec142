package analyzer

// Small questions about syntax that every check asks: what an expression
// names, whether it can be evaluated twice, which statement holds it.

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// qualifiedCallee returns "importpath.Func" for a call of a package function.
func (p *pass) qualifiedCallee(call *ast.CallExpr) string {
	if id := values.IdentOf(call.Fun); id != nil {
		if fn, ok := p.TypesInfo.Uses[id].(*types.Func); ok && fn.Pkg() != nil {
			return fn.Pkg().Path() + "." + fn.Name()
		}
	}
	return ""
}

// outerParens returns the outermost parentheses around the expression at
// cur, or cur.
func outerParens(cur inspector.Cursor) inspector.Cursor {
	for cur.ParentEdgeKind() == edge.ParenExpr_X {
		cur = cur.Parent()
	}
	return cur
}

// outerSlices returns the outermost slice or parentheses around the
// expression at cur (v[:n] of a byte slice v holds v's bytes), or cur.
func outerSlices(cur inspector.Cursor) inspector.Cursor {
	for cur.ParentEdgeKind() == edge.SliceExpr_X || cur.ParentEdgeKind() == edge.ParenExpr_X {
		cur = cur.Parent()
	}
	return cur
}

// returnedCall returns the call f(...) when body is only "return f(...)", or
// nil.
func returnedCall(body *ast.BlockStmt) *ast.CallExpr {
	if body == nil || len(body.List) != 1 {
		return nil
	}
	call, _ := ast.Unparen(onlyResult(body.List[0])).(*ast.CallExpr)
	return call
}

// onlyResult returns x when s is "return x", or nil.
func onlyResult(s ast.Stmt) ast.Expr {
	if ret, ok := s.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
		return ret.Results[0]
	}
	return nil
}

// insideFuncLit reports whether a function literal below top holds cur.
func insideFuncLit(cur, top inspector.Cursor) bool {
	if cur == top {
		return false
	}
	for c := cur.Parent(); c != top; c = c.Parent() {
		if _, ok := c.Node().(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}

// rootIdent returns the variable a selector chain starts from: s in s.cfg.key.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

// isField reports whether obj is a struct field.
func isField(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && v.IsField()
}

// fieldOrMethod reports whether t has a field or method called name; a nil
// t (the receiver of a function that has none) has neither.
func fieldOrMethod(t types.Type, name string) bool {
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	return obj != nil
}

// typeName spells the type that holds a field, without its package path.
func typeName(t types.Type) string {
	return types.TypeString(t, func(*types.Package) string { return "" })
}

// argsText spells a call's arguments, shortened when long.
func argsText(call *ast.CallExpr) string {
	text := ""
	for i, a := range call.Args {
		if i > 0 {
			text += ", "
		}
		text += types.ExprString(a)
	}
	if len(text) > 40 {
		return "..."
	}
	return text
}

// listStatement returns the statement of a statement list (a block or a
// case clause) that holds cur, not crossing a function literal, and the
// node whose scope is the list's: the block, the clause, or the function
// type for a function's body.
func listStatement(cur inspector.Cursor) (ast.Stmt, ast.Node, bool) {
	c, ok := listStatementCursor(cur)
	if !ok {
		return nil, nil, false
	}
	block := c.Parent()
	switch fn := block.Parent().Node().(type) {
	case *ast.FuncDecl:
		return c.Node().(ast.Stmt), fn.Type, true
	case *ast.FuncLit:
		return c.Node().(ast.Stmt), fn.Type, true
	}
	return c.Node().(ast.Stmt), block.Node(), true
}

// listStatementCursor returns the statement of a statement list that holds
// cur (a case's expression belongs before its switch), not crossing a
// function literal.
func listStatementCursor(cur inspector.Cursor) (inspector.Cursor, bool) {
	for c := cur; c.Valid(); c = c.Parent() {
		if isListEdge(c.ParentEdgeKind()) {
			switch c.Node().(type) {
			case *ast.CaseClause, *ast.CommClause:
				continue // in a case's expression: before the switch or select
			}
			return c, true
		}
		switch c.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return inspector.Cursor{}, false
		}
	}
	return inspector.Cursor{}, false
}

// isBuiltin reports whether fun names a builtin function.
func isBuiltin(info *types.Info, fun ast.Expr) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	_, builtin := info.Uses[id].(*types.Builtin)
	return builtin
}

// shorten keeps messages readable.
func shorten(s string) string {
	if len(s) > 48 {
		if i := strings.Index(s, "("); i > 0 {
			return s[:i] + "(...)"
		}
		return s[:45] + "..."
	}
	return s
}
