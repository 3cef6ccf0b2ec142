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

	// Hash, when set, is the text of a crypto.Hash expression that is not a
	// constant, whose New the pool replaces (Var and Ctor are then empty):
	// a pool per crypto.Hash value serves it (see hashPools).
	Hash string
	// Args are the texts of the constructor's arguments, valid at package
	// level, when no runtime pool serves it (Var is empty): the file then
	// declares a pool of the hashers that Ctor(Args...) makes. Err is set
	// when the constructor also returns an error, which the caller has
	// proved nil for these arguments.
	Args []string
	Err  bool

	// Wrapper, when set, is the text of a call without arguments of a
	// constructor wrapper, valid at package level, whose hashers a pool
	// of the file named Name holds (Var and Ctor are then empty). Field is
	// the name of the field of the struct the wrapper returns that embeds
	// the hasher, of type FieldType, when it returns one: the pool holds
	// the field's hasher, and Get builds the struct around it.
	Wrapper, Name, Field string
	FieldType            types.Type
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
	if spec.Hash != "" {
		return f.hashPool(def, spec, f.Imports(call.Pos()))
	}
	get, put, reset, edits := f.poolCalls(call, name, spec)
	edits = append(edits, getEdit(def, get))
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
// sha256.New, or its wrapper as the call does.
func poolCtorName(spec PoolSpec) string {
	if spec.Wrapper != "" {
		return strings.TrimSuffix(spec.Wrapper, "()")
	}
	ctorPath, ctorFunc := splitFunc(spec.Ctor)
	return pathName(ctorPath) + "." + ctorFunc
}

