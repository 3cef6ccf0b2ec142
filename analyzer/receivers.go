package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"

	"github.com/hashalloc/hashalloc/fixes"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
)

// Value receivers. A keyed pool held next to a key must live as long as the
// value that holds the key; in a method with a value receiver the receiver
// is a copy, and a pool in it would be lost after each call. cristalhq/jwt's
// signer (seed 003) is such a type:
//
//	type hsAlg struct{ alg Algorithm; hash crypto.Hash; key []byte }
//	func NewSignerHS(...) (Signer, error) { return &hsAlg{...}, nil }
//	func (h hsAlg) sign(payload []byte) ([]byte, error) { hmac.New(h.hash.New, h.key) ... }
//
// Every value of the type is made by &hsAlg{...} and reaches its methods
// through the pointer: with pointer receivers, the methods see the value
// itself, and the pool is kept with the key. pointerReceivers proves that
// and makes the change; the fix is then type-checked with the package like
// every other.

// pointerReceivers returns the edits that give every method of named with
// a value receiver a pointer receiver, or why that could change the
// program: named is exported (code outside the package may hold its
// values), a value of it is made other than by &T{...} or is copied (a
// variable, a field, a dereference, a composite literal element), a method
// uses its receiver other than through a selector, or a method is declared
// in another file than f.
func (p *pass) pointerReceivers(f *fixes.File, named *types.Named) ([]analysis.TextEdit, string) {
	name := named.Obj().Name()
	if named.Obj().Exported() {
		return nil, name + " is exported: code outside the package may hold " + name + " values"
	}
	tf := f.Fset.File(f.AST.FileStart)
	var edits []analysis.TextEdit
	receivers := map[types.Object]bool{}
	for m := range named.Methods() {
		cur, ok := p.decl(m)
		if !ok {
			return nil, "the method " + m.Name() + " of " + name + " is not declared in the package's files"
		}
		decl := cur.Node().(*ast.FuncDecl)
		field := decl.Recv.List[0]
		if _, ptr := field.Type.(*ast.StarExpr); ptr {
			continue
		}
		if p.Fset.File(decl.Pos()) != tf {
			return nil, "the method " + m.Name() + " of " + name + " is declared in another file"
		}
		if len(field.Names) == 1 {
			recv := p.TypesInfo.Defs[field.Names[0]]
			receivers[recv] = true
			for use := range p.vals.Uses(cur, recv) {
				if use.ParentEdgeKind() != edge.SelectorExpr_X {
					return nil, m.Name() + " uses its receiver " + recv.Name() + " as a value at " + p.position(use.Node().Pos())
				}
			}
		}
		edits = append(edits, analysis.TextEdit{Pos: field.Type.Pos(), End: field.Type.Pos(), NewText: []byte("*")})
	}
	if why := p.copiedValue(named, receivers); why != "" {
		return nil, why
	}
	return edits, ""
}

// copiedValue says where a value of named, in the package's files or its
// tests, is made other than by &T{...} or is copied (a variable, a field, a
// dereference, a composite literal element), other than as the receivers
// (checked by the caller), or returns "".
func (p *pass) copiedValue(named *types.Named, receivers map[types.Object]bool) string {
	name := named.Obj().Name()
	for cur := range p.prod.Preorder() { // the tests are read by their syntax below, in both variants of the package
		e, ok := cur.Node().(ast.Expr)
		if !ok {
			continue
		}
		tv, ok := p.TypesInfo.Types[e]
		if !ok || tv.IsType() || !types.Identical(tv.Type, named) {
			continue
		}
		if id, ok := e.(*ast.Ident); ok && receivers[p.TypesInfo.Uses[id]] {
			continue // checked above: a selector's base
		}
		if _, ok := e.(*ast.CompositeLit); ok && cur.ParentEdgeKind() == edge.UnaryExpr_X && cur.Parent().Node().(*ast.UnaryExpr).Op == token.AND {
			continue // &T{...}
		}
		return "a " + name + " value at " + p.position(e.Pos()) + " is not reached through a pointer"
	}
	if at := p.valueInTests(named); at != "" {
		return "a " + name + " value in " + at + " is not reached through a pointer"
	}
	return ""
}

// valueInTests returns where a test file of the package's directory uses
// named other than as &T{...} or *T, by syntax, or "".
func (p *pass) valueInTests(named *types.Named) string {
	name := named.Obj().Name()
	fset, files := p.testFiles()
	for _, f := range files {
		if f.Name.Name != named.Obj().Pkg().Name() {
			continue
		}
		ok := map[ast.Node]bool{} // the uses that are fine
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.StarExpr:
				ok[n.X] = true
			case *ast.UnaryExpr:
				if lit, isLit := n.X.(*ast.CompositeLit); isLit && n.Op == token.AND {
					ok[lit.Type] = true
				}
			}
			return true
		})
		found := ""
		ast.Inspect(f, func(n ast.Node) bool {
			if id, isID := n.(*ast.Ident); isID && id.Name == name && !ok[id] && found == "" {
				found = testPos(fset, id.Pos())
			}
			return found == ""
		})
		if found != "" {
			return found
		}
	}
	return ""
}

// testPos spells a position of a test file that testFiles yields:
// "x_test.go:12".
func testPos(fset *token.FileSet, pos token.Pos) string {
	posn := fset.Position(pos)
	return filepath.Base(posn.Filename) + ":" + strconv.Itoa(posn.Line)
}
