package prove

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeFiles writes files (slash-separated paths relative to dir, and their
// contents) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
}

// goIn runs the go command in dir with env added and returns its output;
// it fails the test when the command fails.
func goIn(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"GOFLAGS=", "GOPROXY=off"}, env...)...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go %s in %s:\n%s", strings.Join(args, " "), dir, out)
	return string(out)
}

// TestCopyTree checks what the copy holds: the module's files, writable, and
// neither version control directories nor other modules, except those under
// testdata; a symbolic link inside the module stays relative, one out of it
// keeps its target.
func TestCopyTree(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, map[string]string{
		"go.mod":                    "module example.com/m\n\ngo 1.22\n",
		"p/p.go":                    "package p\n",
		".git/config":               "[core]\n",
		"nested/go.mod":             "module example.com/m/nested\n",
		"nested/n.go":               "package nested\n",
		"p/testdata/mod/go.mod":     "module example.com/fixture\n",
		"p/testdata/mod/fixture.go": "package fixture\n",
	})
	require.NoError(t, os.Chmod(filepath.Join(src, "p", "p.go"), 0o444))
	outside := filepath.Join(t.TempDir(), "outside.txt")
	require.NoError(t, os.WriteFile(outside, []byte("x"), 0o644))
	rel, err := filepath.Rel(filepath.Join(src, "p"), outside)
	require.NoError(t, err)
	require.NoError(t, os.Symlink(rel, filepath.Join(src, "p", "out.txt")))
	require.NoError(t, os.Symlink("p.go", filepath.Join(src, "p", "in.go")))

	dst := filepath.Join(t.TempDir(), "m")
	require.NoError(t, copyTree(src, dst))
	assert.FileExists(t, filepath.Join(dst, "p", "p.go"))
	assert.FileExists(t, filepath.Join(dst, "p", "testdata", "mod", "fixture.go"), "a module under testdata is a fixture of the tests")
	assert.NoDirExists(t, filepath.Join(dst, ".git"))
	assert.NoDirExists(t, filepath.Join(dst, "nested"), "another module is not copied")
	fi, err := os.Stat(filepath.Join(dst, "p", "p.go"))
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode().Perm()&0o200, "the copy is writable")

	link, err := os.Readlink(filepath.Join(dst, "p", "in.go"))
	require.NoError(t, err)
	assert.Equal(t, "p.go", link)
	link, err = os.Readlink(filepath.Join(dst, "p", "out.txt"))
	require.NoError(t, err)
	assert.Equal(t, outside, link)
}

// TestCopyModuleReplace checks that a copy whose go.mod replaces a module by
// a relative directory builds: the directory is made absolute.
func TestCopyModuleReplace(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"m/go.mod":   "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n",
		"m/m.go":     "package m\n\nimport \"example.com/dep\"\n\nvar X = dep.X\n",
		"dep/go.mod": "module example.com/dep\n\ngo 1.22\n",
		"dep/dep.go": "package dep\n\nconst X = 1\n",
	})
	copyDir, env, err := copyModule(module{Path: "example.com/m", Dir: filepath.Join(root, "m")}, t.TempDir())
	require.NoError(t, err)
	assert.Equal(t, []string{"GOWORK=off"}, env)
	gomod, err := os.ReadFile(filepath.Join(copyDir, "go.mod"))
	require.NoError(t, err)
	assert.Contains(t, string(gomod), "=> "+filepath.Join(root, "dep"))
	goIn(t, copyDir, env, "build", "./...")
}

// TestCopyModuleVendor checks that a vendored module's go.mod is left as it
// is: the go command reads the vendored copy, and a go.mod that no longer
// matches vendor/modules.txt would not build.
func TestCopyModuleVendor(t *testing.T) {
	root := t.TempDir()
	gomod := "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n"
	writeFiles(t, root, map[string]string{
		"m/go.mod":                      gomod,
		"m/m.go":                        "package m\n\nimport \"example.com/dep\"\n\nvar X = dep.X\n",
		"m/vendor/modules.txt":          "# example.com/dep v0.0.0 => ../dep\n## explicit\nexample.com/dep\n# example.com/dep => ../dep\n",
		"m/vendor/example.com/dep/d.go": "package dep\n\nconst X = 1\n",
	})
	copyDir, env, err := copyModule(module{Path: "example.com/m", Dir: filepath.Join(root, "m")}, t.TempDir())
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(copyDir, "go.mod"))
	require.NoError(t, err)
	assert.Equal(t, gomod, string(data))
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = copyDir
	cmd.Env = append(os.Environ(), append([]string{"GOFLAGS=", "GOPROXY=off"}, env...)...)
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "go build in the vendored copy:\n%s", out)
}

// TestCopyModuleWorkspace checks a module of a workspace: the copy builds
// with the workspace's other modules, and the go command resolves the
// module's packages in the copy, not in the original.
func TestCopyModuleWorkspace(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.work":  "go 1.22\n\nuse (\n\t./a\n\t./b\n)\n",
		"a/go.mod": "module example.com/a\n\ngo 1.22\n\nrequire example.com/b v0.0.0\n",
		"a/a.go":   "package a\n\nimport \"example.com/b\"\n\nvar X = b.X\n",
		"b/go.mod": "module example.com/b\n\ngo 1.22\n",
		"b/b.go":   "package b\n\nconst X = 1\n",
	})
	tmp := t.TempDir()
	copyDir, env, err := copyModule(module{Path: "example.com/a", Dir: filepath.Join(root, "a"), Work: filepath.Join(root, "go.work")}, tmp)
	require.NoError(t, err)
	assert.Equal(t, []string{"GOWORK=" + filepath.Join(tmp, "go.work")}, env)
	goIn(t, copyDir, env, "build", "./...")
	dir := strings.TrimSpace(goIn(t, copyDir, env, "list", "-f", "{{.Dir}}", "example.com/a"))
	assert.Equal(t, copyDir, dir)
	dir = strings.TrimSpace(goIn(t, copyDir, env, "list", "-f", "{{.Dir}}", "example.com/b"))
	assert.Equal(t, filepath.Join(root, "b"), dir)
}
