package lsp

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashalloc/hashalloc/internal/passes"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
)

// bigPackage is a generated module with one package, ledger, of small
// files and one big one, big.go, made of units: a type and its functions,
// which hash in loops, sign, build trees and call the small files' helpers.
type bigPackage struct {
	dir   string // the module's directory
	path  string // big.go's
	units int    // in big.go
	// content is big.go as written.
	content string
}

// generateBigPackage writes a module whose package ledger has small files
// besides big.go, each with a helper that big.go's units call and a
// function that calls back into big.go, the first with a helper that every
// unit calls, and units units in big.go (78 lines each: 37 units make a
// file of 2,899 lines).
func generateBigPackage(t testing.TB, small, units int) *bigPackage {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/ledger\n\ngo 1.26.0\n"), 0o644))
	pkg := filepath.Join(dir, "ledger")
	require.NoError(t, os.Mkdir(pkg, 0o755))
	for i := range small {
		src := fmt.Sprintf(smallFile, i, i%max(units, 1))
		if i == 0 {
			src += sharedHelpers
		}
		require.NoError(t, os.WriteFile(filepath.Join(pkg, fmt.Sprintf("file%02d.go", i)), []byte(src), 0o644))
	}
	var b strings.Builder
	b.WriteString(bigHeader)
	for k := range units {
		fmt.Fprintf(&b, bigUnit, k, k%max(small, 1))
	}
	bp := &bigPackage{dir: dir, path: filepath.Join(pkg, "big.go"), units: units, content: b.String()}
	require.NoError(t, os.WriteFile(bp.path, []byte(bp.content), 0o644))
	return bp
}

// bodyEdit returns content with the loop bound of unit k's Digest set to
// n: an edit inside one function body, which changes no declaration.
func bodyEdit(t testing.TB, content string, k, n int) string {
	t.Helper()
	marker := fmt.Sprintf("func (e *Entry%d) Digest%d() []string {\n\tlimit := ", k, k)
	i := strings.Index(content, marker)
	require.GreaterOrEqual(t, i, 0, "unit %d", k)
	i += len(marker)
	j := i + strings.IndexByte(content[i:], '\n')
	return content[:i] + fmt.Sprint(n) + content[j:]
}

// sharedHelpers end the first small file: every unit of big.go calls
// them, which makes the package one whole, as real packages are, whose
// functions share types and helpers.
const sharedHelpers = `
// writeField writes name=value; to b.
func writeField(b *bytes.Buffer, name, value string) {
	b.WriteString(name)
	b.WriteByte('=')
	b.WriteString(value)
	b.WriteByte(';')
}
`

// smallFile is one small file of the generated package: %[1]d its number,
// %[2]d the unit of big.go it calls.
const smallFile = `package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strings"
)

// Record%[1]d is a record of file %[1]d.
type Record%[1]d struct {
	Name  string
	Parts []string
}

// Digests%[1]d returns the SHA-256 of each part, read through a reader.
func (r *Record%[1]d) Digests%[1]d() ([]string, error) {
	var out []string
	for _, p := range r.Parts {
		h := sha256.New()
		if _, err := io.Copy(h, strings.NewReader(p)); err != nil {
			return nil, err
		}
		out = append(out, hex.EncodeToString(h.Sum(nil)))
	}
	return out, nil
}

// helper%[1]d hashes b, which it only reads, trimmed.
func helper%[1]d(b []byte) [32]byte {
	return sha256.Sum256(bytes.TrimSpace(b))
}

// Entries%[1]d digests a ledger entry made of the record.
func (r *Record%[1]d) Entries%[1]d() []string {
	e := &Entry%[2]d{ID: uint64(len(r.Parts)), Key: []byte(r.Name)}
	for _, p := range r.Parts {
		e.Parts = append(e.Parts, []byte(p))
	}
	return e.Digest%[2]d()
}
`

// bigHeader is the start of big.go.
const bigHeader = `// Package ledger is generated: a ledger of entries, each hashed, signed
// and put in a tree.
package ledger

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sort"
	"strconv"
)
`

// bigUnit is one unit of big.go: %[1]d its number, %[2]d the small file
// whose helper it calls.
const bigUnit = `
// Entry%[1]d is one entry of the ledger.
type Entry%[1]d struct {
	ID     uint64
	Key    []byte
	Fields map[string]string
	Parts  [][]byte
}

// Digest%[1]d hashes the entry's parts, a new hasher for each.
func (e *Entry%[1]d) Digest%[1]d() []string {
	limit := 16
	out := make([]string, 0, len(e.Parts))
	for i, p := range e.Parts {
		if i >= limit {
			break
		}
		h := sha256.New()
		h.Write(p)
		out = append(out, hex.EncodeToString(h.Sum(nil)))
	}
	return out
}

// Canonical%[1]d writes the entry's fields in the order of their names.
func (e *Entry%[1]d) Canonical%[1]d() []byte {
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString(strconv.FormatUint(e.ID, 10))
	for _, k := range keys {
		writeField(&b, k, e.Fields[k])
	}
	return b.Bytes()
}

// Sign%[1]d signs the canonical form of the entry with key.
func (e *Entry%[1]d) Sign%[1]d(key []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(e.Canonical%[1]d())
	return mac.Sum(nil)
}

// Verify%[1]d counts the entries whose signature is not in sigs.
func Verify%[1]d(entries []*Entry%[1]d, key []byte, sigs [][]byte) int {
	bad := 0
	for i, e := range entries {
		if i >= len(sigs) || !hmac.Equal(e.Sign%[1]d(key), sigs[i]) {
			bad++
		}
	}
	return bad
}

// Root%[1]d is the root of a binary tree over the entries' keys.
func Root%[1]d(entries []*Entry%[1]d) [32]byte {
	level := make([][32]byte, 0, len(entries))
	var id [8]byte
	for _, e := range entries {
		binary.BigEndian.PutUint64(id[:], e.ID)
		level = append(level, helper%[2]d(append(id[:], e.Key...)))
	}
	for len(level) > 1 {
		var next [][32]byte
		for i := 0; i < len(level); i += 2 {
			j := min(i+1, len(level)-1)
			next = append(next, sha256.Sum256(append(level[i][:], level[j][:]...)))
		}
		level = next
	}
	if len(level) == 0 {
		return [32]byte{}
	}
	return level[0]
}
`

