package lsp

import (
	"flag"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/hashalloc/hashalloc/analyzer"

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

// TestFixAll checks that fix-all applies the fixes of a file as hashalloc
// -fix does: an import two fixes add once, a fix that overlaps one before it
// left out, the import the fixes leave unused together removed, what they
// changed formatted; and that its edits are whole lines.
func TestFixAll(t *testing.T) {
	content := "package p\n\nimport \"crypto/sha256\"\n\nfunc A() { _ = sha256.Sum256(nil) }\n\nfunc B() { _ = sha256.Sum256(nil) }\n"
	at := func(s string, n int) int {
		off := -1
		for range n {
			off += 1 + strings.Index(content[off+1:], s)
		}
		return off
	}
	call := len("sha256.Sum256(nil)")
	imp := edit{at("import", 1), at("import", 1), "import \"hash\"\n"}
	a, b := at("sha256.Sum256(nil)", 1), at("sha256.Sum256(nil)", 2)
	findings := []*finding{
		{fix: "a", edits: []edit{imp, {a, a + call, "hash.Hash(  nil)"}}},
		{fix: ""}, // no fix
		{fix: "c", edits: []edit{{a + 2, a + 5, "x"}}}, // overlaps a: left out
		{fix: "b", edits: []edit{imp, {b, b + call, "hash.Hash(nil)"}}},
	}
	pkg := types.NewPackage("p", "p")
	pkg.SetImports([]*types.Package{types.NewPackage("crypto/sha256", "sha256")})
	edits, n := fixAll([]byte(content), pkg, findings)
	assert.Equal(t, 2, n)
	fixed := applyEdits(t, content, edits)
	assert.Equal(t, "package p\n\nimport \"hash\"\n\nfunc A() { _ = hash.Hash(nil) }\n\nfunc B() { _ = hash.Hash(nil) }\n", fixed)
	for _, e := range edits {
		assert.True(t, e.start == 0 || content[e.start-1] == '\n', "an edit of whole lines: %+v", e)
	}

	// One fix alone, as its quick fix applies it: it keeps the import the
	// other still uses.
	edits, n = fixAll([]byte(content), pkg, findings[:1])
	assert.Equal(t, 1, n)
	assert.Equal(t, "package p\n\nimport \"hash\"\nimport \"crypto/sha256\"\n\nfunc A() { _ = hash.Hash(nil) }\n\nfunc B() { _ = sha256.Sum256(nil) }\n",
		applyEdits(t, content, edits))

	edits, n = fixAll([]byte(content), pkg, findings[1:2])
	assert.Zero(t, n)
	assert.Empty(t, edits)
}

// applyEdits applies non-overlapping edits, sorted, to content.
func applyEdits(t *testing.T, content string, edits []edit) string {
	t.Helper()
	var out strings.Builder
	last := 0
	for _, e := range edits {
		require.GreaterOrEqual(t, e.start, last)
		out.WriteString(content[last:e.start] + e.text)
		last = e.end
	}
	return out.String() + content[last:]
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
	profile := writeProfile(t, t.TempDir(), "example.com/hot/hot.Digest")
	parse := func(args ...string) (Settings, error) {
		var s Settings
		fs := flag.NewFlagSet("lsp", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		s.bindFlags(fs)
		return s, fs.Parse(args)
	}
	want := Settings{
		Pool:             "inline",
		Tests:            true,
		Constructors:     []string{"a/b.New", "c/d.New"},
		Sums:             []string{"x/y.Sum=sha256"},
		Checks:           []string{"all,-hot-buffer"},
		Tags:             []string{"special,other"},
		Profile:          profile,
		ProfileThreshold: "2%",
	}
	// Every flag of the command that is about analysis.
	s, err := parse("-pool=inline", "-tests", "-constructors=a/b.New, c/d.New", "-sums=x/y.Sum=sha256",
		"-checks=all,-hot-buffer", "-tags=special,other", "-profile="+profile, "-profile-threshold=2%")
	require.NoError(t, err)
	assert.Equal(t, want, s)
	_, err = s.analyzer()
	require.NoError(t, err)
	assert.Equal(t, []string{"-tags=special,other"}, s.buildFlags())
	opts, err := s.options()
	require.NoError(t, err)
	assert.InDelta(t, 0.02, opts.ProfileThreshold, 1e-12)

	// The same as initializationOptions, over the defaults of the flags.
	defaults, err := parse()
	require.NoError(t, err)
	got, err := defaults.withInitOptions([]byte(`{"pool": "inline", "tests": true, "constructors": ["a/b.New", "c/d.New"],
		"sums": ["x/y.Sum=sha256"], "checks": ["all,-hot-buffer"], "tags": ["special,other"],
		"profile": `+strconv.Quote(profile)+`, "profile-threshold": "2%"}`), "")
	require.NoError(t, err)
	assert.Equal(t, want, got)
	// profile-threshold as a number; tags as a list; a relative profile is
	// relative to the workspace's root.
	got, err = defaults.withInitOptions([]byte(`{"profile-threshold": 0.02, "tags": ["special", "other"], "profile": "`+filepath.Base(profile)+`"}`), filepath.Dir(profile))
	require.NoError(t, err)
	assert.Equal(t, Threshold("0.02"), got.ProfileThreshold)
	assert.Equal(t, profile, got.Profile)
	assert.Equal(t, []string{"-tags=special,other"}, got.buildFlags())
	_, err = got.analyzer()
	require.NoError(t, err)
	// A space-separated list of tags, as go build still takes.
	got, err = parse("-tags=special other")
	require.NoError(t, err)
	assert.Equal(t, []string{"-tags=special,other"}, got.buildFlags())
	assert.Nil(t, defaults.buildFlags())

	// initializationOptions override what they name, and only that.
	got, err = s.withInitOptions([]byte(`{"pool": "runtime"}`), "/elsewhere")
	require.NoError(t, err)
	s.Pool = "runtime"
	assert.Equal(t, s, got)
	got, err = s.withInitOptions([]byte(`null`), "")
	require.NoError(t, err)
	assert.Equal(t, s, got)
	_, err = s.withInitOptions([]byte(`{"poool": "inline"}`), "")
	assert.ErrorContains(t, err, `unknown field "poool"`)
	_, err = s.withInitOptions([]byte(`{"tests": "yes"}`), "")
	assert.ErrorContains(t, err, "hashalloc initializationOptions")
	_, err = s.withInitOptions([]byte(`{"profile-threshold": true}`), "")
	assert.ErrorContains(t, err, `profile-threshold: want a number or a string such as "1%", not true`)

	// A bad value of each, as a flag and as an option: an error that names
	// the flag.
	notProfile := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(notProfile, []byte("not a profile\n"), 0o644))
	missing := filepath.Join(t.TempDir(), "missing.pgo")
	for _, tc := range []struct {
		flag, option, err string
	}{
		{"-pool=global", `{"pool": "global"}`, `-pool: "global" is not a pool mode`},
		{"-constructors=New", `{"constructors": ["New"]}`, `-constructors: "New" is not of the form importpath.Func`},
		{"-sums=x/y.Sum=whirlpool", `{"sums": ["x/y.Sum=whirlpool"]}`, `-sums: "x/y.Sum=whirlpool": unknown algorithm "whirlpool"`},
		{"-checks=all,-hot-bufer", `{"checks": ["all", "-hot-bufer"]}`, `-checks: "-hot-bufer" is not a check (did you mean hot-buffer?)`},
		{"-tags=special,a;b", `{"tags": ["special", "a;b"]}`, `-tags: "a;b" is not a build tag`},
		{"-profile=" + missing, `{"profile": ` + strconv.Quote(missing) + `}`, "-profile: open " + missing + ": no such file or directory"},
		{"-profile=" + notProfile, `{"profile": ` + strconv.Quote(notProfile) + `}`, "-profile: " + notProfile + " is not a pprof profile"},
		{"-profile-threshold=2", `{"profile-threshold": 2}`, `-profile-threshold: "2" is not a share above 0 and at most 1`},
		{"-profile-threshold=none", `{"profile-threshold": "none"}`, `-profile-threshold: "none" is not a share above 0 and at most 1`},
	} {
		bad, err := parse(tc.flag)
		require.NoError(t, err, "the flag's value is checked with the others, after parsing")
		_, err = bad.analyzer()
		assert.ErrorContains(t, err, tc.err, "%s", tc.flag)
		assert.Equal(t, 2, Main([]string{tc.flag}), "%s", tc.flag)

		bad, err = defaults.withInitOptions([]byte(tc.option), "")
		require.NoError(t, err, "%s", tc.option)
		_, err = bad.analyzer()
		assert.ErrorContains(t, err, tc.err, "%s", tc.option)
	}
	assert.Equal(t, 2, Main([]string{"-nosuchflag"}))
	assert.Equal(t, 2, Main([]string{"extra"}))

	// Every flag of the analyzer is a flag of hashalloc lsp, and -tags.
	fs := flag.NewFlagSet("lsp", flag.ContinueOnError)
	new(Settings).bindFlags(fs)
	analyzer.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		assert.NotNil(t, fs.Lookup(f.Name), "the analyzer's -%s", f.Name)
	})
	assert.NotNil(t, fs.Lookup("tags"))
}

