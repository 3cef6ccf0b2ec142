package analyzer

// Reporting a finding: suppression, the fix's check, the message.

import (
	"bytes"
	"fmt"
	"go/ast"
	"strings"

	"github.com/hashalloc/hashalloc/fixes"
	"golang.org/x/tools/go/analysis"
)

// advise completes msg with what to do: the fix's message, or the manual
// advice and the reason no fix is offered.
func advise(msg string, fix *analysis.SuggestedFix, manual, why string) string {
	if fix != nil {
		return msg + "; " + lowerFirst(fix.Message)
	}
	return msg + "; " + manual + " (no automatic fix: " + why + ")"
}

// report emits a diagnostic of the given category at node, unless a comment
// suppresses it. msg says what is found; the fix, when there is one and it
// passes fixes.File.Check, completes it, else manual says what to do and why
// why there is no fix. It reports whether a fix was offered.
func (p *pass) report(node ast.Node, category, msg string, fix *analysis.SuggestedFix, manual, why string) bool {
	if !p.cfg.checks.enabled(category) || p.suppress.suppressed(node.Pos(), category) {
		return false
	}
	if fix != nil {
		if err := p.checkFix(node, fix); err != nil {
			fix, why = nil, err.Error()
		}
	}
	ev := p.evidence(node)
	d := analysis.Diagnostic{
		Pos:      node.Pos(),
		End:      node.End(),
		Category: category,
		Message:  category + ": " + advise(msg+ev.note(), fix, manual, why),
		Related:  ev.related,
	}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	p.emit(d, ev)
	return fix != nil
}

// checkFix says why fix cannot be offered at node: its edits are not valid
// in node's file, or it imports the runtime module into a file whose Go
// version is older than the module's.
func (p *pass) checkFix(node ast.Node, fix *analysis.SuggestedFix) error {
	if p.inCgoFile(node.Pos()) {
		return errCgoFix
	}
	f := p.file(node.Pos())
	if f == nil {
		return fmt.Errorf("the source file cannot be read")
	}
	if !f.AtLeast(fixes.RuntimeGo) {
		for _, e := range fix.TextEdits {
			if bytes.Contains(e.NewText, []byte(fixes.RuntimeModule+"/")) {
				return fmt.Errorf("the runtime module needs Go %s and this file is %s (-pool=inline works on it)", strings.TrimPrefix(fixes.RuntimeGo, "go"), f.Version)
			}
		}
	}
	// Reject SHA-3 from the standard library (Go 1.24) in an older file: its
	// module may be built by a toolchain without it.
	if !f.AtLeast("go1.24") {
		for _, e := range fix.TextEdits {
			if bytes.Contains(e.NewText, []byte("SHA3_")) || bytes.Contains(e.NewText, []byte(`"crypto/sha3"`)) {
				return fmt.Errorf("SHA-3 in the standard library needs Go 1.24 and this file is %s", f.Version)
			}
		}
	}
	return f.Check(*fix)
}
