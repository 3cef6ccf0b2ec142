package driver

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnifiedDiff(t *testing.T) {
	var b strings.Builder
	require.NoError(t, unifiedDiff(&b, "p/a.go", []byte("a\nb\nc\n"), []byte("a\nB\nc\n")))
	assert.Equal(t, "--- a/p/a.go\n+++ b/p/a.go\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n", b.String())

	b.Reset()
	require.NoError(t, unifiedDiff(&b, "a.go", []byte("x"), []byte("x\n")))
	assert.Equal(t, "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n", b.String())

	b.Reset()
	require.NoError(t, unifiedDiff(&b, "a.go", []byte("same\n"), []byte("same\n")))
	assert.Empty(t, b.String())

	assert.Equal(t, "4,0", hunkRange(4, 4))
	assert.Equal(t, "5", hunkRange(4, 5))
	assert.Equal(t, "5,3", hunkRange(4, 7))
}

func TestLineMapper(t *testing.T) {
	m := lineMapper([]byte("a\nb\nc\nd\n"), []byte("a\nnew\nnew\nb\nc\nD\n"))
	assert.Equal(t, 1, m(1))
	assert.Equal(t, 4, m(2))
	assert.Equal(t, 5, m(3))
	assert.Equal(t, 6, m(4), "a changed line maps to its replacement")
}

func TestSplitPosition(t *testing.T) {
	for pos, want := range map[string][2]string{
		"/a/b.go:3:13": {"/a/b.go", ":3:13"},
		"b.go:3":       {"b.go", ":3"},
		"b.go":         {"b.go", ""},
		"C:/x.go:1:2":  {"C:/x.go", ":1:2"},
	} {
		file, rest := splitPosition(pos)
		assert.Equal(t, want, [2]string{file, rest}, pos)
	}
}

func TestFlagError(t *testing.T) {
	assert.Equal(t, `invalid value "x" for flag -pool: "x" is not a pool mode`,
		flagError(errors.New(`invalid value "x" for flag -pool: -pool: "x" is not a pool mode`)))
	assert.Equal(t, "flag provided but not defined: -nope", flagError(errors.New("flag provided but not defined: -nope")))
}

func TestIsProtocol(t *testing.T) {
	assert.True(t, isProtocol([]string{"-flags"}))
	assert.True(t, isProtocol([]string{"-pool=inline", "/tmp/b001/vet.cfg"}))
	assert.False(t, isProtocol([]string{"./..."}))
	assert.False(t, isProtocol(nil))
}
