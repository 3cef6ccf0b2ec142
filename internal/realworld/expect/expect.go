// Package expect reads and writes the expectations files of the real-world
// corpus: the pinned modules, the packages analyzed in each, the verdict on
// every finding, the sites that must be found or must stay silent, and the
// audited per-item sites that recall is measured on.
//
// A file is a list of lines; # starts a comment, blank lines are ignored,
// and a line that starts with a tab continues the reason of the entry above.
//
//	module PATH VERSION [fast] [heldout]
//	packages PATTERN...
//	profile PROGRAM
//	tests REGEXP
//	finding FILE:LINE CATEGORY VERDICT [REASON]
//	must-find FILE:LINE CATEGORY [REASON]
//	must-stay-silent FILE:WHERE [REASON]
//	per-item FILE:LINE CATEGORY [REASON]
//	flags FLAG...
//	nosumdb
//	replica REPLICA.go FILE
//	benchfile BENCH_test.go DIR
//	bench PKG REGEXP [BENCHTIME]
//	target NAME METRIC<=N
//
// FILE is relative to the module's root. VERDICT is true (it allocates per
// call or per iteration on a path that repeats), false (nobody would act on
// it: the reason says why), neutral (right but not worth counting either
// way), or unjudged (not yet read: counted as unexpected). WHERE is a line
// (42), a range of lines (42-57) or the name of a function or method declared
// in FILE (leafHashOpt, Tree.Hash): no finding of any category may fall there.
// Findings are matched by file, line and category, never by column or message.
// "fast" marks the modules of the quick subset that CI runs. "heldout" marks
// a held-out module: one the hotness model was not designed on, whose
// precision and recall are given apart from the rest's (the two words may
// come in either order). PROGRAM is a Go file of internal/realworld/profiles
// (with a go:build ignore line) that the runner runs in the root of the
// module's copy (go run PROGRAM FILE) to write a pprof profile of a
// workload, which hashalloc is then given (-profile).
// REGEXP selects the tests (go test -run) that -fix runs in the packages its
// fixes change, for a module whose whole suite takes too long (a comment
// above it says why).
//
// A per-item site is an audited allocation that happens once per item of
// real work (a node, a leaf, a message, a request, a chunk) and that a
// finding of that FILE:LINE and CATEGORY would be worth acting on: such a
// finding would be judged true, so a per-item site judged false or neutral
// is an error. Its reason carries the evidence: the caller chain that
// repeats it and the share of each repetition's cost that a fix removes, as
// measured. Recall is the share of per-item sites that are reported; a
// missed one is a measure, not a failure (unlike a must-find site under
// -strict).
//
// The corpus may be split over several files (ReadFiles, Files): a module
// may be listed in only one of them.
//
// The other entries make a module a case with a figure to reach, such as the
// seeds of hashalloc (the pull requests whose benchmark tables are its
// targets):
//
// flags gives every run of hashalloc on the module these flags, after the
// profile's (-sums=..., for a sum function that hashalloc cannot know).
//
// nosumdb fetches the module with GONOSUMDB set to its path: the version is
// served by the module proxy but the checksum database does not list it (a
// pseudo-version that nothing required before). A comment above it says how
// its contents were checked instead.
//
// replica names a file of internal/realworld/testdata/replicas that holds
// functions written for the corpus (the shape of a seed's pre-PR code, for a
// seed whose pre-PR commit no module version has); each replaces the declaration of the same
// function or method in FILE of the module's copy before anything runs. A
// replica replaces, it never adds: a function with no counterpart in FILE is
// an error, and so is an import that FILE lacks. A module with a replica is
// named PATH@VERSION+REPLICA (without .go), so that the same version can also
// be listed as it is.
//
// benchfile names a benchmark file of internal/realworld/testdata/bench,
// written for the corpus, that is copied into DIR of the module's copy (its
// package: BENCH_test.go may be an internal or an external test), for a
// module whose own benchmarks do not measure the case (a benchmark added
// after the version, or keys of another size).
//
// bench runs the benchmarks that REGEXP selects in PKG (. or ./dir), with
// -fix only: go test -run '^$' -bench REGEXP -benchmem -benchtime BENCHTIME
// (100x unless given; 1x for a benchmark that ignores b.N and does its whole
// work once), on the unfixed copy, then on the copy fixed in each pool mode.
// target says what a benchmark must reach after the fixes, in each pool
// mode: NAME is the benchmark's name as go test prints it without the
// Benchmark prefix and the -GOMAXPROCS suffix (HashAlternatives/recursive),
// METRIC is allocs (allocs/op) or bytes (B/op). A target not met, or whose
// benchmark did not run, fails the run; a comment above it gives the figure
// it comes from.
package expect

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Verdicts of a finding.
const (
	True     = "true"
	False    = "false"
	Neutral  = "neutral"
	Unjudged = "unjudged"
)

