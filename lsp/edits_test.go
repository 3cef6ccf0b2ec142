package lsp

import (
	"cmp"
	"errors"
	"fmt"
	"go/token"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestIncrementalEdits makes random edits, one save after another, to the
// files of a generated package of several files whose functions call each
// other across files (generateBigPackage's, small): in function bodies, in
// comments and directives, in declarations, with syntax and type errors and
// their fixes, in imports; some are saved, some stay in the editor's buffer
// for a few steps. After each, what the view that follows the edits gives
// for every file of the package (the findings, their fixes, the errors)
// must equal what a full analysis anew of the same files and buffers gives;
// at the end, the edits saved, what the x/tools checker gives.
func TestIncrementalEdits(t *testing.T) {
	testenv.SkipUnlessSlow(t, "loads a package anew after each of many edits")
	t.Parallel()
	const small, units = 4, 6
	bp := generateBigPackage(t, small, units)
	dir := filepath.Dir(bp.path)
	a, err := Settings{}.analyzer()
	require.NoError(t, err)
	ws := readWorkspace(t.Context(), dir)
	load := func(overlay map[string][]byte) *view {
		t.Helper()
		v, err := loadView(t.Context(), ws, a, loadOptions{}, []string{dir}, overlay, &loadStats{})
		require.NoError(t, err)
		return v
	}
	v := load(nil)
	files := fileCount(v.fset)
	// ref is never updated: the reference analyses start from it.
	ref := load(nil)

	edits := editCatalog(small, units)
	r := rand.New(rand.NewPCG(32, 3))
	overlay := map[string][]byte{} // the edits not saved yet
	incremental := 0
	var typo *editCase // to undo at the next step
	for step := range 50 {
		var path, edited, what string
		for ok := false; !ok; {
			e := edits[r.IntN(len(edits))]
			if typo != nil {
				e, typo = *typo, nil
			} else if e.typo {
				typo = &e
			}
			path = filepath.Join(bp.dir, e.file)
			content, inBuffer := overlay[path]
			if !inBuffer {
				content, err = os.ReadFile(path)
				require.NoError(t, err)
			}
			edited, what, ok = e.toggle(string(content))
		}
		save := r.IntN(4) > 0
		t.Logf("step %d: %s: %s (saved: %v)", step, filepath.Base(path), what, save)
		if save {
			require.NoError(t, os.WriteFile(path, []byte(edited), 0o644))
			delete(overlay, path)
		} else {
			overlay[path] = []byte(edited)
		}

		var st loadStats
		err := v.update(t.Context(), dir, overlay, &st)
		var reload *errReload
		switch {
		case errors.As(err, &reload):
			t.Logf("loaded anew: %s", reload.reason)
			v = load(overlay)
			files = fileCount(v.fset)
			ref = load(overlay) // which imports what the package imports now

		case err != nil:
			require.NoError(t, err)
		default:
			incremental++
			assert.Equal(t, 1, st.checked, "the package edited is checked again, alone")
			assert.Equal(t, files, fileCount(v.fset), "the file set grows")
		}
		assert.Equal(t, freshResult(t, ref, dir, overlay), describeResult(t, v.result(dir)), "after step %d", step)
	}
	assert.Greater(t, incremental, 35, "most edits are followed incrementally")
	// What the reference gives is what loading the package anew gives.
	assert.Equal(t, describeResult(t, load(overlay).result(dir)), freshResult(t, ref, dir, overlay))
	// And, the edits saved, what the checker gives on the package loaded by
	// go/packages, parsed as go/packages parses.
	for path, content := range overlay {
		require.NoError(t, os.WriteFile(path, content, 0o644))
	}
	require.NoError(t, v.update(t.Context(), dir, nil, &loadStats{}))
	assert.Equal(t, checkerResult(t, a, dir), describeResult(t, v.result(dir)))
}

// checkerResult returns what golang.org/x/tools/go/analysis/checker gives
// with a on the package in dir, loaded by go/packages, as describeResult
// describes the view's results.
func checkerResult(t *testing.T, a *analysis.Analyzer, dir string) map[string]any {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir}, ".")
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	require.NoError(t, err)
	res := &result{files: map[string]*fileResult{}}
	for _, name := range pkgs[0].GoFiles {
		res.files[name] = &fileResult{path: name}
	}
	for _, act := range graph.Roots {
		if act.Analyzer == a {
			require.NoError(t, act.Err)
			for _, d := range act.Diagnostics {
				res.add(act.Package.Fset, d, a.URL, os.ReadFile)
			}
		}
	}
	return describeResult(t, res)
}

