package values

import (
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestIsHasherRecv checks the receivers whose methods are a hasher's: a
// hasher, a struct whose pointer is one; not a package name's missing type,
// whose pointer the types package says implements every interface.
func TestIsHasherRecv(t *testing.T) {
	pkg := types.NewPackage("p", "p")
	digest := types.NewNamed(types.NewTypeName(0, pkg, "digest", nil), types.NewStruct(nil, nil), nil)
	for m := range HashInterface.ExplicitMethods() {
		recv := types.NewVar(0, pkg, "d", types.NewPointer(digest))
		sig := m.Signature()
		digest.AddMethod(types.NewFunc(0, pkg, m.Name(), types.NewSignatureType(recv, nil, nil, sig.Params(), sig.Results(), false)))
	}
	for _, c := range []struct {
		t    types.Type
		want bool
	}{
		{HashInterface, true},
		{types.NewPointer(digest), true},
		{digest, true}, // var d digest; d.Sum(nil)
		{types.Typ[types.Invalid], false},
		{nil, false},
		{types.Typ[types.Int], false},
	} {
		if got := IsHasherRecv(c.t); got != c.want {
			t.Errorf("IsHasherRecv(%v) = %v, want %v", c.t, got, c.want)
		}
	}
}

// TestHasherTypes checks the questions about the types of hashers, of what
// makes them and holds them, and of what hash functions return.
func TestHasherTypes(t *testing.T) {
	pkg := types.NewPackage("p", "p")
	hasher := types.NewNamed(types.NewTypeName(0, pkg, "Hasher", nil), HashInterface, nil)
	noParams := func(results ...types.Type) *types.Signature {
		var vars []*types.Var
		for _, r := range results {
			vars = append(vars, types.NewParam(0, pkg, "", r))
		}
		return types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(vars...), false)
	}
	digester := types.NewInterfaceType([]*types.Func{types.NewFunc(0, pkg, "Hash", noParams(hasher))}, nil).Complete()
	name, ok := HasherMethod(digester)
	assert.True(t, ok)
	assert.Equal(t, "Hash", name)
	_, ok = HasherMethod(HashInterface)
	assert.False(t, ok, "a hasher is no digester")
	_, ok = HasherMethod(types.Universe.Lookup("error").Type())
	assert.False(t, ok)
	assert.True(t, HasherLike(hasher))
	assert.True(t, MakesHasher(noParams(hasher)))
	assert.False(t, MakesHasher(noParams(types.Typ[types.Int])))
	assert.Equal(t, types.Type(hasher), FirstResult(types.NewTuple(types.NewParam(0, pkg, "", hasher), types.NewParam(0, pkg, "", types.Universe.Lookup("error").Type()))))
	assert.True(t, DigestType(types.NewArray(types.Typ[types.Byte], 32)))
	assert.False(t, DigestType(types.NewArray(types.Typ[types.Byte], 33)))
	assert.True(t, DigestType(types.Typ[types.Uint64]))
	assert.True(t, IsNamed(types.NewPointer(hasher), "p", "Hasher", true))
	assert.False(t, IsNamed(hasher, "p", "Hasher", true))
	assert.True(t, IsString(types.Typ[types.String]))
	assert.True(t, IsError(types.Universe.Lookup("error").Type()))
	assert.True(t, IsByte(types.Typ[types.Uint8]))
	assert.False(t, IsCryptoHash(hasher))
}

// TestValueTypes checks the types of byte sequences and of values that
// hold no pointer.
func TestValueTypes(t *testing.T) {
	b := types.Typ[types.Byte]
	assert.True(t, IsBytes(types.NewSlice(b)))
	assert.True(t, IsBytes(types.NewArray(b, 32)))
	assert.False(t, IsBytes(types.NewSlice(types.Typ[types.Int])))
	assert.False(t, IsBytes(types.Typ[types.String]))
	field := func(name string, t types.Type) *types.Var { return types.NewField(0, nil, name, t, false) }
	assert.True(t, PointerFree(types.NewStruct([]*types.Var{field("a", types.Typ[types.Int]), field("b", types.NewArray(types.Typ[types.String], 2))}, nil)))
	assert.False(t, PointerFree(types.NewStruct([]*types.Var{field("a", types.NewSlice(b))}, nil)))
	assert.False(t, PointerFree(types.NewPointer(b)))
	assert.False(t, PointerFree(types.Typ[types.UnsafePointer]))
}
