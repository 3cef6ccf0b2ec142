package driver

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/internal/norelated"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/singlechecker"
	"golang.org/x/tools/go/packages"
)

// Exit codes.
const (
	exitClean    = 0 // nothing found, or -json
	exitFailed   = 1 // a package could not be loaded or analyzed, a file not written; -diff: changes pending
	exitUsage    = 2 // a bad flag or usage
	exitFindings = 3 // findings, also when they remain after -fix
)

// Main runs the hashalloc command with args, the command line without the
// program name (os.Args[1:], which the go vet protocol also reads), and
// returns its exit code:
//
//	0  nothing found (with -json: whatever is found)
//	3  findings, also findings that remain after -fix
//	1  -diff: changes are pending; or a package could not be loaded or
//	   analyzed, a file could not be written
//	2  a bad flag or usage
//
// Under go vet -vettool and go fix -fixtool it serves their protocol, which
// has codes of its own (go vet exits 1 on findings).
func Main(args []string) int {
	stdout, stderr := io.Writer(os.Stdout), io.Writer(os.Stderr)
	if len(args) == 1 && args[0] == "-V=full" {
		if err := printVersion(stdout, true); err != nil {
			fmt.Fprintf(stderr, "hashalloc: %v\n", err)
			return exitFailed
		}
		return exitClean
	}
	if isProtocol(args) {
		if code, bad := checkVetFlags(args, stderr); bad {
			return code
		}
		// go vet prints each entry of related information on a line of
		// its own: one line per finding is the message alone.
		singlechecker.Main(norelated.Wrap(analyzer.Analyzer)) // exits
		return exitFailed
	}
	if len(args) > 0 && args[0] == "help" {
		return help(stdout, stderr, args[1:])
	}

	var o options
	fs := newFlagSet(&o, stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stderr, fs)
			return exitClean
		}
		fmt.Fprintf(stderr, "hashalloc: %s\nRun hashalloc -help for the flags.\n", flagError(err))
		return exitUsage
	}
	o.patterns = fs.Args()
	fs.Visit(func(f *flag.Flag) { o.profileSet = o.profileSet || f.Name == "profile" })
	switch {
	case o.version != "":
		if err := printVersion(stdout, o.version == "full"); err != nil {
			fmt.Fprintf(stderr, "hashalloc: %v\n", err)
			return exitFailed
		}
		return exitClean
	case o.list:
		return help(stdout, stderr, nil)
	case o.explain != "":
		return help(stdout, stderr, []string{o.explain})
	case len(o.patterns) == 0:
		fmt.Fprintf(stderr, "hashalloc: no packages to analyze (try ./...)\n\n")
		usage(stderr, fs)
		return exitUsage
	}
	if o.diff {
		if o.json {
			fmt.Fprintf(stderr, "hashalloc: -diff and -json both write to stdout: choose one\n")
			return exitUsage
		}
		o.fix = true
	}

	stop, err := startProfiles(o)
	if err != nil {
		fmt.Fprintf(stderr, "hashalloc: %v\n", err)
		return exitUsage
	}
	defer stop()
	return run(o, stdout, stderr)
}

// flagError spells a flag error once: the flag package says which flag, and
// the analyzer's errors say it again.
func flagError(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, " for flag -"); i >= 0 {
		name, rest, ok := strings.Cut(msg[i+len(" for flag "):], ": ")
		if ok && strings.HasPrefix(rest, name+": ") {
			return msg[:i] + " for flag " + name + ": " + strings.TrimPrefix(rest, name+": ")
		}
	}
	return msg
}

// run loads, analyzes, prints and fixes.
func run(o options, stdout, stderr io.Writer) int {
	start := time.Now()
	var prog *progress
	if f, ok := stderr.(*os.File); ok && isTerminal(f) {
		prog = startProgress(stderr)
		defer prog.clear()
	}
	a, ok := analyzeAll(o, prog, stderr)
	if !ok {
		return exitFailed
	}
	roots, res, c, prog := a.roots, a.res, a.c, a.prog
	if prog != nil {
		prog.clear()
	}
	if a.pgoNote != "" {
		fmt.Fprintf(stderr, "hashalloc: %s\n", a.pgoNote)
	}

	code := exitClean
	tree := jsonTree{}
	analyzed := reportProblems(roots, res, tree, !o.json, stderr)
	if analyzed < len(roots) {
		code = exitFailed
	}
	if c != nil {
		analyzed += len(c.hits)
	}
	switch {
	case o.fix:
		var fixing *progress
		if prog != nil {
			fixing = startStage(stderr, fmt.Sprintf("merging the fixes of %s", plural(countFindings(res.findings), "finding")))
		}
		plan := planFixes(res.findings)
		if fixing != nil {
			fixing.clear()
		}
		code = worse(code, fixRounds(o, plan, res.findings, analyzed, prog != nil, tree, stdout, stderr))
	case o.json:
		for _, f := range res.findings {
			tree.add(f, true)
		}
	default:
		printText(stderr, res.findings, o.context)
		if countFindings(res.findings) > 0 {
			code = worse(code, exitFindings)
		}
	}
	if o.json {
		if err := tree.print(stdout); err != nil {
			fmt.Fprintf(stderr, "hashalloc: %v\n", err)
			return exitFailed
		}
		if code != exitFailed {
			code = exitClean // the JSON says what was found
		}
	}
	if a.summary {
		fmt.Fprintf(stderr, "hashalloc: %d packages analyzed in %.1fs: %s\n",
			analyzed, time.Since(start).Seconds(), plural(countFindings(res.findings), "finding"))
	}
	return code
}

