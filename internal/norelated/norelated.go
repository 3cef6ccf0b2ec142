// Package norelated adapts hashalloc to hosts that show a diagnostic's
// related information as findings of their own: golangci-lint makes each
// entry an issue ("hashalloc(related information): evidence: loop: ...")
// that --fix cannot remove, and go vet -vettool prints each one on a line
// of its own. hashalloc's related information is the evidence of a finding,
// which its message already says in words, so these hosts get the message
// alone. The standalone command and the language server keep it.
package norelated

import "golang.org/x/tools/go/analysis"

// Wrap returns a copy of a whose diagnostics carry no related information.
// The copy shares a's flags, requirements and fact types.
func Wrap(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	run := a.Run
	w.Run = func(pass *analysis.Pass) (any, error) {
		p := *pass
		p.Report = func(d analysis.Diagnostic) {
			d.Related = nil
			pass.Report(d)
		}
		return run(&p)
	}
	return &w
}
