package driver

import (
	"fmt"
	"io"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// contextLines is the number of unchanged lines around each hunk, as in
// diff -u and git diff.
const contextLines = 3

// unifiedDiff writes the change of one file from old to new as a unified
// diff that git apply and patch -p1 accept: "a/" and "b/" prefixes on the
// path, hunks with 3 lines of context, and a "\ No newline at end of file"
// marker after a last line without one.
func unifiedDiff(w io.Writer, path string, old, new []byte) error {
	a, b := splitLines(string(old)), splitLines(string(new))
	groups := difflib.NewMatcher(a, b).GetGroupedOpCodes(contextLines)
	if len(groups) == 0 {
		return nil
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", path, path)
	for _, g := range groups {
		first, last := g[0], g[len(g)-1]
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(first.I1, last.I2), hunkRange(first.J1, last.J2))
		for _, op := range g {
			if op.Tag == 'e' {
				writeLines(&sb, " ", a[op.I1:op.I2])
				continue
			}
			if op.Tag == 'r' || op.Tag == 'd' {
				writeLines(&sb, "-", a[op.I1:op.I2])
			}
			if op.Tag == 'r' || op.Tag == 'i' {
				writeLines(&sb, "+", b[op.J1:op.J2])
			}
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// hunkRange spells the lines [start, stop) of a hunk header, as diff -u
// does: the first line (counted from 1) and the count when it is not 1; an
// empty range names the line before it.
func hunkRange(start, stop int) string {
	n := stop - start
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func writeLines(sb *strings.Builder, prefix string, lines []string) {
	for _, l := range lines {
		sb.WriteString(prefix)
		sb.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// lineMapper returns a function that maps a line of old (counted from 1) to
// the same line in new: exactly for an unchanged line, to the corresponding
// line of the replacement for a changed one.
func lineMapper(old, new []byte) func(line int) int {
	ops := difflib.NewMatcher(splitLines(string(old)), splitLines(string(new))).GetOpCodes()
	return func(line int) int {
		l := line - 1
		for _, op := range ops {
			if l < op.I1 || l >= op.I2 {
				continue
			}
			if op.Tag == 'e' {
				return op.J1 + l - op.I1 + 1
			}
			return op.J1 + min(l-op.I1, max(op.J2-op.J1-1, 0)) + 1
		}
		return line
	}
}
