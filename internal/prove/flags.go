package prove

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hashalloc/hashalloc/analyzer"
)

// Defaults of the flags: a short run, long enough for benchstat's
// statistics (six runs are the fewest that give a 95% confidence interval
// of the median and a U-test that can tell p=0.002).
const (
	defaultBenchtime = "100ms"
	defaultCount     = 6
	defaultTimeout   = 10 * time.Minute
)

// options are the flags of hashalloc prove.
type options struct {
	bench     string
	benchtime string
	count     int
	run       string
	timeout   time.Duration
	fix       bool
	json      bool
	tags      string
	work      bool
	// analyzer are the analyzer's flags, as given (-pool=inline), for the
	// runs of hashalloc on the copy.
	analyzer []string
	patterns []string
}

// forwarded is an analyzer flag that prove passes on to hashalloc: it is
// checked by the analyzer's own flag, so that a bad value is an error
// before anything runs, and recorded as given.
type forwarded struct {
	name string
	v    flag.Value
	out  *[]string
}

func (f forwarded) String() string {
	if f.v == nil {
		return ""
	}
	return f.v.String()
}

func (f forwarded) Set(s string) error {
	if err := f.v.Set(s); err != nil {
		return err
	}
	*f.out = append(*f.out, "-"+f.name+"="+s)
	return nil
}

func (f forwarded) IsBoolFlag() bool {
	b, ok := f.v.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// notForwarded are the analyzer's flags that prove does not take: it makes
// the profile itself.
var notForwarded = map[string]bool{"profile": true}

// newFlagSet returns the flags of hashalloc prove, bound to o.
func newFlagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("hashalloc prove", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.bench, "bench", ".", "run only the benchmarks that match this regular expression, as go test -bench")
	fs.StringVar(&o.benchtime, "benchtime", defaultBenchtime, "run each benchmark for this long (a duration) or this many times (Nx), as go test -benchtime")
	fs.IntVar(&o.count, "count", defaultCount, "run each benchmark this many times before the fixes, and as many after")
	fs.StringVar(&o.run, "run", "", "run only the tests that match this regular expression on the fixed copy, as go test -run")
	fs.DurationVar(&o.timeout, "timeout", defaultTimeout, "fail a test binary that runs longer than this, as go test -timeout")
	fs.BoolVar(&o.fix, "fix", false, "once everything passes on the copy, apply the fixes to the packages")
	fs.BoolVar(&o.json, "json", false, "print the tables, the findings and what went wrong as JSON on stdout")
	fs.StringVar(&o.tags, "tags", "", "comma-separated build tags, as for go test")
	fs.BoolVar(&o.work, "work", false, "keep the copy of the module and print where it is")
	analyzer.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		if !notForwarded[f.Name] {
			fs.Var(forwarded{f.Name, f.Value, &o.analyzer}, f.Name, f.Usage)
		}
	})
	return fs
}

// parseFlags reads the command line of hashalloc prove into o.
func parseFlags(args []string) (*options, *flag.FlagSet, error) {
	o := &options{}
	fs := newFlagSet(o)
	if err := fs.Parse(args); err != nil {
		return o, fs, err
	}
	o.patterns = fs.Args()
	if len(o.patterns) == 0 {
		return o, fs, fmt.Errorf("no packages to prove (try ./...)")
	}
	if o.count < 1 {
		return o, fs, fmt.Errorf("-count: %d is not a number of runs (at least 1)", o.count)
	}
	if err := checkBenchtime(o.benchtime); err != nil {
		return o, fs, err
	}
	if _, err := parseBenchPattern(o.bench); err != nil {
		return o, fs, err
	}
	for _, level := range splitRegexp(o.run) {
		if _, err := regexp.Compile(level); err != nil {
			return o, fs, fmt.Errorf("-run: %q is not a regular expression: %v", o.run, err)
		}
	}
	if o.timeout <= 0 {
		return o, fs, fmt.Errorf("-timeout: %v is not a positive duration", o.timeout)
	}
	return o, fs, nil
}

// checkBenchtime checks -benchtime as the testing package reads it: a
// duration, or a number of iterations and x.
func checkBenchtime(s string) error {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		if v, err := strconv.ParseUint(n, 10, 64); err != nil || v == 0 {
			return fmt.Errorf("-benchtime: %q is not a number of iterations (100x) or a duration (100ms)", s)
		}
		return nil
	}
	if d, err := time.ParseDuration(s); err != nil || d <= 0 {
		return fmt.Errorf("-benchtime: %q is not a duration (100ms) or a number of iterations (100x)", s)
	}
	return nil
}

// Help prints what hashalloc help prove and hashalloc prove -help print.
func Help(w io.Writer) {
	o := &options{}
	fs := newFlagSet(o)
	fmt.Fprint(w, `usage: hashalloc prove [flags] packages...

Prove measures hashalloc's fixes on the packages' own benchmarks, and prints
the before/after table a pull request needs:

  1. it copies the module that holds the packages to a temporary directory;
  2. it runs the packages' benchmarks there once with an allocation profile;
  3. it analyzes the packages with that profile as the evidence of what is
     hot (as -profile does): a function with at least -profile-threshold of
     the allocations the benchmarks make is hot, whatever calls it, and one
     below it stays silent;
  4. it applies the fixes to the copy and runs the tests of the packages
     they can change there;
  5. it runs the benchmarks -count times before the fixes and as many after,
     in turn, and prints, per package, benchstat's tables of sec/op, B/op
     and allocs/op (medians, 95% confidence intervals, Mann-Whitney
     p-values; ~ when the change is not significant), then each finding with
     the share of the profile in its function, and whether it was fixed.

It fails, saying why, when the packages have no benchmark, when the copy does
not build or its tests fail after the fixes, and when a fix makes a benchmark
allocate more (it names the fix: each one is measured alone). Your tree is
changed only with -fix, and only once everything has passed on the copy.
Nothing else in hashalloc runs the code it analyzes.

A long run on a terminal shows which package and benchmark it is on and how
long the rest should take.

go test runs go vet before it builds a test binary. When vet fails on the
code as it is, before any fix (a test file that compiles but that vet
rejects, such as an example with a malformed suffix), prove says so and runs
the benchmarks and tests with -vet=off: vet's verdict on your code is not
what prove measures.

Flags:
`)
	fs.SetOutput(w)
	fs.VisitAll(func(f *flag.Flag) {
		name, use := flag.UnquoteUsage(f)
		line := "  -" + f.Name
		if name != "" {
			line += " " + name
		}
		if d := f.DefValue; d != "" && d != "false" && d != "0" {
			use += fmt.Sprintf(" (default %s)", d)
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(use, "\n", "\n    \t"))
	})
	fmt.Fprint(w, `
The analyzer's flags (-checks, -pool, ...) are hashalloc's; -profile is not
one of prove's: the benchmarks make the profile.

Exit status: 0 the fixes hold (or there is nothing to fix), 1 prove failed
(the message says why), 2 a bad flag or usage.
`)
}