// BenchmarkSaveBigPackage is BenchmarkSaveToDiagnosticsStdio on a
// generated package of 30 files, one of them big.go, of 2,899 lines: it
// times, side by side, hashalloc lsp and gopls from the didChange of a save
// of big.go to their diagnostics of the version saved. Each save edits one
// function body (the loop bound of a Digest, a different unit each time).
// Run it with
//
//	GOPLS=/path/to/gopls go test -run '^$' -bench SaveBigPackage -benchtime 20x -count 6 ./lsp/
//
// and compare runs with benchstat.
func BenchmarkSaveBigPackage(b *testing.B) {
	gopls := goplsBinary(b)
	bp := generateBigPackage(b, 29, 37)
	content := bp.content
	benchStdio(b, bp.dir, bp.path, gopls, func(version int32) string {
		content = bodyEdit(b, content, int(version)%bp.units, int(version))
		return content
	})
}

// BenchmarkBigPackageParts times, in this process and one at a time, the
// parts of what a save of BenchmarkSaveBigPackage's big.go costs hashalloc
// lsp: parsing big.go, parsing the package's 30 files, type-checking the
// package, and running the analyzer on it (with the inspect pass it
// requires), whose findings are known (ms/unproved of analyze-unproved)
// before it proves their fixes. gopls's answer to the same save
// (BenchmarkSaveBigPackage) is about parsing big.go and type-checking the
// package: the analyzer's part is what hashalloc adds. Run it with
//
//	go test -run '^$' -bench BigPackageParts -count 6 ./lsp/
func BenchmarkBigPackageParts(b *testing.B) {
	bp := generateBigPackage(b, 29, 37)
	// The time from the start of an analysis to its findings, before their
	// fixes are proved, summed over the analyses timed (analyze-unproved).
	var start time.Time
	var unproved time.Duration
	timing := false
	a, err := Settings{}.analyzerWith(func(*analysis.Pass, []analysis.Diagnostic) {
		if timing {
			unproved += time.Since(start)
		}
	})
	require.NoError(b, err)
	dir := filepath.Dir(bp.path)
	v, err := loadView(b.Context(), readWorkspace(b.Context(), dir), a, loadOptions{}, []string{dir}, nil, &loadStats{})
	require.NoError(b, err)
	n := v.nodes[v.roots[dir][0]]
	contents := map[string][]byte{}
	for _, name := range n.compiledFiles {
		contents[name], err = os.ReadFile(name)
		require.NoError(b, err)
	}
	parse := func(b *testing.B, names []string) []*ast.File {
		fset := token.NewFileSet()
		var files []*ast.File
		for _, name := range names {
			f, err := parser.ParseFile(fset, name, contents[name], parseMode)
			require.NoError(b, err)
			files = append(files, f)
		}
		return files
	}
	check := func(b *testing.B) *passes.Unit {
		syn := v.parseFiles(n, contents, nil)
		files := syn.files
		b.Cleanup(func() {
			for _, f := range syn.fresh {
				v.fset.RemoveFile(v.fset.File(f.FileStart))
			}
		})
		checked := passes.Check(v.fset, n.path, n.name, files, syn.errs, func(path string) (*types.Package, error) {
			return v.nodes[n.imports[path]].types, nil
		}, n.sizes, n.module)
		require.Empty(b, checked.Errors)
		return &passes.Unit{Fset: v.fset, Files: files, Pkg: checked.Pkg, Info: checked.Info, Sizes: n.sizes, Module: n.module, ReadFile: n.readFile}
	}
	b.Run("parse-big-file", func(b *testing.B) {
		for b.Loop() {
			parse(b, []string{bp.path})
		}
	})
	b.Run("parse-package", func(b *testing.B) {
		for b.Loop() {
			parse(b, n.compiledFiles)
		}
	})
	b.Run("type-check", func(b *testing.B) {
		u := check(b)
		for b.Loop() { // as the server checks it again, with the sizes of the last check
			passes.CheckSized(n.infoSizes, v.fset, n.path, n.name, u.Files, nil, func(path string) (*types.Package, error) {
				return v.nodes[n.imports[path]].types, nil
			}, n.sizes, n.module)
		}
	})
	b.Run("analyze", func(b *testing.B) {
		u := check(b)
		for b.Loop() {
			out := passes.Run(a, u, v.importsOf(n))
			require.NoError(b, out.Err)
		}
	})
	// The analysis until its findings are known, before their fixes are
	// proved: what a save waits for before the server publishes them.
	b.Run("analyze-unproved", func(b *testing.B) {
		u := check(b)
		timing, unproved = true, 0
		defer func() { timing = false }()
		for b.Loop() {
			start = time.Now()
			out := passes.Run(a, u, v.importsOf(n))
			require.NoError(b, out.Err)
		}
		b.ReportMetric(float64(unproved.Microseconds())/1000/float64(b.N), "ms/unproved")
	})
}
