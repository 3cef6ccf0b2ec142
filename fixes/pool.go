package fixes

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// RuntimePool is the package of pooled hashers that rewritten code imports.
const RuntimePool = "github.com/hashalloc/hashalloc/runtime/hashpool"

// PoolSpec says which pool serves a constructor.
type PoolSpec struct {
	// Var is the hashpool variable, e.g. "SHA256".
	Var string
	// Ctor is the standard constructor, as "importpath.Func".
	Ctor string
	// Result is the constructor's result type; the pooled hasher is asserted
	// to it when it is not hash.Hash.
	Result types.Type
	// Inline declares a package-level sync.Pool in the file instead of
	// importing the runtime pools.
	Inline bool
}

// Pool takes a hasher that escapes from a pool for the duration of the call,
// instead of allocating it on every call:
//
//	h := sha256.New()     =>   h := hashpool.SHA256.Get()
//	                           defer hashpool.SHA256.Put(h)
//
// or, with Inline:
//
//	h := sha256.New()     =>   h := sha256Pool.Get().(hash.Hash)
//	                           defer sha256Pool.Put(h)
//	                           h.Reset()
//	                           ...
//	                           var sha256Pool = sync.Pool{New: func() any { return sha256.New() }}
//
// def is the h := ctor() statement; the caller has proved that h does not
// outlive the call and is not assigned again.
func Pool(f *File, def *ast.AssignStmt, spec PoolSpec) analysis.SuggestedFix {
	name := def.Lhs[0].(*ast.Ident).Name
	call := def.Rhs[0]
	indent := f.Indent(def.Pos())
	ctorPath, ctorFunc := splitFunc(spec.Ctor)
	var edits []analysis.TextEdit

	assert := ""
	isHash := isHashHash(spec.Result)
	if !isHash || spec.Inline {
		text, e := f.TypeText(spec.Result)
		edits = append(edits, e...)
		assert = ".(" + text + ")"
	}

	var get, put, after string
	if spec.Inline {
		pkg, e := f.AddImport(ctorPath, pathName(ctorPath))
		edits = append(edits, e...)
		syncName, e := f.AddImport("sync", "sync")
		edits = append(edits, e...)
		poolVar := f.poolVarName(strings.ToLower(spec.Var)+"Pool", syncName, "return "+pkg+"."+ctorFunc+"()")
		get = poolVar + ".Get()" + assert
		put = poolVar + ".Put(" + name + ")"
		after = "\n" + indent + name + ".Reset()"
		if f.Pkg.Scope().Lookup(poolVar) == nil {
			decl := fmt.Sprintf("\n// %s reuses %s hashers.\nvar %s = %s.Pool{New: func() any { return %s.%s() }}\n",
				poolVar, pkg+"."+ctorFunc, poolVar, syncName, pkg, ctorFunc)
			edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
		}
	} else {
		hp, e := f.AddImport(RuntimePool, "hashpool")
		edits = append(edits, e...)
		get = hp + "." + spec.Var + ".Get()" + assert
		put = hp + "." + spec.Var + ".Put(" + name + ")"
		if path, ok := f.qualifier(call); ok {
			edits = append(edits, f.RemoveImport(path, call)...)
		}
	}
	edits = append(edits,
		analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(get)},
		analysis.TextEdit{Pos: f.LineEnd(def.End()), End: f.LineEnd(def.End()), NewText: []byte("\n" + indent + "defer " + put + after)},
	)
	return analysis.SuggestedFix{
		Message:   "Take " + name + " from a pool of " + pathName(ctorPath) + "." + ctorFunc + " hashers",
		TextEdits: edits,
	}
}

// poolVarName returns the name of a package-level sync.Pool variable: want
// when it is free or already declares, in this file, a pool whose New
// function contains newText; else a numbered variant.
func (f *File) poolVarName(want, syncName, newText string) string {
	name := want
	for i := 2; ; i++ {
		obj := f.Pkg.Scope().Lookup(name)
		if obj == nil {
			return name
		}
		if value, ok := f.varValue(obj); ok && strings.HasPrefix(value, syncName+".Pool{") && strings.Contains(value, newText) {
			return name
		}
		name = fmt.Sprintf("%s%d", want, i)
	}
}

// varValue returns the text of the value that declares the package-level
// variable obj in this file.
func (f *File) varValue(obj types.Object) (string, bool) {
	if obj.Pos() < f.AST.FileStart || obj.Pos() > f.AST.FileEnd {
		return "", false
	}
	for _, decl := range f.AST.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range gen.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if ok && len(vs.Names) == 1 && vs.Names[0].Pos() == obj.Pos() && len(vs.Values) == 1 {
				return f.Text(vs.Values[0]), true
			}
		}
	}
	return "", false
}

// isHashHash reports whether t is hash.Hash.
func isHashHash(t types.Type) bool {
	named, ok := t.(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "hash" && named.Obj().Name() == "Hash"
}

// splitFunc splits "importpath.Func".
func splitFunc(qualified string) (path, name string) {
	dot := strings.LastIndex(qualified, ".")
	return qualified[:dot], qualified[dot+1:]
}

// qualifier returns the import path of the package that qualifies the
// leftmost name of e, as crypto in crypto.SHA256.New().
func (f *File) qualifier(e ast.Expr) (string, bool) {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			e = x.Fun
		case *ast.SelectorExpr:
			e = x.X
		case *ast.Ident:
			if pkg, ok := f.Info.Uses[x].(*types.PkgName); ok {
				return pkg.Imported().Path(), true
			}
			return "", false
		default:
			return "", false
		}
	}
}
