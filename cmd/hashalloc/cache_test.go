package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cacheModule has three packages: b imports a, whose constructor wrapper
// is a fact that makes b's loop over readers a finding; c stands alone.
var cacheModule = map[string]string{
	"go.mod": "module example.com/cached\n\ngo 1.26.0\n",
	"a/a.go": `package a

import (
	"crypto/sha256"
	"hash"
)

// New returns the hasher of the tree's nodes.
func New() hash.Hash { return sha256.New() }
`,
	"b/b.go": `package b

import (
	"io"

	"example.com/cached/a"
)

// Sums hashes every reader.
func Sums(rs []io.Reader) [][]byte {
	var sums [][]byte
	for _, r := range rs {
		h := a.New()
		io.Copy(h, r)
		sums = append(sums, h.Sum(nil))
	}
	return sums
}
`,
	"c/c.go": `package c

import (
	"crypto/sha256"
	"io"
)

// Sums hashes every reader.
func Sums(rs []io.Reader) [][]byte {
	var sums [][]byte
	for _, r := range rs {
		h := sha256.New()
		io.Copy(h, r)
		sums = append(sums, h.Sum(nil))
	}
	return sums
}
`,
}

// cacheLine matches the line -v prints, and importsLine the one it adds
// when packages were analyzed.
var (
	cacheLine   = regexp.MustCompile(`(?m)^hashalloc: cache: (\d+) packages? from the cache, (\d+) analyzed(?:: (.*))?\n`)
	importsLine = regexp.MustCompile(`(?m)^hashalloc: cache: (\d+) packages? imported from the cache, (\d+) analyzed for their facts\n`)
)

// cached runs hashalloc -v with args in dir with the cache cacheDir, and
// returns the run without the -v lines, and the packages it analyzed.
func cached(t *testing.T, dir, cacheDir string, env []string, args ...string) (result, []string) {
	t.Helper()
	r, analyzed, _ := cachedImports(t, dir, cacheDir, env, args...)
	return r, analyzed
}

// cachedImports is cached, and also returns how many of the packages that
// the analyzed ones import were analyzed for their facts, or -1 when none
// was analyzed.
func cachedImports(t *testing.T, dir, cacheDir string, env []string, args ...string) (result, []string, int) {
	t.Helper()
	r := run(t, dir, append([]string{"HASHALLOC_CACHE=" + cacheDir}, env...), binary, append([]string{"-v"}, args...)...)
	m := cacheLine.FindStringSubmatch(r.stderr)
	require.NotNil(t, m, "no cache line: %s", r)
	r.stderr = strings.Replace(r.stderr, m[0], "", 1)
	var analyzed []string
	if m[3] != "" {
		analyzed = strings.Split(m[3], ", ")
	}
	imports := -1
	if m := importsLine.FindStringSubmatch(r.stderr); m != nil {
		r.stderr = strings.Replace(r.stderr, m[0], "", 1)
		var err error
		imports, err = strconv.Atoi(m[2])
		require.NoError(t, err)
	}
	return r, analyzed, imports
}

// uncached runs hashalloc -cache=off with args in dir.
func uncached(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	return run(t, dir, env, binary, append([]string{"-cache=off"}, args...)...)
}

