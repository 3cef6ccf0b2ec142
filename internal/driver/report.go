package driver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// fixAndReport applies the fixes of findings (or with -diff prints them as
// a patch on stdout), then says what it did: one line per fixed file, the
// findings that remain, the fixes left out and why, and the go get line a
// module needs to build the fixed code. With -json the remaining findings go
// into tree instead. It returns the exit code.
func fixAndReport(o options, findings []*finding, tree jsonTree, stdout, stderr io.Writer) int {
	plan := planFixes(findings)
	failed := len(plan.errs) > 0
	for _, err := range plan.errs {
		fmt.Fprintf(stderr, "hashalloc: %v\n", err)
	}

	if o.diff {
		for _, ff := range plan.files {
			if err := unifiedDiff(stdout, diffPath(ff.name), ff.old, ff.new); err != nil {
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
	printGoGet(stderr, missingRuntime(plan.files), o.diff)

	switch {
	case failed:
		return exitFailed
	case o.diff && len(plan.files) > 0:
		return exitFailed // changes pending, as go fix -diff says
	case len(rest) > 0:
		return exitFindings
	}
	return exitClean
}

// diffPath is the path of a file in a patch: relative to the working
// directory, where git apply is to be run.
func diffPath(name string) string {
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
