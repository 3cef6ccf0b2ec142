package bench

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// The defaults of hashalloc bench: the whole table, 63 benchmarks run six
// times for 50ms each, takes about half a minute on a quiet 2-core machine.
const (
	DefaultCount     = 6
	DefaultBenchTime = "50ms"
)

// A Report is what hashalloc bench -json prints.
type Report struct {
	Machine   Machine  `json:"machine"`
	Count     int      `json:"count"`
	BenchTime string   `json:"benchtime"`
	Seconds   float64  `json:"seconds"`
	Kinds     []Kind   `json:"kinds"`
	Results   []Result `json:"results"`
}

var usage = `usage: hashalloc bench [-run REGEXP] [-json] [-count N] [-benchtime D] [-sizes N,N,...]

Runs, in this process, the benchmarks behind every rewrite that hashalloc
suggests: for each kind of rewrite and message size, the code before the
rewrite, the code after it and the floor (the cheapest code doing the same
work), and prints ns/op, B/op, allocs/op, the change against before and the
ratio to the floor. Each row is the median of -count runs, interleaved.

Kinds (-run takes the name or the title):
` + kindList() + `

Flags:
`

// kindList lists the kinds of rewrite, a line each: name, title.
func kindList() string {
	var b strings.Builder
	for _, k := range Kinds {
		fmt.Fprintf(&b, "  %-15s %s\n", k.Name, k.Title)
	}
	return b.String()
}

// Main runs hashalloc bench with args (what follows "bench" on the command
// line) and returns the exit code: 0, 1 when a benchmark fails, 2 on a bad
// flag.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hashalloc bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	run := fs.String("run", "", "run only the benchmarks whose `name` (kind/size=N/code=C) or kind's title in the table (\"keyed MAC pool\") matches this regular expression")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	count := fs.Int("count", DefaultCount, "run each benchmark `n` times")
	benchTime := fs.String("benchtime", DefaultBenchTime, "run each benchmark for `d` (a duration, or Nx for N operations)")
	sizes := fs.String("sizes", joinInts(Sizes), "message `sizes` in bytes, comma separated")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "hashalloc bench: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	opts := Options{Count: *count, BenchTime: *benchTime}
	if *count < 1 {
		fmt.Fprintf(stderr, "hashalloc bench: -count %d: want 1 or more\n", *count)
		return 2
	}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			fmt.Fprintf(stderr, "hashalloc bench: -run: %v\n", err)
			return 2
		}
		opts.Run = re
	}
	for s := range strings.SplitSeq(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 8 {
			fmt.Fprintf(stderr, "hashalloc bench: -sizes: %q is not a size of 8 bytes or more\n", s)
			return 2
		}
		opts.Sizes = append(opts.Sizes, n)
	}
	if f, ok := stderr.(*os.File); ok && !*asJSON && isTerminal(f) {
		opts.Progress = func(round, rounds int) {
			fmt.Fprintf(stderr, "\rhashalloc bench: round %d of %d", round+1, rounds)
		}
	}

	start := time.Now()
	results, err := Run(opts)
	if opts.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		fmt.Fprintf(stderr, "hashalloc bench: %v\n", err)
		if strings.Contains(err.Error(), "-benchtime") || strings.Contains(err.Error(), "-run") {
			return 2
		}
		return 1
	}
	report := Report{
		Machine:   ThisMachine(),
		Count:     opts.Count,
		BenchTime: opts.BenchTime,
		Seconds:   time.Since(start).Seconds(),
		Results:   results,
	}
	for _, k := range Kinds {
		for _, r := range results {
			if r.Kind == k.Name {
				report.Kinds = append(report.Kinds, k)
				break
			}
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			fmt.Fprintf(stderr, "hashalloc bench: %v\n", err)
			return 1
		}
		return 0
	}
	WriteTable(stdout, report)
	return 0
}

// isTerminal reports whether f is a terminal, where progress is shown.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// TableHeader is the header row of the text table.
var TableHeader = []string{"rewrite", "check", "size", "code", "ns/op", "±", "B/op", "allocs/op", "vs before", "vs floor"}

// WriteTable prints the report as a text table, one row per result, then
// what each version of each kind does.
func WriteTable(w io.Writer, report Report) {
	m := report.Machine
	fmt.Fprintf(w, "hashalloc bench: %s %s/%s", m.Go, m.GOOS, m.GOARCH)
	if m.CPU != "" {
		fmt.Fprintf(w, ", %s", m.CPU)
	}
	fmt.Fprintf(w, ", GOMAXPROCS %d\n", m.GOMAXPROCS)
	fmt.Fprintf(w, "each row: the median of %d runs of %s (± is the largest distance of a run from it); %s in all\n\n",
		report.Count, report.BenchTime, Elapsed(time.Duration(report.Seconds*float64(time.Second))))

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(TableHeader, "\t"))
	titles := map[string]Kind{}
	for _, k := range report.Kinds {
		titles[k.Name] = k
	}
	last := ""
	for _, r := range report.Results {
		title, check := "", ""
		if r.Kind != last {
			k := titles[r.Kind]
			title, check = k.Title, k.CheckName()
			last = r.Kind
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\n",
			title, check, FormatSize(r.Size), r.Code, FormatNs(r.NsPerOp), fmt.Sprintf("%.0f%%", 100*r.Spread()),
			r.BytesPerOp, r.AllocsPerOp, FormatChange(r.ChangeVsBefore), FormatRatio(r.RatioToFloor))
	}
	tw.Flush()

	fmt.Fprintln(w)
	for _, k := range report.Kinds {
		fmt.Fprintf(w, "%s (%s), per op: %s\n", k.Title, k.CheckName(), k.Op)
		fmt.Fprintf(w, "  before: %s\n  after:  %s\n  floor:  %s\n", k.Before, k.After, k.Floor)
	}
}

// FormatSize prints a size in bytes as the tables do: 32 B, 1 KiB.
func FormatSize(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%d KiB", n/1024)
	}
	return fmt.Sprintf("%d B", n)
}

// FormatNs prints a time per operation with three or four significant
// digits, in ns or µs.
func FormatNs(ns float64) string {
	switch {
	case ns >= 10000:
		return fmt.Sprintf("%.1f µs", ns/1000)
	case ns >= 1000:
		return fmt.Sprintf("%.0f ns", ns)
	case ns >= 100:
		return fmt.Sprintf("%.1f ns", ns)
	default:
		return fmt.Sprintf("%.2f ns", ns)
	}
}

// FormatChange prints a change against the before code, "" when there is none.
func FormatChange(c *float64) string {
	if c == nil {
		return ""
	}
	return fmt.Sprintf("%+.1f%%", 100**c)
}

// FormatRatio prints a ratio to the floor, "" when there is none.
func FormatRatio(r *float64) string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf("%.2fx", *r)
}
