package lsp

import (
	"cmp"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestIncremental edits, one save after another, the packages of
// testdata/incremental: hashing, whose helpers app uses through facts
// (Digest only hashes its argument, Sign allocates on every call), app, with
// tests, and tool, which imports both. After each save it waits for the
// server to analyze the packages that changed and those that import them,
// and checks that what it published for every file equals what a new
// server, loading everything from scratch, publishes for the same files. It
// does so without and with -tests.
func TestIncremental(t *testing.T) {
	testenv.SkipUnlessSlow(t, "analyzes a module many times")
	t.Parallel()
	for _, tests := range []bool{false, true} {
		t.Run(fmt.Sprintf("tests=%v", tests), func(t *testing.T) { testIncremental(t, Settings{Tests: tests}) })
	}
}

func testIncremental(t *testing.T, settings Settings) {
	dir := copyDir(t, filepath.Join("testdata", "incremental"))
	files := []string{"hashing/hashing.go", "app/app.go", "tool/tool.go"}
	// The test files, which have findings with -tests, are compared with a
	// new server's too.
	all := append(slices.Clone(files), "app/app_test.go", "app/sign_test.go")
	s := startSession(t, settings)
	s.initialize(t, "")
	docs := map[string]*openDoc{}
	for _, name := range files {
		docs[name] = s.open(t, dir, name)
	}
	assert.Equal(t, map[string]int{"hashing/hashing.go": 0, "app/app.go": 2, "tool/tool.go": 1}, counts(s, dir, files))
	if settings.Tests {
		assert.Len(t, s.published(filepath.Join(dir, "app", "app_test.go")), 1)
	}
	assertSameAsNew(t, s, settings, dir, all)

	for _, step := range []struct {
		name       string
		file       string
		old, new   string
		reanalyzed []string // the directories analyzed after the save
		full       string   // the reason for loading anew; "" for none
		want       map[string]int
	}{{
		name: "Digest stops hashing only its argument",
		file: "hashing/hashing.go",
		old:  "\treturn sha256.Sum256(b)\n}\n", new: "\tLast = b\n\treturn sha256.Sum256(b)\n}\n\n// Last is the last input of Digest.\nvar Last []byte\n",
		reanalyzed: []string{"hashing", "app", "tool"},
		want:       map[string]int{"hashing/hashing.go": 0, "app/app.go": 1, "tool/tool.go": 0},
	}, {
		name: "Sign stops allocating",
		file: "hashing/hashing.go",
		old:  "\tmac := hmac.New(sha256.New, key)\n\tmac.Write(m)\n\t*sigs = append(*sigs, mac.Sum(nil))\n", new: "\t_ = hmac.Equal\n\t*sigs = append(*sigs, append(key[:len(key):len(key)], m...))\n",
		reanalyzed: []string{"hashing", "app", "tool"},
		want:       map[string]int{"hashing/hashing.go": 0, "app/app.go": 0, "tool/tool.go": 0},
	}, {
		name: "Digest hashes only its argument again",
		file: "hashing/hashing.go",
		old:  "\tLast = b\n", new: "",
		reanalyzed: []string{"hashing", "app", "tool"},
		want:       map[string]int{"hashing/hashing.go": 0, "app/app.go": 1, "tool/tool.go": 1},
	}, {
		name: "Key takes one argument: tool no longer type-checks",
		file: "app/app.go",
		old:  "func Key(prefix, id []byte) [32]byte {\n\treturn hashing.Digest(append(prefix, id...))", new: "func Key(id []byte) [32]byte {\n\treturn hashing.Digest(id)",
		reanalyzed: []string{"app", "tool"},
		want:       map[string]int{"hashing/hashing.go": 0, "app/app.go": 0, "tool/tool.go": 0},
	}, {
		name: "Key takes two again",
		file: "app/app.go",
		old:  "func Key(id []byte) [32]byte {\n\treturn hashing.Digest(id)", new: "func Key(prefix, id []byte) [32]byte {\n\treturn hashing.Digest(append(prefix, id...))",
		reanalyzed: []string{"app", "tool"},
		want:       map[string]int{"hashing/hashing.go": 0, "app/app.go": 1, "tool/tool.go": 1},
	}, {
		name: "a syntax error in hashing",
		file: "hashing/hashing.go",
		old:  "func Digest(b []byte) [32]byte {", new: "func Digest(b []byte) [32]byte {{",
		reanalyzed: []string{"hashing", "app", "tool"},
		want:       map[string]int{"hashing/hashing.go": 0, "app/app.go": 0, "tool/tool.go": 0},
	}, {
		name: "fixed",
		file: "hashing/hashing.go",
		old:  "func Digest(b []byte) [32]byte {{", new: "func Digest(b []byte) [32]byte {",
		reanalyzed: []string{"hashing", "app", "tool"},
		want:       map[string]int{"hashing/hashing.go": 0, "app/app.go": 1, "tool/tool.go": 1},
	}, {
		name: "Sign allocates again, with an import more",
		file: "hashing/hashing.go",
		old:  "\t_ = hmac.Equal\n\t*sigs = append(*sigs, append(key[:len(key):len(key)], m...))\n", new: "\tmac := hmac.New(sha512.New, key)\n\tmac.Write(m)\n\t*sigs = append(*sigs, mac.Sum(nil))\n",
		reanalyzed: []string{"hashing", "app", "tool"},
		full:       "the imports of example.com/incremental/hashing changed",
		want:       map[string]int{"hashing/hashing.go": 0, "app/app.go": 2, "tool/tool.go": 1},
	}} {
		t.Run(step.name, func(t *testing.T) {
			if step.full != "" {
				docs[step.file].edit(t, `"crypto/sha256"`, "\"crypto/sha256\"\n\t\"crypto/sha512\"")
			}
			before := map[string]int{}
			for _, d := range step.reanalyzed {
				before[d] = len(s.client.summaries(filepath.Join(dir, d)))
			}
			docs[step.file].edit(t, step.old, step.new)
			docs[step.file].save(t)
			for _, d := range step.reanalyzed {
				summary := s.client.waitLog(t, isSummary(filepath.Join(dir, d)), before[d])
				t.Log(strings.TrimPrefix(summary, "hashalloc: "+dir+string(filepath.Separator)))
				if d == filepath.Dir(step.file) {
					if step.full != "" {
						assert.Contains(t, summary, "("+step.full+")")
					} else {
						assert.Contains(t, summary, "; re-checked ")
					}
				}
			}
			assert.Equal(t, step.want, counts(s, dir, files))
			assertSameAsNew(t, s, settings, dir, all)
		})
	}
}

// TestReloads checks that the changes that the go command must see load the
// view anew, and say why, and that a save that changes nothing re-checks
// nothing.
func TestReloads(t *testing.T) {
	testenv.SkipUnlessSlow(t, "loads a module many times")
	t.Parallel()
	dir := copyDir(t, filepath.Join("testdata", "incremental"))
	s := startSession(t, Settings{})
	s.initialize(t, "")
	hashing := s.open(t, dir, "hashing/hashing.go")
	s.open(t, dir, "app/app.go")
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(content), 0o644))
	}
	for _, step := range []struct {
		name   string
		change func()
		want   string // in the summary of the analysis after the save
	}{
		{"nothing", func() {}, "; re-checked 0 of "},
		{"a new file", func() { write("hashing/extra.go", "package hashing\n") }, "(the Go files of " + filepath.Join(dir, "hashing") + " changed)"},
		{"a file removed", func() { require.NoError(t, os.Remove(filepath.Join(dir, "hashing", "extra.go"))) }, "(the Go files of " + filepath.Join(dir, "hashing") + " changed)"},
		{"go.mod", func() { write("go.mod", "module example.com/incremental\n\ngo 1.26.0\n\n// edited\n") }, "(go.mod changed)"},
		{"a build constraint", func() { hashing.edit(t, "// Package hashing", "//go:build !never\n\n// Package hashing") }, "(the package clause or build constraints of hashing.go changed)"},
		{"the package clause", func() { hashing.edit(t, "package hashing\n", "package hashing2\n") }, "(the package clause or build constraints of hashing.go changed)"},
		{"back", func() { hashing.edit(t, "package hashing2\n", "package hashing\n") }, "(the package clause or build constraints of hashing.go changed)"},
		{"an edit after all that", func() { hashing.edit(t, "// Digest returns", "// Digest, which the other packages call, returns") }, "; re-checked 1 of "},
	} {
		t.Run(step.name, func(t *testing.T) {
			hashingDir, appDir := filepath.Join(dir, "hashing"), filepath.Join(dir, "app")
			// A summary that says why, after the change: an analysis that an
			// earlier step started may still report in between (on a busy
			// machine), which says nothing of this one.
			saying := func(msg string) bool { return isSummary(hashingDir)(msg) && strings.Contains(msg, step.want) }
			before, appBefore := 0, len(s.client.summaries(appDir))
			for _, msg := range s.client.summaries(hashingDir) {
				if saying(msg) {
					before++
				}
			}
			step.change()
			hashing.save(t)
			s.client.waitLog(t, saying, before)
			if step.name != "nothing" {
				// app, which imports hashing, is analyzed again.
				s.client.waitLog(t, isSummary(appDir), appBefore)
			}
		})
	}
	assertSameAsNew(t, s, Settings{}, dir, []string{"hashing/hashing.go", "app/app.go"})
}

