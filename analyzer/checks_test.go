package analyzer_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/analysistest"
)

var update = flag.Bool("update", false, "rewrite the README's check sections from analyzer/checks/*.md")

// The stable category names, the public interface of -checks, the golangci
// setting checks and //hashalloc:ignore. A check may be added; none may be
// renamed or removed.
var stableChecks = []string{"hasher-alloc", "hmac-rekey", "concat-hash", "sum-alloc", "hot-buffer"}

func TestChecksDocumented(t *testing.T) {
	t.Parallel()
	var names []string
	for _, c := range analyzer.Checks() {
		names = append(names, c.Name)
		assert.NotContains(t, c.Summary, "\n", c.Name)
		for _, s := range []string{c.Doc, c.Example, c.Fix, c.Why} {
			assert.NotEmpty(t, s, c.Name)
		}
		assert.Contains(t, c.Example, "```go", "%s: the example is a Go code block", c.Name)
		text := c.Text()
		assert.True(t, strings.HasPrefix(text, c.Name+": "+c.Summary+"\n"), "%s", text)
		assert.NotContains(t, text, "```")
		got, ok := analyzer.LookupCheck(c.Name)
		assert.True(t, ok)
		assert.Equal(t, c, got)
	}
	assert.Equal(t, stableChecks, names)
	_, ok := analyzer.LookupCheck("directive")
	assert.False(t, ok, "directive is a warning, not a check")
	for _, name := range stableChecks {
		assert.Contains(t, analyzer.Analyzer.Doc, "\n  "+name+" ", "the analyzer's Doc lists %s", name)
	}
}

const (
	readmeBegin = "<!-- BEGIN CHECKS: generated from analyzer/checks/*.md by `go test ./analyzer -run TestREADMEChecks -update`; edit those files, not this section -->\n"
	readmeEnd   = "<!-- END CHECKS -->\n"
)

// TestREADMEChecks checks that the README's check sections are the ones
// rendered from analyzer/checks/*.md, the text `hashalloc help` and
// `hashalloc -explain` print; with -update it rewrites them.
func TestREADMEChecks(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "README.md")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	readme := string(data)
	before, rest, ok := strings.Cut(readme, readmeBegin)
	require.True(t, ok, "README.md has no line %q", readmeBegin)
	_, after, ok := strings.Cut(rest, readmeEnd)
	require.True(t, ok, "README.md has no line %q", readmeEnd)

	var b strings.Builder
	for i, c := range analyzer.Checks() {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(c.Markdown())
	}
	want := before + readmeBegin + "\n" + b.String() + "\n" + readmeEnd + after
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
		return
	}
	assert.Equal(t, want, readme, "the README's check sections differ from analyzer/checks/*.md; run go test ./analyzer -run TestREADMEChecks -update")
}

func TestChecksOption(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Options{Checks: []string{"all", "-hmac-rekey"}}), "checksflag")
}

func TestChecksValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		checks []string
		err    string
	}{
		{nil, ""},
		{[]string{"all"}, ""},
		{[]string{"-hot-buffer"}, ""},
		{[]string{"hasher-alloc,hmac-rekey"}, ""},
		{[]string{"all", "-all", "sum-alloc"}, ""},
		{[]string{"hot-bufer"}, `-checks: "hot-bufer" is not a check (did you mean hot-buffer?): want all, a check (hasher-alloc, hmac-rekey, concat-hash, sum-alloc, hot-buffer) or -CHECK to turn one off`},
		{[]string{"all,-nope"}, `-checks: "-nope" is not a check: want all, a check (hasher-alloc, hmac-rekey, concat-hash, sum-alloc, hot-buffer) or -CHECK to turn one off`},
	} {
		_, err := analyzer.New(analyzer.Options{Checks: tc.checks})
		if tc.err == "" {
			assert.NoError(t, err, "%q", tc.checks)
		} else {
			assert.EqualError(t, err, tc.err, "%q", tc.checks)
		}
	}
}
