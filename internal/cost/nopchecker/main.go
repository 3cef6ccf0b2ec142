// Command nopchecker runs the do-nothing analyzer of package nop with the
// standalone driver hashalloc uses: the cost benchmark's baseline.
package main

import (
	"github.com/hashalloc/hashalloc/internal/cost/nop"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() { singlechecker.Main(nop.Analyzer) }
