package lsp

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
	gomod := "module example.com/fixed\n\ngo 1.26.0\n" +
		"\nrequire github.com/hashalloc/hashalloc/runtime v0.0.0\n\n" +
		"replace github.com/hashalloc/hashalloc/runtime => " + filepath.Join(root, "runtime") + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644))

	src := filepath.Join(root, "examples")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, "examples", rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// Should one example import another, it must import the copy.
		data = bytes.ReplaceAll(data, []byte(`"github.com/hashalloc/hashalloc/examples/`), []byte(`"example.com/fixed/examples/`))
		return os.WriteFile(dst, data, 0o644)
	})
	require.NoError(t, err)

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
