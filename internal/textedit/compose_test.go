package textedit

import (
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompose(t *testing.T) {
	src := []byte(`package p

import "crypto/sha256"

func A() { _ = sha256.Sum256(nil) }

func B() { _ = sha256.Sum256(nil) }
`)
	at := func(s string) int {
		for i := 0; i+len(s) <= len(src); i++ {
			if string(src[i:i+len(s)]) == s {
				return i
			}
		}
		t.Fatalf("no %q", s)
		return 0
	}
	imp := Edit{at("import"), at("import"), "import \"hash\"\n"}
	a := at("sha256.Sum256(nil) }\n\nfunc B")
	b := at("sha256.Sum256(nil) }\n") + len("sha256.Sum256(nil) }\n\nfunc B() { _ = ")
	lists := [][]Edit{
		{imp, {a, a + len("sha256.Sum256(nil)"), "hash.Hash(nil)"}},
		{{a + 2, a + 5, "x"}}, // overlaps the first: left out
		{imp, {b, b + len("sha256.Sum256(nil)"), "hash.Hash(nil)"}},
	}
	pkg := types.NewPackage("p", "p")
	pkg.SetImports([]*types.Package{types.NewPackage("crypto/sha256", "sha256")})
	out, applied, err := Compose(src, lists, pkg)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false, true}, applied)
	// The import both fixes add, once; the one they leave unused together,
	// gone.
	assert.Equal(t, `package p

import "hash"

func A() { _ = hash.Hash(nil) }

func B() { _ = hash.Hash(nil) }
`, string(out))

	edits := LineEdits(src, out)
	require.NotEmpty(t, edits)
	back, err := Apply(src, edits)
	require.NoError(t, err)
	assert.Equal(t, string(out), string(back))
	for _, e := range edits {
		assert.True(t, e.Start == 0 || src[e.Start-1] == '\n', "an edit of whole lines: %+v", e)
	}
	assert.Empty(t, LineEdits(src, src))

	_, _, err = Compose(src, [][]Edit{{{0, 7, "pack"}}}, pkg)
	assert.Error(t, err, "a result that does not parse")
}
