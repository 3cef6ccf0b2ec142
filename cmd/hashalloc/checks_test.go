package main_test

// Tests of the checks as the command presents them: hashalloc help, -list,
// -explain, -help, -checks (standalone and under go vet) and the warning
// about a //hashalloc:ignore comment that names no check.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeModule writes files (by slash path) into a new directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		writeFile(t, path, content)
	}
	return dir
}

func TestHelpListsEveryCheck(t *testing.T) {
	t.Parallel()
	r := run(t, repoRoot, nil, binary, "help")
	require.Equal(t, 0, r.code, "%s", r)
	assert.Empty(t, r.stderr)
	for _, c := range analyzer.Checks() {
		assert.Regexp(t, `(?m)^  `+c.Name+` +`+regexp.QuoteMeta(c.Summary)+`$`, r.stdout)
	}
	assert.Len(t, analyzer.Checks(), 5)

	// -list is the same.
	list := run(t, repoRoot, nil, binary, "-list")
	require.Equal(t, 0, list.code, "%s", list)
	assert.Equal(t, r.stdout, list.stdout)

	// -h, -help: the usage names every check too, and exits 0.
	for _, flag := range []string{"-h", "-help"} {
		h := run(t, repoRoot, nil, binary, flag)
		require.Equal(t, 0, h.code, "%s", h)
		for _, c := range analyzer.Checks() {
			assert.Contains(t, h.stderr, "  "+c.Name+" ", "%s", flag)
		}
		for _, f := range []string{"-checks", "-tests", "-tags", "-fix", "-diff", "-json", "-pool", "-constructors", "-explain", "-list", "-V"} {
			assert.Contains(t, h.stderr, "\n  "+f, "%s documents %s", flag, f)
		}
		assert.NotContains(t, h.stderr, "\n  -test\n", "-test is deprecated")
		assert.Contains(t, h.stderr, "\n  hashalloc lsp [flags] ")
		assert.Contains(t, h.stderr, "\n  hashalloc bench [flags] ")
	}

	// The subcommand lsp has flags of its own, -checks among them.
	l := run(t, repoRoot, nil, binary, "lsp", "-h")
	require.Equal(t, 0, l.code, "%s", l)
	assert.Contains(t, l.stderr, "usage: hashalloc lsp [flags]")
	assert.Contains(t, l.stderr, "\n  -checks ")
}

func TestExplain(t *testing.T) {
	t.Parallel()
	for _, c := range analyzer.Checks() {
		want := c.Text()
		for _, args := range [][]string{{"help", c.Name}, {"-explain", c.Name}, {"-explain=" + c.Name}} {
			r := run(t, repoRoot, nil, binary, args...)
			require.Equal(t, 0, r.code, "%s", r)
			assert.Equal(t, want, r.stdout)
		}
		// The text has the doc, an example and the rationale.
		for _, part := range []string{"\nExample:\n", "\nFix:\n", "\nWhy:\n"} {
			assert.Contains(t, want, part, c.Name)
		}
	}
	r := run(t, repoRoot, nil, binary, "help", "hot-bufer")
	assert.Equal(t, 2, r.code, "%s", r)
	assert.Contains(t, r.stderr, `"hot-bufer" is not a check`)
	r = run(t, repoRoot, nil, binary, "-explain", "nope")
	assert.Equal(t, 2, r.code, "%s", r)
}

func TestChecksFlag(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the command four times")
	t.Parallel()
	categories := func(fs []finding) map[string]int {
		m := map[string]int{}
		for _, f := range fs {
			m[f.category]++
		}
		return m
	}
	// All of them: TestFindingsOnExamples checks that they are found.
	allCats := categories(wantFindings(t, filepath.Join(repoRoot, "examples")))
	require.Positive(t, allCats["hmac-rekey"])
	require.Positive(t, allCats["hasher-alloc"])
	require.Positive(t, allCats["hot-buffer"])

	for _, tc := range []struct {
		checks string
		want   map[string]int
	}{
		{"all,-hmac-rekey", map[string]int{"hasher-alloc": allCats["hasher-alloc"], "concat-hash": allCats["concat-hash"], "hot-buffer": allCats["hot-buffer"]}},
		{"-hmac-rekey,-concat-hash,-hot-buffer", map[string]int{"hasher-alloc": allCats["hasher-alloc"]}},
		{"hmac-rekey", map[string]int{"hmac-rekey": allCats["hmac-rekey"]}},
	} {
		r := run(t, repoRoot, nil, binary, "-checks="+tc.checks, "./examples/...")
		require.Equal(t, 3, r.code, "%s", r)
		assert.Equal(t, tc.want, categories(parseFindings(t, r.stderr)), "-checks=%s", tc.checks)
	}

	r := run(t, repoRoot, nil, binary, "-checks=-hasher-alloc,-hmac-rekey,-concat-hash,-hot-buffer", "./examples/...")
	assert.Equal(t, 0, r.code, "%s", r)
	assert.Empty(t, r.stderr)

	r = run(t, repoRoot, nil, binary, "-checks=all,-hot-bufer", "./examples/...")
	assert.Equal(t, 2, r.code, "%s", r)
	first, _, _ := strings.Cut(r.stderr, "\n")
	assert.Equal(t, `hashalloc: invalid value "all,-hot-bufer" for flag -checks: "-hot-bufer" is not a check (did you mean hot-buffer?): want all, a check (hasher-alloc, hmac-rekey, concat-hash, sum-alloc, hot-buffer) or -CHECK to turn one off`, first)

	// An empty list would run every check, the opposite of what it says.
	r = run(t, repoRoot, nil, binary, "-checks=", "./examples/...")
	assert.Equal(t, 2, r.code, "%s", r)
	first, _, _ = strings.Cut(r.stderr, "\n")
	assert.Equal(t, `hashalloc: invalid value "" for flag -checks: "" names no check (want all, a check, or -CHECK to turn one off; see hashalloc help)`, first)
}

// TestChecksFlagVet passes -checks through go vet, which takes the
// analyzer's flags unprefixed.
func TestChecksFlagVet(t *testing.T) {
	t.Parallel()
	r := run(t, repoRoot, nil, "go", "vet", "-vettool="+binary, "-checks=hasher-alloc", "./examples/...")
	require.Equal(t, 1, r.code, "%s", r)
	got := parseFindings(t, r.stderr)
	require.NotEmpty(t, got)
	for _, f := range got {
		assert.Equal(t, "hasher-alloc", f.category, "%s", f)
	}
}

func TestIgnoreDirectiveUnknownCheck(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/ignore\n\ngo 1.26.0\n",
		"ignore.go": `package ignore

import (
	"crypto/hmac"
	"crypto/sha256"
)

type Signer struct {
	key []byte
}

func (s *Signer) Sign(m []byte) []byte {
	//hashalloc:ignore hmac-rekye -- misspelt: ignores nothing
	mac := hmac.New(sha256.New, s.key)
	mac.Write(m)
	return mac.Sum(nil)
}
`,
	})
	r := run(t, dir, nil, binary, "./...")
	require.Equal(t, 3, r.code, "%s", r)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	require.Len(t, lines, 2, "%s", r)
	assert.Equal(t, `ignore.go:13:2: directive: //hashalloc:ignore names "hmac-rekye", which is not a check (did you mean hmac-rekey?), so it ignores nothing; the checks are hasher-alloc, hmac-rekey, concat-hash, sum-alloc, hot-buffer`, lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "ignore.go:14:9: hmac-rekey: "), "%s", lines[1])
}
