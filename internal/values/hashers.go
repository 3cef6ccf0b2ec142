package values

// The types of the values the checks follow: hashers, what makes them and
// what holds them.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
)

// HashInterface is the hash.Hash interface.
var HashInterface = func() *types.Interface {
	pkg := types.NewPackage("hash", "hash")
	bytes := types.NewSlice(types.Typ[types.Byte])
	sig := func(params, results []*types.Var) *types.Signature {
		return types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), types.NewTuple(results...), false)
	}
	v := func(t types.Type) *types.Var { return types.NewParam(token.NoPos, pkg, "", t) }
	return types.NewInterfaceType([]*types.Func{
		types.NewFunc(token.NoPos, pkg, "Write", sig([]*types.Var{v(bytes)}, []*types.Var{v(types.Typ[types.Int]), v(types.Universe.Lookup("error").Type())})),
		types.NewFunc(token.NoPos, pkg, "Sum", sig([]*types.Var{v(bytes)}, []*types.Var{v(bytes)})),
		types.NewFunc(token.NoPos, pkg, "Reset", sig(nil, nil)),
		types.NewFunc(token.NoPos, pkg, "Size", sig(nil, []*types.Var{v(types.Typ[types.Int])})),
		types.NewFunc(token.NoPos, pkg, "BlockSize", sig(nil, []*types.Var{v(types.Typ[types.Int])})),
	}, nil).Complete()
}()

// IsHasher reports whether a value of type t is a hash.Hash.
func IsHasher(t types.Type) bool {
	return t != nil && types.Implements(t, HashInterface)
}

// HasherLike reports whether a value of type t is a hasher, or has the
// methods of one by name: a type that embeds a hasher and gives it a Sum
// of its own (func (h Hasher) Sum() Hash).
func HasherLike(t types.Type) bool {
	if t == nil || IsHasher(t) {
		return t != nil
	}
	if _, isPtr := t.(*types.Pointer); !isPtr && !types.IsInterface(t) {
		t = types.NewPointer(t)
	}
	ms := types.NewMethodSet(t)
	return !slices.ContainsFunc([]string{"Write", "Sum", "Reset", "Size", "BlockSize"}, func(name string) bool { return ms.Lookup(nil, name) == nil })
}

// MakesHasher reports whether t is the type of a function without
// parameters whose first result is a hasher: sha256.New as a value.
func MakesHasher(t types.Type) bool {
	sig, ok := t.(*types.Signature)
	return ok && sig.Params().Len() == 0 && sig.Results().Len() > 0 && HasherLike(sig.Results().At(0).Type())
}

// HasherMethod returns the name of a method without parameters that
// yields a hasher, when t is an interface (not a hasher itself) that has
// one: a digester, made with the hasher it hands out.
func HasherMethod(t types.Type) (string, bool) {
	it, ok := types.Unalias(t).Underlying().(*types.Interface)
	if !ok || IsHasher(t) {
		return "", false
	}
	for m := range it.Methods() {
		if sig := m.Signature(); sig.Params().Len() == 0 && sig.Results().Len() > 0 && IsHasher(sig.Results().At(0).Type()) {
			return m.Name(), true
		}
	}
	return "", false
}

// FirstResult returns the type of the first result of a call of type t: t,
// or the first of a tuple (a hasher with an error).
func FirstResult(t types.Type) types.Type {
	if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
		return tuple.At(0).Type()
	}
	return t
}

// EnclosingFunc returns the innermost function declaration or literal
// around cur.
func EnclosingFunc(cur inspector.Cursor) (inspector.Cursor, bool) {
	for fn := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return fn, true
	}
	return inspector.Cursor{}, false
}

// isBuffer reports whether t is a strings.Builder or a bytes.Buffer, or a
// pointer to one: a buffer whose String or Bytes returns what it was
// filled with.
func isBuffer(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	path, name := n.Obj().Pkg().Path(), n.Obj().Name()
	return path == "strings" && name == "Builder" || path == "bytes" && name == "Buffer"
}

// IsHasherRecv reports whether a method called on an operand of type t is a
// hasher's: t is a hash.Hash, or *t is and the call takes the operand's
// address (var d digest; d.Sum(nil), with methods on *digest). Go accepts
// such a call only on an addressable operand, so the method is the
// hasher's. A package name (binary.Write) has no type: the types package
// says that a pointer to an invalid type implements every interface.
func IsHasherRecv(t types.Type) bool {
	return t != nil && t != types.Typ[types.Invalid] && (IsHasher(t) || !types.IsInterface(t) && IsHasher(types.NewPointer(t)))
}

// digestLengths are the lengths of the digests that hash functions return.
var digestLengths = map[int64]bool{16: true, 20: true, 28: true, 32: true, 48: true, 64: true}

// DigestType reports whether t is what a hash function returns: an array
// of a digest's length, or a 32- or 64-bit checksum.
func DigestType(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Array:
		return IsByte(u.Elem()) && digestLengths[u.Len()]
	case *types.Basic:
		return u.Kind() == types.Uint32 || u.Kind() == types.Uint64
	}
	return false
}

// IsByte reports whether t is byte (uint8).
func IsByte(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// IsString reports whether t's underlying type is string.
func IsString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// IsError reports whether t is the error interface.
func IsError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// IsNamed reports whether t is the named type pkg.name, or a pointer to it
// when ptr is set.
func IsNamed(t types.Type, pkg, name string, ptr bool) bool {
	t = types.Unalias(t)
	if ptr {
		p, ok := t.(*types.Pointer)
		if !ok {
			return false
		}
		t = types.Unalias(p.Elem())
	}
	named, ok := t.(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == pkg && named.Obj().Name() == name
}

// IsCryptoHash reports whether t is crypto.Hash.
func IsCryptoHash(t types.Type) bool {
	return IsNamed(t, "crypto", "Hash", false)
}

// IsBytes reports whether t is a slice or an array of bytes: []byte,
// [32]byte.
func IsBytes(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return IsByte(u.Elem())
	case *types.Array:
		return IsByte(u.Elem())
	}
	return false
}

// PointerFree reports whether a value of type t holds no pointer: a
// boolean, a number, a string, or an array or struct of those. A copy of
// it cannot change when the original does.
func PointerFree(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Array:
		return PointerFree(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if !PointerFree(u.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}