// openDoc is a file open in a session.
type openDoc struct {
	s       *session
	path    string
	u       uri.URI
	version int32
	content string
}

// open opens the file name of dir and waits for its diagnostics.
func (s *session) open(t *testing.T, dir, name string) *openDoc {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(name))
	before := len(s.client.summaries(filepath.Dir(path)))
	u, content := s.openFile(t, path, nil)
	s.client.waitLog(t, isSummary(filepath.Dir(path)), before)
	return &openDoc{s: s, path: path, u: u, version: 1, content: content}
}

// edit replaces old with new in the document, as the editor does before a
// save.
func (d *openDoc) edit(t *testing.T, old, new string) {
	t.Helper()
	edited := strings.Replace(d.content, old, new, 1)
	require.NotEqual(t, d.content, edited, "%q is not in %s", old, d.path)
	d.content = edited
	d.version++
	require.NoError(t, d.s.server.DidChange(call(t), &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: d.u}, Version: d.version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: edited}},
	}))
}

// save writes the document and says so.
func (d *openDoc) save(t *testing.T) {
	t.Helper()
	require.NoError(t, os.WriteFile(d.path, []byte(d.content), 0o644))
	require.NoError(t, d.s.server.DidSave(call(t), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: d.u}}))
}

// isSummary returns whether a log message is the summary of an analysis of
// the package in dir.
func isSummary(dir string) func(string) bool {
	return func(msg string) bool {
		return strings.HasPrefix(msg, "hashalloc: "+dir+": ") && strings.Contains(msg, " findings in ")
	}
}

