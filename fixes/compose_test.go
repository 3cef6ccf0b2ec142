package fixes

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/textedit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
)

// composeCase is a file and fixes of it: each replaces the one statement of
// a function with new text, adding imports (path, or "name path") through
// Imports and dropping those only the statement used.
type composeCase struct {
	name  string
	src   string
	fixes []composeFix
	// built says that the fixes as built already merge, so that
	// ComposeImports has nothing to change.
	built bool
	// oneGroup says that the new imports make one group with the file's
	// (a single declaration with no blank line after it, where its closing
	// parenthesis goes).
	oneGroup bool
}

type composeFix struct {
	fn   string   // the function whose statement the fix replaces
	adds []string // "path" or "name path"
	text string   // the new statement; %s are the adds' names, in order
}

const (
	hashsumPath  = RuntimeSum
	hashpoolPath = RuntimePool
)

var composeCases = []composeCase{{
	name: "two single declarations, each the last use of its import, both fixes add hashsum (tree.go)",
	src: `package p

import "crypto/sha256"
import "crypto/sha512"

func A() { _ = sha256.Sum256(nil) }

func B() { _ = sha512.Sum512(nil) }
`,
	fixes: []composeFix{
		{"A", []string{hashsumPath}, "_ = %s.SHA256(nil)"},
		{"B", []string{hashsumPath}, "_ = %s.SHA512(nil)"},
	},
}, {
	name: "two single declarations, fixes that add different imports",
	src: `package p

import "crypto/sha256"
import "crypto/sha512"

func A() { _ = sha256.Sum256(nil) }

func B() { _ = sha512.Sum512(nil) }

func C() { _ = sha512.Sum512(nil) }
`,
	fixes: []composeFix{
		{"A", []string{hashsumPath}, "_ = %s.SHA256(nil)"},
		{"B", []string{hashpoolPath, "hash"}, "_ = %s.SHA512; var _ %s.Hash"},
		{"C", []string{"sync"}, "var _ %s.Mutex"},
	},
}, {
	name: "one single declaration that two fixes share the last use of (shared.go)",
	src: `package p

import "crypto/sha256"

func A() { _ = sha256.Sum256(nil) }

func B() { _ = sha256.Sum256(nil) }
`,
	fixes: []composeFix{
		{"A", []string{hashsumPath}, "_ = %s.SHA256(nil)"},
		{"B", []string{hashsumPath, "hash"}, "_ = %s.SHA256(nil); var _ %s.Hash"},
	},
	built: true,
}, {
	name: "a parenthesized declaration, fixes that remove its last import and start a new group",
	src: `package p

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
)

func A() { _ = sha512.Sum512(nil) }

func B() { _ = hmac.New(sha256.New, nil) }

func C() { _ = sha256.Sum256(nil) }
`,
	fixes: []composeFix{
		{"A", []string{hashsumPath}, "_ = %s.SHA512(nil)"},
		{"B", []string{hashpoolPath, "crypto/subtle"}, "_ = %s.HMAC{}; _ = %s.ConstantTimeCompare"},
		{"C", []string{hashsumPath, "hash", "sync"}, "_ = %s.SHA256(nil); var _ %s.Hash; var _ %s.Mutex"},
	},
}, {
	name: "a parenthesized declaration that a fix empties, another adds to, and a single one",
	src: `package p

import (
	"crypto/sha256"
)

import "io"

func A() { _ = sha256.Sum256(nil) }

func B() { _ = io.EOF }

func C() { _ = 1 }
`,
	fixes: []composeFix{
		{"A", nil, "_ = 2"},
		{"B", []string{"errors"}, "_ = %s.New"},
		{"C", []string{"hash", hashsumPath}, "var _ %s.Hash; _ = %s.SHA256"},
	},
}, {
	name: "groups of the standard library and of modules, with a doc comment and a named import",
	src: `package p

import (
	"crypto/sha256"
	// hash is the interface.
	"hash"

	simd "github.com/minio/sha256-simd"
)

func A() { _ = simd.Sum256(nil) }

func B() { var _ hash.Hash; _ = sha256.New }

func C() { _ = 1 }
`,
	fixes: []composeFix{
		{"A", []string{hashsumPath, "crypto/subtle"}, "_ = %s.SHA256(nil); _ = %s.ConstantTimeCompare"},
		{"B", []string{"io", hashpoolPath}, "var _ %s.Writer; _ = %s.SHA256"},
		{"C", []string{"hash " + hashsumPath}, "_ = %s.SHA256"},
	},
}, {
	name: "a declaration of the standard library, fixes that start a group of modules and add to the standard library's",
	src: `package p

import (
	"crypto/hmac"
	"crypto/sha256"
)

func A() { _ = sha256.Sum256(nil) }

func B() { _ = hmac.New(sha256.New, nil) }

func C() { _ = 1 }
`,
	fixes: []composeFix{
		{"A", []string{hashsumPath}, "_ = %s.SHA256(nil)"},
		{"B", []string{hashpoolPath, "hash"}, "_ = %s.HMAC{}; var _ %s.Hash"},
		{"C", []string{"sync"}, "var _ %s.Mutex"},
	},
}, {
	name: "a single declaration of a module, fixes that add to the standard library's group before it and to its own",
	src: `package p

import simd "github.com/minio/sha256-simd"

func A() { _ = simd.Sum256(nil) }

func B() { _ = simd.Sum256(nil) }

func C() { _ = 1 }
`,
	fixes: []composeFix{
		{"A", []string{"sync", "hash"}, "var _ %s.Mutex; var _ %s.Hash"},
		{"B", []string{hashsumPath}, "_ = %s.SHA256(nil)"},
		{"C", []string{"sync"}, "var _ %s.Mutex"},
	},
}, {
	name: "a declaration of modules only, fixes that start the standard library's group before them",
	src: `package p

import (
	other "example.com/other"
	simd "github.com/minio/sha256-simd"
)

func A() { _ = simd.Sum256(nil) }

func B() { _ = other.X }

func C() { _ = other.X }

func D() { _ = 1 }
`,
	fixes: []composeFix{
		{"A", []string{"sync", "hash"}, "var _ %s.Mutex; var _ %s.Hash"},
		{"B", []string{"crypto/sha256"}, "_ = %s.Sum256(nil)"},
		{"C", []string{hashsumPath}, "_ = %s.SHA256(nil)"},
		{"D", []string{"sync"}, "var _ %s.Mutex"},
	},
}, {
	name: "a single declaration of the standard library with no blank line after it",
	src: `package p

import "crypto/sha256"
func A() { _ = sha256.Sum256(nil) }

func B() { _ = 1 }
`,
	fixes: []composeFix{
		{"A", []string{hashsumPath}, "_ = %s.SHA256(nil)"},
		{"B", []string{"sync"}, "var _ %s.Mutex"},
	},
	oneGroup: true,
}}

