package main_test

// End-to-end tests of the hashalloc command: TestMain builds the binary once,
// and the tests run it the ways a user does, on the naive code of examples/.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/examplecopy"
	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	// binary is the hashalloc command built by TestMain.
	binary string
	// repoRoot is the directory of the main module (github.com/hashalloc/hashalloc).
	repoRoot string
	// goroot is the GOROOT of the go command, for gofmt.
	goroot string
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		fmt.Fprintln(os.Stderr, "cannot find the repository root:", err)
		return 1
	}
	repoRoot = root

	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "go env GOROOT:", err)
		return 1
	}
	goroot = strings.TrimSpace(string(out))

	dir, err := os.MkdirTemp("", "hashalloc-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// The runs of this process share a result cache of their own, empty
	// at first; the tests of the cache give theirs.
	if err := os.Setenv("HASHALLOC_CACHE", filepath.Join(dir, "cache")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binary = filepath.Join(dir, "hashalloc")
	build := exec.Command("go", "build", "-o", binary, ".")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// result is what a command did.
type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit code %d\n-- stdout --\n%s\n-- stderr --\n%s", r.code, r.stdout, r.stderr)
}

// run runs name with args in dir, with env added to the environment, and
// returns its output and exit code. It fails the test only when the command
// cannot be run at all.
func run(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	default:
		require.NoError(t, err, "running %s %s", name, strings.Join(args, " "))
	}
	t.Logf("%s %s (in %s): exit code %d", filepath.Base(name), strings.Join(args, " "), dir, r.code)
	return r
}

// finding is one diagnostic: where, which check, and the tail of the message
// that names the fix.
type finding struct {
	file     string // relative to examples/, with forward slashes
	line     int
	col      int
	category string
	advice   string
}

func (f finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: ...%s", f.file, f.line, f.col, f.category, f.advice)
}

// expectedFindings are what hashalloc must report on examples/, each located
// by the call it is about (the n-th occurrence of the call in the file), so
// that editing the examples does not break the test.
var expectedFindings = []struct {
	file     string
	call     string
	nth      int
	category string
	advice   string
}{
	{"tokensigner/tokensigner.go", "hmac.New(s.hash, s.key)", 0, "hmac-rekey", "automatic fix: take mac from a pool of HMACs keyed with s.key, held next to it"},
	{"tokensigner/tokensigner.go", "hmac.New(s.hash, s.key)", 1, "hmac-rekey", "automatic fix: take mac from a pool of HMACs keyed with s.key, held next to it, and compare its sum without allocating"},
	{"tokensigner/tokensigner.go", "hmac.New(sha256.New, key)", 0, "hmac-rekey", "automatic fix: hoist mac out of the loop and Reset it per iteration"},
	{"treehash/treehash.go", "crypto.SHA256.New()", 0, "hasher-alloc", "automatic fix: call sha256.New directly"},
	{"treehash/treehash.go", "sha256.New()", 0, "hasher-alloc", "automatic fix: hoist h out of the loop and Reset it per iteration"},
	{"treehash/treehash.go", "sha256.New()", 1, "hasher-alloc", "automatic fix: take h from a pool of sha256.New hashers"},
	{"merkle/merkle.go", "append(leafPrefix, leaf...)", 0, "concat-hash", "automatic fix: hash the parts with a variadic form of sum, declared next to it"},
	{"merkle/merkle.go", "append(innerPrefix, append(left, right...)...)", 0, "concat-hash", "automatic fix: hash the parts with a variadic form of sum, declared next to it"},
	{"trie/trie.go", "make([]byte, len(n.key)+1+longest)", 0, "hot-buffer", "automatic fix: back keyBuffer by a 128-byte array on the stack, and make it only when larger"},
}

// wantFindings locates expectedFindings in the examples under dir.
func wantFindings(t *testing.T, examples string) []finding {
	t.Helper()
	var want []finding
	for _, e := range expectedFindings {
		src, err := os.ReadFile(filepath.Join(examples, filepath.FromSlash(e.file)))
		require.NoError(t, err)
		lines := strings.Split(string(src), "\n")
		n := 0
		found := false
		for i, line := range lines {
			// Skip comments, and crypto.SHA256.New() when looking for sha256.New().
			code, _, _ := strings.Cut(line, "//")
			for off := 0; ; {
				j := strings.Index(code[off:], e.call)
				if j < 0 {
					break
				}
				col := off + j
				off = col + len(e.call)
				if col > 0 && (code[col-1] == '.' || isIdentByte(code[col-1])) {
					continue
				}
				if n == e.nth {
					want = append(want, finding{e.file, i + 1, col + 1, e.category, e.advice})
					found = true
				}
				n++
			}
			if found {
				break
			}
		}
		require.True(t, found, "examples/%s has no occurrence %d of %s", e.file, e.nth, e.call)
	}
	return want
}

func isIdentByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// textFinding matches one line of hashalloc's text output.
var textFinding = regexp.MustCompile(`^(\S+\.go):(\d+):(\d+): ([a-z]+(?:-[a-z]+)*): (.+)$`)

// parseFindings parses the text output of hashalloc or go vet: one line per
// finding. Every non-empty line but those go vet adds ("# pkg") must be a
// finding; the related information under a finding, which go vet would
// print on lines of their own ("file:line:col: \tevidence: ..."), fails.
func parseFindings(t *testing.T, output string) []finding {
	t.Helper()
	var got []finding
	for line := range strings.SplitSeq(output, "\n") {
		if line == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		m := textFinding.FindStringSubmatch(line)
		if !assert.NotNil(t, m, "not a finding: %q", line) {
			continue
		}
		got = append(got, toFinding(t, m[1], m[2], m[3], m[4], m[4]+": "+m[5]))
	}
	return got
}

// toFinding makes a finding of a position and a message, with the file
// relative to examples/ and the advice that the message ends with.
func toFinding(t *testing.T, file, line, col, category, msg string) finding {
	t.Helper()
	f := finding{category: category}
	slash := filepath.ToSlash(file)
	i := strings.LastIndex(slash, "examples/")
	require.GreaterOrEqual(t, i, 0, "finding outside examples/: %s", file)
	f.file = slash[i+len("examples/"):]
	_, err := fmt.Sscan(line+" "+col, &f.line, &f.col)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(msg, category+": "), "message %q does not start with its category", msg)
	if i := strings.LastIndex(msg, "; "); i >= 0 {
		f.advice = msg[i+2:]
	}
	return f
}

func sortFindings(fs []finding) []finding {
	fs = slices.Clone(fs)
	slices.SortFunc(fs, func(a, b finding) int { return strings.Compare(a.String(), b.String()) })
	return fs
}

func TestFindingsOnExamples(t *testing.T) {
	t.Parallel()
	r := run(t, repoRoot, nil, binary, "./examples/...")
	require.Equal(t, 3, r.code, "hashalloc exits 3 when it finds something\n%s", r)
	assert.Empty(t, r.stdout)
	assert.NotContains(t, r.stderr, "panic:")
	want := wantFindings(t, filepath.Join(repoRoot, "examples"))
	assert.Equal(t, sortFindings(want), sortFindings(parseFindings(t, r.stderr)), "%s", r)
}

func TestVetTool(t *testing.T) {
	t.Parallel()
	r := run(t, repoRoot, nil, "go", "vet", "-vettool="+binary, "./examples/...")
	require.Equal(t, 1, r.code, "go vet exits 1 when its tool finds something\n%s", r)
	assert.NotContains(t, r.stderr, "panic:")
	want := wantFindings(t, filepath.Join(repoRoot, "examples"))
	assert.Equal(t, sortFindings(want), sortFindings(parseFindings(t, r.stderr)), "%s", r)
}