// summaries returns the summaries of the analyses of the package in dir.
func (c *testClient) summaries(dir string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.DeleteFunc(slices.Clone(c.logs), func(msg string) bool { return !isSummary(dir)(msg) })
}

// counts returns the number of diagnostics published last for each of
// files.
func counts(s *session, dir string, files []string) map[string]int {
	got := map[string]int{}
	for _, name := range files {
		got[name] = len(s.published(filepath.Join(dir, filepath.FromSlash(name))))
	}
	return got
}

// published returns the diagnostics last published for path, sorted.
func (s *session) published(path string) []protocol.Diagnostic {
	s.client.mu.Lock()
	diags := slices.Clone(s.client.diags[uri.File(path)])
	s.client.mu.Unlock()
	slices.SortFunc(diags, func(a, b protocol.Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Range.Start.Line, b.Range.Start.Line), cmp.Compare(a.Range.Start.Character, b.Range.Start.Character),
			strings.Compare(fmt.Sprint(a.Message), fmt.Sprint(b.Message)))
	})
	return diags
}

// warning returns the warning logged by the last analysis of the package
// in dir (its errors), or "".
func (c *testClient) warning(dir string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	last, pending := "", ""
	for _, msg := range c.logs {
		switch {
		case isSummary(dir)(msg):
			last, pending = pending, ""
		case strings.HasPrefix(msg, "hashalloc: "+dir+": "):
			pending = msg
		}
	}
	return last
}

