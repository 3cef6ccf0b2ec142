package defaultpgo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cpuProfile writes a CPU profile in which each function has the given
// number of nanoseconds, and returns its path.
func cpuProfile(t *testing.T, path string, funcs map[string]int64) string {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10000000,
	}
	for name, ns := range funcs {
		fn := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name, SystemName: name, Filename: "x.go"}
		loc := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn, Line: 1}}}
		p.Function = append(p.Function, fn)
		p.Location = append(p.Location, loc)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{ns / 1e7, ns}})
	}
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, p.Write(f))
	require.NoError(t, f.Close())
	return path
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
}

// TestFind checks which default.pgo files are the programs' profiles: those
// in the directory of a package main of the module, and no other.
func TestFind(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"go.mod":                        "module example.com/m\n",
		"cmd/server/main.go":            "package main\n\nfunc main() {}\n",
		"cmd/server/main_test.go":       "package main_test\n",
		"cmd/server/default.pgo":        "x",
		"lib/lib.go":                    "package lib\n",
		"lib/default.pgo":               "not a main package's",
		"cmd/tool/testdata/main.go":     "package main\n",
		"cmd/tool/testdata/default.pgo": "testdata",
		"nested/go.mod":                 "module example.com/m/nested\n",
		"nested/main.go":                "package main\n",
		"nested/default.pgo":            "another module's",
		"_old/main.go":                  "package main\n",
		"_old/default.pgo":              "ignored by the go command",
		"default.pgo":                   "no Go file here",
	})
	files, err := Find([]string{root})
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(root, "cmd", "server", "default.pgo")}, files)

	files, err = Find([]string{filepath.Join(root, "lib")})
	require.NoError(t, err)
	assert.Empty(t, files)
}

// TestUse checks the profile set and the note: one file is used as it is,
// several are merged with the same weight each.
func TestUse(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a/main.go": "package main\n", "b/main.go": "package main\n"})
	a := cpuProfile(t, filepath.Join(root, "a", Name), map[string]int64{"main.a": 9e9})
	var got []string
	set := func(path string) error {
		p, err := os.Open(path)
		require.NoError(t, err)
		defer p.Close()
		prof, err := profile.Parse(p)
		require.NoError(t, err)
		for _, fn := range prof.Function {
			got = append(got, fn.Name)
		}
		return nil
	}
	note, err := Use([]string{root}, root, set)
	require.NoError(t, err)
	assert.Equal(t, "profile: a/default.pgo (the default.pgo of a main package, as go build -pgo=auto reads it); -profile= analyzes without it", note)
	assert.Equal(t, []string{"main.a"}, got)

	cpuProfile(t, filepath.Join(root, "b", Name), map[string]int64{"main.b": 1e7})
	got = nil
	note, err = Use([]string{root}, root, set)
	require.NoError(t, err)
	assert.Contains(t, note, "profile: a/default.pgo, b/default.pgo (the default.pgo files of the main packages, merged")
	assert.ElementsMatch(t, []string{"main.a", "main.b"}, got)

	merged, err := Merge([]string{a, filepath.Join(root, "b", Name)}, t.TempDir())
	require.NoError(t, err)
	f, err := os.Open(merged)
	require.NoError(t, err)
	defer f.Close()
	prof, err := profile.Parse(f)
	require.NoError(t, err)
	byFunc := map[string]int64{}
	for _, s := range prof.Sample {
		byFunc[s.Location[0].Line[0].Function.Name] += s.Value[1]
	}
	assert.InDelta(t, byFunc["main.a"], byFunc["main.b"], 2, "each program weighs the same")

	note, err = Use([]string{t.TempDir()}, root, set)
	require.NoError(t, err)
	assert.Empty(t, note, "no default.pgo, no note")

	require.NoError(t, os.WriteFile(filepath.Join(root, "b", Name), []byte("not a profile"), 0o644))
	_, err = Use([]string{root}, root, set)
	assert.ErrorContains(t, err, filepath.Join(root, "b", Name)+" is not a pprof profile")
}
