package fixes

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// StdConstructor replaces a hasher built through a crypto.Hash value, which
// the compiler cannot devirtualize and so always allocates, by the standard
// constructor of the same hash, which stays on the stack when it does not escape:
//
//	h := crypto.SHA256.New()   =>   h := sha256.New()
//
// call is the crypto.Hash.New call; ctor is the constructor as "importpath.Func".
func StdConstructor(f *File, call *ast.CallExpr, ctor string) analysis.SuggestedFix {
	path, fn := splitFunc(ctor)
	im := f.Imports(call.Pos())
	pkg := im.Name(path, pathName(path))
	if qual, ok := f.qualifier(call); ok {
		im.Drop(qual, call)
	}
	edits := append(im.Edits(), analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(pkg + "." + fn + "()")})
	return analysis.SuggestedFix{
		Message:   "Call " + pkg + "." + fn + " directly",
		TextEdits: edits,
	}
}