// TestComposeImports builds each case's fixes, composes their import edits,
// and checks that every fix alone, and every set of them merged as go fix
// merges fixes (a three-way merge, one after another, in both orders) and
// as golangci-lint does (the union of the edits, which must not overlap),
// then formatted, declares exactly the imports it should, each once, laid
// out as goimports lays them out when the file's were.
func TestComposeImports(t *testing.T) {
	for _, tc := range composeCases {
		t.Run(tc.name, func(t *testing.T) {
			f, fixes, intents := buildComposeCase(t, tc)
			before := make([][]analysis.TextEdit, len(fixes))
			for i, fix := range fixes {
				before[i] = slices.Clone(fix.TextEdits)
			}
			ComposeImports(f.Fset, []*ast.File{f.AST}, func(*token.File) ([]byte, error) { return f.Src, nil }, fixes)
			changed := false
			for i, fix := range fixes {
				changed = changed || !slices.EqualFunc(before[i], fix.TextEdits, func(a, b analysis.TextEdit) bool {
					return a.Pos == b.Pos && a.End == b.End && string(a.NewText) == string(b.NewText)
				})
			}
			assert.Equal(t, !tc.built, changed, "fixes planned again")

			tf := f.Fset.File(f.AST.FileStart)
			tidy := goimportsLike(t, f.Src) && !tc.oneGroup
			first := stdFirst(t, f.Src) && !tc.oneGroup
			n := len(fixes)
			for set := 1; set < 1<<n; set++ {
				var chosen []int
				for i := range n {
					if set&(1<<i) != 0 {
						chosen = append(chosen, i)
					}
				}
				want := wantImports(f.AST, intents, chosen)
				lists := make([][]textedit.Edit, len(chosen))
				for k, i := range chosen {
					l, err := textedit.FromAnalysis(f.Fset, tf, fixes[i].TextEdits)
					require.NoError(t, err, "fix %d", i)
					lists[k] = l
				}
				for _, order := range [][]int{identity(len(lists)), reversed(len(lists))} {
					var merged []textedit.Edit
					for _, k := range order {
						m, ok := textedit.Merge(merged, lists[k])
						require.True(t, ok, "fixes %v, in order %v: a three-way merge conflicts", chosen, order)
						merged = m
					}
					got, formatted := formattedImports(t, f.Src, merged)
					assert.Equal(t, want, got, "fixes %v merged in order %v", chosen, order)
					assert.True(t, !tidy || goimportsLike(t, formatted), "fixes %v merged in order %v: imports unlike goimports:\n%s", chosen, order, formatted)
					assert.True(t, !first || stdFirst(t, formatted), "fixes %v merged in order %v: the standard library's imports after others:\n%s", chosen, order, formatted)
				}
				union := unionEdits(t, lists)
				got, formatted := formattedImports(t, f.Src, union)
				assert.Equal(t, want, got, "fixes %v as golangci-lint applies them", chosen)
				assert.True(t, !tidy || goimportsLike(t, formatted), "fixes %v as golangci-lint applies them: imports unlike goimports:\n%s", chosen, formatted)
				assert.True(t, !first || stdFirst(t, formatted), "fixes %v as golangci-lint applies them: the standard library's imports after others:\n%s", chosen, formatted)
			}
		})
	}
}

