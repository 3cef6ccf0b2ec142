package analyzer

// Reporting a finding: suppression, the fix's check, the message.

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashalloc/hashalloc/fixes"
	"golang.org/x/tools/go/analysis"
)

// advise completes msg with what to do: the fix's message, or the manual
// advice and the reason no fix is offered.
func advise(msg string, fix *analysis.SuggestedFix, manual, why string) string {
	if fix != nil {
		return msg + "; automatic fix: " + lowerFirst(fix.Message)
	}
	return msg + "; " + manual + " (no automatic fix: " + why + ")"
}

// lowerFirst returns s with its first letter lower-cased: a fix's message
// within a finding's.
func lowerFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[size:]
}

// report emits a diagnostic of the given category at node, unless a comment
// suppresses it. msg says what is found; the fix, when there is one and it
// passes fixes.File.Check, completes it, else manual says what to do and why
// why there is no fix. It reports whether a fix was offered; flush may still
// withdraw it, when the fixed file does not parse or the type checker
// rejects it (see proveFixes).
func (p *pass) report(node ast.Node, category, msg string, fix *analysis.SuggestedFix, manual, why string) bool {
	if !p.shows(node, category) {
		why := "a //hashalloc:ignore or //nolint:hashalloc directive silences it"
		if !p.cfg.checks.enabled(category) {
			why = "-checks turns " + category + " off"
		}
		p.silent(node, category, why+": "+msg)
		return false
	}
	var file *fixes.File
	if fix != nil {
		var err error
		if file, err = p.fixFile(node, fix); err != nil {
			fix, why = nil, err.Error()
		}
	}
	ev := p.evidence(node)
	p.out.pending = append(p.out.pending, &finding{ // held back until flush
		d:        analysis.Diagnostic{Pos: node.Pos(), End: node.End(), Category: category, Related: ev.related},
		node:     node,
		what:     msg + ev.note(),
		fix:      fix,
		manual:   manual,
		why:      why,
		share:    ev.share,
		line:     ev.line,
		unparsed: file,
	})
	return fix != nil
}

// shows reports whether a finding of category at node would be shown: its
// check is enabled and no directive suppresses it.
func (p *pass) shows(node ast.Node, category string) bool {
	return p.cfg.checks.enabled(category) && !p.suppress.suppressed(node.Pos(), category)
}

// finding is a diagnostic held back until flush, with the parts of its
// message: what is found, and the fix or what to do by hand.
type finding struct {
	d           analysis.Diagnostic // without its message and fix
	node        ast.Node            // what it reports
	what        string
	fix         *analysis.SuggestedFix
	manual, why string
	share, line float64 // see evidence
	// unparsed is the file of a fix not yet parsed with its edits (see
	// File.Check): the fixes are parsed alone only when proveFixes cannot
	// prove them all at once.
	unparsed *fixes.File
}

// diagnostic completes the finding's diagnostic with its message and fix.
func (f *finding) diagnostic() analysis.Diagnostic {
	d := f.d
	d.Message = d.Category + ": " + advise(f.what, f.fix, f.manual, f.why)
	if f.fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*f.fix}
	}
	return d
}

// proveFixes type-checks the package with the fixes of its findings, each
// alone (an editor applies one quick fix) and all together (as -fix, go fix
// and golangci-lint --fix apply them), and withdraws, with the reason, a fix
// whose result does not type-check or that breaks another: a fix that parses
// can still break the build (it removes an import that a function it keeps
// still uses; it adds a field to a struct that a positional literal builds).
// Fixes that overlap are not applied together by any driver (the second is
// applied by the next run), so they are not checked together either.
//
// Each fix is parsed alone (fixes.File.Check) only when the fixes cannot be
// proved all at once: one type-check that proves them all proves that each
// parses.
func (p *pass) proveFixes(findings []*finding) {
	fixed := slices.DeleteFunc(slices.Clone(findings), func(f *finding) bool { return f.fix == nil })
	if len(fixed) == 0 {
		return
	}
	tried := false // proveAll, on these fixes
	if len(fixed) > 1 && p.insertOnly(fixed) {
		// As below, before parsing each fix alone: the import edits
		// are planned again, from the fixes as they were built, if
		// this check fails.
		built := make([][]analysis.TextEdit, len(fixed))
		for i, f := range fixed {
			built[i] = f.fix.TextEdits
		}
		if p.proveAll(p.verifier(fixed)) {
			return
		}
		for i, f := range fixed {
			f.fix.TextEdits = built[i]
		}
		tried = true
	}
	n := len(fixed)
	for _, f := range fixed {
		if f.unparsed != nil {
			if err := f.unparsed.Check(*f.fix); err != nil {
				f.fix, f.why = nil, err.Error()
			}
			f.unparsed = nil
		}
	}
	fixed = slices.DeleteFunc(fixed, func(f *finding) bool { return f.fix == nil })
	p.proveEach(fixed, !tried || len(fixed) < n)
}

