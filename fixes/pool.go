package fixes

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// RuntimeModule is the module of the packages that rewritten code imports.
const RuntimeModule = "github.com/hashalloc/hashalloc/runtime"

// RuntimeGo is the oldest Go version the runtime module supports: its go.mod's
// go line (checked by a test).
const RuntimeGo = "go1.21"

// RuntimePool is the package of pooled hashers that rewritten code imports.
const RuntimePool = RuntimeModule + "/hashpool"

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
	// Last is the statement after which the hasher is given back; nil
	// gives it back with defer.
	Last ast.Stmt
}

// Pool takes a hasher that escapes from a pool for the duration of the call,
// instead of allocating it on every call, and gives it back right after its
// last use when the code up to there is straight-line, else with defer:
//
//	h := sha256.New()     =>   h := hashpool.SHA256.Get()
//	io.Copy(h, r)              io.Copy(h, r)
//	h.Sum(buf[:0])             h.Sum(buf[:0])
//	                           hashpool.SHA256.Put(h)
//
// or, with Inline, a sync.Pool declared in the file:
//
//	h := sha256.New()     =>   h := sha256Pool.Get().(hash.Hash)
//	                           h.Reset()
//	                           defer sha256Pool.Put(h)
//	                           ...
//	                           var sha256Pool = sync.Pool{New: func() any { return sha256.New() }}
//
// def is the h := ctor() statement; the caller has proved that h does not
// outlive the call and is not assigned again.
func Pool(f *File, def *ast.AssignStmt, spec PoolSpec) analysis.SuggestedFix {
	name := def.Lhs[0].(*ast.Ident).Name
	call := def.Rhs[0]
	get, put, reset, edits := f.poolCalls(call, name, spec)
	edits = append(edits, analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(get)})
	edits = append(edits, f.Release(def, spec.Last, put, reset)...)
	return analysis.SuggestedFix{
		Message:   "Take " + name + " from a pool of " + poolCtorName(spec) + " hashers",
		TextEdits: edits,
	}
}

// PoolArgument takes a hasher that is passed on without a variable from a
// pool, in a variable name defined right before stmt, the statement that
// evaluates call once, and gives it back right after stmt, or with defer
// when Last is nil:
//
//	return NewHash(md5.New(), ns, b)   =>   h := hashpool.MD5.Get()
//	                                        defer hashpool.MD5.Put(h)
//	                                        return NewHash(h, ns, b)
//
// The caller has proved that the callee does not keep the hasher and that
// moving the constructor's call before stmt changes nothing else (a standard
// constructor has no effect but the hasher).
func PoolArgument(f *File, stmt ast.Stmt, call ast.Expr, name string, spec PoolSpec) analysis.SuggestedFix {
	get, put, reset, edits := f.poolCalls(call, name, spec)
	indent := "\n" + f.Indent(stmt.Pos())
	before := name + " := " + get
	if reset != "" {
		before += indent + reset
	}
	if spec.Last == nil {
		before += indent + "defer " + put
	} else {
		edits = append(edits, analysis.TextEdit{Pos: f.LineEnd(spec.Last.End()), End: f.LineEnd(spec.Last.End()), NewText: []byte(indent + put)})
	}
	edits = append(edits,
		analysis.TextEdit{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(before + indent)},
		analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(name)})
	return analysis.SuggestedFix{
		Message:   "Take the hasher passed on from a pool of " + poolCtorName(spec) + " hashers",
		TextEdits: edits,
	}
}

// poolCtorName names spec's constructor as its package's callers do, as
// sha256.New.
func poolCtorName(spec PoolSpec) string {
	ctorPath, ctorFunc := splitFunc(spec.Ctor)
	return pathName(ctorPath) + "." + ctorFunc
}

// poolCalls returns the expression that takes a hasher of spec's pool in
// place of call, the statement that gives the hasher name back, the one that
// resets it after Get (if any), and the edits they need: imports, and the
// pool's declaration when Inline.
func (f *File) poolCalls(call ast.Expr, name string, spec PoolSpec) (get, put, reset string, edits []analysis.TextEdit) {
	ctorPath, ctorFunc := splitFunc(spec.Ctor)
	im := f.Imports(call.Pos())

	assert := ""
	if !isHashHash(spec.Result) || spec.Inline {
		assert = ".(" + f.TypeText(spec.Result, im) + ")"
	}

	if spec.Inline {
		pkg := im.Name(ctorPath, pathName(ctorPath))
		syncName := im.Name("sync", "sync")
		newFunc := "func() " + f.AnyType() + " { return " + pkg + "." + ctorFunc + "() }"
		poolVar, declare := f.Names.Declare(f, strings.ToLower(spec.Var)+"Pool", func(obj types.Object) bool {
			value, ok := f.varValue(obj)
			return ok && value == syncName+".Pool{New: "+newFunc+"}"
		})
		get = poolVar + ".Get()" + assert
		put = poolVar + ".Put(" + name + ")"
		reset = name + ".Reset()"
		if declare {
			decl := fmt.Sprintf("\n// %s reuses %s hashers.\nvar %s = %s.Pool{New: %s}\n",
				poolVar, pkg+"."+ctorFunc, poolVar, syncName, newFunc)
			edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
		}
	} else {
		hp := im.Name(RuntimePool, "hashpool")
		get = hp + "." + spec.Var + ".Get()" + assert
		put = hp + "." + spec.Var + ".Put(" + name + ")"
		if path, ok := f.qualifier(call); ok {
			im.Drop(path, call)
		}
	}
	return get, put, reset, append(edits, im.Edits()...)
}

// Release returns the edits that run reset (if any) right after def and give
// the pooled value back with put: right after the statement last, or
// deferred right after def when last is nil.
func (f *File) Release(def, last ast.Stmt, put, reset string) []analysis.TextEdit {
	indent := "\n" + f.Indent(def.Pos())
	after := ""
	if reset != "" {
		after = indent + reset
	}
	if last == nil {
		after = indent + "defer " + put + after
		return []analysis.TextEdit{{Pos: f.LineEnd(def.End()), End: f.LineEnd(def.End()), NewText: []byte(after)}}
	}
	edits := []analysis.TextEdit{{Pos: f.LineEnd(last.End()), End: f.LineEnd(last.End()), NewText: []byte(indent + put)}}
	if after != "" {
		edits = append(edits, analysis.TextEdit{Pos: f.LineEnd(def.End()), End: f.LineEnd(def.End()), NewText: []byte(after)})
	}
	return edits
}

// varValue returns the text of the value that declares the package-level
// variable obj, when it is declared alone in this file.
func (f *File) varValue(obj types.Object) (string, bool) {
	if _, ok := obj.(*types.Var); !ok || obj.Pos() < f.AST.FileStart || obj.Pos() > f.AST.FileEnd {
		return "", false
	}
	if gen, ok := f.DeclAt(obj.Pos()).(*ast.GenDecl); ok {
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
// leftmost name of e, as crypto in crypto.SHA256.New(), or that a dot import
// brings that name in from, as crypto/md5 in Sum(b).
func (f *File) qualifier(e ast.Expr) (string, bool) {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			e = x.Fun
		case *ast.SelectorExpr:
			e = x.X
		case *ast.Ident:
			switch obj := f.Info.Uses[x].(type) {
			case *types.PkgName:
				return obj.Imported().Path(), true
			case nil:
			default:
				if obj.Pkg() != nil && obj.Pkg() != f.Pkg && obj.Parent() == obj.Pkg().Scope() {
					return obj.Pkg().Path(), true // dot-imported
				}
			}
			return "", false
		default:
			return "", false
		}
	}
}
