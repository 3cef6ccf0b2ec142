package prove

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer"
)

// Report is what hashalloc prove -json prints.
type Report struct {
	Module   string   `json:"module"`
	Dir      string   `json:"dir"` // the module's root in your tree
	Packages []string `json:"packages"`
	// Bench, Benchtime and Count are the flags the benchmarks ran with.
	Bench     string `json:"bench"`
	Benchtime string `json:"benchtime"`
	Count     int    `json:"count"`
	// Benchmarks are the comparisons before and after the fixes, one per
	// benchmark and unit.
	Benchmarks []Comparison `json:"benchmarks"`
	Findings   []Finding    `json:"findings"`
	// Fixed are the files the fixes changed on the copy.
	Fixed []FixedFile `json:"fixed,omitempty"`
	// Tested are the packages whose tests ran on the fixed copy: those the
	// fixes can change.
	Tested []string `json:"tested,omitempty"`
	// Unprofiled reports that the benchmarks allocate nothing, so that the
	// analysis had no profile: static evidence alone decided what is hot.
	Unprofiled bool `json:"unprofiled,omitempty"`
	// Applied reports whether the fixes were written into your tree (-fix).
	Applied bool `json:"applied"`
	// VetFailed is what go vet said of the code before any fix, when it
	// failed: the benchmarks and tests then ran with -vet=off.
	VetFailed string `json:"vetFailed,omitempty"`
	// Note says why nothing was measured, when nothing was.
	Note string `json:"note,omitempty"`
	// Error says why prove failed, and Blame which fixes did it.
	Error   string  `json:"error,omitempty"`
	Blame   []Blame `json:"blame,omitempty"`
	Seconds float64 `json:"seconds"`
}

// FixedFile is a file the fixes changed, and how many findings they fixed
// in it.
type FixedFile struct {
	File     string `json:"file"`
	Findings int    `json:"findings"`
}

// printReport prints the report as text: the header, benchstat's tables
// per package, the findings with their shares, what was fixed and tested,
// and the verdict.
func (p *prover) printReport(w io.Writer) {
	r := &p.report
	if r.Module == "" {
		return // nothing got as far as a module
	}
	var benches []string
	for _, bp := range p.bench {
		benches = append(benches, bp.rel+": "+strings.Join(bp.benchmarks, " "))
	}
	fmt.Fprintf(w, "hashalloc prove %s (-bench=%s -benchtime=%s -count=%d)\n", r.Module, r.Bench, r.Benchtime, r.Count)
	if len(benches) > 0 {
		fmt.Fprintf(w, "benchmarks: %s\n", strings.Join(benches, "; "))
	}

	first := true
	for _, bp := range p.bench {
		var rows []Comparison
		for _, c := range r.Benchmarks {
			if c.Package == bp.pkg.ImportPath {
				rows = append(rows, c)
			}
		}
		if len(rows) == 0 {
			continue
		}
		// benchstat's header: the machine once, the package per table.
		fmt.Fprintln(w)
		for _, key := range []string{"goos", "goarch", "pkg", "cpu"} {
			if v := bp.config[key]; v != "" && (first || key == "pkg") {
				fmt.Fprintf(w, "%s: %s\n", key, v)
			}
		}
		first = false
		writeTables(w, rows)
	}

	if len(p.findings) > 0 {
		if r.Unprofiled {
			fmt.Fprintf(w, "\nfindings (the benchmarks allocate nothing: static evidence alone decides what is hot):\n")
		} else {
			fmt.Fprintf(w, "\nfindings, with the share of the benchmarks' allocation profile in their functions:\n")
		}
		for _, f := range p.findings {
			share := "-"
			if m := shareRE.FindStringSubmatch(f.Message); m != nil {
				share = m[1] // as the message rounds it
			} else if f.Share != nil {
				share = analyzer.Percent(*f.Share)
			}
			file := p.short(f.tree)
			fmt.Fprintf(w, "%6s  %s:%d:%d: %s\n", share, file, f.line, f.col, f.Message)
			switch {
			case f.Fixed:
				fmt.Fprintf(w, "        fixed\n")
			case f.fix != nil:
				fmt.Fprintf(w, "        reported, not fixed: its fix was not applied (it overlaps another)\n")
			default:
				fmt.Fprintf(w, "        reported, not fixed: %s\n", f.NotFixed)
			}
		}
	} else if r.Note == "" && r.Error == "" {
		fmt.Fprintf(w, "\nno findings\n")
	}
	if len(r.Fixed) > 0 {
		var files []string
		for _, ff := range r.Fixed {
			files = append(files, fmt.Sprintf("%s (%d %s)", p.short(ff.File), ff.Findings, plural(ff.Findings, "finding", "findings")))
		}
		fmt.Fprintf(w, "\nfixed on the copy: %s\n", strings.Join(files, ", "))
	}
	if len(r.Tested) > 0 {
		result := "ok"
		if p.testsFailed {
			result = "FAIL"
		}
		vet := ""
		if r.VetFailed != "" {
			vet = " -vet=off"
		}
		fmt.Fprintf(w, "tested on the fixed copy (go test -count=1%s%s): %s: %s\n", vet, runFlag(p.o.run), p.rels(r.Tested), result)
	}
	switch {
	case r.Note != "":
		fmt.Fprintf(w, "\n%s\n", r.Note)
	case r.Error != "":
	case r.Applied:
		var files []string
		for _, ff := range r.Fixed {
			files = append(files, p.short(ff.File))
		}
		fmt.Fprintf(w, "\nthe fixes hold: the tests pass and no benchmark allocates more; applied to %s\n", strings.Join(files, ", "))
	default:
		fmt.Fprintf(w, "\nthe fixes hold: the tests pass and no benchmark allocates more; hashalloc prove -fix %s applies them\n", strings.Join(p.o.patterns, " "))
	}
}

// shareRE finds the share of the profile that a finding's message gives.
var shareRE = regexp.MustCompile(`\(profile: ([0-9.]+%) of `)

func runFlag(run string) string {
	if run == "" {
		return ""
	}
	return " -run=" + run
}
