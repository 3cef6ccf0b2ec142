// Command hashalloc finds allocation-heavy hashing in Go code and rewrites it.
//
// Usage:
//
//	hashalloc [flags] packages...        report findings
//	hashalloc -fix [flags] packages...   apply their fixes (-diff: print them as a patch)
//	hashalloc help [CHECK]               list the checks, or explain one
//	hashalloc lsp [flags]                a language server on stdin and stdout
//	hashalloc bench [flags]              the benchmarks behind the rewrites (-help for its flags)
//	hashalloc prove [flags] packages...  measure the fixes with the packages' own benchmarks (help prove)
//	go vet -vettool=$(command -v hashalloc) [flags] packages...
//	go fix -fixtool=$(command -v hashalloc) [flags] packages...
//
// It exits 0 when it finds nothing, 3 when it finds something (also when
// findings remain after -fix), 1 when -diff has changes to show or a package
// cannot be loaded or analyzed, and 2 on a bad flag. Run hashalloc -help for
// the flags.
package main

import (
	"os"

	"github.com/hashalloc/hashalloc/bench"
	"github.com/hashalloc/hashalloc/internal/driver"
	"github.com/hashalloc/hashalloc/internal/prove"
	"github.com/hashalloc/hashalloc/lsp"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "lsp" {
		os.Exit(lsp.Main(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == "bench" {
		os.Exit(bench.Main(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "prove" {
		os.Exit(prove.Main(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) == 3 && os.Args[1] == "help" && os.Args[2] == "prove" {
		prove.Help(os.Stdout)
		os.Exit(0)
	}
	os.Exit(driver.Main(os.Args[1:]))
}
