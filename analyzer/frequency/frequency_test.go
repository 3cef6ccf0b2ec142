package frequency_test

import (
	"go/ast"
	"go/constant"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// sites reports the model's estimate at every call of a function named
// site, whose argument is the allocations it stands for: "per item: TEXT"
// or "silent: WHY".
var sites = &analysis.Analyzer{
	Name:     "sites",
	Doc:      "reports the frequency model's estimate at every call of site(n)",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		root := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root()
		m := frequency.New(frequency.Config{
			Fset: pass.Fset, Info: pass.TypesInfo, Pkg: pass.Pkg, Root: root,
			Hashes: func(fn *types.Func, body inspector.Cursor) bool {
				for cur := range body.Preorder((*ast.CallExpr)(nil)) {
					if callee := typeutil.StaticCallee(pass.TypesInfo, cur.Node().(*ast.CallExpr)); callee != nil &&
						(callee.Name() == "site" || callee.Pkg() != nil && strings.HasPrefix(callee.Pkg().Path(), "crypto/sha")) {
						return true
					}
				}
				return false
			},
			Role: func(fn *types.Func) frequency.Role {
				switch fn.Name() {
				case "ServeHTTP":
					return frequency.Role{Text: "ServeHTTP of an http.Handler, which net/http calls once per request",
						Around: frequency.Heavy, What: "net/http's work to serve a request"}
				case "Less":
					return frequency.Role{Text: "Less of a sort.Interface, which sort.Sort calls O(n log n) times"}
				}
				return frequency.Role{}
			},
			Directive: func(fn *types.Func, decl *ast.FuncDecl) bool {
				return decl.Doc != nil && strings.Contains(decl.Doc.Text(), "hot:")
			},
		})
		for cur := range root.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			callee := typeutil.StaticCallee(pass.TypesInfo, call)
			if callee == nil || callee.Name() != "site" || len(call.Args) != 1 {
				continue
			}
			// site(5) stands for five allocations, site(n) with n of 4096
			// or more for a buffer of n bytes, anything else for one.
			c := frequency.Cost{Allocs: 1}
			if tv := pass.TypesInfo.Types[call.Args[0]]; tv.Value != nil {
				switch v, _ := constant.Int64Val(tv.Value); {
				case v == 5:
					c.Allocs = 5
				case v >= 4096:
					c.Bytes = v
				}
			}
			est := m.Site(cur, c)
			if est.PerItem {
				pass.Reportf(call.Pos(), "per item: %s", est.Text)
			} else {
				pass.Reportf(call.Pos(), "silent: %s", est.Why)
			}
		}
		return nil, nil
	},
}

func TestModel(t *testing.T) {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, sites, "loops", "calls", "branches", "share", "callers")
}