func TestCacheInvalidation(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the command a dozen times over edits")
	dir := writeModule(t, cacheModule)
	cacheDir := t.TempDir()
	all := []string{"example.com/cached/a", "example.com/cached/b", "example.com/cached/c"}
	same := func(r result, env []string, args ...string) {
		t.Helper()
		want := uncached(t, dir, env, args...)
		assert.Equal(t, want, r, "the cached run says what the run without the cache says")
	}

	r, analyzed := cached(t, dir, cacheDir, nil, "./...")
	require.Equal(t, 3, r.code, "%s", r)
	assert.Equal(t, all, analyzed, "a first run analyzes every package")
	assert.Contains(t, r.stderr, "b/b.go:13:8: hasher-alloc: a.New() returns the hasher of sha256.New", "b's loop over a's wrapper: %s", r)
	same(r, nil, "./...")

	r, analyzed = cached(t, dir, cacheDir, nil, "./...")
	assert.Empty(t, analyzed, "nothing changed: every result comes from the cache")
	same(r, nil, "./...")

	// A change to b alone re-analyzes b alone, with a's fact and the
	// standard library's types read from the cache: b's finding stays.
	writeFile(t, filepath.Join(dir, "b", "b.go"), cacheModule["b/b.go"]+"\n// A comment.\n")
	r, analyzed, imports := cachedImports(t, dir, cacheDir, nil, "./...")
	assert.Equal(t, all[1:2], analyzed)
	assert.Zero(t, imports, "what b imports comes from the cache")
	assert.Contains(t, r.stderr, "b/b.go:13:8: hasher-alloc: a.New() returns the hasher of sha256.New", "a's fact, from the cache: %s", r)
	same(r, nil, "./...")

	// A change to a re-analyzes a and b, which imports it, not c: b's
	// finding goes with a's fact, New no longer a plain wrapper.
	writeFile(t, filepath.Join(dir, "a", "a.go"), `package a

import (
	"crypto/sha256"
	"hash"
)

// New returns the hasher of the tree's nodes, prefixed.
func New() hash.Hash {
	h := sha256.New()
	h.Write([]byte("node"))
	return h
}
`)
	r, analyzed, imports = cachedImports(t, dir, cacheDir, nil, "./...")
	assert.Equal(t, all[:2], analyzed, "a change to a re-analyzes a and its dependent b")
	assert.Zero(t, imports)
	assert.NotContains(t, r.stderr, "b/b.go:", "%s", r)
	same(r, nil, "./...")

	// A change to c alone re-analyzes c alone.
	writeFile(t, filepath.Join(dir, "c", "c.go"), cacheModule["c/c.go"]+"\n// Unused is new.\nvar Unused int\n")
	r, analyzed = cached(t, dir, cacheDir, nil, "./...")
	assert.Equal(t, all[2:], analyzed)
	same(r, nil, "./...")

	// An option that changes a result, or the build configuration, is
	// another key for every package; back to what was, the cache answers.
	for _, tc := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"-pool=inline", "./..."}},
		{nil, []string{"-checks=-hasher-alloc", "./..."}},
		{nil, []string{"-tags=other", "./..."}},
		{[]string{"GOFLAGS=-tags=other"}, []string{"./..."}},
		{[]string{"CGO_ENABLED=0"}, []string{"./..."}},
	} {
		r, analyzed = cached(t, dir, cacheDir, tc.env, tc.args...)
		assert.Equal(t, all, analyzed, "env %v, args %v", tc.env, tc.args)
		same(r, tc.env, tc.args...)
	}
	_, analyzed = cached(t, dir, cacheDir, nil, "./...")
	assert.Empty(t, analyzed)
}

func TestCacheNewBuild(t *testing.T) {
	testenv.SkipUnlessSlow(t, "builds the command again")
	// Another build of hashalloc has another key: its results may differ.
	dir := writeModule(t, cacheModule)
	cacheDir := t.TempDir()
	_, analyzed := cached(t, dir, cacheDir, nil, "./...")
	require.Len(t, analyzed, 3)
	other := filepath.Join(t.TempDir(), "hashalloc")
	build := exec.Command("go", "build", "-ldflags=-s", "-o", other, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	r := run(t, dir, []string{"HASHALLOC_CACHE=" + cacheDir}, other, "-v", "./...")
	assert.Contains(t, r.stderr, "hashalloc: cache: 0 packages from the cache, 3 analyzed", "%s", r)
}

func TestCachedSameAsInProcess(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs every output mode with and without the cache")
	// Every output mode, from the cache, is what the analysis prints.
	cacheDir := t.TempDir()
	dir := copyExamples(t, false)
	for _, args := range [][]string{{"./..."}, {"-json", "./..."}, {"-diff", "./..."}, {"-c=1", "./..."}} {
		cached(t, dir, cacheDir, nil, args...) // fills the cache
		r, analyzed := cached(t, dir, cacheDir, nil, args...)
		assert.Empty(t, analyzed, "%v", args)
		assert.Equal(t, uncached(t, dir, nil, args...), r, "%v", args)
	}

	// -fix from the cache writes what -fix without it writes.
	fixed := copyExamples(t, false)
	r := uncached(t, fixed, nil, "-fix", "./...")
	r2, analyzed := cached(t, dir, cacheDir, nil, "-fix", "./...")
	assert.Empty(t, analyzed)
	assert.Equal(t, r, r2)
	assert.Equal(t, readGoFiles(t, fixed), readGoFiles(t, dir))
	// The fixed files are new content, which -fix analyzed again (its fixes
	// change the work beside other sites) and so cached: nothing left to
	// fix, from the cache as without it.
	r, _ = cached(t, dir, cacheDir, nil, "-fix", "./...")
	assert.NotContains(t, r.stderr, "fixed ", "%s", r)
	assert.Equal(t, uncached(t, dir, nil, "-fix", "./..."), r)
}

func TestCacheOff(t *testing.T) {
	dir := writeModule(t, cacheModule)
	for _, tc := range []struct {
		env  []string
		args []string
	}{
		{[]string{"HASHALLOC_CACHE=" + filepath.Join(t.TempDir(), "c")}, []string{"-cache=off", "./..."}},
		{[]string{"HASHALLOC_CACHE=off"}, []string{"./..."}},
	} {
		r := run(t, dir, tc.env, binary, append([]string{"-v"}, tc.args...)...)
		require.Equal(t, 3, r.code, "%s", r)
		assert.Contains(t, r.stderr, "hashalloc: cache: not used", "%s", r)
		if d, ok := strings.CutPrefix(tc.env[0], "HASHALLOC_CACHE="); ok && d != "off" {
			_, err := os.Stat(d)
			assert.True(t, os.IsNotExist(err), "-cache=off writes no cache")
		}
	}
	r := run(t, dir, nil, binary, "-cache=maybe", "./...")
	assert.Equal(t, 2, r.code, "%s", r)
	assert.Contains(t, r.stderr, "-cache", "%s", r)
}

func TestCacheCorruptEntries(t *testing.T) {
	testenv.SkipUnlessSlow(t, "corrupts the cache entries one by one")
	// An entry that cannot be read, result or unit, is a miss: the run
	// analyzes again and says what the run without the cache says.
	dir := writeModule(t, cacheModule)
	cacheDir := t.TempDir()
	_, analyzed := cached(t, dir, cacheDir, nil, "./...")
	require.Len(t, analyzed, 3)
	n := 0
	require.NoError(t, filepath.WalkDir(cacheDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		n++
		return os.WriteFile(path, []byte("not an entry"), 0o644)
	}))
	require.NotZero(t, n)
	r, analyzed, imports := cachedImports(t, dir, cacheDir, nil, "./...")
	assert.Len(t, analyzed, 3)
	assert.NotZero(t, imports, "the standard library's unit entries were unreadable too")
	assert.Equal(t, uncached(t, dir, nil, "./..."), r)
}