// stdFirst reports whether no import of src's follows one of a module in
// its declaration, as goimports orders the groups it makes (it keeps the
// order of groups it finds: goimportsLike does not tell).
func stdFirst(t *testing.T, src []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	require.NoError(t, err)
	for _, d := range f.Decls {
		module := false
		for _, s := range d.(*ast.GenDecl).Specs {
			p, _ := strconv.Unquote(s.(*ast.ImportSpec).Path.Value)
			if isStd(p) && module {
				return false
			}
			module = module || !isStd(p)
		}
	}
	return true
}

// buildComposeCase parses and type-checks tc's file and builds its fixes,
// returning them with what each means to do to the imports (the keys of
// the imports it adds, and the keys of those it drops).
func buildComposeCase(t *testing.T, tc composeCase) (*File, []*analysis.SuggestedFix, []composeIntent) {
	t.Helper()
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, "p.go", tc.src, parser.ParseComments)
	require.NoError(t, err)
	var std []string
	for _, spec := range af.Imports {
		if p, _ := strconv.Unquote(spec.Path.Value); isStd(p) {
			std = append(std, p)
		}
	}
	files, err := listExportFiles(std)
	require.NoError(t, err)
	gc := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(files[path]) })
	imp := importerFunc(func(path string) (*types.Package, error) {
		if !isStd(path) {
			p := types.NewPackage(path, "sha256")
			p.MarkComplete()
			return p, nil
		}
		return gc.Import(path)
	})
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Scopes: map[ast.Node]*types.Scope{}}
	pkg, _ := (&types.Config{Importer: imp, Error: func(error) {}}).Check("p", fset, []*ast.File{af}, info)
	f := &File{Fset: fset, AST: af, Src: []byte(tc.src), Info: info, Pkg: pkg}

	var fixes []*analysis.SuggestedFix
	var intents []composeIntent
	for _, cf := range tc.fixes {
		var body *ast.BlockStmt
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == cf.fn {
				body = fd.Body
			}
		}
		require.NotNil(t, body, cf.fn)
		stmt := body.List[0]
		im := f.Imports(stmt.Pos())
		var names []any
		var in composeIntent
		for _, a := range cf.adds {
			name, path, ok := strings.Cut(a, " ")
			if !ok {
				name, path = pathName(a), a
			}
			got := im.Name(path, name)
			names = append(names, got)
			if got == pathName(path) {
				got = ""
			}
			in.adds = append(in.adds, got+" "+strconv.Quote(path))
		}
		for _, spec := range af.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			im.Drop(p, stmt)
		}
		for _, spec := range im.drop {
			in.drops = append(in.drops, key(spec))
		}
		edits := append(im.Edits(), analysis.TextEdit{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(fmt.Sprintf(cf.text, names...))})
		fixes = append(fixes, &analysis.SuggestedFix{Message: cf.fn, TextEdits: edits})
		intents = append(intents, in)
	}
	return f, fixes, intents
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// composeIntent is what a fix of a case means to do to the imports.
type composeIntent struct {
	adds  []string // keys
	drops []string
}

