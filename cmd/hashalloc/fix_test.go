package main_test

// Tests of what -fix and -diff say and return: one line per fixed file, the
// findings that remain (at their positions in the fixed file), exit 3 when
// some remain, -diff's patch that git apply accepts and its exit code, and
// the go get line a module needs for the runtime module.

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unfixable is a file with a finding that has no fix (the MAC is used for
// more than Write and one Sum: its Size is read, which neither a keyed pool,
// which a copy of the exported value could not keep, nor a one-shot HMAC
// serves), added to a copy of the examples.
const unfixable = `package extra

import (
	"crypto/hmac"
	"crypto/sha256"
)

type Signer struct{ key []byte }

func (s Signer) Sign(m []byte) []byte {
	mac := hmac.New(sha256.New, s.key)
	mac.Write(m)
	return append(mac.Sum(nil), byte(mac.Size()))
}
`

// gitRepo makes dir a git repository with everything committed, for git
// apply.
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "."},
		{"-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "before"},
	} {
		r := run(t, dir, nil, "git", args...)
		require.Equal(t, 0, r.code, "%s", r)
	}
}

func TestFixSummaryAndExitCode(t *testing.T) {
	testenv.SkipUnlessSlow(t, "fixes a copy of examples/ three times")
	t.Parallel()
	dir := copyExamples(t, true)
	writeFile(t, filepath.Join(dir, "examples", "extra.go"), strings.Replace(unfixable, "package extra", "package examples", 1))
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"}

	r := run(t, dir, env, binary, "-fix", "./...")
	require.Equal(t, 3, r.code, "a finding remains after -fix\n%s", r)
	assert.Empty(t, r.stdout)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	assert.Equal(t, []string{
		"fixed examples/merkle/merkle.go (2 findings)",
		"fixed examples/tokensigner/tokensigner.go (3 findings)",
		"fixed examples/treehash/treehash.go (3 findings)",
		"fixed examples/trie/trie.go (1 finding)",
	}, lines[:4])
	require.Len(t, lines, 5, "%s", r)
	assert.Regexp(t, `^examples/extra.go:11:9: hmac-rekey: .*no automatic fix`, lines[4])

	// Nothing more to fix: no file line, the same finding, exit 3.
	again := run(t, dir, env, binary, "-fix", "./...")
	require.Equal(t, 3, again.code, "%s", again)
	assert.Equal(t, lines[4]+"\n", again.stderr)

	// -json -fix prints the findings that remain.
	jr := run(t, dir, env, binary, "-json", "-fix", "./...")
	require.Equal(t, 0, jr.code, "%s", jr)
	var out map[string]map[string][]jsonDiagnostic
	require.NoError(t, json.Unmarshal([]byte(jr.stdout), &out), "%s", jr)
	require.Len(t, out["example.com/fixed/examples"]["hashalloc"], 1, "%s", jr.stdout)
	assert.Equal(t, "hmac-rekey", out["example.com/fixed/examples"]["hashalloc"][0].Category)
}

// TestFixRemainingPositions checks that a finding that remains after -fix is
// printed at its line in the fixed file, not in the file as it was.
func TestFixRemainingPositions(t *testing.T) {
	t.Parallel()
	// A finding below a fix that adds lines is reported at its new line.
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/pos\n\ngo 1.26.0\n",
		"pos.go": `package pos

import (
	"crypto/hmac"
	"crypto/sha256"
	"io"
)

func Sums(rs []io.Reader) [][]byte {
	var sums [][]byte
	for _, r := range rs {
		h := sha256.New()
		io.Copy(h, r)
		sums = append(sums, h.Sum(nil))
	}
	return sums
}

type Signer struct{ key []byte }

func (s Signer) Sign(m []byte) []byte {
	mac := hmac.New(sha256.New, s.key)
	mac.Write(m)
	return append(mac.Sum(nil), byte(mac.Size()))
}
`,
	})
	before := run(t, dir, nil, binary, "./...")
	require.Equal(t, 3, before.code, "%s", before)
	assert.Contains(t, before.stderr, "pos.go:22:9: hmac-rekey: ")
	r := run(t, dir, nil, binary, "-fix", "./...")
	require.Equal(t, 3, r.code, "%s", r)
	assert.Contains(t, r.stderr, "fixed pos.go (1 finding)\npos.go:23:9: hmac-rekey: ")
	after := run(t, dir, nil, binary, "./...")
	assert.Contains(t, after.stderr, "pos.go:23:9: hmac-rekey: ", "the position -fix printed is the one a new run gives")
}

func TestDiffGitApply(t *testing.T) {
	testenv.SkipUnlessSlow(t, "fixes copies of examples/ through git apply and compares them with -fix")
	t.Parallel()
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"}
	for _, pool := range []string{"runtime", "inline"} {
		t.Run(pool, func(t *testing.T) {
			t.Parallel()
			dir := copyExamples(t, true)
			gitRepo(t, dir)
			before := readGoFiles(t, dir)

			r := run(t, dir, env, binary, "-diff", "-pool="+pool, "./...")
			require.Equal(t, 1, r.code, "-diff exits 1 when changes are pending\n%s", r)
			assert.Empty(t, r.stderr, "every finding has a fix")
			assert.Equal(t, before, readGoFiles(t, dir), "-diff changed files")
			patch := filepath.Join(t.TempDir(), "fix.patch")
			writeFile(t, patch, r.stdout)

			check := run(t, dir, nil, "git", "apply", "--check", patch)
			require.Equal(t, 0, check.code, "%s\n%s", check, r.stdout)
			// The patch is what -fix writes.
			fixed := copyExamples(t, true)
			fr := run(t, fixed, env, binary, "-fix", "-pool="+pool, "./...")
			require.Equal(t, 0, fr.code, "%s", fr)
			apply := run(t, dir, nil, "git", "apply", patch)
			require.Equal(t, 0, apply.code, "%s", apply)
			assert.Equal(t, readGoFiles(t, fixed), readGoFiles(t, dir))

			// Nothing pending: exit 0 and an empty patch.
			r = run(t, dir, env, binary, "-diff", "-pool="+pool, "./...")
			assert.Equal(t, 0, r.code, "%s", r)
			assert.Empty(t, r.stdout)
		})
	}
}

