package driver

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/fixes"
)

// maxFixRounds bounds the analyses of one -fix run: the first, and the
// analyses again of what its fixes changed (see fixRounds).
const maxFixRounds = 3

// fixRounds applies plan, the fixes of findings merged, and reports what
// remains, as fixAndReport does. When what remains may not be what a fresh
// run would report, it writes the fixes and analyzes again, and fixes what
// that analysis finds, up to maxFixRounds analyses in all, so that what it
// reports, and its exit code, are a fresh run's: whenever the plan changes
// files (see stale). analyzed is how
// many roots the first analysis analyzed; showProgress says whether a
// progress line is shown. -diff writes nothing, and so analyzes once.
func fixRounds(o options, plan *fixPlan, findings []*finding, analyzed int, showProgress bool, tree jsonTree, stdout, stderr io.Writer) int {
	fixed := map[string]int{} // findings fixed by the rounds before the last, by file
	round := 1
	for ; round < maxFixRounds && !o.diff && plan.stale(); round++ {
		written, ok := writePlan(plan, stderr)
		for _, ff := range written {
			fixed[ff.name] += len(ff.findings)
		}
		if !ok {
			printFixed(stderr, fixed, nil)
			return exitFailed
		}
		again := o
		again.verbose = false
		var prog *progress
		if showProgress {
			prog = startStage(stderr, "analyzing what the fixes changed")
		}
		a, ok := analyzeAll(again, nil, stderr)
		if prog != nil {
			prog.clear()
		}
		if !ok {
			printFixed(stderr, fixed, nil)
			return exitFailed
		}
		n := reportProblems(a.roots, a.res, jsonTree{}, false, io.Discard)
		if a.c != nil {
			n += len(a.c.hits)
		}
		if n < analyzed {
			// The fixed code has errors it had not: say which.
			printFixed(stderr, fixed, nil)
			reportProblems(a.roots, a.res, tree, !o.json, stderr)
			return exitFailed
		}
		findings = a.res.findings
		plan = planFixes(findings)
	}
	return fixAndReport(o, plan, findings, fixed, tree, stdout, stderr)
}

// stale reports whether what the plan leaves of findings may differ from
// what an analysis of the files it fixes would report: whenever it changes
// files. Besides a fix it leaves out and a finding left in a file it
// changes, a fix changes the work beside other sites of its package: an
// HMAC computed in one shot no longer makes the hex-encoded sum beside it
// noise, and a fresh run reports that sum. The exception is a plan whose
// fixes import the runtime module into a module whose build cannot resolve
// it yet (-pool=runtime before go get): no analysis loads those files, and
// what it leaves is what the user sees once the requirement is added.
func (p *fixPlan) stale() bool {
	if len(p.files) == 0 || len(p.errs) > 0 {
		return false
	}
	for _, ff := range p.files {
		if importsRuntime(ff.new) && !importsRuntime(ff.old) && analyzer.RuntimeMissing(filepath.Dir(ff.name)) != "" {
			return false
		}
	}
	return true
}

// importsRuntime reports whether the Go source src imports a package of
// the runtime module.
func importsRuntime(src []byte) bool {
	return bytes.Contains(src, []byte(`"`+fixes.RuntimeModule+"/"))
}

// writePlan writes the files that plan fixes and returns those it wrote;
// false when one could not be written (its error is printed, and its
// findings are no longer fixed).
func writePlan(plan *fixPlan, stderr io.Writer) ([]*fixedFile, bool) {
	ok := true
	written := plan.files[:0]
	for _, ff := range plan.files {
		if err := writeFile(ff.name, ff.new); err != nil {
			fmt.Fprintf(stderr, "hashalloc: %v\n", err)
			ok = false
			for _, f := range ff.findings {
				delete(plan.fixed, f)
			}
			continue
		}
		written = append(written, ff)
	}
	plan.files = written
	return written, ok
}

