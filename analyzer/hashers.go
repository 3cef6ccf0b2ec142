package analyzer

// Hashers as values: the hash.Hash interface, and the local variables that
// hold a hasher.

import (
	"go/ast"
	"go/types"

	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

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
		if fn, ok := values.EnclosingFunc(s.cur); !ok || p.vals.Written(fn, v) {
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
