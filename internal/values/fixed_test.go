package values

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

const fixedSrc = `package p

import "time"

var region = "eu"  // never written
var counter = 0    // written
var Exported = "x" // another package may write it

type reader struct {
	secret  string // set by the literal only
	day     string
	changed string // assigned by a method
	cfg     config
}

type config struct{ key string }

type valued struct{ secret string }

func newReader(s string) *reader { return &reader{secret: s, cfg: config{key: s}} }

func (r *reader) touch() { r.changed = "y" }

func (r *reader) sign(item string) {
	derive(r.secret, r.cfg.key, region)      // fixed for each *reader
	derive(r.changed, "c", "c")              // assigned by touch
	derive(Exported, "c", "c")               // exported
	derive(time.Now().String(), "c", "c")    // a call
	local := r.secret + "/" + region
	derive(local, "c", "c")                  // from fixed values
	again := "a"
	for range 3 {
		again = item
	}
	derive(again, "c", "c")                  // assigned in a loop
	counter++
	helper(r.secret)
	helper(r.secret)
}

func helper(s string) { derive(s, "c", "c") } // each call passes a fixed value

func other(item string) { helper2(item) }

func helper2(s string) { derive(s, "c", "c") } // called with an item

func (v valued) sign() { derive(v.secret, "c", "c") } // a copy per call

func derive(a, b, c string) {}
`

// TestFixed checks which arguments of derive are fixed, for the same
// receiver, and what they come from.
func TestFixed(t *testing.T) {
	f := loadSource(t, fixedSrc)
	root := f.in.Root()
	derive := f.obj("derive").(*types.Func)
	var got []bool
	var names [][]string
	var holders [][]string
	for _, call := range f.x.Calls(f.in, derive) {
		decl, ok := EnclosingFunc(call)
		assert.True(t, ok)
		fx := f.x.Fixed(root, f.pkg, 2)
		fixed := true
		for _, arg := range call.Node().(*ast.CallExpr).Args {
			fixed = fixed && fx.Value(arg, decl)
		}
		got = append(got, fixed)
		names = append(names, fx.Names)
		var hs []string
		for _, h := range fx.Holders {
			hs = append(hs, h.String())
		}
		holders = append(holders, hs)
	}
	assert.Equal(t, []bool{true, false, false, false, true, false, true, false, false}, got)
	assert.Equal(t, []string{"secret", "cfg.key", "region"}, names[0])
	assert.Equal(t, []string{"*p.reader"}, holders[0], "the receiver's type")
	assert.Equal(t, []string{"*p.reader"}, holders[6], "the receiver of the callers that pass the parameter")
	assert.Equal(t, []string{"secret", "region"}, names[4])
	assert.Equal(t, []string{"secret"}, names[6], "through helper's callers")
	first := f.x.Calls(f.in, derive)[0]
	decl, _ := EnclosingFunc(first)
	fx := f.x.Fixed(root, f.pkg, 2)
	for _, arg := range first.Node().(*ast.CallExpr).Args {
		fx.Value(arg, decl)
	}
	assert.True(t, fx.HeldBy(f.method("reader", "sign")), "a *reader holds them")
	assert.False(t, fx.HeldBy(f.obj("helper").(*types.Func)), "a function has no receiver to hold them")
	assert.False(t, fx.HeldBy(f.obj("valued").Type().(*types.Named).Method(0)), "another receiver")
}
