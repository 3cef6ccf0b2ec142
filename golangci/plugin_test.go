package golangci_test

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/hashalloc/hashalloc/analyzer"
	_ "github.com/hashalloc/hashalloc/golangci"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/analysistest"
)

func newPlugin(t *testing.T, settings any) (register.LinterPlugin, error) {
	t.Helper()
	newPlugin, err := register.GetPlugin("hashalloc")
	require.NoError(t, err)
	return newPlugin(settings)
}

func TestSettings(t *testing.T) {
	t.Parallel()
	p, err := newPlugin(t, map[string]any{"pool": "inline", "tests": true, "constructors": []any{"example.com/h.New"}})
	require.NoError(t, err)
	analyzers, err := p.BuildAnalyzers()
	require.NoError(t, err)
	require.Len(t, analyzers, 1)
	assert.Equal(t, "hashalloc", analyzers[0].Name)
	assert.Equal(t, register.LoadModeTypesInfo, p.GetLoadMode())

	_, err = newPlugin(t, nil)
	assert.NoError(t, err, "no settings at all is the default configuration")
}

// TestSumsSetting runs the analyzer that the setting sums configures on the
// analyzer's testdata for -sums.
func TestSumsSetting(t *testing.T) {
	t.Parallel()
	p, err := newPlugin(t, map[string]any{"sums": []any{"example.com/customhash.Sum256=sha256", "example.com/customhash.Digest", "example.com/customhash.New=sha256"}})
	require.NoError(t, err)
	analyzers, err := p.BuildAnalyzers()
	require.NoError(t, err)
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	require.NoError(t, err)
	analysistest.RunWithSuggestedFixes(t, testdata, analyzers[0], "sums")
}

// TestChecksSetting runs the analyzer that the setting checks configures on
// the analyzer's testdata for -checks=all,-hmac-rekey.
func TestChecksSetting(t *testing.T) {
	t.Parallel()
	p, err := newPlugin(t, map[string]any{"checks": []any{"all", "-hmac-rekey"}})
	require.NoError(t, err)
	analyzers, err := p.BuildAnalyzers()
	require.NoError(t, err)
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	require.NoError(t, err)
	analysistest.Run(t, testdata, analyzers[0], "checksflag")
}

func TestBadSettings(t *testing.T) {
	t.Parallel()
	_, err := newPlugin(t, map[string]any{"pools": "inline"})
	assert.ErrorContains(t, err, `hashalloc settings: decoding settings: json: unknown field "pools"`)
	_, err = newPlugin(t, map[string]any{"pool": "global"})
	assert.EqualError(t, err, `hashalloc settings: pool: "global" is not a pool mode (want auto, runtime or inline)`)
	_, err = newPlugin(t, map[string]any{"checks": []any{"all", "-hot-bufer"}})
	assert.EqualError(t, err, `hashalloc settings: checks: "-hot-bufer" is not a check (did you mean hot-buffer?): want all, a check (hasher-alloc, hmac-rekey, concat-hash, sum-alloc, hot-buffer) or -CHECK to turn one off`)
	_, err = newPlugin(t, map[string]any{"sums": []any{"example.com/h.Sum256=sha257"}})
	assert.EqualError(t, err, `hashalloc settings: sums: "example.com/h.Sum256=sha257": unknown algorithm "sha257" (want one of md5, sha1, sha224, sha256, sha384, sha3_224, sha3_256, sha3_384, sha3_512, sha512, sha512_224, sha512_256)`)
	_, err = newPlugin(t, map[string]any{"tests": "yes"})
	assert.ErrorContains(t, err, "hashalloc settings: decoding settings")
}

func TestProfileSettings(t *testing.T) {
	t.Parallel()
	heap := filepath.Join(t.TempDir(), "heap.pprof")
	f, err := os.Create(heap)
	require.NoError(t, err)
	require.NoError(t, pprof.WriteHeapProfile(f))
	require.NoError(t, f.Close())
	_, err = newPlugin(t, map[string]any{"profile": heap, "profile-threshold": "2%"})
	assert.NoError(t, err)

	_, err = newPlugin(t, map[string]any{"profile": "testdata/missing.pgo"})
	assert.EqualError(t, err, "hashalloc settings: profile: open testdata/missing.pgo: no such file or directory")
	_, err = newPlugin(t, map[string]any{"profile-threshold": "5%"})
	assert.NoError(t, err)
	_, err = newPlugin(t, map[string]any{"profile-threshold": 0.05})
	assert.NoError(t, err)
	_, err = newPlugin(t, map[string]any{"profile-threshold": "150%"})
	assert.EqualError(t, err, `hashalloc settings: profile-threshold: "150%" is not a share above 0 and at most 1 (0.01 or 1%)`)
}

// TestOneIssuePerFinding checks that the plugin's diagnostics carry no related
// information, of which golangci-lint would make issues of their own: the
// evidence of a finding is in its message.
func TestOneIssuePerFinding(t *testing.T) {
	t.Parallel()
	p, err := newPlugin(t, nil)
	require.NoError(t, err)
	analyzers, err := p.BuildAnalyzers()
	require.NoError(t, err)
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	require.NoError(t, err)
	var n int
	for _, r := range analysistest.Run(t, testdata, analyzers[0], "example.com/hashuser") {
		for _, d := range r.Diagnostics {
			n++
			assert.Empty(t, d.Related, "%s", d.Message)
		}
	}
	assert.Positive(t, n, "no finding in example.com/hashuser")
}

// TestDocumentedDefaults checks that the setup in docs/integrations.md and
// the README's configuration table give the pool default of the -pool flag,
// which is the plugin's with no pool setting (analyzer.Options: empty is
// auto).
func TestDocumentedDefaults(t *testing.T) {
	t.Parallel()
	def := analyzer.Analyzer.Flags.Lookup("pool").DefValue
	require.Equal(t, analyzer.PoolAuto, def)

	doc, err := os.ReadFile(filepath.Join("..", "docs", "integrations.md"))
	require.NoError(t, err)
	line := regexp.MustCompile(`(?m)^\s+pool: .*$`).Find(doc)
	require.NotNil(t, line, "docs/integrations.md has no pool setting")
	assert.Contains(t, string(line), def+" (the default", "docs/integrations.md: %s", line)

	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	require.NoError(t, err)
	assert.Regexp(t, "(?m)^\\| pool \\| .* \\| `"+def+"` \\|", string(readme))
}
