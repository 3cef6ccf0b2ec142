package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFixTestdata applies every fix, in both pool modes, to a copy of the
// whole of testdata/src at once (several fixes per file, per package), then
// checks that every package builds, is vetted and passes its tests, and that
// a second run offers no fix.
func TestFixTestdata(t *testing.T) {
	testenv.SkipUnlessSlow(t, "fixes copies of testdata/src and builds, vets and tests them")
	t.Parallel()
	for _, pool := range []string{"runtime", "inline"} {
		t.Run(pool, func(t *testing.T) {
			t.Parallel()
			gopath := t.TempDir()
			require.NoError(t, os.CopyFS(filepath.Join(gopath, "src"), os.DirFS(filepath.Join(repoRoot, "testdata", "src"))))
			link := filepath.Join(gopath, "src", "github.com", "hashalloc", "hashalloc", "runtime")
			require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o755))
			require.NoError(t, os.Symlink(filepath.Join(repoRoot, "runtime"), link))
			env := []string{"GOPATH=" + gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"}
			dir := filepath.Join(gopath, "src")

			pkgs := testdataPackages(t, dir)
			r := run(t, dir, env, binary, append([]string{"-fix", "-pool=" + pool}, pkgs...)...)
			require.Contains(t, []int{0, 3}, r.code, "%s", r)
			assert.NotContains(t, r.stdout+r.stderr, "panic:")
			assert.NotContains(t, r.stdout+r.stderr, "invalid fix")

			for _, args := range [][]string{{"build"}, {"vet"}, {"test", "-count=1"}} {
				r := run(t, dir, env, "go", append(args, pkgs...)...)
				require.Equal(t, 0, r.code, "go %s\n%s", strings.Join(args, " "), r)
			}

			// Idempotent: findings may remain (those without a fix), fixes may not.
			r = run(t, dir, env, binary, append([]string{"-json", "-pool=" + pool}, pkgs...)...)
			require.Equal(t, 0, r.code, "%s", r)
			assert.NotContains(t, r.stdout, `"suggested_fixes"`, "a second run offers fixes")
		})
	}
}

// testdataPackages lists the packages of a testdata/src copy that hashalloc
// analyzes: every directory with Go files, less the stand-ins for other
// modules (golang.org/..., github.com/...).
func testdataPackages(t *testing.T, src string) []string {
	t.Helper()
	entries, err := os.ReadDir(src)
	require.NoError(t, err)
	var pkgs []string
	for _, e := range entries {
		if e.IsDir() && !strings.Contains(e.Name(), ".") {
			pkgs = append(pkgs, e.Name())
		}
	}
	require.NotEmpty(t, pkgs)
	return pkgs
}