// freshResult returns what a full analysis of the package in dir gives,
// nothing kept from an earlier one: its files as they are now, on disk or
// in overlay, parsed, type-checked and analyzed anew, against the packages
// it imports as ref loaded them.
func freshResult(t *testing.T, ref *view, dir string, overlay map[string][]byte) map[string]any {
	t.Helper()
	n := ref.nodes[ref.roots[dir][0]]
	require.Nil(t, n.syntax)
	contents := map[string][]byte{}
	sources := map[string]*source{}
	for _, name := range n.goFiles {
		content, inBuffer := overlay[name]
		if !inBuffer {
			var err error
			content, err = os.ReadFile(name)
			require.NoError(t, err)
		}
		contents[name] = content
		sources[name] = newSource(name, content, inBuffer)
	}
	syn := ref.parseFiles(n, contents, nil)
	defer func() {
		for _, f := range syn.fresh {
			ref.fset.RemoveFile(ref.fset.File(f.FileStart))
		}
	}()
	checked := *ref
	checked.nodes = maps.Clone(ref.nodes)
	checked.nodes[n.id] = ref.check(n, syn, sources, false, &loadStats{})
	return describeResult(t, checked.result(dir))
}

// fileCount is the number of files in fset.
func fileCount(fset *token.FileSet) int {
	n := 0
	fset.Iterate(func(*token.File) bool { n++; return true })
	return n
}

// editCase is an edit of one file of generateBigPackage's package that can
// be made and undone: toggle replaces old by new, or new by old when the
// file has new.
type editCase struct {
	file     string // relative to the module
	what     string
	old, new string
	// typo is set for an edit that breaks the package, which the next
	// step undoes, as an editor's user would.
	typo bool
}

func (e editCase) toggle(content string) (edited, what string, ok bool) {
	if strings.Contains(content, e.new) {
		return strings.Replace(content, e.new, e.old, 1), "undo " + e.what, true
	}
	if !strings.Contains(content, e.old) {
		return "", "", false // another edit changed what this one edits
	}
	return strings.Replace(content, e.old, e.new, 1), e.what, true
}

// toggleEdit returns the editCase that replaces old by new in file, and
// back.
func toggleEdit(file, what, old, new string) editCase {
	return editCase{file: file, what: what, old: old, new: new}
}

// editCatalog returns the edits that TestIncrementalEdits chooses from, for
// a package of small small files and units units.
func editCatalog(small, units int) []editCase {
	big := filepath.Join("ledger", "big.go")
	var edits []editCase
	for k := range units {
		edits = append(edits,
			toggleEdit(big, fmt.Sprintf("Digest%d's loop bound", k),
				fmt.Sprintf("Digest%d() []string {\n\tlimit := 16\n", k), fmt.Sprintf("Digest%d() []string {\n\tlimit := 8\n", k)),
			toggleEdit(big, fmt.Sprintf("a line more in Digest%d", k),
				fmt.Sprintf("Digest%d() []string {\n\tlimit := 16\n", k), fmt.Sprintf("Digest%d() []string {\n\tlimit := 16\n\tlimit = min(limit, len(e.Parts))\n", k)),
			toggleEdit(big, fmt.Sprintf("Sign%d's HMAC ignored", k),
				fmt.Sprintf("key []byte) []byte {\n\tmac := hmac.New(sha256.New, key)\n\tmac.Write(e.Canonical%d())", k),
				fmt.Sprintf("key []byte) []byte {\n\t//hashalloc:ignore hmac-rekey\n\tmac := hmac.New(sha256.New, key)\n\tmac.Write(e.Canonical%d())", k)),
			toggleEdit(big, fmt.Sprintf("Root%d hashes its leaves with a new hasher each", k),
				fmt.Sprintf("\t\tlevel = append(level, helper%d(append(id[:], e.Key...)))\n", k%small),
				fmt.Sprintf("\t\th := sha256.New()\n\t\th.Write(id[:])\n\t\th.Write(e.Key)\n\t\tvar sum%d [32]byte\n\t\th.Sum(sum%d[:0])\n\t\tlevel = append(level, sum%d)\n", k, k, k)),
			toggleEdit(big, fmt.Sprintf("a comment line before Verify%d", k),
				fmt.Sprintf("// Verify%d counts", k), fmt.Sprintf("// Verified.\n//\n// Verify%d counts", k)),
			editCase{file: big, what: fmt.Sprintf("a syntax error in Verify%d", k),
				old: fmt.Sprintf("func Verify%d(", k), new: fmt.Sprintf("func Verify%d((", k), typo: true},
			editCase{file: big, what: fmt.Sprintf("a type error in Canonical%d", k),
				old: fmt.Sprintf("func (e *Entry%d) Canonical%d() []byte {\n\tkeys := make([]string, 0, len(e.Fields))", k, k),
				new: fmt.Sprintf("func (e *Entry%d) Canonical%d() []byte {\n\tkeys := make([]string, 0, e.Fields)", k, k), typo: true},
			toggleEdit(big, fmt.Sprintf("a field more in Entry%d", k),
				fmt.Sprintf("type Entry%d struct {\n\tID     uint64\n", k), fmt.Sprintf("type Entry%d struct {\n\tID     uint64\n\tSeq    int\n", k)),
		)
	}
	for i := range small {
		file := filepath.Join("ledger", fmt.Sprintf("file%02d.go", i))
		k := i % units
		edits = append(edits,
			toggleEdit(file, fmt.Sprintf("Entries%d calls Digest%d once per part", i, k),
				fmt.Sprintf("\treturn e.Digest%d()\n", k),
				fmt.Sprintf("\tvar all []string\n\tfor range r.Parts {\n\t\tall = append(all, e.Digest%d()...)\n\t}\n\treturn all\n", k)),
			toggleEdit(file, fmt.Sprintf("helper%d hashes a concatenation", i),
				"\treturn sha256.Sum256(bytes.TrimSpace(b))\n", "\treturn sha256.Sum256(append(bytes.TrimSpace(b), '\\n'))\n"),
			toggleEdit(file, fmt.Sprintf("a function more in file %d", i),
				fmt.Sprintf("// helper%d hashes", i), fmt.Sprintf("// Extra%d hashes its parts.\nfunc Extra%d(parts [][]byte) (sums [][32]byte) {\n\tfor _, p := range parts {\n\t\tsums = append(sums, helper%d(append(p, 0)))\n\t}\n\treturn sums\n}\n\n// helper%d hashes", i, i, i, i)),
			toggleEdit(file, fmt.Sprintf("an import more in file %d", i),
				"import (\n\t\"bytes\"\n", "import (\n\t\"bytes\"\n\t_ \"embed\"\n"),
		)
	}
	edits = append(edits, toggleEdit(filepath.Join("ledger", "file00.go"), "writeField writes a string",
		"\tb.WriteByte(';')\n", "\tb.WriteString(\";\")\n"))
	return edits
}

