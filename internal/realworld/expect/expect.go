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
}

// Name is PATH@VERSION.
func (m *Module) Name() string { return m.Path + "@" + m.Version }

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
		seen    = map[string]map[Key]bool{}
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
			if seen[mod.Name()] != nil {
				return nil, bad("module %s listed twice", mod.Name())
			}
			seen[mod.Name()] = map[Key]bool{}
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
			if seen[mod.Name()][key] {
				return nil, bad("%s judged twice", key)
			}
			seen[mod.Name()][key] = true
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
		default:
			return nil, bad("unknown entry %q", fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, m := range c.Modules {
		if len(m.Packages) == 0 {
			return nil, fmt.Errorf("%d: module %s has no packages line", m.Line, m.Name())
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
