package analyzer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// packageIndex is what the checks look up about the package's declarations,
// gathered in one walk the first time it is needed, so that no check walks
// the whole package once per site.
type packageIndex struct {
	decls  map[*types.Func]inspector.Cursor // the declaration of each function and method
	params map[*types.Var]bool              // the parameters of every function and function literal
	values map[*types.Var]ast.Expr          // the value that declares each package variable
}

// index returns the package index, building it on first use.
func (p *pass) index() *packageIndex {
	if p.idx != nil {
		return p.idx
	}
	idx := &packageIndex{
		decls:  map[*types.Func]inspector.Cursor{},
		params: map[*types.Var]bool{},
		values: map[*types.Var]ast.Expr{},
	}
	for cur := range p.root.Preorder((*ast.FuncDecl)(nil), (*ast.FuncType)(nil), (*ast.ValueSpec)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.FuncDecl:
			if fn, ok := p.TypesInfo.Defs[n.Name].(*types.Func); ok {
				idx.decls[fn] = cur
			}
		case *ast.FuncType:
			if n.Params == nil {
				continue
			}
			for _, field := range n.Params.List {
				for _, name := range field.Names {
					if v, ok := p.TypesInfo.Defs[name].(*types.Var); ok {
						idx.params[v] = true
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Values) != len(n.Names) {
				continue
			}
			for i, name := range n.Names {
				if v, ok := p.TypesInfo.Defs[name].(*types.Var); ok && v.Parent() == p.Pkg.Scope() {
					idx.values[v] = n.Values[i]
				}
			}
		}
	}
	p.idx = idx
	return idx
}

// funcKey spells a package-level function as "importpath.Name", computed once
// per function: the checks look callees up by it at every call.
func (p *pass) funcKey(fn *types.Func) string {
	if key, ok := p.keys[fn]; ok {
		return key
	}
	if p.keys == nil {
		p.keys = map[*types.Func]string{}
	}
	key := fn.Pkg().Path() + "." + fn.Name()
	p.keys[fn] = key
	return key
}