// printFixed prints one line per fixed file, in order of name: how many
// findings the rounds before the last fixed in it (earlier, by name) and the
// last did (last).
func printFixed(stderr io.Writer, earlier map[string]int, last []*fixedFile) {
	count := maps.Clone(earlier)
	for _, ff := range last {
		count[ff.name] += len(ff.findings)
	}
	for _, name := range slices.Sorted(maps.Keys(count)) {
		fmt.Fprintf(stderr, "fixed %s (%s)\n", shortPath(name), plural(count[name], "finding"))
	}
}

// fixAndReport applies plan, the fixes of findings merged (or with -diff
// prints them as a patch on stdout), then says what it did: one line per
// fixed file, with the findings that earlier rounds fixed in it (by name),
// the findings that remain and the fixes left out and why. With -json the
// remaining findings go into tree instead. It returns the exit code.
func fixAndReport(o options, plan *fixPlan, findings []*finding, earlier map[string]int, tree jsonTree, stdout, stderr io.Writer) int {
	failed := len(plan.errs) > 0
	for _, err := range plan.errs {
		fmt.Fprintf(stderr, "hashalloc: %v\n", err)
	}

	if o.diff {
		base := diffBase(plan.files)
		if base != cwd {
			fmt.Fprintf(stderr, "hashalloc: the patch changes files outside the working directory: its paths are relative to %s, where git apply takes it\n", base)
		}
		for _, ff := range plan.files {
			if err := unifiedDiff(stdout, diffPath(base, ff.name), ff.old, ff.new); err != nil {
				fmt.Fprintf(stderr, "hashalloc: %v\n", err)
				failed = true
			}
		}
	} else {
		written, ok := writePlan(plan, stderr)
		failed = failed || !ok
		printFixed(stderr, earlier, written)
		movePositions(plan.files, findings)
	}

	rest := plan.remaining(findings)
	if o.json {
		for _, f := range rest {
			tree.add(f, false) // the offsets of fixes left out are stale now
		}
	} else {
		printText(stderr, rest, o.context)
	}
	for _, nf := range plan.notFixed {
		fmt.Fprintf(stderr, "%s: not fixed: %s\n", shortPosn(nf.f.posn), nf.why)
	}

	switch {
	case failed:
		return exitFailed
	case o.diff && len(plan.files) > 0:
		return exitFailed // changes pending, as go fix -diff says
	case countFindings(rest) > 0:
		return exitFindings
	}
	return exitClean
}

// diffBase returns the directory that the paths of a patch of files are
// relative to: the working directory, when it holds them all (git apply run
// in a subdirectory of a repository ignores the paths outside it), else the
// deepest directory that does.
func diffBase(files []*fixedFile) string {
	base := cwd
	for _, ff := range files {
		for base != "" && !within(ff.name, base) {
			parent := filepath.Dir(base)
			if parent == base {
				return base
			}
			base = parent
		}
	}
	return base
}

// within reports whether the file name lies under dir.
func within(name, dir string) bool {
	rel, err := filepath.Rel(dir, name)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// diffPath is the path of a file in a patch: relative to base, where git
// apply is to be run.
func diffPath(base, name string) string {
	if rel, err := filepath.Rel(base, name); err == nil && base != "" {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(shortPath(name))
}

// writeFile replaces the content of the file name, keeping its mode.
func writeFile(name string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	return os.WriteFile(name, data, mode)
}

// movePositions moves the positions of the findings in the fixed files to
// the same lines after the fixes.
func movePositions(files []*fixedFile, findings []*finding) {
	mappers := map[string]func(int) int{}
	for _, ff := range files {
		mappers[ff.name] = lineMapper(ff.old, ff.new)
	}
	for _, f := range findings {
		if m := mappers[f.posn.Filename]; m != nil {
			f.posn.Line = m(f.posn.Line)
			f.end.Line = m(f.end.Line)
		}
	}
}
