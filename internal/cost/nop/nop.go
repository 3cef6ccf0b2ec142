// Package nop is an analyzer that does nothing, with the requirements of
// hashalloc's: it requires inspect and declares one fact type. It is the
// baseline that the cost benchmark measures hashalloc against: whatever the
// driver spends to load, parse and type-check (and, because of the fact type,
// to analyze every dependency from source) it spends for both.
package nop

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer does nothing but take the inspector's result.
var Analyzer = &analysis.Analyzer{
	Name:      "nop",
	Doc:       "do nothing, with hashalloc's requirements (inspect, one fact type)",
	Requires:  []*analysis.Analyzer{inspect.Analyzer},
	FactTypes: []analysis.Fact{new(fact)},
	Run: func(p *analysis.Pass) (any, error) {
		_ = p.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		return nil, nil
	},
}

// fact is never exported: declaring its type is what costs.
type fact struct{}

func (*fact) AFact() {}
