package realworld

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hashalloc/hashalloc/internal/realworld/expect"
)

// Totals adds up the results of every module.
type Totals struct {
	Modules                                            int
	Findings, True, False, Neutral, Unexpected, Panics int
	Found, MustFind, Loud, Gone, Errors, FixFailures   int
	PerItemFound, PerItem                              int // audited per-item sites reported, and all
	Time                                               time.Duration
	Peak                                               int64
}

// Total adds up results.
func Total(results []*Result) Totals {
	var t Totals
	for _, r := range results {
		t.Modules++
		t.Findings += len(r.Findings)
		t.True += len(r.True)
		t.False += len(r.False)
		t.Neutral += len(r.Neutral)
		t.Unexpected += len(r.Unexpected)
		t.Panics += r.Panics
		t.Found += len(r.Found)
		t.MustFind += len(r.Found) + len(r.Missed)
		t.PerItemFound += len(r.PerItemFound)
		t.PerItem += len(r.PerItemFound) + len(r.PerItemMissed)
		t.Loud += len(r.Loud)
		t.Gone += len(r.Gone)
		t.Errors += len(r.Errors)
		t.Time += r.Time
		t.Peak = max(t.Peak, r.Peak)
		for _, f := range r.Fixes {
			t.FixFailures += len(f.Failures) + len(f.Again) + f.Missed()
		}
	}
	return t
}

// TotalHeldout adds up the results of the held-out modules (heldout true)
// or of the rest (false).
func TotalHeldout(results []*Result, heldout bool) Totals {
	var some []*Result
	for _, r := range results {
		if r.Module.Heldout == heldout {
			some = append(some, r)
		}
	}
	return Total(some)
}

// Recall is found / all audited per-item sites, or -1 when none was audited.
func Recall(found, all int) float64 {
	if all == 0 {
		return -1
	}
	return float64(found) / float64(all)
}

// Precision is true / (true + false), or -1 when nothing was judged.
func Precision(tp, fp int) float64 {
	if tp+fp == 0 {
		return -1
	}
	return float64(tp) / float64(tp+fp)
}

func percent(p float64) string {
	if p < 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*p)
}

// WriteTable prints one row per module and the total; when some of the
// modules are held out, a total row for them and one for the rest come
// before the total of all.
func WriteTable(w io.Writer, results []*Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "module\tfindings\ttrue\tfalse\tneutral\tprecision\tmust-find\tper-item\trecall\tunexpected\tpanics\ttime\tpeak mem")
	for _, r := range results {
		name := r.Module.Name()
		if r.Module.Heldout {
			name += " (held-out)"
		}
		if r.Failed() {
			name += " FAIL"
		}
		row(tw, name, Total([]*Result{r}))
	}
	held, rest := TotalHeldout(results, true), TotalHeldout(results, false)
	if held.Modules > 0 {
		row(tw, fmt.Sprintf("held-out (%d modules)", held.Modules), held)
		if rest.Modules > 0 {
			row(tw, fmt.Sprintf("rest (%d modules)", rest.Modules), rest)
		}
	}
	row(tw, fmt.Sprintf("total (%d modules)", len(results)), Total(results))
	tw.Flush()
}

func row(w io.Writer, name string, t Totals) {
	fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%s\t%d/%d\t%d/%d\t%s\t%d\t%d\t%.1fs\t%s\n",
		name, t.Findings, t.True, t.False, t.Neutral, percent(Precision(t.True, t.False)),
		t.Found, t.MustFind, t.PerItemFound, t.PerItem, percent(Recall(t.PerItemFound, t.PerItem)),
		t.Unexpected, t.Panics, t.Time.Seconds(), mib(t.Peak))
}

// WriteFixTable prints one row per module and pool mode.
func WriteFixTable(w io.Writer, results []*Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "module\tpool\tfiles\tpackages\tbuild/vet/test\tfixes offered again")
	for _, r := range results {
		for _, f := range r.Fixes {
			status := "ok"
			if len(f.Failures) > 0 {
				var steps []string
				for _, fl := range f.Failures {
					steps = append(steps, fl.Step+" "+fl.Package)
				}
				status = "FAIL: " + strings.Join(steps, ", ")
			} else if len(f.Changed) == 0 {
				status = "nothing changed"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\n", r.Module.Name(), f.Pool, f.Files, len(f.Changed), status, len(f.Again))
		}
	}
	tw.Flush()
}

