package analyzer

import (
	"go/types"
	"testing"
)

// TestIsHasherRecv checks the receivers whose methods are a hasher's: a
// hasher, a struct whose pointer is one; not a package name's missing type,
// whose pointer the types package says implements every interface.
func TestIsHasherRecv(t *testing.T) {
	pkg := types.NewPackage("p", "p")
	digest := types.NewNamed(types.NewTypeName(0, pkg, "digest", nil), types.NewStruct(nil, nil), nil)
	for m := range hashHash.ExplicitMethods() {
		recv := types.NewVar(0, pkg, "d", types.NewPointer(digest))
		sig := m.Signature()
		digest.AddMethod(types.NewFunc(0, pkg, m.Name(), types.NewSignatureType(recv, nil, nil, sig.Params(), sig.Results(), false)))
	}
	for _, c := range []struct {
		t    types.Type
		want bool
	}{
		{hashHash, true},
		{types.NewPointer(digest), true},
		{digest, true}, // var d digest; d.Sum(nil)
		{types.Typ[types.Invalid], false},
		{nil, false},
		{types.Typ[types.Int], false},
	} {
		if got := isHasherRecv(c.t); got != c.want {
			t.Errorf("isHasherRecv(%v) = %v, want %v", c.t, got, c.want)
		}
	}
}