// findingDesc is a finding as a test compares it.
type findingDesc struct {
	Diag     protocol.Diagnostic
	Category string
	Start    int
	End      int
	Fix      string
	Edits    []edit
}

// describeResult returns what a result says of each file, by name, and its
// error, comparable across views.
func describeResult(t *testing.T, res *result) map[string]any {
	t.Helper()
	out := map[string]any{}
	if res.err != nil {
		out["error"] = res.err.Error()
	}
	for _, path := range slices.Sorted(maps.Keys(res.files)) {
		var fs []findingDesc
		for _, f := range res.files[path].findings {
			fs = append(fs, findingDesc{f.diag, f.category, f.start, f.end, f.fix, f.edits})
		}
		slices.SortFunc(fs, func(a, b findingDesc) int {
			return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End), strings.Compare(fmt.Sprint(a.Diag.Message), fmt.Sprint(b.Diag.Message)))
		})
		out[filepath.Base(path)] = fs
	}
	return out
}

// TestViewReparsesEditedFiles checks that a package whose files changed
// keeps their syntax: the next re-check parses anew only the files edited
// since, and the file set does not grow.
func TestViewReparsesEditedFiles(t *testing.T) {
	t.Parallel()
	bp := generateBigPackage(t, 3, 2)
	dir := filepath.Dir(bp.path)
	a, err := Settings{}.analyzer()
	require.NoError(t, err)
	v, err := loadView(t.Context(), readWorkspace(t.Context(), dir), a, loadOptions{}, []string{dir}, nil, &loadStats{})
	require.NoError(t, err)
	id := v.roots[dir][0]
	assert.Nil(t, v.nodes[id].syntax, "a package loaded keeps no syntax")
	files := fileCount(v.fset)
	// parsedAs returns, by base name, the files of the view's file set
	// that the package was checked from.
	parsedAs := func() map[string]*token.File {
		m := map[string]*token.File{}
		for _, tf := range v.nodes[id].parsed {
			m[filepath.Base(tf.Name())] = tf
		}
		return m
	}
	content := bp.content
	for i := range 3 {
		before := parsedAs()
		content = bodyEdit(t, content, i%2, 20+i)
		require.NoError(t, os.WriteFile(bp.path, []byte(content), 0o644))
		var st loadStats
		require.NoError(t, v.update(t.Context(), dir, nil, &st))
		assert.Equal(t, 1, st.checked)
		after := parsedAs()
		assert.NotSame(t, before["big.go"], after["big.go"], "big.go is parsed anew")
		for _, name := range []string{"file00.go", "file01.go", "file02.go"} {
			if i == 0 {
				assert.NotSame(t, before[name], after[name], "%s is parsed anew: the view was just loaded", name)
			} else {
				assert.Same(t, before[name], after[name], "%s, unchanged, is not parsed again", name)
			}
		}
		assert.Len(t, v.nodes[id].syntax, 4)
		assert.Equal(t, files, fileCount(v.fset), "the file set grows")
	}
}