// wantImports returns the keys of the imports of the file after the fixes
// chosen, sorted.
func wantImports(f *ast.File, intents []composeIntent, chosen []int) []string {
	keys := map[string]bool{}
	for _, spec := range f.Imports {
		keys[key(spec)] = true
	}
	for _, i := range chosen {
		for _, k := range intents[i].drops {
			delete(keys, k)
		}
		for _, k := range intents[i].adds {
			keys[k] = true
		}
	}
	return slices.Sorted(func(yield func(string) bool) {
		for k := range keys {
			if !yield(k) {
				return
			}
		}
	})
}

// formattedImports applies edits to src, formats the result as every
// driver does, and returns the keys of its imports, sorted, and the
// formatted file; it fails when the result does not format or declares an
// import twice.
func formattedImports(t *testing.T, src []byte, edits []textedit.Edit) ([]string, []byte) {
	t.Helper()
	fixed, err := textedit.Apply(src, edits)
	require.NoError(t, err)
	formatted, err := format.Source(fixed)
	require.NoError(t, err, "%s", fixed)
	af, err := parser.ParseFile(token.NewFileSet(), "", formatted, parser.ImportsOnly)
	require.NoError(t, err)
	var keys []string
	for _, spec := range af.Imports {
		require.NotContains(t, keys, key(spec), "imported twice:\n%s", formatted)
		keys = append(keys, key(spec))
	}
	slices.Sort(keys)
	return keys, formatted
}

// unionEdits merges the lists as golangci-lint does: every edit, sorted by
// position (stably), each run of equal edits made once; two edits that
// then overlap fail the test (golangci-lint would apply none of them).
func unionEdits(t *testing.T, lists [][]textedit.Edit) []textedit.Edit {
	t.Helper()
	var all []textedit.Edit
	for _, l := range lists {
		all = append(all, l...)
	}
	slices.SortStableFunc(all, func(a, b textedit.Edit) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	})
	var out []textedit.Edit
	for i, e := range all {
		if i > 0 && e == all[i-1] {
			continue
		}
		if len(out) > 0 {
			require.LessOrEqual(t, out[len(out)-1].End, e.Start, "overlapping edits %v and %v", out[len(out)-1], e)
		}
		out = append(out, e)
	}
	return out
}

func identity(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func reversed(n int) []int {
	s := identity(n)
	slices.Reverse(s)
	return s
}
