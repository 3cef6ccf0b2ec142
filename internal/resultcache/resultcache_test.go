package resultcache

import (
	"crypto/sha256"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

func TestSaltCoversEveryInput(t *testing.T) {
	t.Setenv("GOWORK", "")
	base := func() (string, map[string]string, Toolchain, []byte) {
		return "build1", map[string]string{"pool": "auto", "checks": "all"}, Toolchain{"GOVERSION": "go1.26.8", "GOOS": "linux"}, []byte("profile")
	}
	b, o, tc, p := base()
	want := Salt(b, o, tc, p)
	b, o, tc, p = base()
	assert.Equal(t, want, Salt(b, o, tc, p), "the same inputs, the same salt")

	for name, change := range map[string]func(*string, map[string]string, Toolchain, *[]byte){
		"another build":         func(b *string, _ map[string]string, _ Toolchain, _ *[]byte) { *b = "build2" },
		"an option":             func(_ *string, o map[string]string, _ Toolchain, _ *[]byte) { o["pool"] = "inline" },
		"a new option":          func(_ *string, o map[string]string, _ Toolchain, _ *[]byte) { o["tags"] = "x" },
		"the toolchain":         func(_ *string, _ map[string]string, tc Toolchain, _ *[]byte) { tc["GOVERSION"] = "go1.25.3" },
		"the build config":      func(_ *string, _ map[string]string, tc Toolchain, _ *[]byte) { tc["GOOS"] = "darwin" },
		"the profile's content": func(_ *string, _ map[string]string, _ Toolchain, p *[]byte) { *p = []byte("other") },
	} {
		b, o, tc, p := base()
		change(&b, o, tc, &p)
		assert.NotEqual(t, want, Salt(b, o, tc, p), name)
	}

	// The go.work that applies, by content.
	work := filepath.Join(t.TempDir(), "go.work")
	require.NoError(t, os.WriteFile(work, []byte("go 1.26\nuse .\n"), 0o644))
	b, o, tc, p = base()
	tc["GOWORK"] = work
	first := Salt(b, o, tc, p)
	require.NoError(t, os.WriteFile(work, []byte("go 1.26\nuse ./a\n"), 0o644))
	assert.NotEqual(t, first, Salt(b, o, tc, p), "go.work's content")
}

// graph returns packages a, b (importing a) and c of a module in a new
// directory, and the directory.
func graph(t *testing.T) (a, b, c *packages.Package, dir string) {
	dir = t.TempDir()
	file := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		return path
	}
	mod := &packages.Module{Path: "example.com/m", Main: true, GoVersion: "1.26.0", GoMod: file("go.mod", "module example.com/m\n")}
	a = &packages.Package{ID: "example.com/m/a", PkgPath: "example.com/m/a", Name: "a", Module: mod, GoFiles: []string{file("a/a.go", "package a\n")}}
	b = &packages.Package{ID: "example.com/m/b", PkgPath: "example.com/m/b", Name: "b", Module: mod, GoFiles: []string{file("b/b.go", "package b\n")},
		Imports: map[string]*packages.Package{"example.com/m/a": a}}
	c = &packages.Package{ID: "example.com/m/c", PkgPath: "example.com/m/c", Name: "c", Module: mod, GoFiles: []string{file("c/c.go", "package c\n")}}
	return a, b, c, dir
}

func keys(t *testing.T, tc Toolchain, pkgs ...*packages.Package) []Key {
	k := NewKeyer([]byte("salt"), tc)
	var out []Key
	for _, p := range pkgs {
		key, err := k.Key(p)
		require.NoError(t, err)
		out = append(out, key)
	}
	return out
}

func TestKeyFollowsDependencies(t *testing.T) {
	a, b, c, dir := graph(t)
	before := keys(t, nil, a, b, c)
	assert.Equal(t, before, keys(t, nil, a, b, c), "unchanged files, unchanged keys")

	require.NoError(t, os.WriteFile(a.GoFiles[0], []byte("package a\n\nvar X int\n"), 0o644))
	after := keys(t, nil, a, b, c)
	assert.NotEqual(t, before[0], after[0], "a's file changed")
	assert.NotEqual(t, before[1], after[1], "b imports a")
	assert.Equal(t, before[2], after[2], "c does not")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\nrequire x v1.0.0\n"), 0o644))
	moved := keys(t, nil, a, b, c)
	for i := range moved {
		assert.NotEqual(t, after[i], moved[i], "the go.mod of a module outside the module cache counts")
	}
}

func TestKeyOfPinnedFiles(t *testing.T) {
	// A file of the module cache is keyed by its path, which holds the
	// module's version: it is not read.
	modcache := t.TempDir()
	p := &packages.Package{ID: "x.com/y", PkgPath: "x.com/y", Name: "y",
		Module:  &packages.Module{Path: "x.com/y", Version: "v1.2.3"},
		GoFiles: []string{filepath.Join(modcache, "x.com", "y@v1.2.3", "y.go")}}
	k := NewKeyer([]byte("salt"), Toolchain{"GOMODCACHE": modcache})
	_, err := k.Key(p)
	require.NoError(t, err, "a file of the module cache is not read")
	// The same path outside the module cache is read.
	k = NewKeyer([]byte("salt"), Toolchain{"GOMODCACHE": t.TempDir()})
	_, err = k.Key(p)
	assert.Error(t, err)
}

