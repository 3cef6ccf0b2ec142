package analyzer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// decl returns the declaration of fn in the analyzed files.
func (p *pass) decl(fn *types.Func) (inspector.Cursor, bool) {
	return p.vals.Decl(p.root.Inspector(), fn)
}

// declaredValue returns the value that declares the package variable v in
// the analyzed files (var v = e), or nil.
func (p *pass) declaredValue(v *types.Var) ast.Expr {
	return p.vals.Value(p.root.Inspector(), v)
}

// funcKey spells a package-level function as "importpath.Name", as the
// tables of constructors and sums name them.
func funcKey(fn *types.Func) string {
	return fn.Pkg().Path() + "." + fn.Name()
}
