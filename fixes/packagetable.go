package fixes

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// PackageTable makes a CRC table once, in a package-level variable declared
// right before the function that made it on every call:
//
//	                                                 // crc32Table is the table of the polynomial 0xD5828281, made once.
//	                                                 var crc32Table = crc32.MakeTable(0xD5828281)
//	func etag(b []byte) uint32 {                =>   func etag(b []byte) uint32 {
//	    tab := crc32.MakeTable(0xD5828281)               tab := crc32Table
//
// call is the MakeTable call; poly, the polynomial as a constant valid at
// package level; want, the variable's name. A table is only read once made
// (Update, Checksum and New never write into it), so one serves every
// call. It returns nil and why when f is nil (its source cannot be read)
// or the name that the package gives the variable is declared around call.
func PackageTable(f *File, call *ast.CallExpr, poly, want string) (*analysis.SuggestedFix, string) {
	if f == nil {
		return nil, "the source file cannot be read"
	}
	name, _ := f.Names.Declare(f, want, func(types.Object) bool { return false })
	decl := f.DeclAt(call.Pos())
	if decl == nil || f.FreeName(call.Pos(), name) != name {
		return nil, name + " is declared around the call"
	}
	at := decl.Pos()
	if fd, ok := decl.(*ast.FuncDecl); ok && fd.Doc != nil {
		at = fd.Doc.Pos()
	}
	text := docComment(fmt.Sprintf("%s is the table of the polynomial %s, made once.", name, poly)) +
		fmt.Sprintf("var %s = %s(%s)\n\n", name, f.Text(call.Fun), poly)
	return &analysis.SuggestedFix{
		Message: "Make the table once, in the package-level variable " + name,
		TextEdits: []analysis.TextEdit{
			{Pos: at, End: at, NewText: []byte(text)},
			{Pos: call.Pos(), End: call.End(), NewText: []byte(name)},
		},
	}, ""
}
