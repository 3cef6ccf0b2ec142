package testenv

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SlowTests finds the slow tests of the module whose directory is root: the
// top-level tests whose first statement is a call of SkipUnlessSlow, by
// package directory (relative to root, with slashes). testdata directories
// and nested modules are not searched.
//
// It fails on a call of SkipUnlessSlow anywhere else, since a test run by
// name would miss it, and on a slow test whose name is also a fast test's
// in a package that has slow tests, since one -run pattern selects the slow
// tests of every such package.
func SlowTests(root string) (map[string][]string, error) {
	slow := map[string][]string{}
	all := map[string][]string{} // every top-level test, by package directory
	var problems []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root {
				name := d.Name()
				if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(rel)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		first := map[*ast.CallExpr]bool{} // the calls that are a test's first statement
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Body == nil || !isTestName(fd.Name.Name) {
				continue
			}
			all[dir] = append(all[dir], fd.Name.Name)
			if len(fd.Body.List) == 0 {
				continue
			}
			if es, ok := fd.Body.List[0].(*ast.ExprStmt); ok {
				if call, ok := es.X.(*ast.CallExpr); ok && isSkipUnlessSlow(call) {
					first[call] = true
					slow[dir] = append(slow[dir], fd.Name.Name)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && isSkipUnlessSlow(call) && !first[call] {
				problems = append(problems, fmt.Sprintf("%s: SkipUnlessSlow is not the first statement of a top-level test: the slow step, which runs the slow tests by name, would not run it", fset.Position(call.Pos())))
			}
			return true
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, tests := range slow {
		for _, name := range tests {
			names[name] = true
		}
	}
	for dir := range slow {
		for _, name := range all[dir] {
			if names[name] && !slices.Contains(slow[dir], name) {
				problems = append(problems, fmt.Sprintf("%s: %s is a fast test here and a slow test elsewhere: the slow step would run it too; rename one", dir, name))
			}
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return nil, fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	for _, tests := range slow {
		slices.Sort(tests)
	}
	return slow, nil
}

// isTestName reports whether name is that of a test function: Test, or Test
// followed by a character that is not a lower-case letter.
func isTestName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	return ok && (rest == "" || !('a' <= rest[0] && rest[0] <= 'z'))
}

// isSkipUnlessSlow reports whether call is testenv.SkipUnlessSlow(...).
func isSkipUnlessSlow(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "SkipUnlessSlow" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "testenv"
}
