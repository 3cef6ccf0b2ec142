package fixes

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// Hoist moves the definition of a hasher out of a loop and resets it where it
// used to be made:
//
//	                                  h := sha256.New()
//	for _, p := range parts {         for _, p := range parts {
//	    h := sha256.New()      =>         h.Reset()
//	    io.Copy(h, p)                     io.Copy(h, p)
//	}                                 }
//
// before is the outermost statement the definition moves in front of (the
// loop, or its label); def is the h := ctor(...) statement. The caller has
// proved that ctor's arguments do not change in the loop, that h does not
// outlive an iteration and that its name is free in front of the loop.
func Hoist(f *File, before ast.Stmt, def *ast.AssignStmt) analysis.SuggestedFix {
	name := def.Lhs[0].(*ast.Ident).Name
	return analysis.SuggestedFix{
		Message: "Hoist " + name + " out of the loop and Reset it per iteration",
		TextEdits: []analysis.TextEdit{
			{
				Pos:     before.Pos(),
				End:     before.Pos(),
				NewText: []byte(f.Text(def) + "\n" + f.Indent(before.Pos())),
			},
			{
				Pos:     def.Pos(),
				End:     def.End(),
				NewText: []byte(name + ".Reset()"),
			},
		},
	}
}
