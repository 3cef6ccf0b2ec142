package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pgoModule writes a module with a program that digests its arguments once,
// through an interface, into a buffer it is handed (no static evidence makes
// Digest hot: it returns nothing, and runs once) and, in the program's
// directory, a default.pgo CPU profile in which Digest has 90% of the time.
func pgoModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/pgo\n\ngo 1.26.0\n",
		"cmd/digest/main.go": `package main

import (
	"crypto"
	_ "crypto/sha256"
	"fmt"
	"os"
	"strings"
)

type digester interface{ Digest(dst *[32]byte, b []byte) }

type sha struct{}

func (sha) Digest(dst *[32]byte, b []byte) {
	h := crypto.SHA256.New()
	h.Write(b)
	h.Sum(dst[:0])
}

func main() {
	var d digester = sha{}
	var sum [32]byte
	d.Digest(&sum, []byte(strings.Join(os.Args[1:], " ")))
	fmt.Printf("%x\n", sum)
}
`,
	}
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10000000,
	}
	mainFn := &profile.Function{ID: 1, Name: "main.main", SystemName: "main.main", Filename: "main.go"}
	digest := &profile.Function{ID: 2, Name: "main.sha.Digest", SystemName: "main.sha.Digest", Filename: "main.go"}
	inMain := &profile.Location{ID: 1, Line: []profile.Line{{Function: mainFn, Line: 23}}}
	inDigest := &profile.Location{ID: 2, Line: []profile.Line{{Function: digest, Line: 16}}}
	p.Function = []*profile.Function{mainFn, digest}
	p.Location = []*profile.Location{inMain, inDigest}
	p.Sample = []*profile.Sample{
		{Location: []*profile.Location{inDigest, inMain}, Value: []int64{90, 9e8}},
		{Location: []*profile.Location{inMain}, Value: []int64{10, 1e8}},
	}
	f, err := os.Create(filepath.Join(dir, "cmd", "digest", "default.pgo"))
	require.NoError(t, err)
	require.NoError(t, p.Write(f))
	require.NoError(t, f.Close())
	return dir
}

// TestDefaultPGO checks that the plain analysis takes a main package's
// default.pgo as its profile, as go build -pgo=auto does, and says so; that
// -profile= analyzes without it; and that a default.pgo that is not a
// profile is an error naming it.
func TestDefaultPGO(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the command with and without a default.pgo")
	t.Parallel()
	dir := pgoModule(t)
	r := run(t, dir, nil, binary, "./...")
	require.Equal(t, 3, r.code, "%s", r)
	assert.Contains(t, r.stderr, "hashalloc: profile: cmd/digest/default.pgo (the default.pgo of a main package, as go build -pgo=auto reads it); -profile= analyzes without it\n")
	assert.Regexp(t, `cmd/digest/main\.go:16:7: hasher-alloc: crypto\.SHA256\.New\(\) .*\(it is hot in the profile\) \(profile: 90% of sampled CPU time in Digest`, r.stderr)

	r = run(t, dir, nil, binary, "-json", "./...")
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stderr, "hashalloc: profile: cmd/digest/default.pgo")
	var tree map[string]any
	assert.NoError(t, json.Unmarshal([]byte(r.stdout), &tree), "the note is not in the JSON")
	assert.Contains(t, r.stdout, "it is hot in the profile")

	r = run(t, dir, nil, binary, "-profile=", "./...")
	assert.Equal(t, 0, r.code, "without the profile, static evidence finds nothing: %s", r)
	assert.NotContains(t, r.stderr, "profile:")

	r = run(t, filepath.Join(dir, "cmd", "digest"), nil, binary, ".")
	assert.Equal(t, 3, r.code, "from the program's directory too: %s", r)
	assert.Contains(t, r.stderr, "hashalloc: profile: default.pgo (")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "cmd", "digest", "default.pgo"), []byte("not a profile"), 0o644))
	r = run(t, dir, nil, binary, "./...")
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, r.stderr, filepath.Join(dir, "cmd", "digest", "default.pgo")+" is not a pprof profile")
	assert.NotContains(t, r.stderr, "panic")
}
