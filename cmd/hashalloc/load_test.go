package main_test

// Tests of what the command loads and analyzes: test files only with
// -tests (one report per position), build tags, the user's cgo files, and
// packages that do not build, whose errors are printed once and named in
// -json too.

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testsModule has a finding in a non-test file, one in a test file, and a
// test file of its external test package that does not compile: it is
// loaded only with -tests.
var testsModule = map[string]string{
	"go.mod": "module example.com/tests\n\ngo 1.26.0\n",
	"tests.go": `package tests

import (
	"crypto/hmac"
	"crypto/sha256"
)

type Signer struct {
	key []byte
}

func (s *Signer) Sign(m []byte) []byte {
	mac := hmac.New(sha256.New, s.key)
	mac.Write(m)
	return mac.Sum(nil)
}
`,
	"tests_test.go": `package tests

import (
	"crypto/hmac"
	"crypto/sha256"
	"testing"
)

var key = []byte("k")

func TestSign(t *testing.T) {
	for i := 0; i < 1000; i++ {
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte("m"))
	}
}
`,
}

func TestTestsFlag(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the command four times, with and without test files")
	t.Parallel()
	dir := writeModule(t, testsModule)

	// Without -tests, test files are not loaded: one finding, in tests.go.
	r := run(t, dir, nil, binary, "./...")
	require.Equal(t, 3, r.code, "%s", r)
	assert.Regexp(t, `^tests.go:13:9: hmac-rekey: [^\n]*\n$`, r.stderr)

	// With -tests, the test file is analyzed too, and each finding is
	// printed once, although the package and its test variant both hold
	// tests.go.
	r = run(t, dir, nil, binary, "-tests", "./...")
	require.Equal(t, 3, r.code, "%s", r)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	require.Len(t, lines, 2, "%s", r)
	assert.True(t, strings.HasPrefix(lines[0], "tests.go:13:9: hmac-rekey: "), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "tests_test.go:13:10: hmac-rekey: "), lines[1])

	// -json: one package, not the package and its test variant.
	r = run(t, dir, nil, binary, "-json", "-tests", "./...")
	require.Equal(t, 0, r.code, "%s", r)
	var out map[string]map[string][]jsonDiagnostic
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), "%s", r)
	require.Len(t, out, 1, "%s", r.stdout)
	assert.Len(t, out["example.com/tests [example.com/tests.test]"]["hashalloc"], 2, "%s", r.stdout)

	// -test, the x/tools checkers' flag, is a deprecated alias of -tests.
	r = run(t, dir, nil, binary, "-test=false", "./...")
	require.Equal(t, 3, r.code, "%s", r)
	assert.Contains(t, r.stderr, "hashalloc: -test is deprecated: use -tests")
	assert.Regexp(t, `^hashalloc: -test is deprecated: [^\n]*\ntests.go:13:9: hmac-rekey: [^\n]*\n$`, r.stderr)
}

// TestTestFilesNotLoaded shows that without -tests a test file is not even
// loaded: one that does not compile changes nothing.
func TestTestFilesNotLoaded(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the command twice")
	t.Parallel()
	files := map[string]string{
		"go.mod":          "module example.com/tests\n\ngo 1.26.0\n",
		"tests.go":        testsModule["tests.go"],
		"ext_test.go":     "package tests_test\n\nvar broken int = \"not an int\"\n",
		"tests_2_test.go": "package tests\n",
	}
	dir := writeModule(t, files)
	r := run(t, dir, nil, binary, "./...")
	require.Equal(t, 3, r.code, "%s", r)
	assert.Regexp(t, `^tests.go:13:9: hmac-rekey: [^\n]*\n$`, r.stderr)

	r = run(t, dir, nil, binary, "-tests", "./...")
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, r.stderr, "# example.com/tests_test [example.com/tests.test]\next_test.go:3:18: cannot use \"not an int\"")
}

func TestBuildTags(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the command four times")
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/tags\n\ngo 1.26.0\n",
		"tags.go": `package tags

type Signer struct {
	key []byte
}
`,
		"special.go": `//go:build special

package tags

import (
	"crypto/hmac"
	"crypto/sha256"
)

func (s *Signer) Sign(m []byte) []byte {
	mac := hmac.New(sha256.New, s.key)
	mac.Write(m)
	return mac.Sum(nil)
}
`,
	})
	r := run(t, dir, nil, binary, "./...")
	assert.Equal(t, 0, r.code, "special.go is excluded without the tag\n%s", r)
	assert.Empty(t, r.stderr)

	for _, tc := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"-tags=special", "./..."}},
		{nil, []string{"-tags", "other,special", "./..."}},
		{[]string{"GOFLAGS=-tags=special"}, []string{"./..."}},
	} {
		r := run(t, dir, tc.env, binary, tc.args...)
		require.Equal(t, 3, r.code, "%v %v\n%s", tc.env, tc.args, r)
		assert.Regexp(t, `^special.go:11:9: hmac-rekey: `, r.stderr)
	}
}

