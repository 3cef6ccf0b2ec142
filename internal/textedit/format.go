package textedit

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// Finish completes the fixes of a file: it applies edits (sorted, merged) to
// src, removes the imports the result leaves unused (see
// RemoveUnusedImports; pkg is the file's package before the fixes) and
// formats what the fixes touched (see FormatTouched). It fails when the
// fixed file does not parse.
func Finish(src []byte, edits []Edit, pkg *types.Package) ([]byte, error) {
	fixed, err := Apply(src, edits)
	if err != nil {
		return nil, err
	}
	if fixed, err = RemoveUnusedImports(fixed, pkg); err != nil {
		return nil, err
	}
	return FormatTouched(src, fixed)
}

// FormatTouched formats the lines of fixed that differ from orig as gofmt
// would, with what gofmt changes next to them (the alignment of the fields
// around a new one), and leaves every other line of fixed byte for byte: a
// fix rewrites what it changes, never a doc comment elsewhere in a file that
// was not gofmt-clean. It fails when fixed does not parse.
func FormatTouched(orig, fixed []byte) ([]byte, error) {
	formatted, err := format.Source(fixed)
	if err != nil {
		return nil, err
	}
	before, after, gofmt := lines(orig), lines(fixed), lines(formatted)

	// The lines of fixed that the fixes touched, and the places where they
	// deleted lines (the line after a deletion counts as touched, and the
	// one before it).
	touched := make([]bool, len(after)+1)
	for _, op := range lineOpCodes(before, after) {
		if op.Tag == 'e' {
			continue
		}
		for j := max(op.J1-1, 0); j <= op.J2 && j < len(touched); j++ {
			touched[j] = true
		}
	}
	// gofmt sorts an import declaration's lines: a fix that touches one of
	// them takes the whole declaration as gofmt spells it, or the lines
	// gofmt moves would be deleted from where they were and not inserted
	// where they go.
	for _, r := range importLines(fixed) {
		r[1] = min(r[1], len(touched))
		if slices.Contains(touched[r[0]:r[1]], true) {
			for j := r[0]; j < r[1]; j++ {
				touched[j] = true
			}
		}
	}
	near := func(i1, i2 int) bool {
		for j := max(i1-1, 0); j <= i2 && j < len(touched); j++ {
			if touched[j] {
				return true
			}
		}
		return false
	}

	var b strings.Builder
	b.Grow(len(fixed))
	for _, op := range lineOpCodes(after, gofmt) {
		if op.Tag == 'e' || !near(op.I1, op.I2) {
			b.WriteString(strings.Join(after[op.I1:op.I2], ""))
			continue
		}
		b.WriteString(strings.Join(gofmt[op.J1:op.J2], ""))
	}
	return []byte(b.String()), nil
}

// importLines returns the lines of src's import declarations, each as the
// range [first, end) of line indexes, from the declaration's line to the
// line after its closing parenthesis.
func importLines(src []byte) [][2]int {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "fixed.go", src, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var ranges [][2]int
	for _, decl := range f.Decls {
		if gen, ok := decl.(*ast.GenDecl); ok && gen.Tok == token.IMPORT {
			ranges = append(ranges, [2]int{fset.Position(gen.Pos()).Line - 1, fset.Position(gen.End()).Line})
		}
	}
	return ranges
}

// matcher compares two lists of lines, without the junk heuristic of
// difflib, which would take frequent lines such as "}" for noise.
func matcher(a, b []string) *difflib.SequenceMatcher {
	return difflib.NewMatcherWithJunk(a, b, false, nil)
}

// lines splits s after each newline; the last line may lack one.
func lines(s []byte) []string {
	l := strings.SplitAfter(string(s), "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}