// poolCalls returns the expression that takes a hasher of spec's pool in
// place of call, the statement that gives the hasher name back, the one that
// resets it after Get (if any), and the edits they need: imports, and the
// pool's declaration when Inline.
func (f *File) poolCalls(call ast.Expr, name string, spec PoolSpec) (get, put, reset string, edits []analysis.TextEdit) {
	im := f.Imports(call.Pos())

	assert := ""
	if !isHashHash(spec.Result) || spec.Inline {
		assert = ".(" + f.TypeText(spec.Result, im) + ")"
	}

	if spec.Wrapper != "" {
		var decl string
		get, put, reset, decl = f.wrapperPool(spec, name, im)
		if decl != "" {
			edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
		}
	} else if spec.Var == "" {
		var decl string
		get, put, reset, decl = f.filePool(spec, name, im)
		get += assert
		if decl != "" {
			edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
		}
	} else if spec.Inline {
		ctorPath, ctorFunc := splitFunc(spec.Ctor)
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
			decl := "\n" + docComment(fmt.Sprintf("%s reuses %s hashers.", poolVar, pkg+"."+ctorFunc)) +
				fmt.Sprintf("var %s = %s.Pool{New: %s}\n", poolVar, syncName, newFunc)
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

// getEdit replaces the constructor call that def makes the hasher with by
// get, a blank error beside the hasher with nothing, and a named one by nil
// (the caller proved the constructor's error nil):
//
//	h, _ := blake2b.New256(nil)     =>   h := blake2bNew256Pool.Get()
//	h, err := blake2b.New256(nil)   =>   h, err := blake2bNew256Pool.Get(), error(nil)
func getEdit(def *ast.AssignStmt, get string) analysis.TextEdit {
	if len(def.Lhs) == 2 && def.Lhs[1].(*ast.Ident).Name != "_" {
		get += ", error(nil)"
	} else if len(def.Lhs) == 2 {
		return analysis.TextEdit{Pos: def.Lhs[0].End(), End: def.Rhs[0].End(), NewText: []byte(" := " + get)}
	}
	return analysis.TextEdit{Pos: def.Rhs[0].Pos(), End: def.Rhs[0].End(), NewText: []byte(get)}
}

// filePool declares in the file a pool of the hashers that a constructor of
// no runtime pool makes from constant arguments, whose Reset restores the
// state the constructor made (it returns the texts of the Get, of the Put
// of the hasher name, of the Reset after Get, "" when Put resets, and of
// the declaration, "" when it exists):
//
//	h, _ := blake2b.New256(nil)   =>   h := blake2bNew256Pool.Get()
//	                                   defer blake2bNew256Pool.Put(h)
//	                                   ...
//	                                   var blake2bNew256Pool = hashpool.New(func() hash.Hash { h, _ := blake2b.New256(nil); return h })
//
// or, with Inline, a sync.Pool whose hashers are Reset after Get:
//
//	var blake2bNew256Pool = sync.Pool{New: func() any { h, _ := blake2b.New256(nil); return h }}
func (f *File) filePool(spec PoolSpec, name string, im *Imports) (get, put, reset, decl string) {
	ctorPath, ctorFunc := splitFunc(spec.Ctor)
	pkg := im.Name(ctorPath, pathName(ctorPath))
	ctorCall := pkg + "." + ctorFunc + "(" + strings.Join(spec.Args, ", ") + ")"
	body := "return " + ctorCall
	if spec.Err {
		body = "h, _ := " + ctorCall + "; return h" // the caller proved the error nil
	}
	var value string
	if spec.Inline {
		value = im.Name("sync", "sync") + ".Pool{New: func() " + f.AnyType() + " { " + body + " }}"
		reset = name + ".Reset()"
	} else {
		value = im.Name(RuntimePool, "hashpool") + ".New(func() " + im.Name("hash", "hash") + ".Hash { " + body + " })"
	}
	want := pathName(ctorPath) + ctorFunc + "Pool"
	poolVar, declare := f.Names.Declare(f, want, func(obj types.Object) bool {
		v, ok := f.varValue(obj)
		return ok && v == value
	})
	if declare {
		decl = "\n" + docComment(fmt.Sprintf("%s reuses the hashers that %s makes: Reset restores each to the state the call makes it in.", poolVar, ctorCall)) +
			fmt.Sprintf("var %s = %s\n", poolVar, value)
	}
	return poolVar + ".Get()", poolVar + ".Put(" + name + ")", reset, decl
}

// wrapperPool declares in the file a pool of the hashers that a constructor
// wrapper returns when called without arguments, whose Reset restores the
// state it returns them in (it returns what filePool does). A wrapper that
// returns its hasher in a struct of one field that embeds it is pooled by
// that field, and Get builds the struct around the pooled hasher:
//
//	w := hashes.NewMerkleBranchHashWriter()   =>   w := hashes.HashWriter{Hash: newMerkleBranchHashWriterPool.Get()}
//	                                               defer newMerkleBranchHashWriterPool.Put(w.Hash)
//	                                               ...
//	                                               var newMerkleBranchHashWriterPool = hashpool.New(func() hash.Hash { return hashes.NewMerkleBranchHashWriter().Hash })
//
// or, with Inline, a sync.Pool whose hashers are Reset after Get.
func (f *File) wrapperPool(spec PoolSpec, name string, im *Imports) (get, put, reset, decl string) {
	body := "return " + spec.Wrapper
	pooled, held := spec.Result, name
	if spec.Field != "" {
		body += "." + spec.Field
		pooled, held = spec.FieldType, name+"."+spec.Field
	}
	var value, assert string
	if spec.Inline {
		value = im.Name("sync", "sync") + ".Pool{New: func() " + f.AnyType() + " { " + body + " }}"
		assert = ".(" + f.TypeText(pooled, im) + ")"
		reset = name + ".Reset()"
	} else {
		value = im.Name(RuntimePool, "hashpool") + ".New(func() " + im.Name("hash", "hash") + ".Hash { " + body + " })"
		if !isHashHash(pooled) {
			assert = ".(" + f.TypeText(pooled, im) + ")"
		}
	}
	poolVar, declare := f.Names.Declare(f, spec.Name, func(obj types.Object) bool {
		v, ok := f.varValue(obj)
		return ok && v == value
	})
	if declare {
		decl = "\n" + docComment(fmt.Sprintf("%s reuses the hashers that %s returns: Reset restores each to the state the call returns it in.", poolVar, spec.Wrapper)) +
			fmt.Sprintf("var %s = %s\n", poolVar, value)
	}
	get = poolVar + ".Get()" + assert
	if spec.Field != "" {
		get = f.TypeText(spec.Result, im) + "{" + spec.Field + ": " + get + "}"
	}
	return get, poolVar + ".Put(" + held + ")", reset, decl
}

// hashPool takes the hasher of a crypto.Hash that is not a constant from a
// pool of that hash's hashers:
//
//	h := t.New()   =>   h := hashpool.ForHash(t).Get()
//	                    defer hashpool.ForHash(t).Put(h)
//
// or, with Inline, from an array of pools declared in the file with the
// function that takes from it:
//
//	h := t.New()   =>   h := pooledHash(t)
//	                    defer pooledHashes[t].Put(h)
//	                    ...
//	                    var pooledHashes [crypto.BLAKE2b_512 + 1]sync.Pool
//	                    func pooledHash(h crypto.Hash) hash.Hash { ...Get, Reset, or h.New() }
//
// Every hash of package crypto is below crypto.BLAKE2b_512 + 1 (the last
// that crypto.RegisterHash accepts): for any other value h.New() panics, as
// without a pool, so that the Put is never reached.
func (f *File) hashPool(def *ast.AssignStmt, spec PoolSpec, im *Imports) analysis.SuggestedFix {
	name := def.Lhs[0].(*ast.Ident).Name
	var get, put, reset string
	var edits []analysis.TextEdit
	if spec.Inline {
		crypto, hash, sync := im.Name("crypto", "crypto"), im.Name("hash", "hash"), im.Name("sync", "sync")
		arrayType := "[" + crypto + ".BLAKE2b_512 + 1]" + sync + ".Pool"
		sig := "(h " + crypto + ".Hash) " + hash + ".Hash"
		fn, declare := f.Names.Declare(f, "pooledHash", isHashPoolFunc, "es")
		pools := sibling("pooledHash", fn, "es")
		get = fn + "(" + spec.Hash + ")"
		put = pools + "[" + spec.Hash + "].Put(" + name + ")"
		if declare {
			decl := fmt.Sprintf(`
// %[6]s holds the hashers of each crypto.Hash, by its value.
var %[6]s %[2]s

// %[1]s returns a hasher of h, reset, from %[6]s, or h.New().
func %[1]s%[3]s {
	if h < %[4]s.Hash(len(%[6]s)) {
		if x, ok := %[6]s[h].Get().(%[5]s.Hash); ok {
			x.Reset()
			return x
		}
	}
	return h.New()
}
`, fn, arrayType, sig, crypto, hash, pools)
			decl = refill(decl)
			edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
		}
	} else {
		pool := im.Name(RuntimePool, "hashpool") + ".ForHash(" + spec.Hash + ")"
		get, put = pool+".Get()", pool+".Put("+name+")"
	}
	edits = append(edits, im.Edits()...)
	edits = append(edits, getEdit(def, get))
	edits = append(edits, f.Release(def, spec.Last, put, reset)...)
	return analysis.SuggestedFix{
		Message:   "Take " + name + " from a pool of the hashers of " + spec.Hash,
		TextEdits: edits,
	}
}

// isHashPoolFunc reports whether obj is the function that hashPool
// declares, func(crypto.Hash) hash.Hash, beside its array of sync.Pool
// (pooledHashes beside pooledHash, pooledHashesWeburl beside
// pooledHashWeburl).
func isHashPoolFunc(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok || obj.Pkg() == nil {
		return false
	}
	sig := fn.Signature()
	if sig.Params().Len() != 1 || sig.Results().Len() != 1 || !isNamedType(sig.Params().At(0).Type(), "crypto", "Hash") || !isHashHash(sig.Results().At(0).Type()) {
		return false
	}
	array, ok := obj.Pkg().Scope().Lookup(sibling("pooledHash", obj.Name(), "es")).(*types.Var)
	if !ok {
		return false
	}
	a, ok := array.Type().(*types.Array)
	return ok && isNamedType(a.Elem(), "sync", "Pool")
}

// isNamedType reports whether t is the type name of package path.
func isNamedType(t types.Type, path, name string) bool {
	named, ok := t.(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == path && named.Obj().Name() == name
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
func isHashHash(t types.Type) bool { return isNamedType(t, "hash", "Hash") }

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

// FieldPoolSpec says where FieldPool keeps the pool beside a function value
// held in a field.
type FieldPoolSpec struct {
	// Func is the function value as the call reads it: n.Tree.hashStrategy.
	Func string
	// Field is the name of the field that holds the pool, added to Struct;
	// Pool reads it as the call does: n.Tree.hashStrategyPool.
	Field, Pool string
	Struct      *ast.StructType
	// Last is the statement after which the hasher is given back; nil
	// gives it back with defer.
	Last ast.Stmt
}

// FieldPool takes the hasher that a function value held in a field makes
// from a sync.Pool kept in a new field beside it, whose zero value is
// ready: a function declared in the file takes a hasher from the pool and
// resets it, or calls the function value when the pool is empty.
//
//	h := n.Tree.hashStrategy()   =>   h := pooledHasher(&n.Tree.hashStrategyPool, n.Tree.hashStrategy)
//	                                  defer n.Tree.hashStrategyPool.Put(h)
//	                                  ...
//	                                  type MerkleTree struct { ...; hashStrategyPool sync.Pool }
//
//	                                  // pooledHasher returns a hasher of pool, reset, or newHash().
//	                                  func pooledHasher(pool *sync.Pool, newHash func() hash.Hash) hash.Hash { ... }
//
// The same code serves both pool modes: the runtime module has no pool whose
// hashers come from a function value given at Get. The caller has proved
// that the field is only set when its struct is built, that the struct is
// never copied, and that the hasher does not outlive the call.
func FieldPool(f *File, def *ast.AssignStmt, spec FieldPoolSpec) analysis.SuggestedFix {
	name := def.Lhs[0].(*ast.Ident).Name
	im := f.Imports(def.Pos())
	syncName, hashName := im.Name("sync", "sync"), im.Name("hash", "hash")
	fn, declare := f.Names.Declare(f, "pooledHasher", isPooledHasherFunc)
	edits := []analysis.TextEdit{f.AddField(spec.Struct, spec.Field+" "+syncName+".Pool")}
	if declare {
		decl := "\n" + docComment(fn+" returns a hasher of pool, reset, or newHash() when pool is empty.") + fmt.Sprintf(`func %[1]s(pool *%[2]s.Pool, newHash func() %[3]s.Hash) %[3]s.Hash {
	if h, ok := pool.Get().(%[3]s.Hash); ok {
		h.Reset()
		return h
	}
	return newHash()
}
`, fn, syncName, hashName)
		edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
	}
	edits = append(edits, im.Edits()...)
	edits = append(edits, getEdit(def, fn+"(&"+spec.Pool+", "+spec.Func+")"))
	edits = append(edits, f.Release(def, spec.Last, spec.Pool+".Put("+name+")", "")...)
	return analysis.SuggestedFix{
		Message:   "Take " + name + " from a pool kept beside " + spec.Func + " (field " + spec.Field + ")",
		TextEdits: edits,
	}
}

// isPooledHasherFunc reports whether obj is the function that FieldPool
// declares: func(*sync.Pool, func() hash.Hash) hash.Hash.
func isPooledHasherFunc(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Signature()
	if sig.Params().Len() != 2 || sig.Results().Len() != 1 || !isHashHash(sig.Results().At(0).Type()) {
		return false
	}
	pool, ok := sig.Params().At(0).Type().(*types.Pointer)
	newHash, isSig := sig.Params().At(1).Type().(*types.Signature)
	return ok && isNamedType(pool.Elem(), "sync", "Pool") && isSig && newHash.Params().Len() == 0 &&
		newHash.Results().Len() == 1 && isHashHash(newHash.Results().At(0).Type())
}
