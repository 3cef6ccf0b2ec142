package driver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// fixAndReport applies plan, the fixes of findings merged (or with -diff
// prints them as a patch on stdout), then says what it did: one line per fixed file, the
// findings that remain and the fixes left out and why. With -json the
// remaining findings go into tree instead. It returns the exit code.
func fixAndReport(o options, plan *fixPlan, findings []*finding, tree jsonTree, stdout, stderr io.Writer) int {
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
		written := plan.files[:0]
		for _, ff := range plan.files {
			if err := writeFile(ff.name, ff.new); err != nil {
				fmt.Fprintf(stderr, "hashalloc: %v\n", err)
				failed = true
				for _, f := range ff.findings {
					delete(plan.fixed, f)
				}
				continue
			}
			written = append(written, ff)
			fmt.Fprintf(stderr, "fixed %s (%s)\n", shortPath(ff.name), plural(len(ff.findings), "finding"))
		}
		plan.files = written
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
