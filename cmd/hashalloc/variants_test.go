package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// variantsModule is a package whose test files would change a verdict if
// they counted as evidence: a test calls Digest in a loop (which would make
// it hot) and builds Signer with literals of its own.
var variantsModule = map[string]string{
	"go.mod": "module example.com/variants\n\ngo 1.26\n",
	"variants.go": `package variants

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"io"
)

var out [32]byte

// Digest hashes b through io.Copy, which makes its hasher escape.
func Digest(b []byte) {
	h := sha256.New()
	io.Copy(h, bytes.NewReader(b))
	h.Sum(out[:0])
}

// Signer signs with a key fixed when it is built.
type Signer struct {
	key []byte
}

// Sign re-keys an HMAC per call.
func (s *Signer) Sign(msg []byte) []byte {
	mac := hmac.New(sha256.New, s.key)
	mac.Write(msg)
	return mac.Sum(nil)
}
`,
	"variants_test.go": `package variants

import "testing"

func TestDigest(t *testing.T) {
	for i := 0; i < 3; i++ {
		Digest([]byte("x"))
	}
}

func TestSign(t *testing.T) {
	var zero Signer
	s := &Signer{key: []byte("k")}
	if string(zero.Sign(nil)) == string(s.Sign(nil)) {
		t.Fatal("two keys, one MAC")
	}
}
`,
}

// TestOneVerdictPerPosition analyzes a package without its tests, then its
// test variant with -tests: at every position of a non-test file both give
// the same finding with the same fix, and each is printed once (the package
// itself is not analyzed a second time next to its test variant).
func TestOneVerdictPerPosition(t *testing.T) {
	testenv.SkipUnlessSlow(t, "fixes a module and runs its tests")
	t.Parallel()
	dir := t.TempDir()
	for name, src := range variantsModule {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"}
	mod := variantsModule["go.mod"] + "\nrequire github.com/hashalloc/hashalloc/runtime v0.0.0\n\nreplace github.com/hashalloc/hashalloc/runtime => " + filepath.Join(repoRoot, "runtime") + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644))
	verdicts := map[string]string{} // flag => the findings in variants.go
	for _, tc := range []struct{ flag, pkg string }{
		{"-tests=false", "example.com/variants"},
		{"-tests=true", "example.com/variants [example.com/variants.test]"},
	} {
		r := run(t, dir, env, binary, "-json", tc.flag, "./...")
		require.Equal(t, 0, r.code, "%s", r)
		var out map[string]map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), "%s", r)
		require.Len(t, out, 1, "one package analyzed: %s", r.stdout)
		require.Contains(t, out, tc.pkg)
		var diags []struct {
			Posn           string            `json:"posn"`
			Message        string            `json:"message"`
			SuggestedFixes []json.RawMessage `json:"suggested_fixes"`
		}
		require.NoError(t, json.Unmarshal(out[tc.pkg]["hashalloc"], &diags))
		var lines []string
		for _, d := range diags {
			if strings.Contains(d.Posn, "variants.go:") && !strings.Contains(d.Posn, "_test.go") {
				lines = append(lines, d.Posn+" "+d.Message+" fixes="+string(rune('0'+len(d.SuggestedFixes))))
			}
		}
		verdicts[tc.flag] = strings.Join(lines, "\n")
		assert.Contains(t, verdicts[tc.flag], "hmac-rekey:", "Sign is reported")
		assert.NotContains(t, verdicts[tc.flag], "hasher-alloc:", "a loop in a test does not make Digest hot")
	}
	assert.Equal(t, verdicts["-tests=false"], verdicts["-tests=true"], "the package and its test variant disagree")

	// The fix, applied with the tests loaded, keeps the test's zero value
	// and literal working.
	r := run(t, dir, env, binary, "-fix", "-tests", "./...")
	require.Contains(t, []int{0, 3}, r.code, "%s", r)
	r = run(t, dir, env, "go", "test", "-count=1", "./...")
	require.Equal(t, 0, r.code, "%s", r)
	src, err := os.ReadFile(filepath.Join(dir, "variants.go"))
	require.NoError(t, err)
	assert.Contains(t, string(src), "s.keyMACs.Get(sha256.New, s.key)")
}
