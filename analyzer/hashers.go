package analyzer

// Hashers as values: the hash.Hash interface, and the local variables that
// hold a hasher.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// hashHash is the hash.Hash interface.
var hashHash = func() *types.Interface {
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

// isHasher reports whether a value of type t is a hash.Hash.
func isHasher(t types.Type) bool {
	return t != nil && types.Implements(t, hashHash)
}

// isHasherRecv reports whether a method called on an operand of type t is a
// hasher's: t is a hash.Hash, or *t is and the call takes the operand's
// address (var d digest; d.Sum(nil), with methods on *digest). Go accepts
// such a call only on an addressable operand, so the method is the
// hasher's. A package name (binary.Write) has no type: the types package
// says that a pointer to an invalid type implements every interface.
func isHasherRecv(t types.Type) bool {
	return t != nil && t != types.Typ[types.Invalid] && (isHasher(t) || !types.IsInterface(t) && isHasher(types.NewPointer(t)))
}

// localHashers maps each local variable defined alone by a hash constructor,
// and never assigned again, to its constructor call.
func (p *pass) localHashers(sites []*Site) map[*types.Var]*Site {
	hashers := map[*types.Var]*Site{}
	for _, s := range sites {
		// h := sha256.New(), var h = sha256.New(), h, err := blake2b.New256(nil)
		id, _ := values.AssignedAt(s.cur, true).(*ast.Ident)
		v, ok := p.TypesInfo.Defs[id].(*types.Var)
		if !ok {
			continue // not defined there (h = sha256.New())
		}
		if fn, ok := enclosingFunc(s.cur); !ok || p.vals.Written(fn, v) {
			continue // assigned again: which hasher it holds is not known
		}
		hashers[v] = s
	}
	return hashers
}

// chosenSites returns the sites of the constructor calls that the local
// hasher v of fn is given in the branches of an if or a switch, merged
// where they join (var h hash.Hash; switch n { case 256: h = sha256.New()
// ... }): two or more, each decided by the model, and every value v is
// declared (var h T, or one of them) or assigned with one of them. Nil
// otherwise.
func (p *pass) chosenSites(fn inspector.Cursor, v *types.Var) []*Site {
	var sites []*Site
	assigned := map[ast.Node]bool{}
	for _, s := range p.sites {
		if id, _ := values.AssignedAt(s.cur, true).(*ast.Ident); id != nil && p.TypesInfo.ObjectOf(id) == v && s.esc.kind != unknown {
			sites, assigned[id] = append(sites, s), true
		}
	}
	def, ok := p.vals.Def(fn, v)
	if !ok || len(sites) < 2 || !assigned[def.Node()] && (def.ParentEdgeKind() != edge.ValueSpec_Names || len(def.Parent().Node().(*ast.ValueSpec).Values) > 0) {
		return nil // a parameter, or declared with another value
	}
	for use := range p.vals.Uses(fn, v) {
		if values.IsWritten(use) && !assigned[use.Node()] {
			return nil // v = other: what v holds is not known
		}
	}
	return sites
}

var byteSlice = types.NewSlice(types.Typ[types.Byte])
