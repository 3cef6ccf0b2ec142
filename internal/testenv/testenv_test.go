package testenv_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSlow(t *testing.T) {
	t.Setenv(testenv.SlowVar, "")
	assert.False(t, testenv.Slow())
	t.Setenv(testenv.SlowVar, "0")
	assert.False(t, testenv.Slow())
	t.Setenv(testenv.SlowVar, "1")
	assert.True(t, testenv.Slow())
}

// recorder is a testing.TB that records a skip instead of skipping.
type recorder struct {
	testing.TB
	skipped string
}

func (r *recorder) Helper() {}

func (r *recorder) Skipf(format string, args ...any) { r.skipped = fmt.Sprintf(format, args...) }

func TestSkipUnlessSlow(t *testing.T) {
	// Called through a variable: SlowTests would take a call here for a
	// misplaced one.
	skip := testenv.SkipUnlessSlow

	t.Setenv(testenv.SlowVar, "")
	r := &recorder{TB: t}
	skip(r, "runs something")
	assert.Equal(t, "slow: runs something (set HASHALLOC_SLOW=1 to run it)", r.skipped)

	t.Setenv(testenv.SlowVar, "1")
	r = &recorder{TB: t}
	skip(r, "runs something")
	assert.Empty(t, r.skipped, "a slow test skips with HASHALLOC_SLOW=1")
}

// TestSlowTestsOfTheModule finds the slow tests of this module, which the
// slow step of .ci/test runs.
func TestSlowTestsOfTheModule(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	slow, err := testenv.SlowTests(root)
	require.NoError(t, err)
	assert.Contains(t, slow["analyzer"], "TestOracle")
	assert.Contains(t, slow["cmd/hashalloc"], "TestFixEndToEnd")
	assert.Contains(t, slow["lsp"], "TestNeovim")
	assert.NotContains(t, slow["cmd/hashalloc"], "TestFindingsOnExamples")
	for dir := range slow {
		assert.NotContains(t, dir, "testdata")
		assert.NotContains(t, []string{"runtime", "golangci/custom"}, dir, "another module")
	}
}

func TestSlowTestsFindings(t *testing.T) {
	write := func(t *testing.T, files map[string]string) string {
		t.Helper()
		dir := t.TempDir()
		for name, content := range files {
			path := filepath.Join(dir, filepath.FromSlash(name))
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		}
		return dir
	}
	const header = "package p\n\nimport (\n\t\"testing\"\n\n\t\"github.com/hashalloc/hashalloc/internal/testenv\"\n)\n\n"

	t.Run("found", func(t *testing.T) {
		dir := write(t, map[string]string{
			"go.mod":               "module example.com/m\n",
			"p/p_test.go":          header + "func TestB(t *testing.T) {\n\ttestenv.SkipUnlessSlow(t, \"b\")\n}\n\nfunc TestA(t *testing.T) {\n\ttestenv.SkipUnlessSlow(t, \"a\")\n}\n\nfunc TestFast(t *testing.T) {}\n",
			"q/q_test.go":          header + "func TestFast(t *testing.T) {}\n",
			"p/testdata/x_test.go": header + "func TestX(t *testing.T) {\n\ttestenv.SkipUnlessSlow(t, \"x\")\n}\n",
			"sub/go.mod":           "module example.com/sub\n",
			"sub/s_test.go":        header + "func TestS(t *testing.T) {\n\ttestenv.SkipUnlessSlow(t, \"s\")\n}\n",
		})
		slow, err := testenv.SlowTests(dir)
		require.NoError(t, err)
		assert.Equal(t, map[string][]string{"p": {"TestA", "TestB"}}, slow)
	})
	t.Run("not first", func(t *testing.T) {
		dir := write(t, map[string]string{
			"p/p_test.go": header + "func TestA(t *testing.T) {\n\tt.Parallel()\n\ttestenv.SkipUnlessSlow(t, \"a\")\n}\n",
		})
		_, err := testenv.SlowTests(dir)
		assert.ErrorContains(t, err, "p_test.go:11:2: SkipUnlessSlow is not the first statement of a top-level test")
	})
	t.Run("name shared with a fast test", func(t *testing.T) {
		dir := write(t, map[string]string{
			"p/p_test.go": header + "func TestA(t *testing.T) {\n\ttestenv.SkipUnlessSlow(t, \"a\")\n}\n",
			"q/q_test.go": header + "func TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {\n\ttestenv.SkipUnlessSlow(t, \"b\")\n}\n",
		})
		_, err := testenv.SlowTests(dir)
		assert.EqualError(t, err, "q: TestA is a fast test here and a slow test elsewhere: the slow step would run it too; rename one")
	})
	t.Run("syntax error", func(t *testing.T) {
		dir := write(t, map[string]string{"p/p_test.go": "package p\n\nfunc {\n"})
		_, err := testenv.SlowTests(dir)
		assert.ErrorContains(t, err, "p_test.go:3:6")
	})
}