// WriteBenchTable prints, per module with benchmarks and pool mode, each
// benchmark's allocs/op and B/op before and after the fixes, and where its
// targets stand.
func WriteBenchTable(w io.Writer, results []*Result) {
	has := false
	for _, r := range results {
		has = has || len(r.Module.Benches) > 0
	}
	if !has {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "module\tpool\tbenchmark\tallocs/op\tB/op\ttarget")
	for _, r := range results {
		for _, f := range r.Fixes {
			names := map[string]bool{}
			var order []string
			for _, list := range [][]BenchResult{r.Before, f.Bench} {
				for _, b := range list {
					if !names[b.Name] {
						names[b.Name] = true
						order = append(order, b.Name)
					}
				}
			}
			for _, n := range order {
				before, after := find(r.Before, n), find(f.Bench, n)
				var targets []string
				for _, t := range f.Targets {
					if t.Target.Name == n {
						targets = append(targets, targetStatus(t))
					}
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s -> %s\t%s -> %s\t%s\n", r.Module.Name(), f.Pool, n,
					figure(before, false), figure(after, false), figure(before, true), figure(after, true),
					strings.Join(targets, ", "))
			}
			for _, t := range f.Targets {
				if !names[t.Target.Name] {
					fmt.Fprintf(tw, "%s\t%s\t%s\t-\t-\t%s\n", r.Module.Name(), f.Pool, t.Target.Name, targetStatus(t))
				}
			}
		}
	}
	tw.Flush()
}

func find(list []BenchResult, name string) *BenchResult {
	for i := range list {
		if list[i].Name == name {
			return &list[i]
		}
	}
	return nil
}

// figure prints allocs/op (or B/op), "-" for a benchmark that did not run.
func figure(b *BenchResult, bytes bool) string {
	switch {
	case b == nil:
		return "-"
	case bytes:
		return fmt.Sprint(b.Bytes)
	}
	return fmt.Sprint(b.Allocs)
}

func targetStatus(t TargetResult) string {
	switch {
	case t.After < 0:
		return t.Target.Metric + "<=" + fmt.Sprint(t.Target.Max) + ": NOT RUN"
	case !t.Met:
		return t.Target.Metric + "<=" + fmt.Sprint(t.Target.Max) + ": MISSED"
	}
	return t.Target.Metric + "<=" + fmt.Sprint(t.Target.Max) + ": met"
}

