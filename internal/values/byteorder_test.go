package values

import (
	"go/importer"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestByteOrder checks encoding/binary's functions that read a byte slice,
// and those that append to it, against the others of the package.
func TestByteOrder(t *testing.T) {
	pkg, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import("encoding/binary")
	require.NoError(t, err)
	method := func(order, name string) *types.Func {
		obj, _, _ := types.LookupFieldOrMethod(pkg.Scope().Lookup(order).Type(), false, pkg, name)
		require.NotNil(t, obj, "%s.%s", order, name)
		return obj.(*types.Func)
	}
	fn := func(name string) *types.Func { return pkg.Scope().Lookup(name).(*types.Func) }
	for _, order := range []string{"BigEndian", "LittleEndian"} {
		for _, bits := range []string{"16", "32", "64"} {
			assert.True(t, ByteOrderReads(method(order, "PutUint"+bits)), "%s.PutUint%s", order, bits)
			assert.True(t, ByteOrderReads(method(order, "Uint"+bits)), "%s.Uint%s", order, bits)
			assert.False(t, ByteOrderAppends(method(order, "Uint"+bits)), "%s.Uint%s", order, bits)
			assert.True(t, ByteOrderAppends(method(order, "AppendUint"+bits)), "%s.AppendUint%s", order, bits)
			assert.False(t, ByteOrderReads(method(order, "AppendUint"+bits)), "%s.AppendUint%s", order, bits)
		}
		assert.False(t, ByteOrderReads(method(order, "String")), order+".String")
	}
	assert.True(t, ByteOrderAppends(fn("AppendUvarint")))
	assert.True(t, ByteOrderAppends(fn("AppendVarint")))
	for _, name := range []string{"PutUvarint", "Uvarint", "Write", "Append"} {
		assert.False(t, ByteOrderReads(fn(name)), name)
		assert.False(t, ByteOrderAppends(fn(name)), name)
	}
	assert.False(t, ByteOrderReads(nil))
	assert.False(t, ByteOrderAppends(nil))
}
