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

var update = flag.Bool("update", false, "rewrite docs/checks.md and the README's checks at a glance from analyzer/checks/*.md")

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
		assert.NotRegexp(t, `\]\(`, text, "%s: no Markdown link on a terminal", c.Name)
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

// The generated sections: the checks in full in docs/checks.md, and the
// README's checks at a glance.
const (
	fullBegin   = "<!-- BEGIN CHECKS: generated from analyzer/checks/*.md by `go test ./analyzer -run TestChecksDocs -update`; edit those files, not this section -->\n"
	fullEnd     = "<!-- END CHECKS -->\n"
	glanceBegin = "<!-- BEGIN CHECKS AT A GLANCE: generated from analyzer/checks/*.md by `go test ./analyzer -run TestChecksDocs -update`; edit those files, not this section -->\n"
	glanceEnd   = "<!-- END CHECKS AT A GLANCE -->\n"
)

// TestChecksDocs checks that the checks in full (docs/checks.md) are the
// sections rendered from analyzer/checks/*.md, the text `hashalloc help` and
// `hashalloc -explain` print, and that the README's checks at a glance are
// their summaries and first examples; with -update it rewrites both.
func TestChecksDocs(t *testing.T) {
	t.Parallel()
	var full, glance strings.Builder
	for i, c := range analyzer.Checks() {
		if i > 0 {
			full.WriteString("\n")
			glance.WriteString("\n")
		}
		full.WriteString(c.Markdown())
		glance.WriteString(c.Glance("docs/checks.md"))
	}
	for _, tc := range []struct {
		path, begin, end, text string
	}{
		{filepath.Join("..", "docs", "checks.md"), fullBegin, fullEnd, full.String()},
		{filepath.Join("..", "README.md"), glanceBegin, glanceEnd, glance.String()},
	} {
		data, err := os.ReadFile(tc.path)
		require.NoError(t, err)
		doc := string(data)
		before, rest, ok := strings.Cut(doc, tc.begin)
		require.True(t, ok, "%s has no line %q", tc.path, tc.begin)
		_, after, ok := strings.Cut(rest, tc.end)
		require.True(t, ok, "%s has no line %q", tc.path, tc.end)
		want := before + tc.begin + "\n" + tc.text + "\n" + tc.end + after
		if *update {
			require.NoError(t, os.WriteFile(tc.path, []byte(want), 0o644))
			continue
		}
		assert.Equal(t, want, doc, "%s differs from analyzer/checks/*.md; run go test ./analyzer -run TestChecksDocs -update", tc.path)
	}
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
		{[]string{""}, `-checks: "" names no check (want all, a check, or -CHECK to turn one off; see hashalloc help)`},
		{[]string{" , "}, `-checks: " , " names no check (want all, a check, or -CHECK to turn one off; see hashalloc help)`},
	} {
		_, err := analyzer.New(analyzer.Options{Checks: tc.checks})
		if tc.err == "" {
			assert.NoError(t, err, "%q", tc.checks)
		} else {
			assert.EqualError(t, err, tc.err, "%q", tc.checks)
		}
	}
}
