package fixes

import (
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeclareSiblings names the declarations of several objects: each object
// of a file's copy is its own name followed by the file's word, and of a
// numbered copy by its number; every name is free in the package and its
// files, whatever it was wanted as, and an existing declaration of the same
// meaning is reused.
func TestDeclareSiblings(t *testing.T) {
	fset := token.NewFileSet()
	file := func(name string) *File {
		af, err := parser.ParseFile(fset, name, "package p\n", 0)
		require.NoError(t, err)
		return &File{Fset: fset, AST: af}
	}
	a, web, sha := file("a.go"), file("weburl.go"), file("sha256.go")
	pkg := types.NewPackage("p", "p")
	never := func(types.Object) bool { return false }
	declare := func(n *PackageNames, f *File, want string, suffixes ...string) string {
		name, decl := n.Declare(f, want, never, suffixes...)
		assert.True(t, decl, name)
		return name
	}

	n := &PackageNames{Pkg: pkg}
	assert.Equal(t, "pooledHash", declare(n, a, "pooledHash", "es"))
	fn := declare(n, web, "pooledHash", "es")
	assert.Equal(t, "pooledHashWeburl", fn)
	assert.Equal(t, "pooledHashesWeburl", sibling("pooledHash", fn, "es"))
	assert.Equal(t, "pooledHash", declare(n, a, "pooledHash", "es"), "a file keeps the name it was given")
	assert.Equal(t, "hmacPool", declare(n, a, "hmacPool", hmacPoolSiblings...))
	pool := declare(n, web, "hmacPool", hmacPoolSiblings...)
	assert.Equal(t, []string{"hmacPoolWeburl", "hmacPoolKeyedWeburl", "hmacPoolMACWeburl"},
		[]string{pool, sibling("hmacPool", pool, "Keyed"), sibling("hmacPool", pool, "MAC")})
	assert.Equal(t, "hmacPoolEqualWeburl", declare(n, web, sibling("hmacPool", pool, "Equal")))

	// A name given for one want is not given for another: sha256.go's copy
	// of appendHMAC would be appendHMACSHA256, which a.go declares.
	assert.Equal(t, "appendHMACSHA256", declare(n, a, "appendHMACSHA256"))
	assert.Equal(t, "appendHMAC", declare(n, a, "appendHMAC"))
	assert.Equal(t, "appendHMACSHA2562", declare(n, sha, "appendHMAC"))

	// A sibling taken in the package, or by an import of a file, moves the
	// whole declaration to the next name, siblings included.
	pkg = types.NewPackage("p", "p")
	pkg.Scope().Insert(types.NewVar(token.NoPos, pkg, "pooledHashes", types.Typ[types.Int]))
	imports := types.NewScope(nil, token.NoPos, token.NoPos, "weburl.go")
	imports.Insert(types.NewPkgName(token.NoPos, pkg, "pooledHashesWeburl", types.NewPackage("x/pooledHashesWeburl", "pooledHashesWeburl")))
	n = &PackageNames{Pkg: pkg, FileScopes: []*types.Scope{imports}}
	fn = declare(n, a, "pooledHash", "es")
	assert.Equal(t, []string{"pooledHashA", "pooledHashesA"}, []string{fn, sibling("pooledHash", fn, "es")})
	fn = declare(n, web, "pooledHash", "es")
	assert.Equal(t, []string{"pooledHashWeburl2", "pooledHashesWeburl2"}, []string{fn, sibling("pooledHash", fn, "es")})
	fn = declare(n, file("2fa.go"), "pooledHash", "es")
	assert.Equal(t, []string{"pooledHash2", "pooledHashes2"}, []string{fn, sibling("pooledHash", fn, "es")})

	// An existing declaration of the same meaning is reused, under its name.
	pkg = types.NewPackage("p", "p")
	pkg.Scope().Insert(types.NewTypeName(token.NoPos, pkg, "hmacPool", nil))
	pkg.Scope().Insert(types.NewTypeName(token.NoPos, pkg, "hmacPoolWeburl", nil))
	n = &PackageNames{Pkg: pkg}
	same := func(obj types.Object) bool { return obj.Name() == "hmacPoolWeburl" }
	name, decl := n.Declare(web, "hmacPool", same, hmacPoolSiblings...)
	assert.Equal(t, "hmacPoolWeburl", name)
	assert.False(t, decl)
}

// TestRefill wraps again a comment paragraph of a template that a long name
// pushed past 80 columns, and leaves the others as the template wrote them.
func TestRefill(t *testing.T) {
	const kept = "// short is kept\n// as it is.\n//\n//go:noinline\nfunc short() {}\n"
	assert.Equal(t, kept, refill(kept))
	long := "\n// hmacPoolEqualWeburl reports whether mac is the HMAC of the data written to m, in\n// constant time.\nfunc f() {} // a trailing comment is not a paragraph of its own, whatever its length\n"
	assert.Equal(t, "\n// hmacPoolEqualWeburl reports whether mac is the HMAC of the data written to m,\n// in constant time.\nfunc f() {} // a trailing comment is not a paragraph of its own, whatever its length\n", refill(long))
}

// TestPathName checks the name a package is assumed to be imported under:
// its path's last element, or the one before a major version's suffix.
func TestPathName(t *testing.T) {
	for path, want := range map[string]string{
		"crypto/sha256":                "sha256",
		"hash":                         "hash",
		"github.com/cespare/xxhash/v2": "xxhash",
		"github.com/foo/bar/v10":       "bar",
		"github.com/foo/v1":            "v1",
		"github.com/foo/vx":            "vx",
		"v2":                           "v2",
		"gopkg.in/macaroon.v2":         "macaroon.v2",
	} {
		assert.Equal(t, want, pathName(path), path)
	}
}