func TestCgo(t *testing.T) {
	testenv.SkipUnlessSlow(t, "builds cgo code")
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler")
	}
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/cgo\n\ngo 1.26.0\n",
		"cgo.go": `package cgo

// static int twice(int x) { return 2 * x; }
import "C"

import (
	"crypto/hmac"
	"crypto/sha256"
)

type Signer struct {
	key []byte
}

func (s *Signer) Sign(m []byte) []byte {
	n := int(C.twice(C.int(len(m))))
	mac := hmac.New(sha256.New, s.key)
	mac.Write(m[:n/2])
	return mac.Sum(nil)
}
`,
	})
	env := []string{"CGO_ENABLED=1"}
	r := run(t, dir, env, binary, "./...")
	require.Equal(t, 3, r.code, "%s", r)
	assert.Regexp(t, `^cgo.go:17:9: hmac-rekey: hmac.New\(sha256.New, s.key\) re-keys an HMAC .*\(no automatic fix: in a file that imports "C", edits to cgo's output cannot be mapped back to the file\)\n$`, r.stderr)

	r = run(t, dir, env, binary, "-json", "./...")
	require.Equal(t, 0, r.code, "%s", r)
	var out map[string]map[string][]jsonDiagnostic
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), "%s", r)
	diags := out["example.com/cgo"]["hashalloc"]
	require.Len(t, diags, 1, "%s", r.stdout)
	assert.Regexp(t, `/cgo\.go:17:9$`, diags[0].Posn)
	assert.Empty(t, diags[0].SuggestedFixes)

	before := readGoFiles(t, dir)
	r = run(t, dir, env, binary, "-fix", "./...")
	assert.Equal(t, 3, r.code, "%s", r)
	assert.Equal(t, before, readGoFiles(t, dir))

	// go vet gives cgo's output to the tool too.
	r = run(t, dir, env, "go", "vet", "-vettool="+binary, "./...")
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, r.stderr, "cgo.go:17:9: hmac-rekey: ")
}

// TestSyntaxErrorOnce checks that a syntax error is printed once, at its
// package, not cascaded into its importers, and that -json names it.
func TestSyntaxErrorOnce(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/syn\n\ngo 1.26.0\n",
		"a/a.go": "package a\n\nfunc F() int {\n\treturn 1 +\n}\n\nfunc G() { x := ; _ = x }\n",
		"b/b.go": "package b\n\nimport \"example.com/syn/a\"\n\nvar X = a.F()\n",
		"c/c.go": "package c\n\nvar Y = 1\n",
	})
	r := run(t, dir, nil, binary, "./...")
	require.Equal(t, 1, r.code, "%s", r)
	assert.Equal(t, "# example.com/syn/a\n"+
		"a/a.go:5:1: expected operand, found '}'\n"+
		"hashalloc: not analyzed, because a package they depend on has errors: example.com/syn/b\n", r.stderr)

	r = run(t, dir, nil, binary, "-json", "./...")
	require.Equal(t, 1, r.code, "%s", r)
	var out map[string]map[string]struct {
		Error string `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), "%s", r)
	assert.Regexp(t, `^/.*/a/a\.go:5:1: expected operand, found '}'$`, out["example.com/syn/a"]["hashalloc"].Error)
	assert.Equal(t, "not analyzed: it depends on example.com/syn/a, which has errors", out["example.com/syn/b"]["hashalloc"].Error)
	assert.NotContains(t, out, "example.com/syn/c", "nothing found, nothing wrong")
}

// TestOutsideModule checks that a run outside any module says so in one
// line, whatever the pattern, and that a file named on the command line
// still loads there.
func TestOutsideModule(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"x.go": "package x\n"})
	for _, pattern := range []string{"./...", "."} {
		r := run(t, dir, []string{"GOWORK=off"}, binary, pattern)
		assert.Equal(t, 1, r.code, "%s", r)
		assert.Equal(t, "hashalloc: "+dir+" is not in a Go module (no go.mod in it or in a directory above it): run hashalloc in a module, or create one with go mod init\n", r.stderr, pattern)
	}
	r := run(t, dir, nil, binary, "x.go")
	assert.Equal(t, 0, r.code, "%s", r)
}

// TestOldGoLine checks that a module whose go line is older than the runtime
// module's, which it requires, gets one line that says what to run instead
// of the go command's "updates to go.mod needed".
func TestOldGoLine(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/old\n\ngo 1.13\n\nrequire github.com/hashalloc/hashalloc/runtime v0.1.0\n\nreplace github.com/hashalloc/hashalloc/runtime => " + filepath.Join(repoRoot, "runtime") + "\n",
		"x.go":   "package old\n",
	})
	r := run(t, dir, []string{"GOWORK=off"}, binary, "-pool=runtime", "./...")
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Equal(t, "hashalloc: go.mod needs updates before its packages load: its go line (go 1.13) is older than that of github.com/hashalloc/hashalloc/runtime (go 1.21): run go mod edit -go=1.21 (or go mod tidy), or drop the requirement and let -pool=auto declare the pools in the fixed files\n", r.stderr)

	e := run(t, dir, []string{"GOWORK=off"}, "go", "mod", "edit", "-go=1.21")
	require.Equal(t, 0, e.code, "%s", e)
	r = run(t, dir, []string{"GOWORK=off"}, binary, "-pool=runtime", "./...")
	assert.Equal(t, 0, r.code, "the command the message gives is enough: %s", r)
}