// Corpus is the whole expectations file.
type Corpus struct {
	Modules []*Module
}

// Module is one pinned module and what is expected of hashalloc on it.
type Module struct {
	Path, Version string
	Fast          bool
	Heldout       bool // not used to design the model: measured apart
	Packages      []string
	Profile       string // a program that writes a profile to give hashalloc, or ""
	Tests         string // the go test -run pattern for the tests of fixed packages, or ""
	Findings      []*Finding
	MustFind      []*Finding // Verdict unused
	MustSilent    []*Silent
	PerItem       []*Finding // audited per-item sites; Verdict unused
	File          string     // the file it was read from, for messages ("" when parsed from a reader)
	Line          int        // of the module line, for messages

	Flags      []string // more flags for every run of hashalloc
	NoSumDB    bool     // fetched with GONOSUMDB=Path
	Replicas   []*Replica
	BenchFiles []*BenchFile
	Benches    []*Bench
	Targets    []*Target
}

// Name is PATH@VERSION, followed by +REPLICA (the replica's file name without
// .go) for a module whose functions a replica replaces.
func (m *Module) Name() string {
	name := m.Query()
	for _, r := range m.Replicas {
		name += "+" + strings.TrimSuffix(r.File, ".go")
	}
	return name
}

// Query is PATH@VERSION, the module as the go command fetches it.
func (m *Module) Query() string { return m.Path + "@" + m.Version }

// Replica is a file of functions that replace the same-named ones in File of
// the module's copy.
type Replica struct {
	File   string // in internal/realworld/testdata/replicas
	Target string // relative to the module's root
}

// BenchFile is a benchmark file written for the corpus, copied into Dir.
type BenchFile struct {
	File string // in internal/realworld/testdata/bench
	Dir  string // relative to the module's root
}

// Bench is a set of benchmarks to run before and after the fixes.
type Bench struct {
	Package   string // . or ./dir
	Regexp    string // go test -bench
	Benchtime string // go test -benchtime
}

// DefaultBenchtime is the -benchtime of a bench line that gives none.
const DefaultBenchtime = "100x"

// Metrics of a target.
const (
	Allocs = "allocs" // allocs/op
	Bytes  = "bytes"  // B/op
)

// Target is what a benchmark must reach after the fixes.
type Target struct {
	Name   string // without Benchmark and the -GOMAXPROCS suffix
	Metric string // Allocs or Bytes
	Max    int64
	Reason string
}

func (t *Target) String() string { return fmt.Sprintf("%s %s<=%d", t.Name, t.Metric, t.Max) }

// Key identifies a finding: file, line and category.
type Key struct {
	File     string
	Line     int
	Category string
}

func (k Key) String() string { return fmt.Sprintf("%s:%d %s", k.File, k.Line, k.Category) }

// Finding is a judged finding, a must-find site or a per-item site.
type Finding struct {
	Key
	Verdict string
	Reason  string
}

// Silent is a place where no finding may appear.
type Silent struct {
	File string
	// Either a line range (From..To) or a function name to resolve in File.
	From, To int
	Func     string
	Reason   string
}

// Where spells the place as in the file: FILE:42, FILE:42-57 or FILE:Name.
func (s *Silent) Where() string {
	switch {
	case s.Func != "":
		return s.File + ":" + s.Func
	case s.From == s.To:
		return fmt.Sprintf("%s:%d", s.File, s.From)
	}
	return fmt.Sprintf("%s:%d-%d", s.File, s.From, s.To)
}