// WriteDetails prints, per module, what needs attention: errors, panics,
// unexpected findings (as entries of the expectations file, verdict
// unjudged, ready to be judged and pasted), findings at must-stay-silent
// sites, judged findings no longer reported, the must-find and per-item
// sites, and the failed fixes.
func WriteDetails(w io.Writer, results []*Result) {
	for _, r := range results {
		fmt.Fprintf(w, "\n== %s\n", r.Module.Name())
		for _, e := range r.Errors {
			fmt.Fprintf(w, "error: %s\n", e)
		}
		for _, f := range r.Found {
			fmt.Fprintf(w, "must-find %s: found\n", f.Key)
		}
		for _, f := range r.Missed {
			fmt.Fprintf(w, "must-find %s: MISSED\n", f.Key)
		}
		for _, f := range r.PerItemFound {
			fmt.Fprintf(w, "per-item %s: found\n", f.Key)
		}
		for _, f := range r.PerItemMissed {
			fmt.Fprintf(w, "per-item %s: missed\n", f.Key)
		}
		for _, s := range r.Module.MustSilent {
			n := 0
			for _, l := range r.Loud {
				if l.Site == s {
					n++
					fmt.Fprintf(w, "must-stay-silent %s: NOT SILENT: %s:%d:%d %s\n", s.Where(), l.Finding.File, l.Finding.Line, l.Finding.Col, l.Finding.Message)
				}
			}
			if n == 0 {
				fmt.Fprintf(w, "must-stay-silent %s: silent\n", s.Where())
			}
		}
		for _, f := range r.Gone {
			fmt.Fprintf(w, "gone (judged %s, no longer reported): %s\n", f.Verdict, f.Key)
		}
		for _, u := range r.Unaccounted {
			fmt.Fprintf(w, "census: NO AUDIT LINE: %s\n", u)
		}
		if len(r.Unexpected) > 0 {
			fmt.Fprintf(w, "unexpected findings, to judge and paste under module %s %s:\n", r.Module.Path, r.Module.Version)
			WriteUnjudged(w, r.Unexpected)
		}
		for _, f := range r.Fixes {
			for _, fl := range f.Failures {
				fmt.Fprintf(w, "fix -pool=%s: %s %s fails after the fix (passes before):\n%s\n", f.Pool, fl.Step, fl.Package, indent(fl.Output))
			}
			for _, d := range f.Again {
				fmt.Fprintf(w, "fix -pool=%s: not idempotent, a fix is still offered at %s:%d:%d: %s\n", f.Pool, d.File, d.Line, d.Col, d.Message)
			}
			for _, t := range f.Targets {
				if !t.Met {
					fmt.Fprintf(w, "fix -pool=%s: target %s not met: %s before, %s after the fixes\n", f.Pool, t.Target, value(t.Before), value(t.After))
				}
			}
		}
	}
}

// WriteUnjudged prints findings as finding entries of the expectations file,
// verdict unjudged, with the message as the reason.
func WriteUnjudged(w io.Writer, diags []Diagnostic) {
	for _, d := range diags {
		f := &expect.Finding{Key: d.Key, Verdict: expect.Unjudged, Reason: d.Message}
		f.Format(w)
	}
}

func value(v int64) string {
	if v < 0 {
		return "not run"
	}
	return fmt.Sprint(v)
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t")
}

// WriteAudit writes, per module, the recall audit of a run with
// Config.Audit: each audited per-item site with what became of it (reported,
// or silent and why, or not looked at by any check), then every site a check
// looked at, reported (with its verdict) or silent (with why).
func WriteAudit(w io.Writer, results []*Result) {
	for _, r := range results {
		fmt.Fprintf(w, "\n== audit of %s: %d reported, %d silent, %d census sites\n", r.Module.Name(), len(r.Findings), len(r.Audit), r.CensusSites)
		for _, f := range r.Module.PerItem {
			fmt.Fprintf(w, "per-item %s: %s\n", f.Key, perItemFate(r, f.Key))
		}
		verdict := map[expect.Key]string{}
		for _, f := range r.Module.Findings {
			verdict[f.Key] = f.Verdict
		}
		type line struct {
			d    Diagnostic
			text string
		}
		var lines []line
		for _, d := range r.Findings {
			v, ok := verdict[d.Key]
			if !ok {
				v = expect.Unjudged
			}
			lines = append(lines, line{d, fmt.Sprintf("reported (%s): %s", v, d.Message)})
		}
		for _, d := range r.Audit {
			lines = append(lines, line{d, "silent: " + d.Message})
		}
		sort.SliceStable(lines, func(i, j int) bool { return less(lines[i].d.Key, lines[j].d.Key) })
		for _, l := range lines {
			fmt.Fprintf(w, "%s:%d:%d %s %s\n", l.d.File, l.d.Line, l.d.Col, l.d.Category, l.text)
		}
	}
}

// perItemFate says what the run r did with the per-item site k: reported,
// silent with the audit's reason, or looked at by no check.
func perItemFate(r *Result, k expect.Key) string {
	for _, d := range r.Findings {
		if d.Key == k {
			return "reported"
		}
	}
	var why []string
	for _, d := range r.Audit {
		if d.Key == k {
			why = append(why, d.Message)
		}
	}
	if len(why) == 0 {
		return "MISSED: no check looked at this line"
	}
	return "MISSED: " + strings.Join(why, "; ")
}
