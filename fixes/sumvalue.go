package fixes

import (
	"fmt"
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// SumValue splits a function that returns a digest through a pointer, only
// for its callers to copy what it points to, into a worker that returns the
// digest by value and the function itself, which keeps its name, signature
// and doc comment and only takes the address of the worker's result:
//
//	func computeNode(l, r *Node) *Node {          func computeNode(l, r *Node) *Node {
//		sha := sha256.New()                           n := computeNodeValue(l, r)
//		sha.Write(l[:])                               return &n
//		sha.Write(r[:])                           }
//		digest := sha.Sum(nil)             =>
//		return truncate((*Node)(digest))          // computeNodeValue returns by value ...
//	}                                             func computeNodeValue(l, r *Node) (n Node) {
//	                                                  sha := sha256.New()
//	                                                  sha.Write(l[:])
//	                                                  sha.Write(r[:])
//	                                                  sha.Sum(n[:0])
//	                                                  truncate(&n)
//	                                                  return n
//	                                              }
//
// The function, two lines, is inlined into each caller, where the result
// then stays on the stack. def is the statement digest := h.Sum(nil), or nil
// when call, the h.Sum(nil) call, is in ret, the function's last statement
// and only return; kept are the functions, innermost first, that ret passes
// the digest through and that return their argument: they are called on
// &result. The caller has proved that the hasher's Sum is devirtualized,
// that the result type points to an array of the digest's size, that worker
// is free in the package and result in the function, and that every
// parameter is named.
func SumValue(f *File, decl *ast.FuncDecl, def ast.Stmt, call *ast.CallExpr, ret *ast.ReturnStmt, kept []ast.Expr, worker, result string) analysis.SuggestedFix {
	sum := f.Text(call.Fun) + "(" + result + "[:0])"
	indent := f.Indent(ret.Pos())
	var tail strings.Builder
	if def == nil {
		tail.WriteString(sum + "\n" + indent)
	}
	for _, fn := range kept {
		tail.WriteString(f.Text(fn) + "(&" + result + ")\n" + indent)
	}
	tail.WriteString("return " + result)

	// The worker's body: the function's, with the sum into the result.
	var body strings.Builder
	at := f.offset(decl.Body.Lbrace) + 1
	if def != nil {
		body.Write(f.Src[at:f.offset(def.Pos())])
		body.WriteString(sum)
		at = f.offset(def.End())
	}
	body.Write(f.Src[at:f.offset(ret.Pos())])
	body.WriteString(tail.String())
	body.Write(f.Src[f.offset(ret.End()):f.offset(decl.Body.Rbrace)])

	var args []string
	for _, field := range decl.Type.Params.List {
		for _, name := range field.Names {
			args = append(args, name.Name)
		}
	}
	if decl.Type.Params.NumFields() > 0 {
		if _, ok := decl.Type.Params.List[len(decl.Type.Params.List)-1].Type.(*ast.Ellipsis); ok {
			args[len(args)-1] += "..."
		}
	}
	name := decl.Name.Name
	elem := f.Text(decl.Type.Results.List[0].Type.(*ast.StarExpr).X)
	doc := docComment(fmt.Sprintf("%s returns by value the digest that %s returns a pointer to: %s, inlined into its callers, keeps it on their stack.", worker, name, name))
	text := "{\n\t" + result + " := " + worker + "(" + strings.Join(args, ", ") + ")\n\treturn &" + result + "\n}\n\n" +
		doc + "func " + worker + f.Text(decl.Type.Params) + " (" + result + " " + elem + ") {" + body.String() + "}"
	return analysis.SuggestedFix{
		Message:   "Return the digest by value from " + worker + ", which " + name + " wraps",
		TextEdits: []analysis.TextEdit{{Pos: decl.Body.Lbrace, End: decl.Body.End(), NewText: []byte(text)}},
	}
}
