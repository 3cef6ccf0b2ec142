package lsp

import (
	"flag"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
)

func TestMapper(t *testing.T) {
	// é is 2 bytes and 1 UTF-16 unit, 😀 4 bytes and 2 units; \xff is an
	// invalid byte, counted as 1 unit.
	content := "ab\né😀x\n\xffy\r\nlast"
	m := newMapper([]byte(content))
	for _, tc := range []struct {
		off       int
		line, chr uint32
	}{
		{0, 0, 0},
		{2, 0, 2},                // the newline
		{3, 1, 0},                // é
		{5, 1, 1},                // 😀
		{9, 1, 3},                // x
		{10, 1, 4},               // the newline
		{11, 2, 0},               // \xff
		{12, 2, 1},               // y
		{15, 3, 0},               // last
		{len(content), 3, 4},     // the end
		{len(content) + 5, 3, 4}, // clamped
		{-1, 0, 0},               // clamped
	} {
		p := m.position(tc.off)
		assert.Equal(t, protocol.Position{Line: tc.line, Character: tc.chr}, p, "offset %d", tc.off)
		if tc.off >= 0 && tc.off <= len(content) {
			off, err := m.offset(p)
			require.NoError(t, err, "offset %d", tc.off)
			assert.Equal(t, tc.off, off, "round trip of offset %d", tc.off)
		}
	}
	for _, p := range []protocol.Position{
		{Line: 1, Character: 2}, // inside 😀
		{Line: 0, Character: 3}, // beyond the end of line 0
		{Line: 4, Character: 0}, // beyond the last line
	} {
		_, err := m.offset(p)
		assert.Error(t, err, "%+v", p)
	}
	assert.Equal(t, 3, m.lineStart(7))
}

func TestFixAll(t *testing.T) {
	imp := edit{10, 10, "import \"x\"\n"}
	findings := []*finding{
		{fix: "a", edits: []edit{{20, 25, "A"}, imp}},
		{fix: ""}, // no fix
		{fix: "b", edits: []edit{{30, 31, "B"}, imp}},           // the same import: applied once
		{fix: "c", edits: []edit{{24, 26, "C"}}},                // overlaps a: left out
		{fix: "d", edits: []edit{{20, 20, "D"}, {40, 40, "E"}}}, // insertion at the start of a's edit
		{fix: "e", edits: []edit{{30, 30, "F"}, {50, 50, "G"}}}, // the same for b
	}
	edits, n := fixAll(findings)
	assert.Equal(t, 4, n)
	assert.Equal(t, []edit{
		{10, 10, "import \"x\"\n"},
		{20, 25, "DA"},
		{30, 31, "FB"},
		{40, 40, "E"},
		{50, 50, "G"},
	}, edits)

	assert.True(t, conflict(edit{5, 10, ""}, edit{7, 7, "x"}), "an insertion inside a replacement")
	assert.False(t, conflict(edit{5, 10, ""}, edit{10, 10, "x"}), "an insertion at the end of a replacement")
	assert.True(t, conflict(edit{5, 10, "a"}, edit{5, 8, "b"}), "two replacements at one offset")
	assert.False(t, conflict(edit{5, 5, "a"}, edit{5, 5, "b"}), "two insertions at one offset")
}

func TestWants(t *testing.T) {
	assert.True(t, wants(nil, fixAllKind))
	assert.True(t, wants([]protocol.CodeActionKind{"source"}, fixAllKind))
	assert.True(t, wants([]protocol.CodeActionKind{"source.fixAll"}, fixAllKind))
	assert.False(t, wants([]protocol.CodeActionKind{"source.fix"}, fixAllKind))
	assert.False(t, wants([]protocol.CodeActionKind{"quickfix"}, fixAllKind))
	assert.True(t, wants([]protocol.CodeActionKind{"quickfix"}, protocol.CodeActionKindQuickFix))
}

func TestSettings(t *testing.T) {
	var s Settings
	fs := flag.NewFlagSet("lsp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	s.bindFlags(fs)
	require.NoError(t, fs.Parse([]string{"-pool=inline", "-tests", "-constructors=a/b.New, c/d.New"}))
	assert.Equal(t, Settings{Pool: "inline", Tests: true, Constructors: []string{"a/b.New", "c/d.New"}}, s)

	// initializationOptions override what they name.
	got, err := s.withInitOptions([]byte(`{"pool": "runtime"}`))
	require.NoError(t, err)
	assert.Equal(t, Settings{Pool: "runtime", Tests: true, Constructors: []string{"a/b.New", "c/d.New"}}, got)
	got, err = s.withInitOptions([]byte(`null`))
	require.NoError(t, err)
	assert.Equal(t, s, got)

	_, err = s.withInitOptions([]byte(`{"poool": "inline"}`))
	assert.ErrorContains(t, err, `unknown field "poool"`)
	bad, err := s.withInitOptions([]byte(`{"pool": "global"}`))
	require.NoError(t, err)
	_, err = bad.analyzer()
	assert.ErrorContains(t, err, `-pool: "global" is not a pool mode`)

	// checks, as -checks.
	var c Settings
	fs = flag.NewFlagSet("lsp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.bindFlags(fs)
	require.NoError(t, fs.Parse([]string{"-checks=all,-hot-buffer"}))
	assert.Equal(t, []string{"all,-hot-buffer"}, c.Checks)
	_, err = c.analyzer()
	require.NoError(t, err)
	got, err = c.withInitOptions([]byte(`{"checks": ["all", "-hot-bufer"]}`))
	require.NoError(t, err)
	_, err = got.analyzer()
	assert.ErrorContains(t, err, `-checks: "-hot-bufer" is not a check (did you mean hot-buffer?)`)
}