// jsonDiagnostic is one diagnostic of hashalloc -json, as x/tools prints it.
type jsonDiagnostic struct {
	Category string `json:"category"`
	Posn     string `json:"posn"`
	End      string `json:"end"`
	Message  string `json:"message"`
	Related  []struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	} `json:"related"`
	SuggestedFixes []struct {
		Message string `json:"message"`
		Edits   []struct {
			Filename string `json:"filename"`
			Start    int    `json:"start"`
			End      int    `json:"end"`
			New      string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
}

func TestJSON(t *testing.T) {
	t.Parallel()
	r := run(t, repoRoot, nil, binary, "-json", "./examples/...")
	// With -json, x/tools checkers exit 0 even when they find something.
	require.Equal(t, 0, r.code, "%s", r)

	// {"package id": {"hashalloc": [diagnostic...] or {"error": "..."}}}
	var out map[string]map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), "%s", r)
	for _, pkg := range []string{"tokensigner", "treehash"} {
		require.Contains(t, out, "github.com/hashalloc/hashalloc/examples/"+pkg)
	}

	seen := map[string]bool{}
	var got []finding
	var evidence []string
	for id, analyzers := range out {
		raw, ok := analyzers["hashalloc"]
		require.True(t, ok, "package %s has no hashalloc entry", id)
		require.Contains(t, string(raw), `"suggested_fixes"`, "package %s", id)
		var diags []jsonDiagnostic
		require.NoError(t, json.Unmarshal(raw, &diags), "package %s: %s", id, raw)
		for _, d := range diags {
			// Test variants of a package repeat its diagnostics.
			if seen[d.Posn] {
				continue
			}
			seen[d.Posn] = true
			m := regexp.MustCompile(`^(.+\.go):(\d+):(\d+)$`).FindStringSubmatch(d.Posn)
			require.NotNil(t, m, "posn %q", d.Posn)
			assert.True(t, filepath.IsAbs(m[1]), "posn %q is not absolute", d.Posn)
			assert.Regexp(t, `^.+\.go:\d+:\d+$`, d.End)
			got = append(got, toFinding(t, m[1], m[2], m[3], d.Category, d.Message))
			for _, r := range d.Related {
				evidence = append(evidence, r.Message)
			}

			require.Len(t, d.SuggestedFixes, 1, "%s", d.Message)
			fix := d.SuggestedFixes[0]
			assert.NotEmpty(t, fix.Message)
			assert.True(t, strings.HasSuffix(d.Message, "; automatic fix: "+strings.ToLower(fix.Message[:1])+fix.Message[1:]),
				"message %q does not end with its fix %q", d.Message, fix.Message)
			require.NotEmpty(t, fix.Edits)
			for _, e := range fix.Edits {
				assert.Equal(t, m[1], e.Filename, "the fix edits another file")
				assert.LessOrEqual(t, e.Start, e.End)
				assert.True(t, e.Start != e.End || e.New != "", "empty edit")
			}
		}
	}
	want := wantFindings(t, filepath.Join(repoRoot, "examples"))
	assert.Equal(t, sortFindings(want), sortFindings(got))
	// The command keeps the evidence as related information, for tools;
	// go vet and golangci-lint get the message alone.
	assert.Contains(t, strings.Join(evidence, "\n"), "evidence: loop: repeated by the loop at treehash.go:")
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	// A module whose one package does not type-check.
	bad := t.TempDir()
	writeFile(t, filepath.Join(bad, "go.mod"), "module example.com/bad\n\ngo 1.26.0\n")
	writeFile(t, filepath.Join(bad, "bad.go"), "package bad\n\nvar x int = \"s\"\n")

	for _, tc := range []struct {
		name string
		dir  string
		args []string
		code int
		// want must all appear in the output, in the first line when firstLine.
		want      []string
		firstLine bool
	}{
		{"type error", bad, []string{"./..."}, 1,
			[]string{"# example.com/bad\n", "\nbad.go:3:13: cannot use \"s\""}, false},
		{"missing package", repoRoot, []string{"./does/not/exist"}, 1,
			[]string{"does/not/exist", "directory not found"}, false},
		{"bad -pool", repoRoot, []string{"-pool=global", "./examples/..."}, 2,
			[]string{"-pool", `"global"`, "want auto, runtime or inline"}, true},
		{"bad -constructors", repoRoot, []string{"-constructors=NoDot", "./examples/..."}, 2,
			[]string{"-constructors", `"NoDot"`, "importpath.Func"}, true},
		{"bad -sums", repoRoot, []string{"-sums=example.com/h.Sum256=sha257", "./examples/..."}, 2,
			[]string{"-sums", `"example.com/h.Sum256=sha257"`, `unknown algorithm "sha257"`}, true},
		{"unknown flag", repoRoot, []string{"-nosuchflag", "./examples/..."}, 2,
			[]string{"flag provided but not defined: -nosuchflag"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := run(t, tc.dir, nil, binary, tc.args...)
			assert.Equal(t, tc.code, r.code, "%s", r)
			out := r.stdout + r.stderr
			assert.NotContains(t, out, "panic:")
			assert.NotContains(t, out, "goroutine ")
			where := out
			if tc.firstLine {
				where, _, _ = strings.Cut(strings.TrimLeft(r.stderr, "\n"), "\n")
			}
			for _, w := range tc.want {
				assert.Contains(t, where, w, "%s", r)
			}
			if !tc.firstLine {
				assert.LessOrEqual(t, strings.Count(strings.TrimSpace(out), "\n"), 4, "a short error, please\n%s", r)
			}
		})
	}
}

