package analyzer

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// Every finding says what its hotness rests on, in a form that every driver
// carries: the message says it in words, and the diagnostic's related
// information lists it, one entry per piece of evidence, for tools (the -json
// output has them under "related"):
//
//	evidence: loop: ...              at the loop that repeats the finding
//	evidence: caller-chain: ...      at each call that passes the frequency on
//	evidence: recursion: ...         at the function, for a call cycle
//	evidence: role: ...              at the function the standard library calls in a loop
//	evidence: directive: ...         at the function marked //hashalloc:hot
//	evidence: profile: ...           at the function a profile measured hot
//	evidence: hashing-function: ...  at a function that returns a hash of what it is given
//	evidence: child-derivation: ...  at a method that derives a child of its receiver by index
//	share: 0.3125 of ...             with a profile: the share of its samples in the function
//
// A finding without evidence is one that its check reports wherever it
// occurs (concat-hash, hmac-rekey with a fixed key).
// With a profile, the findings of each package are reported in decreasing
// order of share, so that the text output lists the costliest first.

// Share returns the share of a profile's samples measured in the function
// of a finding of hashalloc, from its related information, and false when no
// profile measured it: drivers sort findings by it.
func Share(d analysis.Diagnostic) (float64, bool) {
	for _, r := range d.Related {
		if rest, ok := strings.CutPrefix(r.Message, sharePrefix); ok {
			v, _, _ := strings.Cut(rest, " ")
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				return f, true
			}
		}
	}
	return 0, false
}

// evidence is the hotness evidence of one finding.
type evidence struct {
	related []analysis.RelatedInformation
	share   float64 // -1 without a profile that covers the package
	where   string  // the function the share was measured in
	line    float64 // the share at the finding's line, -1 when not sampled there
	unit    string  // what the share is a share of
}

// evidencePrefix and sharePrefix start the messages of the related
// information that a finding's evidence and share are given in.
const (
	evidencePrefix = "evidence: "
	sharePrefix    = "share: "
)

// evidence gathers what the estimate of a finding at node rests on (what
// the frequency model gave when the check asked, see often), and the share a
// profile measured in its function.
func (p *pass) evidence(node ast.Node) evidence {
	ev := evidence{share: -1, line: -1}
	for _, e := range p.out.estimates[node].Evidence {
		ev.related = append(ev.related, analysis.RelatedInformation{Pos: e.Pos, Message: evidencePrefix + e.Kind + ": " + e.Msg})
	}
	decl, ok := p.declAt(node.Pos())
	if !ok {
		return ev
	}
	fn, _ := p.TypesInfo.Defs[decl.Node().(*ast.FuncDecl).Name].(*types.Func)
	if fn == nil {
		return ev
	}
	if share, ok := p.freq.Share(fn); ok {
		ev.share, ev.where, ev.unit = share, fn.Name(), p.cfg.profile.unit
		// the share of the samples with the node's line on their stack
		x := p.cfg.profile
		if line := float64(x.lines[funcLine{symbolOf(fn), int64(p.Fset.Position(node.Pos()).Line)}]) / float64(x.total); line > 0 {
			ev.line = line
		}
		ev.related = append(ev.related, analysis.RelatedInformation{
			Pos:     decl.Node().(*ast.FuncDecl).Name.Pos(),
			Message: sharePrefix + strconv.FormatFloat(share, 'f', 4, 64) + " of " + ev.unit + " in " + fn.Name(),
		})
	}
	return ev
}

// note is what the message says of the share: " (profile: 31% of sampled
// CPU time in f, 12% at this line)", or nothing without a profile.
func (ev evidence) note() string {
	if ev.share < 0 {
		return ""
	}
	s := fmt.Sprintf(" (profile: %s of %s in %s", Percent(ev.share), ev.unit, ev.where)
	if ev.line > 0 {
		s += ", " + Percent(ev.line) + " at this line"
	}
	return s + ")"
}

