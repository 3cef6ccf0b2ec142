// Command hashalloc finds allocation-heavy hashing in Go code and rewrites it.
//
// Usage:
//
//	hashalloc [flags] packages...
//	hashalloc -fix [flags] packages...
//	go vet -vettool=$(command -v hashalloc) packages...
//	go fix -fixtool=$(command -v hashalloc) packages...
//	hashalloc lsp [flags]      (a language server on stdin and stdout)
//	hashalloc bench [flags]    (the benchmarks behind the rewrites; -help for its flags)
//
// It exits 3 when it finds something, 0 when it finds nothing, and 1 or 2 on
// bad input, as the x/tools checkers do. Run hashalloc -help for the flags.
package main

import (
	"os"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/bench"
	"github.com/hashalloc/hashalloc/lsp"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "lsp" {
		os.Exit(lsp.Main(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == "bench" {
		os.Exit(bench.Main(os.Args[2:], os.Stdout, os.Stderr))
	}
	singlechecker.Main(analyzer.Analyzer)
}