// verifier returns the verifier of the package's fixes and the fixes of
// findings, their import edits planned together.
func (p *pass) verifier(findings []*finding) (*fixes.Verifier, []*analysis.SuggestedFix) {
	// The package without its test files: a package and its test variant
	// must give the same verdict (see analyzedRoot).
	var files []*ast.File
	for _, f := range p.Files {
		if !strings.HasSuffix(p.Fset.File(f.FileStart).Name(), "_test.go") {
			files = append(files, f)
		}
	}
	v := &fixes.Verifier{Fset: p.Fset, Files: files, Pkg: p.Pkg, Info: p.TypesInfo, Sizes: p.TypesSizes,
		Source: p.source}
	// The import edits of the fixes of each file, planned together: any of
	// them compose in every driver (see fixes.ComposeImports).
	planned := make([]*analysis.SuggestedFix, len(findings))
	for i, f := range findings {
		planned[i] = f.fix
	}
	fixes.ComposeImports(p.Fset, p.Files, v.Source, planned)
	return v, planned
}

// proveAll reports whether the fixes of findings, which all edit only
// inside function bodies and, outside them, only insert (an import, a
// declaration), are proved by one check of v (with the fixes as planned):
// such fixes do not interact but through what they insert, which no
// original code refers to. Then if all of them together type-check without
// removing unused imports, each alone does, with the bodies the others
// change left as they were, and together with the removal.
func (p *pass) proveAll(v *fixes.Verifier, planned []*analysis.SuggestedFix) bool {
	return v.Check(false, planned...) == nil
}

// proveEach checks the fixes of findings, each of which parses, one by one
// and then together, as proveFixes says; first all at once (see proveAll)
// unless all is false: proveAll failed on these fixes.
func (p *pass) proveEach(fixed []*finding, all bool) {
	if len(fixed) == 0 {
		return
	}
	v, planned := p.verifier(fixed)
	if all && len(fixed) > 1 && p.insertOnly(fixed) && p.proveAll(v, planned) {
		return
	}
	var alone []*finding
	var each []*analysis.SuggestedFix
	for _, f := range fixed {
		if err := v.Check(false, f.fix); err != nil {
			f.fix, f.why = nil, "the fixed code would not compile: "+err.Error()
			continue
		}
		alone, each = append(alone, f), append(each, f.fix)
	}
	if len(alone) < 2 {
		return
	}
	if err := v.Check(true, each...); err == nil {
		return
	}
	var together []*analysis.SuggestedFix
	for _, f := range alone {
		err := v.Check(true, append(together, f.fix)...)
		switch {
		case err == nil:
			together = append(together, f.fix)
		case errors.Is(err, fixes.ErrOverlap):
			// Applied by the next run, alone or with others.
		default:
			f.fix, f.why = nil, "the fixed code would not compile together with the package's other fixes: "+err.Error()
		}
	}
}

// source returns a file's content: the driver's view of it first (an
// editor's buffer), else the file: a cgo package's processed files are not
// the pass's to read.
func (p *pass) source(tf *token.File) ([]byte, error) {
	if src, err := p.ReadFile(tf.Name()); err == nil {
		return src, nil
	}
	return os.ReadFile(tf.Name())
}

// placeHelpers moves the declarations that the fixes of findings share to
// the place a reader meets them (see fixes.PlaceHelpers), once the fixes are
// proved: where a package-level declaration goes does not change how the
// package type-checks.
func (p *pass) placeHelpers(findings []*finding) {
	var fs []*analysis.SuggestedFix
	var at []token.Pos
	for _, f := range findings {
		if f.fix != nil {
			fs = append(fs, f.fix)
			at = append(at, f.d.Pos)
		}
	}
	fixes.PlaceHelpers(p.Fset, p.Files, p.source, fs, at)
}

// insertOnly reports whether every edit of the fixes of findings lies inside
// a function's body or, outside every body, deletes nothing.
func (p *pass) insertOnly(findings []*finding) bool {
	var bodies []*ast.BlockStmt
	for _, f := range p.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				bodies = append(bodies, fd.Body)
			}
		}
	}
	slices.SortFunc(bodies, func(a, b *ast.BlockStmt) int { return cmp.Compare(a.Lbrace, b.Lbrace) })
	inBody := func(e analysis.TextEdit) bool {
		i, _ := slices.BinarySearchFunc(bodies, e.Pos, func(b *ast.BlockStmt, pos token.Pos) int { return cmp.Compare(b.Lbrace, pos) })
		// bodies[i-1] is the last body that opens before pos.
		return i > 0 && bodies[i-1].Lbrace < e.Pos && e.End < bodies[i-1].Rbrace
	}
	for _, f := range findings {
		for _, e := range f.fix.TextEdits {
			if e.End.IsValid() && e.End != e.Pos && !inBody(e) {
				return false // a deletion outside the bodies
			}
		}
	}
	return true
}