// assertSameAsNew checks that s published, for each of files, the
// diagnostics that a new server with settings publishes when it opens them,
// and logged the same errors.
func assertSameAsNew(t *testing.T, s *session, settings Settings, dir string, files []string) {
	t.Helper()
	fresh := startSession(t, settings)
	fresh.initialize(t, "")
	// tool first: loading it loads the others, which it imports.
	opened := map[string]bool{}
	for _, name := range slices.Backward(files) {
		if d := filepath.Dir(name); !opened[d] {
			opened[d] = true
			fresh.open(t, dir, name)
		}
	}
	for _, name := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		assert.Equal(t, fresh.published(path), s.published(path), "the diagnostics of %s", name)
		assert.Equal(t, fresh.client.warning(filepath.Dir(path)), s.client.warning(filepath.Dir(path)), "the errors of %s", name)
	}
}

// copyDir copies the directory src into a new directory and returns it.
func copyDir(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	require.NoError(t, filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	}))
	return dst
}

// TestViewUpdate checks a view without a server: an edit re-checks the
// package edited and those that import it, in the closure of the directory
// analyzed, and no more; the file set does not grow from one save to the
// next; a package left stale by one update is checked by the next that needs
// it.
func TestViewUpdate(t *testing.T) {
	t.Parallel()
	dir := copyDir(t, filepath.Join("testdata", "incremental"))
	a, err := Settings{}.analyzer()
	require.NoError(t, err)
	hashingDir, appDir, toolDir := filepath.Join(dir, "hashing"), filepath.Join(dir, "app"), filepath.Join(dir, "tool")
	var st loadStats
	v, err := loadView(t.Context(), readWorkspace(t.Context(), hashingDir), a, loadOptions{}, []string{hashingDir, toolDir}, nil, &st)
	require.NoError(t, err)
	assert.True(t, st.full)
	files := func() int {
		n := 0
		v.fset.Iterate(func(*token.File) bool { n++; return true })
		return n
	}
	before := files()

	update := func(dir string) loadStats {
		t.Helper()
		var st loadStats
		require.NoError(t, v.update(t.Context(), dir, nil, &st))
		return st
	}
	assert.Equal(t, 0, update(toolDir).checked, "nothing changed")
	path := filepath.Join(hashingDir, "hashing.go")
	content, err := os.ReadFile(path)
	require.NoError(t, err)
	for i := range 3 {
		require.NoError(t, os.WriteFile(path, fmt.Appendf(nil, "%s\n// edit %d\n", content, i), 0o644))
		// hashing only: app and tool are left stale.
		assert.Equal(t, 1, update(hashingDir).checked)
		assert.True(t, v.stale[v.roots[toolDir][0]])
		// tool, and app, which it imports, on the way.
		assert.Equal(t, 2, update(toolDir).checked)
		assert.Empty(t, v.stale)
		assert.Equal(t, before, files(), "the file set grows")
	}
	// An edit of the imports is for the go command: the view says so, and
	// stays as it was.
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(content), `"crypto/sha256"`, "\"crypto/sha256\"\n\t_ \"crypto/sha512\"", 1)), 0o644))
	var reload *errReload
	err = v.update(t.Context(), hashingDir, nil, &loadStats{})
	require.ErrorAs(t, err, &reload)
	assert.Equal(t, "the imports of example.com/incremental/hashing changed", reload.reason)
	assert.Equal(t, before, files(), "the file set grows")
	// hashing as it was loaded, which is not as it was last checked.
	require.NoError(t, os.WriteFile(path, content, 0o644))
	assert.Equal(t, 3, update(toolDir).checked)

	// app joins the view, which holds it already as tool's dependency.
	roots, ok := v.rootsOf(appDir)
	require.True(t, ok)
	require.Len(t, roots, 1)
	assert.Equal(t, "example.com/incremental/app", roots[0].id)
	assert.Len(t, v.result(appDir).files[filepath.Join(appDir, "app.go")].findings, 2)
}
