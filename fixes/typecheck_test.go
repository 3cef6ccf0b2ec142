package fixes

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
)

const signerSrc = `package p

import (
	"crypto/hmac"
	"crypto/sha256"
)

func Sign(key, m []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(m)
	return mac.Sum(nil)
}
`

// exportDataPackage type-checks src as go vet's protocol does: its imports
// read from the compiler's export data, which brings the packages they
// depend on incomplete (hash, of which only hash.Hash).
func exportDataPackage(t *testing.T, src string) (*token.FileSet, *ast.File, *types.Package, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	files, err := listExportFiles(importPaths([]*ast.File{f}))
	require.NoError(t, err)
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(files[path]) })
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}}
	pkg, err := (&types.Config{Importer: imp}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return fset, f, pkg, info
}

// TestVerifierExportData checks a fix that imports a package the package
// did not, whose types the package's imports share (hash.Hash), against
// types read from export data: the type checker must see one hash.Hash.
func TestVerifierExportData(t *testing.T) {
	fset, f, pkg, info := exportDataPackage(t, signerSrc)
	var hash *types.Package
	for _, imp := range pkg.Imports() {
		for _, dep := range imp.Imports() {
			if dep.Path() == "hash" {
				hash = dep
			}
		}
	}
	require.NotNil(t, hash, "the export data of crypto/hmac brings hash")
	require.False(t, hash.Complete(), "hash, read for what crypto/hmac uses of it, is incomplete")

	tf := fset.File(f.FileStart)
	at := func(text string) token.Pos { return tf.Pos(strings.Index(signerSrc, text)) }
	call := "hmac.New(sha256.New, key)"
	fix := &analysis.SuggestedFix{TextEdits: []analysis.TextEdit{
		{Pos: at("\t\"crypto/sha256\""), End: at("\t\"crypto/sha256\""), NewText: []byte("\t\"crypto/subtle\"\n")},
		{Pos: at(")\n\nfunc"), End: at(")\n\nfunc"), NewText: []byte("\t\"hash\"\n")},
		{Pos: at(call), End: at(call) + token.Pos(len(call)), NewText: []byte("newMAC(sha256.New, key)")},
		{Pos: tf.Pos(len(signerSrc)), End: tf.Pos(len(signerSrc)), NewText: []byte(
			"\nfunc newMAC(h func() hash.Hash, key []byte) hash.Hash {\n" +
				"\t_ = subtle.ConstantTimeCompare(key, key)\n" +
				"\treturn hmac.New(h, key)\n}\n")},
	}}
	v := &Verifier{Fset: fset, Files: []*ast.File{f}, Pkg: pkg, Info: info, Sizes: types.SizesFor("gc", runtime.GOARCH),
		Source: func(*token.File) ([]byte, error) { return []byte(signerSrc), nil }}
	assert.NoError(t, v.Check(false, fix))
	assert.True(t, hash.Complete(), "hash was completed from its export data")

	// A fix that does not compile is still caught.
	bad := &analysis.SuggestedFix{TextEdits: []analysis.TextEdit{
		{Pos: at(")\n\nfunc"), End: at(")\n\nfunc"), NewText: []byte("\t\"hash\"\n")},
		{Pos: at(call), End: at(call) + token.Pos(len(call)), NewText: []byte("hash.Hash(sha256.New)")},
	}}
	assert.ErrorContains(t, v.Check(false, bad), "cannot convert sha256.New")

	// An import that go list cannot find is an error that names it.
	missing := &analysis.SuggestedFix{TextEdits: []analysis.TextEdit{
		{Pos: at(")\n\nfunc"), End: at(")\n\nfunc"), NewText: []byte("\t\"nosuch/pkg\"\n")},
		{Pos: at(call), End: at(call) + token.Pos(len(call)), NewText: []byte("pkg.New(sha256.New, key)")},
	}}
	assert.ErrorContains(t, v.Check(false, missing), "nosuch/pkg")
}

// TestVerifierFileVersion checks that a fixed file is type-checked at the Go
// version its //go:build line sets, although the verifier parses it without
// comments: a fix that ranges over an integer (Go 1.22) is refused in a
// file of Go 1.21.
func TestVerifierFileVersion(t *testing.T) {
	const src = "//go:build go1.21\n\npackage p\n\nfunc F(n int) (s int) {\n\treturn s\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}}
	pkg, err := (&types.Config{GoVersion: "go1.26"}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	tf := fset.File(f.FileStart)
	at := tf.Pos(strings.Index(src, "return s"))
	fix := &analysis.SuggestedFix{TextEdits: []analysis.TextEdit{
		{Pos: at, End: at, NewText: []byte("for i := range n {\n\t\ts += i\n\t}\n\t")},
	}}
	v := &Verifier{Fset: fset, Files: []*ast.File{f}, Pkg: pkg, Info: info, Sizes: types.SizesFor("gc", runtime.GOARCH),
		Source: func(*token.File) ([]byte, error) { return []byte(src), nil }}
	err = v.Check(false, fix)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "go1.22")
}