// declAt returns the function declaration of the analyzed files that holds
// pos (from its func keyword to its closing brace, both ends included, as
// inspector.Cursor.FindByPos holds them), by binary search in the
// declarations sorted once by position (FindByPos walks the declarations
// before pos: quadratic in the findings of a file).
func (p *pass) declAt(pos token.Pos) (inspector.Cursor, bool) {
	if p.out.decls == nil {
		p.out.decls = slices.SortedFunc(p.root.Preorder((*ast.FuncDecl)(nil)), func(a, b inspector.Cursor) int {
			return cmp.Compare(a.Node().Pos(), b.Node().Pos())
		})
	}
	i, found := slices.BinarySearchFunc(p.out.decls, pos, func(c inspector.Cursor, pos token.Pos) int {
		return cmp.Compare(c.Node().Pos(), pos)
	})
	if !found {
		i--
	}
	if i < 0 || pos > p.out.decls[i].Node().End() {
		return inspector.Cursor{}, false
	}
	return p.out.decls[i], true
}

// output is what a pass holds back of its findings until flush, and the
// concatenations concat-hash found (the per-call facts count them).
type output struct {
	decls     []inspector.Cursor              // every function declaration, by position (see declAt)
	estimates map[ast.Node]frequency.Estimate // the model's estimate at each site often was asked about
	pending   []*finding
	concats   []concatFound
	silent    []silentSite // with -audit
}

// silentSite is a site a check looked at and did not report, and why.
type silentSite struct {
	node     ast.Node
	category string
	why      string
}

// silent records, for the audit, a site that a check looked at and did not
// report, and why.
func (p *pass) silent(node ast.Node, category, why string) {
	if p.cfg.audit {
		p.out.silent = append(p.out.silent, silentSite{node, category, why})
	}
}

// AuditCategory is the category of the audit's entries: the sites that a
// check looked at and did not report, with why (-audit). They are not
// findings: a run that prints only them has found nothing.
const AuditCategory = "audit"

// concatFound is a concatenation built only to be hashed: where, what it is
// ("append(prefix, leaf...) builds a buffer only to hash it with
// sha256.Sum256"), and whether concat-hash reported it.
type concatFound struct {
	pos   token.Pos
	what  string
	shown bool
}

// flush proves the fixes of the findings held back and reports them: with a
// profile, the largest share first (then by position); without one, in the
// order they were found.
func (p *pass) flush() {
	p.out.pending = p.oneFindingPerValue(p.out.pending)
	if p.cfg.unproved != nil {
		var diags []analysis.Diagnostic
		for _, f := range p.reportOrder(slices.Clone(p.out.pending)) {
			d := f.diagnostic()
			if f.fix != nil {
				d.Message = d.Category + ": " + f.what + "; automatic fix being checked: " + lowerFirst(f.fix.Message)
			}
			diags = append(diags, d)
		}
		p.cfg.unproved(p.Pass, append(diags, p.auditDiagnostics()...))
	}
	p.proveFixes(p.out.pending) // in the order found: it decides which fixes go together
	pending := p.reportOrder(p.out.pending)
	p.placeHelpers(pending)
	for _, f := range pending {
		p.Report(f.diagnostic())
	}
	p.out.pending = nil
	for _, d := range p.auditDiagnostics() {
		p.Report(d)
	}
	p.out.silent = nil
}

// reportOrder sorts findings in the order they are reported: with a
// profile, the largest share first (then by position); without one, in the
// order they were found.
func (p *pass) reportOrder(findings []*finding) []*finding {
	if p.cfg.profile != nil {
		slices.SortStableFunc(findings, func(a, b *finding) int {
			if c := cmp.Compare(b.share, a.share); c != 0 {
				return c
			}
			if c := cmp.Compare(b.line, a.line); c != 0 {
				return c
			}
			return cmp.Compare(a.d.Pos, b.d.Pos)
		})
	}
	return findings
}

// auditDiagnostics are the diagnostics of the sites a check left silent
// (with -audit).
func (p *pass) auditDiagnostics() []analysis.Diagnostic {
	var diags []analysis.Diagnostic
	for _, s := range p.out.silent {
		diags = append(diags, analysis.Diagnostic{Pos: s.node.Pos(), End: s.node.End(), Category: AuditCategory,
			Message: AuditCategory + ": " + s.category + ": " + siteText(s.node) + " is silent: " + s.why})
	}
	return diags
}

// siteText spells the site at n for the audit: the expression, or the
// statement's first expression.
func siteText(n ast.Node) string {
	switch n := n.(type) {
	case ast.Expr:
		return shorten(types.ExprString(n))
	case *ast.AssignStmt:
		if len(n.Rhs) == 1 {
			return shorten(types.ExprString(n.Rhs[0]))
		}
	}
	return "the statement"
}