// checkFix says why fix cannot be offered at node: its edits are not valid
// in node's file (see fixFile and fixes.File.Check).
func (p *pass) checkFix(node ast.Node, fix *analysis.SuggestedFix) error {
	f, err := p.fixFile(node, fix)
	if err != nil {
		return err
	}
	return f.Check(*fix)
}

// fixFile returns the file that fix edits, at node, or says why the fix
// cannot be offered there, short of parsing the fixed file: it imports the
// runtime module into a file whose Go version is older than the module's or
// into a module that cannot import it.
func (p *pass) fixFile(node ast.Node, fix *analysis.SuggestedFix) (*fixes.File, error) {
	if p.inCgoFile(node.Pos()) {
		return nil, errCgoFix
	}
	f := p.file(node.Pos())
	if f == nil {
		return nil, fmt.Errorf("the source file cannot be read")
	}
	for _, e := range fix.TextEdits {
		if !bytes.Contains(e.NewText, []byte(fixes.RuntimeModule+"/")) {
			continue
		}
		if !f.AtLeast(fixes.RuntimeGo) {
			return nil, fmt.Errorf("the runtime module needs Go %s and this file is %s (-pool=inline works on it)", strings.TrimPrefix(fixes.RuntimeGo, "go"), f.Version)
		}
		if m := p.runtimeMissing(); m != "" {
			return nil, fmt.Errorf("-pool=runtime: %s does not require %s (require it, or leave -pool to its default, which declares the pools in the fixed file)", m, fixes.RuntimeModule)
		}
		break
	}
	// Reject SHA-3 from the standard library (Go 1.24) in an older file: its
	// module may be built by a toolchain without it.
	if !f.AtLeast("go1.24") {
		for _, e := range fix.TextEdits {
			if bytes.Contains(e.NewText, []byte("SHA3_")) || bytes.Contains(e.NewText, []byte(`"crypto/sha3"`)) {
				return nil, fmt.Errorf("SHA-3 in the standard library needs Go 1.24 and this file is %s", f.Version)
			}
		}
	}
	return f, nil
}

// oneFindingPerValue reports a value once: the findings of one category at
// constructor calls whose values a local variable holds where branches
// join (see values.Choices) are one finding, at the first, where a reader
// meets the variable; its message names every constructor, and its fix
// makes the edits of all of theirs, or none when one of them has none. The
// others get an audit line that points to it.
func (p *pass) oneFindingPerValue(findings []*finding) []*finding {
	exprs := make([]ast.Expr, len(findings))
	for i, f := range findings {
		exprs[i], _ = f.node.(ast.Expr)
	}
	merged := map[*finding]bool{}
	for _, c := range p.vals.Choices(p.root, exprs, func(i int) string { return findings[i].d.Category }) {
		first, list := findings[c.At[0]], ""
		fs := make([]*analysis.SuggestedFix, len(c.At))
		for i, at := range c.At {
			f := findings[at]
			list, fs[i] = joinOr(list, siteText(f.node)), f.fix
			first.share, first.line = max(first.share, f.share), max(first.line, f.line)
			if f.fix == nil && first.fix != nil {
				first.fix, first.why = nil, siteText(f.node)+" at "+p.position(f.d.Pos)+" cannot be fixed: "+f.why
			}
			if merged[f] = f != first; merged[f] {
				p.silent(f.node, f.d.Category, "reported with the finding at "+p.position(first.d.Pos)+": the same value of "+c.Var.Name())
			}
		}
		how := "assigned to " + c.Var.Name()
		if c.Join.Valid() {
			how = "chosen by the " + stmtWord(c.Join.Node()) + " at " + p.position(c.Join.Node().Pos())
		}
		first.what += fmt.Sprintf("; %s holds %s, %s: one finding for its %d constructors", c.Var.Name(), list, how, len(c.At))
		if first.fix != nil {
			fix, i, err := fixes.Merge(p.Fset, p.Fset.File(first.d.Pos), fs)
			if first.fix = fix; err != nil {
				first.why = "the fix of " + siteText(findings[c.At[i]].node) + " at " + p.position(findings[c.At[i]].d.Pos) + " cannot be made with the others: " + err.Error()
			}
		}
	}
	return slices.DeleteFunc(findings, func(f *finding) bool { return merged[f] })
}
