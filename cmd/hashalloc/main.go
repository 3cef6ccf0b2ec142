// Command hashalloc finds allocation-heavy hashing in Go code and rewrites it.
//
// Usage:
//
//	hashalloc [flags] packages...
//	hashalloc -fix [flags] packages...
//	go vet -vettool=$(command -v hashalloc) packages...
//	go fix -fixtool=$(command -v hashalloc) packages...
//
// It exits 3 when it finds something, 0 when it finds nothing, and 1 or 2 on
// bad input, as the x/tools checkers do. Run hashalloc -help for the flags.
package main

import (
	"github.com/hashalloc/hashalloc/analyzer"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() { singlechecker.Main(analyzer.Analyzer) }