func TestCacheFileless(t *testing.T) {
	// unsafe has no files: a root like any other, with nothing to say,
	// from the cache or not, beside a package that imports it.
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/fileless\n\ngo 1.26.0\n",
		"p/p.go": "package p\n\nimport \"unsafe\"\n\n// Size is the size of a pointer.\nconst Size = unsafe.Sizeof(uintptr(0))\n",
	})
	cacheDir := t.TempDir()
	for range 2 {
		r, _ := cached(t, dir, cacheDir, nil, "unsafe", "./...")
		assert.Equal(t, uncached(t, dir, nil, "unsafe", "./..."), r)
		assert.Zero(t, r.code, "%s", r)
	}
}

func TestCacheHitImportedByMiss(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the command over edits of an imported package")
	// A package answered by the cache that a changed package imports: its
	// findings keep their positions while what imports it is analyzed.
	files := map[string]string{
		"go.mod": "module example.com/hit\n\ngo 1.26.0\n",
		// a is cacheModule's c, whose loop is a finding.
		"a/a.go": strings.Replace(cacheModule["c/c.go"], "package c", "package a", 1),
		"b/b.go": "package b\n\nimport \"example.com/hit/a\"\n\n// Sums is a.Sums.\nvar Sums = a.Sums\n",
	}
	dir := writeModule(t, files)
	cacheDir := t.TempDir()
	r, analyzed := cached(t, dir, cacheDir, nil, "./...")
	require.Len(t, analyzed, 2)
	require.Contains(t, r.stderr, "a/a.go:12:8: hasher-alloc", "%s", r)
	for i, args := range [][]string{{"./..."}, {"-json", "./..."}} {
		writeFile(t, filepath.Join(dir, "b", "b.go"), files["b/b.go"]+fmt.Sprintf("\n// Change %d.\n", i))
		r, analyzed, imports := cachedImports(t, dir, cacheDir, nil, args...)
		assert.Equal(t, []string{"example.com/hit/b"}, analyzed)
		assert.Zero(t, imports)
		assert.Equal(t, uncached(t, dir, nil, args...), r, "%v", args)
	}
}

func TestCacheConcurrentRuns(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the command many times at once")
	// Runs that share a cache, at once, each read whole entries or none.
	dir := writeModule(t, cacheModule)
	cacheDir := t.TempDir()
	want := uncached(t, dir, nil, "./...")
	var wg sync.WaitGroup
	results := make([]result, 4)
	for i := range results {
		wg.Go(func() {
			results[i] = run(t, dir, []string{"HASHALLOC_CACHE=" + cacheDir}, binary, "./...")
		})
	}
	wg.Wait()
	for _, r := range results {
		assert.Equal(t, want, r)
	}
	assert.Equal(t, want, run(t, dir, []string{"HASHALLOC_CACHE=" + cacheDir}, binary, "./..."))
}