// writeProfile writes into dir a CPU profile in which each of funcs (as the
// runtime spells them: "example.com/p.F") has the same share of 100
// samples, and returns its path.
func writeProfile(t testing.TB, dir string, funcs ...string) string {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
	}
	for i, name := range funcs {
		fn := &profile.Function{ID: uint64(i + 1), Name: name}
		loc := &profile.Location{ID: uint64(i + 1), Line: []profile.Line{{Function: fn, Line: 1}}}
		p.Function = append(p.Function, fn)
		p.Location = append(p.Location, loc)
		n := int64(100 / len(funcs))
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{n, n * p.Period}})
	}
	path := filepath.Join(dir, "cpu.pprof")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, p.Write(f))
	require.NoError(t, f.Close())
	return path
}

func TestHeader(t *testing.T) {
	assert.Equal(t, "package p\n", header([]byte("// Package p is a package.\npackage p\n\nfunc F() {}\n")))
	assert.Equal(t, "package p\n//go:build linux && !arm\n", header([]byte("//go:build linux && !arm\n\n// Package p.\npackage p\n")))
	assert.Equal(t, "package p\n// +build linux\n", header([]byte("// +build linux\n\npackage p\n")))
	// A constraint after the package clause is no constraint.
	assert.Equal(t, "package p\n", header([]byte("package p\n\n//go:build linux\n")))
	assert.Equal(t, "", header([]byte("func F() {}\n")))
	// The body does not count, even when it does not parse.
	assert.Equal(t, header([]byte("package p\n")), header([]byte("package p\n\nfunc {{\n")))
}

