// Command slowtests prints, one per line, the go test arguments that run the
// slow tests of the module in the current directory and nothing else: a
// -run pattern of their names, then their packages. .ci/test runs them so:
//
//	mapfile -t args < <(go run ./internal/testenv/slowtests)
//	HASHALLOC_SLOW=1 go test "${args[@]}"
package main

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/internal/testenv"
)

func main() {
	slow, err := testenv.SlowTests(".")
	if err != nil {
		fmt.Fprintf(os.Stderr, "slowtests: %v\n", err)
		os.Exit(1)
	}
	if len(slow) == 0 {
		fmt.Fprintln(os.Stderr, "slowtests: no slow test (a test whose first statement is testenv.SkipUnlessSlow)")
		os.Exit(1)
	}
	var names, pkgs []string
	for dir, tests := range slow {
		pkgs = append(pkgs, "./"+dir)
		for _, name := range tests {
			names = append(names, regexp.QuoteMeta(name))
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	slices.Sort(pkgs)
	fmt.Printf("-run=^(%s)$\n", strings.Join(names, "|"))
	for _, p := range pkgs {
		fmt.Println(p)
	}
}
