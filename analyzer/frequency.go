package analyzer

// How often code runs: the shared judgement of the per-iteration and
// per-call checks.

import (
	"fmt"

	"golang.org/x/tools/go/ast/inspector"
)

// frequency says how often the code at cur runs when that is often enough to
// report an allocation there: "on every iteration of the loop at f.go:12"
// (and that loop), or "on every call of f, which is hot (why)". It returns
// false for code that runs once per call of a cold function, or in a function
// literal outside any loop of its own (how often that runs is unknown). With
// proven, a function must be hot by strong evidence (see hotness.proven).
func (p *pass) frequency(cur inspector.Cursor, proven bool) (string, inspector.Cursor, bool) {
	if loop, ok := enclosingLoop(cur, false); ok {
		return "on every iteration of the loop at " + p.position(loop.Node().Pos()), loop, true
	}
	fn, _, ok := p.funcOf(cur)
	if !ok {
		return "", inspector.Cursor{}, false
	}
	hot := p.hot.explain(fn)
	if hot == "" || proven && !p.hot.proven(fn) {
		return "", inspector.Cursor{}, false
	}
	return fmt.Sprintf("on every call of %s, which is hot (%s)", fn.Name(), hot), inspector.Cursor{}, true
}
