package prove

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
)

// confidence is the level of the confidence intervals of the medians, as
// benchstat's.
const confidence = 0.95

// units are the units of the tables, in benchstat's order: time, then bytes,
// then allocations, as go test -benchmem prints them (after benchfmt tidies
// ns/op into sec/op).
var units = []string{"sec/op", "B/op", "allocs/op"}

// Summary is the median of a sample and its confidence interval.
type Summary struct {
	Median float64 `json:"median"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	N      int     `json:"n"`

	pctRange string // "2%", "∞" when the sample is too small
}

// Comparison is one benchmark in one unit before and after the fixes, with
// the statistics benchstat computes: medians with their 95% confidence
// intervals and the p-value of a Mann-Whitney U-test.
type Comparison struct {
	Package   string  `json:"package"`
	Benchmark string  `json:"benchmark"` // "HashAlternatives/recursive-2", as benchstat names it
	Unit      string  `json:"unit"`
	Before    Summary `json:"before"`
	After     Summary `json:"after"`
	// Delta is the relative change of the medians (-0.5996 for -59.96%),
	// NaN (null in JSON) when the median before is 0 and after is not.
	Delta float64 `json:"delta"`
	P     float64 `json:"p"`
	// Significant reports whether P is below the alpha level (0.05): the
	// samples differ.
	Significant bool     `json:"significant"`
	Warnings    []string `json:"warnings,omitempty"`

	before, after []float64 // the runs, sorted
}

// compare summarizes the samples before and after of one benchmark in one
// unit, as benchstat does: benchmath's assumption of nothing about the
// distribution (medians, Mann-Whitney U-test).
func compare(pkg, name, unit string, before, after []float64) Comparison {
	thr := benchmath.DefaultThresholds
	a := benchmath.NewSample(slices.Clone(before), &thr)
	b := benchmath.NewSample(slices.Clone(after), &thr)
	sa := benchmath.AssumeNothing.Summary(a, confidence)
	sb := benchmath.AssumeNothing.Summary(b, confidence)
	cmp := benchmath.AssumeNothing.Compare(a, b)
	c := Comparison{
		Package: pkg, Benchmark: name, Unit: unit,
		Before: summary(sa, len(before)), After: summary(sb, len(after)),
		P: cmp.P, Significant: cmp.P < cmp.Alpha,
		before: a.Values, after: b.Values,
	}
	switch {
	case sa.Center == sb.Center:
		c.Delta = 0
	case sa.Center == 0:
		c.Delta = math.NaN()
	default:
		c.Delta = sb.Center/sa.Center - 1
	}
	for _, ws := range [][]error{sa.Warnings, sb.Warnings, cmp.Warnings} {
		for _, w := range ws {
			if !slices.Contains(c.Warnings, w.Error()) {
				c.Warnings = append(c.Warnings, w.Error())
			}
		}
	}
	return c
}

// MarshalJSON writes the summary with null for a bound that is infinite
// (too few runs for a confidence interval).
func (s Summary) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Median float64  `json:"median"`
		Lo     *float64 `json:"lo"`
		Hi     *float64 `json:"hi"`
		N      int      `json:"n"`
	}{s.Median, finite(s.Lo), finite(s.Hi), s.N})
}

// MarshalJSON writes the comparison with null for a change that has no
// ratio (from 0).
func (c Comparison) MarshalJSON() ([]byte, error) {
	type plain Comparison
	return json.Marshal(struct {
		plain
		Delta *float64 `json:"delta"`
	}{plain(c), finite(c.Delta)})
}

// finite returns a pointer to v, or nil when v is infinite or NaN.
func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

func summary(s benchmath.Summary, n int) Summary {
	return Summary{Median: s.Center, Lo: s.Lo, Hi: s.Hi, N: n, pctRange: s.PctRangeString()}
}

// deltaString is the change column of benchstat: "~" when the samples do
// not differ significantly, else the change of the medians, "-59.96%".
func (c Comparison) deltaString() string {
	switch {
	case !c.Significant:
		return "~"
	case c.Delta == 0:
		return "0.00%"
	case math.IsNaN(c.Delta):
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", 100*c.Delta)
}

// pString is benchstat's "(p=0.002 n=6)".
func (c Comparison) pString() string {
	var s string
	if c.P != 0 {
		s = fmt.Sprintf("p=%0.3f ", c.P)
	}
	if c.Before.N == c.After.N {
		return "(" + s + fmt.Sprintf("n=%d", c.Before.N) + ")"
	}
	return "(" + s + fmt.Sprintf("n=%d+%d", c.Before.N, c.After.N) + ")"
}

// Worse reports whether the benchmark is significantly worse after the
// fixes in c's unit by more than tolerance (a fraction of the median
// before): with fewer runs than a U-test needs to tell (4 each), when every
// run after is worse than every run before.
func (c Comparison) Worse(tolerance float64) bool {
	if c.After.Median <= c.Before.Median*(1+tolerance) {
		return false
	}
	if c.Significant {
		return true
	}
	if len(c.before) > 0 && len(c.after) > 0 && (len(c.before) < 4 || len(c.after) < 4) {
		return c.after[0] > c.before[len(c.before)-1]
	}
	return false
}

// writeTables writes the comparisons of one package as benchstat does: one
// table per unit, a row per benchmark and, under several, their geometric
// mean.
func writeTables(w io.Writer, rows []Comparison) {
	order := slices.Clone(units)
	for _, c := range rows {
		if !slices.Contains(order, c.Unit) {
			order = append(order, c.Unit) // a metric of the benchmark's own
		}
	}
	first := true
	for _, unit := range order {
		var table []Comparison
		for _, c := range rows {
			if c.Unit == unit {
				table = append(table, c)
			}
		}
		if len(table) == 0 {
			continue
		}
		if !first {
			fmt.Fprintln(w)
		}
		first = false
		writeTable(w, unit, table)
	}
	var notes []string
	for _, c := range rows {
		for _, n := range c.Warnings {
			if !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
	}
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

// writeTable writes one table of benchstat's text form:
//
//	                             │   before   │               after               │
//	                             │ allocs/op  │ allocs/op   vs base               │
//	HashAlternatives/recursive-2   497.0 ± 0%   199.0 ± 0%  -59.96% (p=0.002 n=6)
func writeTable(w io.Writer, unit string, rows []Comparison) {
	class := benchunit.ClassOf(unit)
	type line struct{ label, bv, br, av, ar, delta, p string }
	var lines []line
	for _, c := range rows {
		s := benchunit.CommonScale([]float64{c.Before.Median, c.After.Median}, class)
		lines = append(lines, line{
			label: c.Benchmark,
			bv:    s.Format(c.Before.Median), br: c.Before.pctRange,
			av: s.Format(c.After.Median), ar: c.After.pctRange,
			delta: c.deltaString(), p: c.pString(),
		})
	}
	if gb, ga, ratio, ok := geomeans(rows); ok && len(rows) > 1 {
		l := line{label: "geomean", bv: benchunit.Scale(gb, class), av: benchunit.Scale(ga, class)}
		l.delta = fmt.Sprintf("%+.2f%%", 100*(ratio-1))
		lines = append(lines, l)
	}

	var wl, wbv, wbr, wav, war, wd, wp int
	for _, l := range lines {
		wl = max(wl, width(l.label))
		wbv, wbr = max(wbv, width(l.bv)), max(wbr, width(l.br))
		wav, war = max(wav, width(l.av)), max(war, width(l.ar))
		wd, wp = max(wd, width(l.delta)), max(wp, width(l.p))
	}
	// The blocks under "before" and "after": value ± range; the change
	// and its p-value after the second.
	before := wbv + 3 + wbr
	after := wav + 3 + war
	change := max(wd+1+wp, width("vs base"))
	if extra := width(unit) - before; extra > 0 {
		wbv += extra
		before += extra
	}
	if extra := width(unit) - after; extra > 0 {
		wav += extra
		after += extra
	}

	pad := strings.Repeat(" ", wl)
	fmt.Fprintf(w, "%s │ %s │ %s │\n", pad, center("before", before), center("after", after+2+change))
	fmt.Fprintf(w, "%s │ %s │ %s  %s │\n", pad, center(unit, before), center(unit, after), left("vs base", change))
	for _, l := range lines {
		b := right(l.bv, wbv) + plusMinus(l.br, wbr)
		a := right(l.av, wav) + plusMinus(l.ar, war)
		d := ""
		if l.delta != "" {
			d = right(l.delta, wd)
			if l.p != "" {
				d += " " + l.p
			}
		}
		fmt.Fprintf(w, "%s   %s   %s  %s\n", left(l.label, wl), b, a, strings.TrimRight(left(d, change), " "))
	}
}

// geomeans returns the geometric means of the medians before and after
// and of their ratios, as benchstat's summary row; ok is false when a
// median is not positive.
func geomeans(rows []Comparison) (before, after, ratio float64, ok bool) {
	var lb, la, lr float64
	for _, c := range rows {
		if c.Before.Median <= 0 || c.After.Median <= 0 {
			return 0, 0, 0, false
		}
		lb += math.Log(c.Before.Median)
		la += math.Log(c.After.Median)
		lr += math.Log(c.After.Median / c.Before.Median)
	}
	n := float64(len(rows))
	return math.Exp(lb / n), math.Exp(la / n), math.Exp(lr / n), true
}

// fmtValue spells one figure for a message: a whole number as it is, else
// scaled as benchstat scales it.
func fmtValue(unit string, v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f", v)
	}
	return benchunit.Scale(v, benchunit.ClassOf(unit))
}

func plusMinus(r string, w int) string {
	if r == "" {
		return strings.Repeat(" ", w+3)
	}
	return " ± " + right(r, w)
}

func width(s string) int { return utf8.RuneCountInString(s) }

func left(s string, w int) string { return s + strings.Repeat(" ", max(0, w-width(s))) }

func right(s string, w int) string { return strings.Repeat(" ", max(0, w-width(s))) + s }

func center(s string, w int) string {
	space := max(0, w-width(s))
	return strings.Repeat(" ", space/2) + s + strings.Repeat(" ", space-space/2)
}