func TestEntryRoundTrip(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.go")
	src := []byte("package a\n\nfunc F() {\n\tx := 1\n\t_ = x\n}\n")
	require.NoError(t, os.WriteFile(name, src, 0o644))
	fset := token.NewFileSet()
	tf := fset.AddFile(name, -1, len(src))
	tf.SetLinesForContent(src)
	diags := []analysis.Diagnostic{{
		Pos: tf.Pos(25), End: tf.Pos(31), Category: "hasher-alloc", Message: "m", URL: "u",
		SuggestedFixes: []analysis.SuggestedFix{{Message: "fix", TextEdits: []analysis.TextEdit{{Pos: tf.Pos(25), End: tf.Pos(31), NewText: []byte("y := 2")}}}},
		Related:        []analysis.RelatedInformation{{Pos: tf.Pos(0), Message: "evidence"}},
	}}
	sum := func(n string) ([sha256.Size]byte, error) {
		data, err := os.ReadFile(n)
		return sha256.Sum256(data), err
	}
	data, err := Encode(fset, diags, sum)
	require.NoError(t, err)

	files := NewFiles(os.ReadFile)
	got, ok := files.Decode(data)
	require.True(t, ok)
	require.Len(t, got, 1)
	pos := func(fs *token.FileSet, p token.Pos) string { return fs.Position(p).String() }
	assert.Equal(t, pos(fset, diags[0].Pos), pos(files.Fset, got[0].Pos))
	assert.Equal(t, pos(fset, diags[0].End), pos(files.Fset, got[0].End))
	assert.Equal(t, diags[0].Message, got[0].Message)
	assert.Equal(t, diags[0].Category, got[0].Category)
	assert.Equal(t, diags[0].URL, got[0].URL)
	assert.Equal(t, "y := 2", string(got[0].SuggestedFixes[0].TextEdits[0].NewText))
	assert.Equal(t, pos(fset, diags[0].SuggestedFixes[0].TextEdits[0].End), pos(files.Fset, got[0].SuggestedFixes[0].TextEdits[0].End))
	assert.Equal(t, "evidence", got[0].Related[0].Message)
	assert.False(t, got[0].Related[0].End.IsValid())

	// A file changed since: a miss.
	require.NoError(t, os.WriteFile(name, append(src, "// more\n"...), 0o644))
	_, ok = NewFiles(os.ReadFile).Decode(data)
	assert.False(t, ok)
	_, ok = NewFiles(os.ReadFile).Decode([]byte("not json"))
	assert.False(t, ok)
}

func TestEntryRefusesLineDirectives(t *testing.T) {
	fset := token.NewFileSet()
	tf := fset.AddFile("gen.go", -1, 100)
	tf.AddLineColumnInfo(10, "orig.y", 40, 1)
	_, err := Encode(fset, []analysis.Diagnostic{{Pos: tf.Pos(50), Message: "m"}}, func(string) ([sha256.Size]byte, error) { return [32]byte{}, nil })
	assert.ErrorContains(t, err, "//line")
}

func TestPutGetTrim(t *testing.T) {
	c, err := Open(t.TempDir())
	require.NoError(t, err)
	now := time.Now()
	c.now = func() time.Time { return now }
	var k1, k2 Key
	k1[0], k2[0] = 1, 2
	require.NoError(t, c.Put(k1, []byte("one")))
	require.NoError(t, c.Put(k2, []byte("two")))
	got, ok := c.Get(k1)
	require.True(t, ok)
	assert.Equal(t, "one", string(got))
	_, ok = c.Get(Key{3})
	assert.False(t, ok)

	// A week later, an entry used meanwhile stays, the other goes.
	now = now.Add(5 * 24 * time.Hour)
	_, ok = c.Get(k1) // marks k1 used
	require.True(t, ok)
	now = now.Add(3 * 24 * time.Hour)
	require.NoError(t, c.Trim())
	_, ok = c.Get(k1)
	assert.True(t, ok)
	_, ok = c.Get(k2)
	assert.False(t, ok, "unused for a week")

	// Over MaxSize, the oldest go first.
	c.maxSize = 1000
	big := make([]byte, c.maxSize/4+1)
	var ks []Key
	for i := range 5 {
		now = now.Add(time.Hour)
		k := Key{byte(10 + i)}
		ks = append(ks, k)
		require.NoError(t, c.Put(k, big))
		require.NoError(t, os.Chtimes(c.path(k), now, now))
	}
	now = now.Add(2 * trimEvery)
	require.NoError(t, c.Trim())
	for i, k := range ks {
		_, err := os.Stat(c.path(k))
		assert.Equal(t, i >= 2, err == nil, fmt.Sprintf("entry %d", i))
	}
}
