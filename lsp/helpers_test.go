package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/examplecopy"
	"github.com/stretchr/testify/require"
)

// repoRoot returns the directory of the main module.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(root, "go.mod"))
	require.NoError(t, err, "cannot find the repository root")
	return root
}

// goEnv is the environment of every go command run on a copy of examples/:
// no network, everything is in the standard library or replaced.
var goEnv = []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"}

// copyExamples copies examples/ into a new module, example.com/fixed, that
// requires the runtime module from the repository, as the command's
// end-to-end tests do, and returns the module's directory.
func copyExamples(t testing.TB) string {
	t.Helper()
	root := repoRoot(t)
	dir := t.TempDir()
	require.NoError(t, examplecopy.Copy(root, dir, "example.com/fixed", true))

	// go mod tidy would need the network; -mod=mod writes go.sum from the
	// module cache and the replaced runtime.
	runGo(t, dir, "build", "./...")
	return dir
}

// runGo runs the go command in dir and fails the test when it fails.
func runGo(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), goEnv...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go %s\n%s", strings.Join(args, " "), out)
	return string(out)
}

// lineOf returns the 0-based line of the first line of content that
// contains text.
func lineOf(t *testing.T, content, text string) int {
	t.Helper()
	for i, line := range strings.Split(content, "\n") {
		if strings.Contains(line, text) {
			return i
		}
	}
	require.Fail(t, "text not found", "%q", text)
	return -1
}
