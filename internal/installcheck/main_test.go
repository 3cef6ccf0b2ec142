package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/module"
)

// TestRepositoryGoMod checks the repository's go.mod as the install check
// does: no replace directive, and the runtime required at a release version.
func TestRepositoryGoMod(t *testing.T) {
	v, err := releaseVersion(filepath.Join("..", "..", "go.mod"))
	require.NoError(t, err)
	assert.Regexp(t, `^v\d+\.\d+\.\d+$`, v)
}

func TestReleaseVersion(t *testing.T) {
	for _, tc := range []struct {
		name, gomod, want, err string
	}{
		{"release", "module github.com/hashalloc/hashalloc\n\nrequire github.com/hashalloc/hashalloc/runtime v0.2.1\n", "v0.2.1", ""},
		{"replace", "module github.com/hashalloc/hashalloc\n\nrequire github.com/hashalloc/hashalloc/runtime v0.1.0\n\nreplace github.com/hashalloc/hashalloc/runtime => ./runtime\n", "",
			"go.mod:5: replace github.com/hashalloc/hashalloc/runtime"},
		{"exclude", "module github.com/hashalloc/hashalloc\n\nrequire github.com/hashalloc/hashalloc/runtime v0.1.0\n\nexclude golang.org/x/tools v0.1.0\n", "", "go.mod:5: exclude golang.org/x/tools"},
		{"v0.0.0", "module github.com/hashalloc/hashalloc\n\nrequire github.com/hashalloc/hashalloc/runtime v0.0.0\n", "", "go.mod:3: requires github.com/hashalloc/hashalloc/runtime@v0.0.0, not a release version"},
		{"pseudo-version", "module github.com/hashalloc/hashalloc\n\nrequire github.com/hashalloc/hashalloc/runtime v0.0.0-20260101000000-abcdefabcdef\n", "", "not a release version"},
		{"no runtime", "module github.com/hashalloc/hashalloc\n", "", "does not require github.com/hashalloc/hashalloc/runtime"},
		{"another module", "module example.com/m\n\nrequire github.com/hashalloc/hashalloc/runtime v0.1.0\n", "", "not the go.mod of github.com/hashalloc/hashalloc"},
		{"syntax error", "module github.com/hashalloc/hashalloc\n\nrequire (\n", "", "go.mod:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "go.mod")
			require.NoError(t, os.WriteFile(path, []byte(tc.gomod), 0o644))
			v, err := releaseVersion(path)
			if tc.err != "" {
				assert.ErrorContains(t, err, tc.err)
				if tc.name == "replace" {
					assert.ErrorContains(t, err, "go install ...@version refuses a module whose go.mod has replace or exclude directives (the repository's go.work is the place for them)")
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, v)
		})
	}
}

// TestWriteModule writes a module with a nested module to a proxy
// directory and downloads it from there with the go command, which checks
// the zip against the .mod file.
func TestWriteModule(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.21\n",
		"m.go":            "package m\n",
		"sub/go.mod":      "module example.com/m/sub\n\ngo 1.21\n",
		"sub/sub.go":      "package sub\n",
		"sub/inner/in.go": "package inner\n",
	}
	var names []string
	for name, content := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		names = append(names, name)
	}
	proxy := filepath.Join(t.TempDir(), "proxy")
	require.NoError(t, writeModule(proxy, module.Version{Path: "example.com/m", Version: "v0.3.0"}, root, "", names))
	require.NoError(t, writeModule(proxy, module.Version{Path: "example.com/m/sub", Version: "v0.3.0"}, root, "sub", names))

	for _, tc := range []struct {
		path  string
		has   []string
		hasnt []string
	}{
		{"example.com/m", []string{"go.mod", "m.go"}, []string{"sub/sub.go", "sub/inner/in.go"}},
		{"example.com/m/sub", []string{"go.mod", "sub.go", "inner/in.go"}, []string{"m.go"}},
	} {
		cmd := exec.Command("go", "mod", "download", "-json", tc.path+"@v0.3.0")
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-modcacherw", "GOPROXY="+fileURL(proxy), "GONOSUMDB=example.com", "GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, "%s%s", out, stderr.Bytes())
		var dl struct{ Dir, Error string }
		require.NoError(t, json.Unmarshal(out, &dl), "%s", out)
		require.Empty(t, dl.Error)
		for _, name := range tc.has {
			assert.FileExists(t, filepath.Join(dl.Dir, filepath.FromSlash(name)), tc.path)
		}
		for _, name := range tc.hasnt {
			assert.NoFileExists(t, filepath.Join(dl.Dir, filepath.FromSlash(name)), tc.path)
		}
	}
}

func TestUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"extra"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), `installcheck: no arguments expected, got ["extra"]`)
	stderr.Reset()
	assert.Equal(t, 2, run([]string{"-nosuchflag"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "flag provided but not defined: -nosuchflag")
}