// TestDiffRemaining checks -diff on a module where a finding has no fix:
// the patch on stdout, the finding on stderr, exit 1 while changes are
// pending, then 3.
func TestDiffRemaining(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the command three times and git apply")
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"go.mod":   "module example.com/rest\n\ngo 1.26.0\n",
		"extra.go": strings.Replace(unfixable, "package extra", "package rest", 1),
		"loop.go": `package rest

import (
	"crypto/sha256"
	"io"
)

func Sums(rs []io.Reader) (sums [][]byte) {
	for _, r := range rs {
		h := sha256.New()
		io.Copy(h, r)
		sums = append(sums, h.Sum(nil))
	}
	return sums
}`, // no newline at the end, which the fix leaves as it is
	})
	gitRepo(t, dir)
	r := run(t, dir, nil, binary, "-diff", "./...")
	require.Equal(t, 1, r.code, "%s", r)
	assert.True(t, strings.HasPrefix(r.stdout, "--- a/loop.go\n+++ b/loop.go\n@@ "), "%s", r.stdout)
	assert.NotContains(t, r.stdout, "No newline", "the last line, which no fix changes, stays as it was")
	assert.Regexp(t, regexp.MustCompile(`^extra.go:11:9: hmac-rekey: .*\n$`), r.stderr)
	patch := filepath.Join(t.TempDir(), "fix.patch")
	writeFile(t, patch, r.stdout)
	apply := run(t, dir, nil, "git", "apply", patch)
	require.Equal(t, 0, apply.code, "%s", apply)

	r = run(t, dir, nil, binary, "-diff", "./...")
	assert.Equal(t, 3, r.code, "no change pending, a finding remains\n%s", r)
	assert.Empty(t, r.stdout)
}

// TestFixRuntimeNotRequired checks -fix in a module outside the repository
// that does not require the runtime module: by default the fixes declare
// their pools in the fixed files, and the module builds, vets and passes its
// tests; -pool=runtime offers no fix that would import what the module cannot
// resolve, and says why; a module that requires it gets the runtime's pools.
func TestFixRuntimeNotRequired(t *testing.T) {
	testenv.SkipUnlessSlow(t, "fixes three copies of examples/")
	t.Parallel()
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"}
	const runtimeImport = `"github.com/hashalloc/hashalloc/runtime/`
	dir := copyExamples(t, false)
	r := run(t, dir, env, binary, "-fix", "./...")
	require.Equal(t, 0, r.code, "%s", r)
	for name, src := range readGoFiles(t, dir) {
		assert.NotContains(t, src, runtimeImport, name)
	}
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}, {"test", "-count=1", "./..."}} {
		r := run(t, dir, env, "go", args...)
		require.Equal(t, 0, r.code, "go %s\n%s", strings.Join(args, " "), r)
	}

	dir = copyExamples(t, false)
	r = run(t, dir, env, binary, "-fix", "-pool=runtime", "./...")
	require.Equal(t, 3, r.code, "%s", r)
	assert.Contains(t, r.stderr, "no automatic fix: -pool=runtime: example.com/fixed does not require github.com/hashalloc/hashalloc/runtime")
	for name, src := range readGoFiles(t, dir) {
		assert.NotContains(t, src, runtimeImport, name)
	}
	r = run(t, dir, env, "go", "build", "./...")
	require.Equal(t, 0, r.code, "%s", r)

	dir = copyExamples(t, true)
	r = run(t, dir, env, binary, "-fix", "./...")
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, readGoFiles(t, dir)["examples/treehash/treehash.go"], runtimeImport)
	r = run(t, dir, env, "go", "build", "./...")
	require.Equal(t, 0, r.code, "%s", r)
}

// TestDiffFromSubdirectory checks -diff run in a subdirectory on packages
// beside it: the patch's paths are relative to the directory that holds
// every changed file (never absolute), stderr says so, and git apply takes
// the patch there.
func TestDiffFromSubdirectory(t *testing.T) {
	t.Parallel()
	loop := `package %s

import (
	"crypto/sha256"
	"io"
)

func Sums(rs []io.Reader) (sums [][]byte) {
	for _, r := range rs {
		h := sha256.New()
		io.Copy(h, r)
		sums = append(sums, h.Sum(nil))
	}
	return sums
}
`
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/sub\n\ngo 1.26.0\n",
		"a/a.go": fmt.Sprintf(loop, "a"),
		"b/b.go": fmt.Sprintf(loop, "b"),
	})
	gitRepo(t, dir)
	r := run(t, filepath.Join(dir, "a"), nil, binary, "-diff", "example.com/sub/...")
	require.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, r.stdout, "--- a/a/a.go\n+++ b/a/a.go\n")
	assert.Contains(t, r.stdout, "--- a/b/b.go\n+++ b/b/b.go\n")
	assert.NotContains(t, r.stdout, "//", "no absolute path")
	assert.Contains(t, r.stderr, "its paths are relative to "+dir+", where git apply takes it")

	patch := filepath.Join(t.TempDir(), "fix.patch")
	writeFile(t, patch, r.stdout)
	apply := run(t, dir, nil, "git", "apply", "--check", patch)
	require.Equal(t, 0, apply.code, "%s", apply)
}