// ReadFile parses the expectations file at path.
func ReadFile(path string) (*Corpus, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	for _, m := range c.Modules {
		m.File = path
	}
	return c, nil
}

// ReadFiles parses several expectations files into one corpus, their
// modules in the order of the files. A module listed in two files is an
// error.
func ReadFiles(paths []string) (*Corpus, error) {
	all := &Corpus{}
	where := map[string]*Module{}
	for _, path := range paths {
		c, err := ReadFile(path)
		if err != nil {
			return nil, err
		}
		for _, m := range c.Modules {
			if first := where[m.Name()]; first != nil {
				return nil, fmt.Errorf("%s:%d: module %s listed twice (also at %s:%d)", path, m.Line, m.Name(), first.File, first.Line)
			}
			where[m.Name()] = m
			all.Modules = append(all.Modules, m)
		}
	}
	return all, nil
}

// Files returns the expectations files of dir: every *.txt file, sorted.
func Files(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	sort.Strings(files)
	return files, err
}

// Parse reads an expectations file. Errors start with the line number.
func Parse(r io.Reader) (*Corpus, error) {
	c := &Corpus{}
	var (
		mod     *Module
		reason  *string // where a continuation line goes
		seen    = map[*Module]map[Key]bool{}
		perItem = map[*Finding]int{} // per-item site -> its line
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.HasPrefix(text, "\t") && strings.TrimSpace(text) != "" {
			if reason == nil {
				return nil, fmt.Errorf("%d: continuation line without an entry above", n)
			}
			*reason = strings.TrimSpace(*reason + " " + strings.TrimSpace(text))
			continue
		}
		reason = nil
		if i := strings.Index(text, "#"); i == 0 || (i > 0 && strings.TrimSpace(text[:i]) == "") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%d: %s", n, fmt.Sprintf(format, args...))
		}
		if fields[0] != "module" && mod == nil {
			return nil, bad("%s before the first module line", fields[0])
		}
		switch fields[0] {
		case "module":
			if len(fields) < 3 {
				return nil, bad("want: module PATH VERSION [fast] [heldout]")
			}
			mod = &Module{Path: fields[1], Version: fields[2], Line: n}
			for _, w := range fields[3:] {
				switch {
				case w == "fast" && !mod.Fast:
					mod.Fast = true
				case w == "heldout" && !mod.Heldout:
					mod.Heldout = true
				default:
					return nil, bad("want: module PATH VERSION [fast] [heldout]")
				}
			}
			seen[mod] = map[Key]bool{}
			c.Modules = append(c.Modules, mod)
		case "packages":
			if len(fields) < 2 {
				return nil, bad("want: packages PATTERN...")
			}
			mod.Packages = append(mod.Packages, fields[1:]...)
		case "profile":
			if len(fields) != 2 || !strings.HasSuffix(fields[1], ".go") || strings.ContainsAny(fields[1], `/\`) {
				return nil, bad("want: profile PROGRAM.go")
			}
			if mod.Profile != "" {
				return nil, bad("module %s has two profile lines", mod.Name())
			}
			mod.Profile = fields[1]
		case "tests":
			if len(fields) != 2 {
				return nil, bad("want: tests REGEXP")
			}
			if mod.Tests != "" {
				return nil, bad("module %s has two tests lines", mod.Name())
			}
			if _, err := regexp.Compile(fields[1]); err != nil {
				return nil, bad("tests: %v", err)
			}
			mod.Tests = fields[1]
		case "finding":
			if len(fields) < 4 {
				return nil, bad("want: finding FILE:LINE CATEGORY VERDICT [REASON]")
			}
			key, err := parseKey(fields[1], fields[2])
			if err != nil {
				return nil, bad("%v", err)
			}
			switch fields[3] {
			case True, False, Neutral, Unjudged:
			default:
				return nil, bad("verdict %q is not true, false, neutral or unjudged", fields[3])
			}
			if seen[mod][key] {
				return nil, bad("%s judged twice", key)
			}
			seen[mod][key] = true
			f := &Finding{Key: key, Verdict: fields[3], Reason: rest(text, 4)}
			mod.Findings = append(mod.Findings, f)
			reason = &f.Reason
		case "must-find":
			if len(fields) < 3 {
				return nil, bad("want: must-find FILE:LINE CATEGORY [REASON]")
			}
			key, err := parseKey(fields[1], fields[2])
			if err != nil {
				return nil, bad("%v", err)
			}
			f := &Finding{Key: key, Reason: rest(text, 3)}
			mod.MustFind = append(mod.MustFind, f)
			reason = &f.Reason
		case "per-item":
			if len(fields) < 3 {
				return nil, bad("want: per-item FILE:LINE CATEGORY [REASON]")
			}
			key, err := parseKey(fields[1], fields[2])
			if err != nil {
				return nil, bad("%v", err)
			}
			for _, p := range mod.PerItem {
				if p.Key == key {
					return nil, bad("per-item %s listed twice", key)
				}
			}
			f := &Finding{Key: key, Reason: rest(text, 3)}
			mod.PerItem = append(mod.PerItem, f)
			perItem[f] = n
			reason = &f.Reason
		case "must-stay-silent":
			if len(fields) < 2 {
				return nil, bad("want: must-stay-silent FILE:WHERE [REASON]")
			}
			s, err := parseSilent(fields[1])
			if err != nil {
				return nil, bad("%v", err)
			}
			s.Reason = rest(text, 2)
			mod.MustSilent = append(mod.MustSilent, s)
			reason = &s.Reason
		case "flags", "nosumdb", "replica", "benchfile", "bench", "target":
			r, err := mod.parseCaseEntry(fields, text)
			if err != nil {
				return nil, bad("%v", err)
			}
			reason = r
		default:
			return nil, bad("unknown entry %q", fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, m := range c.Modules {
		if len(m.Packages) == 0 {
			return nil, fmt.Errorf("%d: module %s has no packages line", m.Line, m.Name())
		}
		if names[m.Name()] {
			return nil, fmt.Errorf("%d: module %s listed twice", m.Line, m.Name())
		}
		names[m.Name()] = true
		if len(m.Targets) > 0 && len(m.Benches) == 0 {
			return nil, fmt.Errorf("%d: module %s has targets but no bench line", m.Line, m.Name())
		}
		// A per-item site is one whose finding would be worth acting on.
		for _, p := range m.PerItem {
			for _, f := range m.Findings {
				if f.Key == p.Key && (f.Verdict == False || f.Verdict == Neutral) {
					return nil, fmt.Errorf("%d: per-item %s is judged %s: a per-item site is one whose finding would be judged true", perItem[p], p.Key, f.Verdict)
				}
			}
		}
	}
	return c, nil
}

// parseCaseEntry reads one of the entries that make m a case with a figure
// to reach: flags, nosumdb, replica, benchfile, bench and target. It returns
// where the entry's continuation lines go, if it has a reason.
func (m *Module) parseCaseEntry(fields []string, line string) (*string, error) {
	switch fields[0] {
	case "flags":
		if len(fields) < 2 {
			return nil, fmt.Errorf("want: flags FLAG [FLAG...]")
		}
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") || f == "-" {
				return nil, fmt.Errorf("flags: %q is not a flag", f)
			}
		}
		m.Flags = append(m.Flags, fields[1:]...)
	case "nosumdb":
		if len(fields) != 1 {
			return nil, fmt.Errorf("want: nosumdb")
		}
		m.NoSumDB = true
	case "replica":
		if len(fields) != 3 || !isBaseName(fields[1], ".go") || !isRelPath(fields[2]) || !strings.HasSuffix(fields[2], ".go") {
			return nil, fmt.Errorf("want: replica REPLICA.go FILE.go")
		}
		m.Replicas = append(m.Replicas, &Replica{File: fields[1], Target: fields[2]})
	case "benchfile":
		if len(fields) != 3 || !isBaseName(fields[1], "_test.go") || !isRelPath(fields[2]) {
			return nil, fmt.Errorf("want: benchfile BENCH_test.go DIR")
		}
		m.BenchFiles = append(m.BenchFiles, &BenchFile{File: fields[1], Dir: fields[2]})
	case "bench":
		if len(fields) < 3 || len(fields) > 4 || (fields[1] != "." && !strings.HasPrefix(fields[1], "./")) {
			return nil, fmt.Errorf("want: bench PKG REGEXP [BENCHTIME]")
		}
		if _, err := regexp.Compile(fields[2]); err != nil {
			return nil, fmt.Errorf("bench: %v", err)
		}
		b := &Bench{Package: fields[1], Regexp: fields[2], Benchtime: DefaultBenchtime}
		if len(fields) == 4 {
			if !validBenchtime(fields[3]) {
				return nil, fmt.Errorf("bench: benchtime %q is not Nx or a duration", fields[3])
			}
			b.Benchtime = fields[3]
		}
		m.Benches = append(m.Benches, b)
	case "target":
		if len(fields) < 3 {
			return nil, fmt.Errorf("want: target NAME METRIC<=N [REASON]")
		}
		metric, max, ok := strings.Cut(fields[2], "<=")
		n, err := strconv.ParseInt(max, 10, 64)
		if !ok || err != nil || n < 0 || (metric != Allocs && metric != Bytes) {
			return nil, fmt.Errorf("target: %q is not allocs<=N or bytes<=N", fields[2])
		}
		if strings.HasPrefix(fields[1], "Benchmark") {
			return nil, fmt.Errorf("target: name %s without the Benchmark prefix", fields[1])
		}
		for _, t := range m.Targets {
			if t.Name == fields[1] && t.Metric == metric {
				return nil, fmt.Errorf("target: %s %s given twice", t.Name, metric)
			}
		}
		t := &Target{Name: fields[1], Metric: metric, Max: n, Reason: rest(line, 3)}
		m.Targets = append(m.Targets, t)
		return &t.Reason, nil
	}
	return nil, nil
}

// isBaseName reports whether name is a file name (no directory) that ends
// in suffix, with something before it.
func isBaseName(name, suffix string) bool {
	return len(name) > len(suffix) && strings.HasSuffix(name, suffix) && !strings.ContainsAny(name, `/\`)
}

// isRelPath reports whether p is a slash-separated path inside the module:
// not absolute, no .. element.
func isRelPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
		return false
	}
	for _, e := range strings.Split(p, "/") {
		if e == ".." {
			return false
		}
	}
	return true
}

// validBenchtime reports whether s is a go test -benchtime value: Nx or a
// duration.
func validBenchtime(s string) bool {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		v, err := strconv.Atoi(n)
		return err == nil && v > 0
	}
	d, err := time.ParseDuration(s)
	return err == nil && d > 0
}

// rest returns what follows the first n fields of line.
func rest(line string, n int) string {
	s := strings.TrimSpace(line)
	for range n {
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return ""
		}
		s = strings.TrimSpace(s[i:])
	}
	return s
}

func parseKey(pos, category string) (Key, error) {
	file, line, ok := strings.Cut(pos, ":")
	n, err := strconv.Atoi(line)
	if !ok || err != nil || n <= 0 || file == "" {
		return Key{}, fmt.Errorf("%q is not FILE:LINE", pos)
	}
	return Key{File: file, Line: n, Category: category}, nil
}

func parseSilent(where string) (*Silent, error) {
	file, spec, ok := strings.Cut(where, ":")
	if !ok || file == "" || spec == "" {
		return nil, fmt.Errorf("%q is not FILE:LINE, FILE:FROM-TO or FILE:FUNC", where)
	}
	s := &Silent{File: file}
	from, to, isRange := strings.Cut(spec, "-")
	a, errA := strconv.Atoi(from)
	switch {
	case errA != nil:
		s.Func = spec
	case !isRange:
		s.From, s.To = a, a
	default:
		b, err := strconv.Atoi(to)
		if err != nil || b < a {
			return nil, fmt.Errorf("%q is not a range of lines", spec)
		}
		s.From, s.To = a, b
	}
	return s, nil
}

// Format writes f as a finding line of the expectations file, with its reason
// wrapped on continuation lines.
func (f *Finding) Format(w io.Writer) {
	fmt.Fprintf(w, "finding %s:%d %s %s\n", f.File, f.Line, f.Category, f.Verdict)
	if f.Reason != "" {
		fmt.Fprintf(w, "\t%s\n", f.Reason)
	}
}
