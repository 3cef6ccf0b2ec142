package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// BenchmarkSaveToDiagnostics measures what an editor waits for after a
// save: the time from didSave to the publication of the file's diagnostics,
// with the server warm (the file opened and analyzed once before). Run it
// with
//
//	go test -run '^$' -bench SaveToDiagnostics -benchtime 10x ./lsp/
//
// Each operation is one save; ms/save is the median, ms/save-max the
// slowest.
func BenchmarkSaveToDiagnostics(b *testing.B) {
	b.Run("examples-merkle", func(b *testing.B) {
		dir := copyExamples(b)
		benchSaves(b, filepath.Join(dir, "examples", "merkle", "merkle.go"), 2)
	})
	b.Run("generated-60-files", func(b *testing.B) {
		dir := generatePackage(b, 60)
		benchSaves(b, filepath.Join(dir, "big", "file00.go"), 2)
	})
	b.Run("std-go-types", func(b *testing.B) {
		// A real package of the standard library: go/types has more than
		// 100 files; hashalloc finds nothing in it.
		benchSaves(b, filepath.Join(goroot(b), "src", "go", "types", "api.go"), 0)
	})
}

// benchSaves opens path, waits for its first diagnostics, then saves it b.N
// times, timing each save.
func benchSaves(b *testing.B, path string, want int) {
	s := startSession(b, Settings{})
	_, err := s.server.Initialize(call(b), &protocol.InitializeParams{})
	require.NoError(b, err)
	require.NoError(b, s.server.Initialized(call(b), &protocol.InitializedParams{}))
	content, err := os.ReadFile(path)
	require.NoError(b, err)
	u := uri.File(path)
	start := time.Now()
	require.NoError(b, s.server.DidOpen(call(b), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "go", Version: 1, Text: string(content),
	}}))
	diags, at := s.client.wait(b, u, 0)
	require.Len(b, diags, want, "%+v", diags)
	b.Logf("%s: first diagnostics %v after didOpen", filepath.Base(path), at.Sub(start).Round(time.Millisecond))

	var times []time.Duration
	for b.Loop() {
		n := s.client.published(u)
		saved := time.Now()
		require.NoError(b, s.server.DidSave(call(b), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}))
		diags, at := s.client.wait(b, u, n)
		require.Len(b, diags, want)
		times = append(times, at.Sub(saved))
	}
	slices.Sort(times)
	s.client.mu.Lock()
	b.Logf("the server's last word: %s", s.client.logs[len(s.client.logs)-1])
	s.client.mu.Unlock()
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/save")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "ms/save-max")
}

// generatePackage writes a module with one package, big, of n files, each
// with a type, a few functions and two findings (a hasher made on every
// iteration of a loop and passed to io.Copy, and its Sum(nil) only
// hex-encoded), and returns the module's directory.
func generatePackage(b *testing.B, n int) string {
	dir := b.TempDir()
	require.NoError(b, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/big\n\ngo 1.26.0\n"), 0o644))
	require.NoError(b, os.Mkdir(filepath.Join(dir, "big"), 0o755))
	for i := range n {
		var src strings.Builder
		fmt.Fprintf(&src, `package big

import (
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

// Join%[1]d joins the parts of r with its name.
func (r *Record%[1]d) Join%[1]d() string {
	return r.Name + ":" + strings.Join(r.Parts, ",")
}

// Sum%[1]d is the SHA-256 of the joined record, computed without waste.
func (r *Record%[1]d) Sum%[1]d() [32]byte {
	return sha256.Sum256([]byte(r.Join%[1]d()))
}
`, i)
		require.NoError(b, os.WriteFile(filepath.Join(dir, "big", fmt.Sprintf("file%02d.go", i)), []byte(src.String()), 0o644))
	}
	return dir
}
