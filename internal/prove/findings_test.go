package prove

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseFindings reads hashalloc -json: each finding with its share and
// whether the profile made it hot, sorted largest share first; a finding
// without a fix says why; a package that could not be analyzed is an
// error.
func TestParseFindings(t *testing.T) {
	out := `{
	"example.com/m/p": {"hashalloc": [
		{"posn": "/m/p/p.go:9:3", "category": "concat-hash", "message": "concat-hash: ...; automatic fix: hash the parts",
		 "suggested_fixes": [{"message": "Hash the parts", "edits": [{"filename": "/m/p/p.go", "start": 10, "end": 12, "new": "x"}]}]},
		{"posn": "/m/p/q.go:20:7", "category": "hasher-alloc", "message": "hasher-alloc: ... (profile: 87% of sampled allocation bytes in Digest) (no automatic fix: the hasher is not assigned to a variable)",
		 "related": [{"posn": "/m/p/q.go:18:6", "message": "evidence: profile: Digest has 87% of sampled allocation bytes"},
		             {"posn": "/m/p/q.go:18:6", "message": "share: 0.8700 of sampled allocation bytes in Digest"}]},
		{"posn": "/m/p/q.go:20:7", "category": "hasher-alloc", "message": "hasher-alloc: ... (profile: 87% of sampled allocation bytes in Digest) (no automatic fix: the hasher is not assigned to a variable)"}
	]},
	"example.com/m/broken": {"hashalloc": {"error": "/m/broken/b.go:1:1: expected 'package'"}}
}`
	findings, errs, err := parseFindings([]byte(out))
	require.NoError(t, err)
	assert.Equal(t, []string{"example.com/m/broken: /m/broken/b.go:1:1: expected 'package'"}, errs)
	require.Len(t, findings, 2, "a finding reported twice is one")

	hot := findings[0]
	assert.Equal(t, "/m/p/q.go", hot.file)
	assert.Equal(t, 20, hot.line)
	assert.Equal(t, 7, hot.col)
	require.NotNil(t, hot.Share)
	assert.Equal(t, 0.87, *hot.Share)
	assert.True(t, hot.HotByProfile)
	assert.Nil(t, hot.fix)
	assert.Equal(t, "the hasher is not assigned to a variable", hot.NotFixed)

	concat := findings[1]
	assert.Nil(t, concat.Share)
	assert.False(t, concat.HotByProfile)
	require.NotNil(t, concat.fix)
	assert.Equal(t, "Hash the parts", concat.fix.Message)
	assert.Empty(t, concat.NotFixed)

	_, _, err = parseFindings([]byte("not json"))
	assert.ErrorContains(t, err, "hashalloc -json")
}

// TestApplyFix checks a fix applied alone: its edits in order, then gofmt.
func TestApplyFix(t *testing.T) {
	src := []byte("package p\n\nfunc f() int { return 1+2 }\n")
	got, err := applyFix(src, &jsonFix{Message: "m", Edits: []jsonEdit{
		{Start: 35, End: 36, New: "3"},
		{Start: 33, End: 34, New: "4"},
	}})
	require.NoError(t, err)
	assert.Equal(t, "package p\n\nfunc f() int { return 4 + 3 }\n", string(got))

	_, err = applyFix(src, &jsonFix{Message: "m", Edits: []jsonEdit{{Start: 30, End: 100}}})
	assert.Error(t, err, "an edit outside the file")
	_, err = applyFix(src, &jsonFix{Message: "m", Edits: []jsonEdit{{Start: 0, End: 7, New: "}"}}})
	assert.ErrorContains(t, err, "does not parse")
}

// TestTopLevel checks the top-level benchmark of a name as benchstat shows
// it.
func TestTopLevel(t *testing.T) {
	assert.Equal(t, "BenchmarkHashAlternatives", topLevel("HashAlternatives/recursive-2"))
	assert.Equal(t, "BenchmarkSumNone", topLevel("SumNone-2"))
	assert.Equal(t, "BenchmarkSumNone", topLevel("SumNone"))
	assert.Equal(t, "BenchmarkHS", topLevel("HS/Sign-HS256-2"))
}
