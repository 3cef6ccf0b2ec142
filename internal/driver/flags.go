package driver

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer"
)

// options are the command's flags, apart from the analyzer's own.
type options struct {
	fix      bool
	diff     bool
	json     bool
	cache    bool
	verbose  bool
	context  int
	tags     string
	version  string // -V: "" (not set), "short" or "full"
	list     bool
	explain  string
	cpuProf  string
	memProf  string
	patterns []string
	// profileSet is set when -profile is given, even empty: then no
	// default.pgo is looked for.
	profileSet bool
}

// versionFlag is -V and -V=full.
type versionFlag struct{ v *string }

func (f versionFlag) IsBoolFlag() bool { return true }
func (f versionFlag) String() string {
	if f.v == nil {
		return ""
	}
	return *f.v
}

func (f versionFlag) Set(s string) error {
	switch s {
	case "true":
		*f.v = "short"
	case "full":
		*f.v = "full"
	default:
		return fmt.Errorf("want -V or -V=full")
	}
	return nil
}

// onOff is a boolean flag that also takes on and off.
type onOff struct{ b *bool }

func (f onOff) IsBoolFlag() bool { return true }
func (f onOff) String() string {
	if f.b == nil || *f.b {
		return "on"
	}
	return "off"
}

func (f onOff) Set(s string) error {
	switch s {
	case "on", "true", "1":
		*f.b = true
	case "off", "false", "0":
		*f.b = false
	default:
		return fmt.Errorf("want on or off")
	}
	return nil
}

// deprecatedTest is -test, the flag of the x/tools checkers whose default
// loaded every package's test variants. It is an alias of -tests that says so.
type deprecatedTest struct {
	tests  flag.Value
	stderr io.Writer
}

func (d deprecatedTest) IsBoolFlag() bool { return true }
func (d deprecatedTest) String() string   { return "false" }

func (d deprecatedTest) Set(s string) error {
	fmt.Fprintf(d.stderr, "hashalloc: -test is deprecated: use -tests (test files are loaded and analyzed only with -tests)\n")
	return d.tests.Set(s)
}

// newFlagSet returns the command's flags, bound to o and to the analyzer's
// flags (-tests, -pool, -constructors, -checks).
func newFlagSet(o *options, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("hashalloc", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and usage are printed by Main
	analyzer.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		fs.Var(f.Value, f.Name, f.Usage)
	})
	fs.BoolVar(&o.fix, "fix", false, "apply the suggested fixes, then print what was fixed and the findings that remain")
	fs.BoolVar(&o.diff, "diff", false, "print the fixes as a unified diff (for git apply) instead of applying them")
	fs.BoolVar(&o.json, "json", false, "print the findings and their fixes as JSON on stdout")
	o.cache = true
	fs.Var(onOff{&o.cache}, "cache", "keep each package's result in the user's cache directory, and take it from there while nothing it depends on changes\n(-cache=off: analyze every package anew)")
	fs.BoolVar(&o.verbose, "v", false, "say which packages were taken from the cache and which were analyzed")
	fs.IntVar(&o.context, "c", -1, "print each finding's line with this many lines of context")
	fs.StringVar(&o.tags, "tags", "", "comma-separated build tags, as for go build: files excluded by build constraints are not analyzed")
	fs.Var(versionFlag{&o.version}, "V", "print the version and exit (-V=full: as go vet asks)")
	fs.BoolVar(&o.list, "list", false, "list the checks and exit (as hashalloc help)")
	fs.StringVar(&o.explain, "explain", "", "explain a check and exit (as hashalloc help CHECK)")
	fs.StringVar(&o.cpuProf, "cpuprofile", "", "write a CPU profile to this file")
	fs.StringVar(&o.memProf, "memprofile", "", "write a memory profile to this file")
	fs.Var(deprecatedTest{fs.Lookup("tests").Value, stderr}, "test", "deprecated: use -tests")
	return fs
}

// testsFlag reports whether -tests is set.
func testsFlag() bool {
	return analyzer.Analyzer.Flags.Lookup("tests").Value.(flag.Getter).Get().(bool)
}

// usage prints the command's usage to w.
func usage(w io.Writer, fs *flag.FlagSet) {
	title, _, _ := strings.Cut(analyzer.Analyzer.Doc, "\n")
	fmt.Fprintf(w, `hashalloc: %s

Usage:
  hashalloc [flags] packages...        report findings
  hashalloc -fix [flags] packages...   apply their fixes (-diff: print them as a patch)
  hashalloc help [CHECK]               list the checks, or explain one
  hashalloc lsp [flags]                a language server for editors
  hashalloc bench [flags]              the benchmarks behind the rewrites (bench -help for its flags)
  hashalloc prove [flags] packages...  measure the fixes with the packages' own benchmarks (help prove)
  go vet -vettool=$(command -v hashalloc) [flags] packages...
  go fix -fixtool=$(command -v hashalloc) [flags] packages...

`, title)
	printChecks(w)
	fmt.Fprintf(w, "\nFlags:\n")
	fs.SetOutput(w)
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "test" {
			return // deprecated
		}
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
	fs.SetOutput(io.Discard)
	fmt.Fprint(w, `
Exit status: 0 nothing found, 3 findings (also findings that remain after
-fix), 1 changes pending with -diff, or a package that could not be loaded or
analyzed, 2 a bad flag or usage. With -json: 0 whatever is found, 1 on errors.
`)
}
