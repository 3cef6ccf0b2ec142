package values

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

const atomicSrc = `package p

import "sync/atomic"

type signer struct {
	key   atomic.Value
	ptr   atomic.Pointer[[]byte]
	other atomic.Pointer[string]
	plain []byte
}

func (s *signer) keys(param []byte) {
	use(s.key.Load().([]byte))
	use(*s.ptr.Load())
	loaded := s.key.Load().([]byte)
	use(loaded)
	again := s.key.Load().([]byte)
	again = nil
	use(again)
	use(s.plain)
	use(param)
	use([]byte(*s.other.Load()))
}

func (s *signer) rotate(k []byte) { s.ptr.Store(&k) }

func use([]byte) {}
`

// TestAtomicBytes checks the byte slices loaded from atomic fields, and
// the stores into those fields.
func TestAtomicBytes(t *testing.T) {
	f := loadSource(t, atomicSrc)
	var kinds []string
	for _, call := range f.x.Calls(f.in, f.obj("use").(*types.Func)) {
		fn, _ := EnclosingFunc(call)
		sel, kind, ok := f.x.AtomicBytes(fn, call.Node().(*ast.CallExpr).Args[0])
		if ok {
			kind = types.ExprString(sel) + " " + kind
		}
		kinds = append(kinds, kind)
	}
	assert.Equal(t, []string{"s.key atomic.Value", "s.ptr atomic.Pointer[[]byte]", "s.key atomic.Value", "", "", "", ""}, kinds)
	field := func(name string) *types.Var {
		obj, _, _ := types.LookupFieldOrMethod(f.obj("signer").Type(), false, f.pkg, name)
		return obj.(*types.Var)
	}
	root := f.in.Root()
	assert.True(t, f.x.StoresAtomic(root, field("ptr")), "rotate stores into it")
	assert.False(t, f.x.StoresAtomic(root, field("key")))
	keys := f.decl(t, f.method("signer", "keys"))
	assert.False(t, f.x.StoresAtomic(keys, field("ptr")), "keys only loads it")
}