// TestFixEndToEnd fixes a copy of examples/ and checks that the fixed code
// builds, is vetted, gofmt-clean, still computes the known answers its tests
// check, and has nothing left to fix.
func TestFixEndToEnd(t *testing.T) {
	testenv.SkipUnlessSlow(t, "fixes copies of examples/ and builds, vets and tests them")
	t.Parallel()
	for _, pool := range []string{"runtime", "inline"} {
		t.Run(pool, func(t *testing.T) {
			t.Parallel()
			dir := copyExamples(t, pool == "runtime")
			// No network: everything is in the standard library or replaced.
			env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"}
			r := run(t, dir, env, "go", "test", "-count=1", "./...")
			require.Equal(t, 0, r.code, "%s", r)
			before := readGoFiles(t, dir)

			// -diff shows the fixes without applying them, and exits 1
			// because changes are pending.
			r = run(t, dir, env, binary, "-fix", "-diff", "-pool="+pool, "./...")
			require.Equal(t, 1, r.code, "%s", r)
			for _, file := range []string{"merkle/merkle.go", "tokensigner/tokensigner.go", "treehash/treehash.go", "trie/trie.go"} {
				assert.Contains(t, r.stdout, "+++ b/examples/"+file+"\n")
			}
			assert.Equal(t, before, readGoFiles(t, dir), "-diff changed files")

			// Every finding of the examples has a fix: none remains.
			r = run(t, dir, env, binary, "-fix", "-pool="+pool, "./...")
			require.Equal(t, 0, r.code, "%s", r)
			assert.NotContains(t, r.stdout+r.stderr, "panic:")
			checkFixed(t, dir, env, pool, before)
		})
	}
}

// TestGoFix applies the fixes through go fix -fixtool (Go 1.26+), with the
// analyzer's flag passed unprefixed, and checks the result as TestFixEndToEnd does.
func TestGoFix(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs go fix on a copy of examples/ and builds, vets and tests it")
	t.Parallel()
	dir := copyExamples(t, true)
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"}
	before := readGoFiles(t, dir)
	r := run(t, dir, env, "go", "fix", "-fixtool="+binary, "-pool=runtime", "./...")
	require.Equal(t, 0, r.code, "%s", r)
	checkFixed(t, dir, env, "runtime", before)
}

// checkFixed checks a copy of examples/ after the fixes: exactly the
// example files with findings changed, with the pool the mode asks for; the copy builds,
// vets, passes its tests and is gofmt-clean; and nothing is left to report.
func checkFixed(t *testing.T, dir string, env []string, pool string, before map[string]string) {
	t.Helper()
	gocmd := func(args ...string) {
		t.Helper()
		r := run(t, dir, env, "go", args...)
		require.Equal(t, 0, r.code, "go %s\n%s", strings.Join(args, " "), r)
	}
	after := readGoFiles(t, dir)
	var changed []string
	for name, src := range after {
		if before[name] != src {
			changed = append(changed, name)
		}
	}
	slices.Sort(changed)
	assert.Equal(t, []string{"examples/merkle/merkle.go", "examples/tokensigner/tokensigner.go", "examples/treehash/treehash.go", "examples/trie/trie.go"}, changed)

	// The runtime mode imports the runtime module (hashpool or hashsum); the
	// inline mode declares what it needs in the file. The trie's fix, a
	// stack array, needs neither.
	const runtimeModule = `"github.com/hashalloc/hashalloc/runtime/`
	for _, name := range changed {
		if name == "examples/trie/trie.go" {
			assert.NotContains(t, after[name], runtimeModule, name)
			assert.Contains(t, after[name], "var keyBufferArray [128]byte", name)
			continue
		}
		if pool == "runtime" {
			assert.Contains(t, after[name], runtimeModule, name)
		} else {
			assert.NotContains(t, after[name], runtimeModule, name)
		}
	}

	gocmd("build", "./...")
	gocmd("vet", "./...")
	gocmd("test", "-count=1", "./...")

	gofmt := filepath.Join(goroot, "bin", "gofmt")
	if _, err := os.Stat(gofmt); err == nil {
		r := run(t, dir, nil, gofmt, "-l", ".")
		require.Equal(t, 0, r.code, "%s", r)
		assert.Empty(t, r.stdout, "gofmt -l lists files")
	} else {
		for name, src := range after {
			formatted, err := format.Source([]byte(src))
			require.NoError(t, err, name)
			assert.Equal(t, src, string(formatted), "%s is not gofmt-clean", name)
		}
	}

	// Idempotent: nothing is left to report.
	r := run(t, dir, env, binary, "-pool="+pool, "./...")
	assert.Equal(t, 0, r.code, "%s", r)
	assert.Empty(t, r.stdout)
	assert.Empty(t, r.stderr)
}

// copyExamples copies examples/ into a new module, example.com/fixed, that
// can use the runtime module when withRuntime.
func copyExamples(t *testing.T, withRuntime bool) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, examplecopy.Copy(repoRoot, dir, "example.com/fixed", withRuntime))
	return dir
}

// readGoFiles returns the content of every .go file under dir, by slash path
// relative to dir.
func readGoFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	require.NoError(t, err)
	return files
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	require.NoError(t, os.WriteFile(name, []byte(content), 0o644))
}
