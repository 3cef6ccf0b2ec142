package textedit

import (
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMerge(t *testing.T) {
	imp := Edit{10, 10, "import x\n"}
	for _, tc := range []struct {
		name   string
		x, y   []Edit
		want   []Edit
		merged bool
	}{
		{"identical edits made once", []Edit{imp, {20, 25, "a"}}, []Edit{imp, {30, 31, "b"}}, []Edit{imp, {20, 25, "a"}, {30, 31, "b"}}, true},
		{"insertions at one point, x first", []Edit{{5, 5, "x"}}, []Edit{{5, 5, "y"}}, []Edit{{5, 5, "x"}, {5, 5, "y"}}, true},
		{"disjoint", []Edit{{0, 2, "a"}}, []Edit{{2, 4, "b"}}, []Edit{{0, 2, "a"}, {2, 4, "b"}}, true},
		{"same bytes changed differently", []Edit{{0, 4, "a"}}, []Edit{{0, 4, "b"}}, nil, false},
		{"overlap", []Edit{{0, 4, "a"}}, []Edit{{2, 6, "b"}}, nil, false},
	} {
		got, ok := Merge(tc.x, tc.y)
		assert.Equal(t, tc.merged, ok, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
}

func TestApply(t *testing.T) {
	got, err := Apply([]byte("hello world"), []Edit{{0, 0, ">"}, {6, 11, "there"}})
	require.NoError(t, err)
	assert.Equal(t, ">hello there", string(got))
	_, err = Apply([]byte("abc"), []Edit{{2, 9, ""}})
	assert.Error(t, err)
}

func TestSort(t *testing.T) {
	got, err := Sort([]Edit{{5, 6, "b"}, {0, 0, "x"}, {0, 0, "y"}})
	require.NoError(t, err)
	assert.Equal(t, []Edit{{0, 0, "x"}, {0, 0, "y"}, {5, 6, "b"}}, got, "insertions at one point keep their order")
	_, err = Sort([]Edit{{0, 4, "a"}, {2, 6, "b"}})
	assert.Error(t, err)
}

// hashPkg is a package that imports crypto/sha256 and sync, as the type
// checker would give it: the names of imports without a name.
func hashPkg() *types.Package {
	p := types.NewPackage("example.com/p", "p")
	p.SetImports([]*types.Package{types.NewPackage("crypto/sha256", "sha256"), types.NewPackage("sync", "sync")})
	return p
}

func TestRemoveUnusedImports(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{
			"a parenthesized declaration keeps its other imports",
			"package p\n\nimport (\n\t\"crypto/sha256\"\n\t// the pool\n\t\"sync\" // comment\n)\n\nvar _ = sha256.Sum256\n",
			"package p\n\nimport (\n\t\"crypto/sha256\"\n)\n\nvar _ = sha256.Sum256\n",
		},
		{
			"a declaration left empty goes, without a double blank line",
			"package p\n\nimport \"sync\"\n\nimport \"crypto/sha256\"\n\nvar _ = sha256.Sum256\n",
			"package p\n\nimport \"crypto/sha256\"\n\nvar _ = sha256.Sum256\n",
		},
		{
			"a used import, a blank import and a new import stay",
			"package p\n\nimport (\n\t_ \"crypto/sha256\"\n\t\"example.com/new\"\n\t\"sync\"\n)\n\nvar _ sync.Mutex\n",
			"package p\n\nimport (\n\t_ \"crypto/sha256\"\n\t\"example.com/new\"\n\t\"sync\"\n)\n\nvar _ sync.Mutex\n",
		},
		{
			"an unformatted rest of the file is left alone",
			"package p\n\nimport \"sync\"\n\n// Doc   comment\nfunc F( ) {}\n",
			"package p\n\n// Doc   comment\nfunc F( ) {}\n",
		},
		{
			"imports that share a line are reprinted",
			"package p\n\nimport (\"sync\"; \"crypto/sha256\")\n\nvar _ = sha256.Sum256\n",
			"package p\n\nimport (\n\t\"crypto/sha256\"\n)\n\nvar _ = sha256.Sum256\n",
		},
	} {
		got, err := RemoveUnusedImports([]byte(tc.src), hashPkg())
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, string(got), tc.name)
	}
	_, err := RemoveUnusedImports([]byte("package p\nfunc {"), hashPkg())
	assert.Error(t, err, "a file that does not parse")
}

func TestFormatTouched(t *testing.T) {
	// A file that is not gofmt-clean: a doc comment and a function that no
	// fix touches keep their form; the struct that gains a field is aligned
	// as gofmt would, the field beside it too.
	orig := "package p\n\n//Doc comment without a space.\nfunc F( ) {}\n\ntype T struct {\n\tkey []byte\n\tn   int\n}\n"
	fixed := "package p\n\n//Doc comment without a space.\nfunc F( ) {}\n\ntype T struct {\n\tkey []byte\n\tn   int\n\tmacs hashpool.HMAC\n}\n"
	want := "package p\n\n//Doc comment without a space.\nfunc F( ) {}\n\ntype T struct {\n\tkey  []byte\n\tn    int\n\tmacs hashpool.HMAC\n}\n"
	got, err := FormatTouched([]byte(orig), []byte(fixed))
	require.NoError(t, err)
	assert.Equal(t, want, string(got))

	// Badly indented inserted code is indented.
	orig = "package p\n\nfunc F() {\n\tx := 1\n\t_ = x\n}\n"
	fixed = "package p\n\nfunc F() {\n\tx := 1\n  y := 2\n\t_ = x\n\t_ = y\n}\n"
	got, err = FormatTouched([]byte(orig), []byte(fixed))
	require.NoError(t, err)
	assert.Equal(t, "package p\n\nfunc F() {\n\tx := 1\n\ty := 2\n\t_ = x\n\t_ = y\n}\n", string(got))

	// An import deleted from a declaration that gofmt would sort: the
	// declaration is taken whole, sorted, and no import is lost (a partial
	// take deleted the imports that gofmt moves: razorpay-go's utils.go).
	orig = "package p\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n        \"crypto/hmac\"\n\t\"crypto/sha256\"\n\t\"encoding/hex\"\n)\n\nvar _ = fmt.Sprint\n"
	fixed = "package p\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\t\"crypto/sha256\"\n\t\"encoding/hex\"\n)\n\nvar _ = fmt.Sprint\n"
	got, err = FormatTouched([]byte(orig), []byte(fixed))
	require.NoError(t, err)
	assert.Equal(t, "package p\n\nimport (\n\t\"crypto/sha256\"\n\t\"encoding/hex\"\n\t\"fmt\"\n\t\"strings\"\n)\n\nvar _ = fmt.Sprint\n", string(got))

	_, err = FormatTouched([]byte(orig), []byte("package p\nfunc {"))
	assert.Error(t, err)
}

func TestFinish(t *testing.T) {
	src := []byte("package p\n\nimport (\n\t\"crypto/sha256\"\n\t\"sync\"\n)\n\nvar pool sync.Pool\n\nfunc F(b []byte) [32]byte { return sha256.Sum256(b) }\n")
	// A fix that removes the pool: its import goes with it.
	start := len("package p\n\nimport (\n\t\"crypto/sha256\"\n\t\"sync\"\n)\n\n")
	got, err := Finish(src, []Edit{{start, start + len("var pool sync.Pool\n\n"), ""}}, hashPkg())
	require.NoError(t, err)
	assert.Equal(t, "package p\n\nimport (\n\t\"crypto/sha256\"\n)\n\nfunc F(b []byte) [32]byte { return sha256.Sum256(b) }\n", string(got))
}
