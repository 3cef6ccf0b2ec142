package analyzer

import (
	"go/ast"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/ast/edge"
)

// fieldAddable says why a fix may not add a field to the struct type st,
// or returns "": a struct that code outside the package can build with a
// positional literal (an exported type whose fields are all exported), or
// that its own package or its tests build with one, stops compiling when it
// gains a field.
func (p *pass) fieldAddable(st *ast.StructType) string {
	named := p.namedOf(st)
	if named == nil {
		return "the struct that holds the key has no name"
	}
	name := named.Obj().Name()
	s := named.Underlying().(*types.Struct)
	if named.Obj().Exported() && s.NumFields() > 0 {
		all := true
		for i := range s.NumFields() {
			all = all && s.Field(i).Exported()
		}
		if all {
			return name + " is exported and so are all its fields: code outside the package may build it with a positional literal, which a new field would break"
		}
	}
	if at := p.positionalLiteral(named); at != "" {
		return name + " is built with a positional literal at " + at + ", which a new field would break"
	}
	return ""
}

// namedOf returns the named type that st declares at package level.
func (p *pass) namedOf(st *ast.StructType) *types.Named {
	cur, ok := p.root.FindNode(st)
	if !ok || cur.ParentEdgeKind() != edge.TypeSpec_Type || cur.Parent().Parent().ParentEdgeKind() != edge.File_Decls {
		return nil
	}
	obj, _ := p.TypesInfo.Defs[cur.Parent().Node().(*ast.TypeSpec).Name].(*types.TypeName)
	if obj == nil {
		return nil
	}
	named, _ := obj.Type().(*types.Named)
	return named
}

// positionalLiteral returns where the package, or one of its test files,
// builds named with a positional composite literal (T{a, b}), or "". The
// package's files are read with their types; its test files, which a pass
// of the package without them does not hold, by their syntax alone (T{...}
// and p.T{...} with no keys), so that a package and its test variant give
// the same verdict.
func (p *pass) positionalLiteral(named *types.Named) string {
	for _, f := range p.Files {
		if lit := firstPositional(f, func(lit *ast.CompositeLit) bool {
			t := p.TypesInfo.TypeOf(lit)
			return t != nil && types.Identical(types.Unalias(t), named)
		}); lit != nil {
			return p.position(lit.Pos())
		}
	}
	fset, files := p.outsideFiles()
	for _, f := range files {
		if !strings.HasSuffix(fset.File(f.FileStart).Name(), "_test.go") {
			continue
		}
		if lit := firstPositional(f, func(lit *ast.CompositeLit) bool {
			switch t := lit.Type.(type) {
			case *ast.Ident: // in package p's own tests
				return f.Name.Name == named.Obj().Pkg().Name() && t.Name == named.Obj().Name()
			case *ast.SelectorExpr: // in package p_test, which imports p
				return f.Name.Name != named.Obj().Pkg().Name() && t.Sel.Name == named.Obj().Name()
			}
			return false
		}); lit != nil {
			return testPos(fset, lit.Pos())
		}
	}
	return ""
}

// firstPositional returns the first composite literal of f, in preorder,
// that lists values without keys and that match accepts, or nil.
func firstPositional(f *ast.File, match func(*ast.CompositeLit) bool) *ast.CompositeLit {
	var found *ast.CompositeLit
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.CompositeLit); ok && found == nil && positional(lit) && match(lit) {
			found = lit
		}
		return found == nil
	})
	return found
}

// positional reports whether lit lists values without keys.
func positional(lit *ast.CompositeLit) bool {
	if len(lit.Elts) == 0 {
		return false
	}
	_, keyed := lit.Elts[0].(*ast.KeyValueExpr)
	return !keyed
}

// unexported spells name as an unexported identifier, as Go names it: the
// leading run of capitals lowered, the last one kept before a lower-case
// letter (APIKey: apiKey; Secret: secret; ID: id).
func unexported(name string) string {
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsUpper(r) {
		return name
	}
	runes := []rune(name)
	i := 0
	for i < len(runes) && unicode.IsUpper(runes[i]) {
		i++
	}
	if i > 1 && i < len(runes) && unicode.IsLower(runes[i]) {
		i-- // APIKey: the K starts the next word
	}
	for j := range i {
		runes[j] = unicode.ToLower(runes[j])
	}
	return string(runes)
}