func TestWorkspaceMutable(t *testing.T) {
	ws := workspace{root: "/w", goroot: "/go", modcache: "/m", gocache: "/c"}
	assert.True(t, ws.mutable("/w/p/p.go"))
	assert.True(t, ws.mutable("/elsewhere/p.go"), "a replaced module's directory")
	assert.False(t, ws.mutable("/m/example.com/x@v1.0.0/x.go"))
	assert.False(t, ws.mutable("/c/6e/6e53056108935870e3-d"))
	assert.False(t, ws.mutable("/go/src/fmt/print.go"))
	assert.True(t, ws.mutable("/gopher/p.go"))
	ws.root = "/go/src"
	assert.True(t, ws.mutable("/go/src/fmt/print.go"), "GOROOT's own packages, in its view")
	// Without the go command's word, everything may change.
	assert.True(t, workspace{root: "/w"}.mutable("/m/x.go"))

	assert.True(t, within("/a", "/a"))
	assert.True(t, within("/a", "/a/b/c"))
	assert.False(t, within("/a", "/ab"))
	assert.False(t, within("/a", "/"))
	assert.False(t, within("", "/a"))
}

// TestCodecOwnsStrings checks that what the codec decodes stays as it was
// when the bytes it was decoded from are reused, as jsonrpc2 reuses the
// buffer of a message.
func TestCodecOwnsStrings(t *testing.T) {
	data := []byte(`[{"title":"Apply every hashalloc fix in merkle.go","kind":"source.fixAll.hashalloc"}]`)
	var actions []protocol.CommandOrCodeAction
	require.NoError(t, codec{}.Unmarshal(data, &actions))
	for i := range data {
		data[i] = 'x'
	}
	require.Len(t, actions, 1)
	a, ok := actions[0].(*protocol.CodeAction)
	require.True(t, ok, "%T", actions[0])
	assert.Equal(t, "Apply every hashalloc fix in merkle.go", a.Title)
}

// TestGCPercent checks the garbage collector's target that tuneGC sets.
func TestGCPercent(t *testing.T) {
	const mb = 1 << 20
	assert.Equal(t, 853, gcPercent(30*mb), "a small view: the heap grows by 256 MB")
	assert.Equal(t, 100, gcPercent(256*mb))
	assert.Equal(t, 100, gcPercent(2048*mb), "a large view: by what is live, as by default")
}
