package driver

import (
	"fmt"
	"io"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer"
)

// printChecks lists the checks, one line each.
func printChecks(w io.Writer) {
	fmt.Fprintf(w, "Checks (each finding's category; choose with -checks, explain with hashalloc help CHECK):\n")
	for _, c := range analyzer.Checks() {
		fmt.Fprintf(w, "  %-13s %s\n", c.Name, c.Summary)
	}
}

// help runs `hashalloc help [CHECK]`, -list and -explain CHECK.
func help(stdout, stderr io.Writer, args []string) int {
	switch len(args) {
	case 0:
		printChecks(stdout)
		fmt.Fprint(stdout, `
-checks=all,-CHECK (or the golangci-lint setting checks) turns a check off, and
//hashalloc:ignore CHECK on a line, or the line above, ignores it there.
Run hashalloc -help for the flags, hashalloc help prove for prove, which
measures the fixes with the packages' own benchmarks.
`)
		return 0
	case 1:
		c, ok := analyzer.LookupCheck(args[0])
		if !ok {
			var names []string
			for _, c := range analyzer.Checks() {
				names = append(names, c.Name)
			}
			fmt.Fprintf(stderr, "hashalloc: %q is not a check (the checks are %s)\n", args[0], strings.Join(names, ", "))
			return 2
		}
		fmt.Fprint(stdout, c.Text())
		return 0
	}
	fmt.Fprintf(stderr, "hashalloc: help takes at most one check, not %q\n", strings.Join(args, " "))
	return 2
}
