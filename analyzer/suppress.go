package analyzer

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"golang.org/x/tools/go/ast/inspector"
)

// suppressor knows what hashalloc must leave alone: generated files, test
// files, test-support packages (see testSupport) and functions that take a
// *testing.T or the like (unless -tests), init
// functions, package-level initializers, and lines marked //hashalloc:ignore
// or //nolint:hashalloc.
type suppressor struct {
	p *pass
	// ignored maps a file and line to the categories ignored there; an empty
	// list ignores every category.
	ignored map[*token.File]map[int][]string
	skipped map[*token.File]bool
	support bool                   // the package is test support (see testSupport), skipped whole
	asked   map[*ast.FuncDecl]bool // see analyzed
}

func newSuppressor(p *pass) *suppressor {
	s := &suppressor{p: p, ignored: map[*token.File]map[int][]string{}, skipped: map[*token.File]bool{}, asked: map[*ast.FuncDecl]bool{}}
	s.support = !p.cfg.tests && testSupport(p.Pkg.Path())
	for _, f := range p.Files {
		tf := p.Fset.File(f.FileStart)
		if s.support || ast.IsGenerated(f) && !userCgoFile(p.Fset, f) || (!p.cfg.tests && strings.HasSuffix(tf.Name(), "_test.go")) {
			s.skipped[tf] = true
			continue
		}
		lines := map[int][]string{}
		for _, group := range f.Comments {
			for _, c := range group.List {
				if cats, ok := ignoreDirective(c.Text); ok {
					p.checkIgnoreDirective(c, cats)
					line := tf.Line(c.Pos())
					lines[line] = append(lines[line], cats...)
					if cats == nil {
						lines[line] = []string{}
					}
				}
			}
		}
		s.ignored[tf] = lines
	}
	return s
}

// ignoreDirective parses "//hashalloc:ignore [category ...] [-- reason]"
// (or "// comment" for the reason) and
// "//nolint:hashalloc[,other]". It returns the categories ignored (nil: all).
func ignoreDirective(text string) ([]string, bool) {
	if rest, ok := strings.CutPrefix(text, "//hashalloc:ignore"); ok {
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return nil, false
		}
		rest, _, _ = strings.Cut(rest, "--")
		rest, _, _ = strings.Cut(rest, "//") // another comment follows
		return strings.Fields(rest), true
	}
	if rest, ok := strings.CutPrefix(text, "//nolint:"); ok {
		rest, _, _ = strings.Cut(rest, " ")
		if names := strings.Split(rest, ","); slices.Contains(names, "hashalloc") || slices.Contains(names, "all") {
			return nil, true
		}
	}
	return nil, false
}

// analyzed reports whether hashalloc looks at the code at cur at all (see
// whyNotAnalyzed). It remembers the answer for each function, whose code
// it is for all (none outside them is): checks ask of every call.
func (s *suppressor) analyzed(cur inspector.Cursor) bool {
	decl, _ := s.declOf(cur)
	if ok, seen := s.asked[decl]; seen {
		return ok
	}
	ok := s.whyNotAnalyzed(cur) == ""
	s.asked[decl] = ok
	return ok
}

// notAnalyzed records for the audit, under category, that hashalloc does
// not look at node, at cur, and why (see analyzed), unless node is in a
// generated file or a test file, which the audit leaves out as the checks
// do.
func (s *suppressor) notAnalyzed(cur inspector.Cursor, node ast.Node, category string) {
	if !s.p.cfg.audit {
		return
	}
	tf := s.p.Fset.File(node.Pos())
	if s.skipped[tf] && !s.support {
		return // a generated file, or a test file without -tests
	}
	s.p.silent(node, category, s.whyNotAnalyzed(cur))
}

// whyNotAnalyzed says why hashalloc does not look at the code at cur at all,
// or "" when it does: it is in a skipped file, a test function (unless
// -tests), an init function or a package-level initializer.
func (s *suppressor) whyNotAnalyzed(cur inspector.Cursor) string {
	decl, ok := s.declOf(cur)
	switch {
	case s.support:
		return "its package is test support (" + s.p.Pkg.Path() + "); -tests analyzes it"
	case !ok:
		return frequency.Initializer(cur)
	case s.skipped[s.p.Fset.File(decl.Pos())]:
		return "it is in a generated file, or a test file without -tests"
	case !s.p.cfg.tests && s.p.isTestCode(decl):
		return "it is test code (" + decl.Name.Name + " takes a *testing.T or the like; -tests analyzes it)"
	case decl.Recv == nil && decl.Name.Name == "init":
		return "an init function runs once, when the package is initialized"
	}
	return ""
}

// declOf returns the function declaration that holds cur (see declAt:
// every inspector of the pass holds some of the files of p.root).
func (s *suppressor) declOf(cur inspector.Cursor) (*ast.FuncDecl, bool) {
	if cur.Node() != nil {
		if decl, ok := s.p.declAt(cur.Node().Pos()); ok {
			return decl.Node().(*ast.FuncDecl), true
		}
	}
	return nil, false
}

// suppressed reports whether a comment on pos's line, or on the line above,
// ignores category.
func (s *suppressor) suppressed(pos token.Pos, category string) bool {
	tf := s.p.Fset.File(pos)
	lines := s.ignored[tf]
	line := tf.Line(pos)
	return slices.ContainsFunc([]int{line, line - 1}, func(l int) bool {
		cats, ok := lines[l]
		return ok && (len(cats) == 0 || slices.Contains(cats, category))
	})
}

// testSupportDirs are the directory names that hold test support by Go
// convention: integration and end-to-end tests and their load generators,
// test helpers. Their code is not _test.go, because several tests or a test
// binary share it, but it is test code: it runs against a live service, a
// round trip per item, and nobody tunes its allocations (the corpus:
// certificate-transparency-go's trillian/integration hammer).
var testSupportDirs = map[string]bool{
	"integration": true,
	"e2e":         true,
	"testutil":    true,
	"testutils":   true,
	"testhelpers": true,
}

// testSupport reports whether the package at path is test support: a
// directory of its path is one of testSupportDirs.
func testSupport(path string) bool {
	return slices.ContainsFunc(strings.Split(path, "/"), func(dir string) bool { return testSupportDirs[dir] })
}