// analysisRun is what analyzeAll found.
type analysisRun struct {
	roots []*packages.Package
	res   *analysisResult
	c     *cached // the result cache, or nil
	// pgoNote says which default.pgo is the analysis's profile, if any.
	pgoNote string
	// prog is the progress shown, nil when there is none (or no longer).
	prog *progress
	// summary says whether the run ends with a summary line.
	summary bool
}

// analyzeAll lists the packages of o.patterns, answers those the result
// cache holds from it (unless -cache=off), loads and analyzes the others,
// showing progress on prog (nil for none), and collects the findings. It
// returns false after printing why it could not.
func analyzeAll(o options, prog *progress, stderr io.Writer) (*analysisRun, bool) {
	var c *cached
	if o.cache {
		var err error
		if c, err = lookUp(o); err != nil {
			fmt.Fprintf(stderr, "hashalloc: the result cache is not used: %v\n", err)
		}
	}
	// A few packages: no progress, unless fixes are to be applied (a file
	// of thousands of findings takes a while), and no summary.
	summary := prog != nil
	if prog != nil && c != nil && len(c.hits)+len(c.misses) < manyPackages {
		summary = false
		if !o.fix {
			prog.clear()
			prog = nil
		}
	}
	var roots []*packages.Package
	res := &analysisResult{failed: map[*packages.Package]error{}, diags: map[*packages.Package][]analysis.Diagnostic{}}
	pgoNote := ""
	incremental := false
	if c != nil && len(c.misses) > 0 {
		roots, res, incremental = analyzeFromCache(c, prog, stderr)
		if prog != nil {
			prog.clear()
		}
	}
	if !incremental && (c == nil || len(c.misses) > 0) {
		var err error
		if roots, err = loadMisses(o, c); err != nil {
			if prog != nil {
				prog.clear()
			}
			fmt.Fprintf(stderr, "hashalloc: %v\n", err)
			return nil, false
		}
		if !o.profileSet && c == nil {
			if pgoNote, err = useDefaultPGO(roots); err != nil {
				if prog != nil {
					prog.clear()
				}
				fmt.Fprintf(stderr, "hashalloc: %v\n", err)
				return nil, false
			}
		}
		var done *atomic.Int64
		if prog != nil && c == nil && len(roots) < manyPackages {
			summary = false
		}
		if prog != nil && c == nil && len(roots) < manyPackages && !o.fix {
			prog.clear()
			prog = nil
		} else if prog != nil {
			n := 0
			packages.Visit(roots, nil, func(p *packages.Package) {
				if p.PkgPath != "unsafe" {
					n++
				}
			})
			prog.analyzing(n)
			done = prog.done
		}
		res, err = analyze(roots, c, done)
		if prog != nil {
			prog.clear()
		}
		if err != nil {
			fmt.Fprintf(stderr, "hashalloc: %v\n", err)
			return nil, false
		}
	}
	if c != nil && len(c.misses) > 0 {
		_ = c.cache.Trim()
	}
	if c != nil {
		pgoNote = c.pgoNote
		res.roots = append(res.roots, c.hits...)
		maps.Copy(res.diags, c.diags)
		if o.verbose {
			fmt.Fprintf(stderr, "hashalloc: cache: %s\n", c.summary())
		}
	} else if o.verbose {
		fmt.Fprintf(stderr, "hashalloc: cache: not used\n")
	}
	res.collect()
	return &analysisRun{roots: roots, res: res, c: c, pgoNote: pgoNote, prog: prog, summary: summary}, true
}

// worse returns the exit code that says more: a failure, then changes
// pending or findings, then nothing.
func worse(a, b int) int {
	if a == exitFailed || b == exitFailed {
		return exitFailed
	}
	return max(a, b)
}

// plural spells n things.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// startProfiles starts the CPU profile and returns the function that stops
// it and writes the memory profile.
func startProfiles(o options) (func(), error) {
	var cpu *os.File
	if o.cpuProf != "" {
		f, err := os.Create(o.cpuProf)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
		cpu = f
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if o.memProf != "" {
			f, err := os.Create(o.memProf)
			if err != nil {
				fmt.Fprintf(os.Stderr, "hashalloc: %v\n", err)
				return
			}
			defer f.Close()
			runtime.GC()
			if err := pprof.WriteHeapProfile(f); err != nil {
				fmt.Fprintf(os.Stderr, "hashalloc: %v\n", err)
			}
		}
	}, nil
}
