package callindex

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

const src = `package p

import "strings"

var v = strings.ToUpper(strings.TrimSpace(" x "))

func f(g func(int) int) int {
	n := g(len("ab"))
	func() { n += g(1) }()
	return int(int64(n)) + h(h(n))
}

func h(n int) int { return n }

type T struct{}

func (T) m() { f(h); _ = strings.Repeat("a", 2) }
`

// TestWithin checks that Within yields, for every node of a file, what
// Preorder yields: the same calls in the same order, with their static
// callees.
func TestWithin(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Instances: map[*ast.Ident]types.Instance{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	in := inspector.New([]*ast.File{file})
	x := New(info)
	regions := []inspector.Cursor{in.Root()}
	for cur := range in.Root().Preorder() {
		regions = append(regions, cur)
	}
	total := 0
	for _, region := range regions {
		var want []inspector.Cursor
		for cur := range region.Preorder((*ast.CallExpr)(nil)) {
			want = append(want, cur)
		}
		var got []Call
		for c := range x.Within(region) {
			got = append(got, c)
		}
		if len(got) != len(want) {
			t.Fatalf("%v at %v: %d calls, want %d", region, region.Node(), len(got), len(want))
		}
		for i, c := range got {
			if c.Cursor != want[i] || c.Node != want[i].Node() {
				t.Errorf("%v: call %d is %v, want %v", region, i, c.Cursor, want[i])
			}
			if callee := typeutil.StaticCallee(info, c.Node); c.Callee != callee {
				t.Errorf("call %d: callee %v, want %v", i, c.Callee, callee)
			}
		}
		total += len(got)
	}
	if total == 0 {
		t.Fatal("no calls")
	}
	// A loop that stops early stops Within.
	n := 0
	for range x.Within(in.Root()) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("break: %d calls", n)
	}
}
