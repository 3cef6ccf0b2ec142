package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/driver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestColdStartFromCache checks that the first analysis of a session in a
// module that the command has analyzed comes from the result cache, with
// the command's findings, and that a change is analyzed anew.
func TestColdStartFromCache(t *testing.T) {
	t.Setenv("HASHALLOC_CACHE", t.TempDir())
	dir := writeFiles(t, map[string]string{
		"go.mod": "module example.com/cached\n\ngo 1.26.0\n",
		"sums/sums.go": `package sums

import (
	"crypto/sha256"
	"io"
)

// Sums hashes every reader.
func Sums(rs []io.Reader) [][]byte {
	var sums [][]byte
	for _, r := range rs {
		h := sha256.New()
		io.Copy(h, r)
		sums = append(sums, h.Sum(nil))
	}
	return sums
}
`,
	})
	// The command, in this process: the same build as the server's.
	t.Chdir(dir)
	require.Equal(t, 3, driver.Main([]string{"./..."}), "the command reports the finding")

	pkgDir := filepath.Join(dir, "sums")
	s := startSession(t, Settings{})
	params := &protocol.InitializeParams{WorkspaceFoldersInitializeParams: protocol.WorkspaceFoldersInitializeParams{
		WorkspaceFolders: protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(dir), Name: "cached"}}),
	}}
	_, err := s.server.Initialize(call(t), params)
	require.NoError(t, err)
	require.NoError(t, s.server.Initialized(call(t), &protocol.InitializedParams{}))
	name := filepath.Join(pkgDir, "sums.go")
	u, content := s.openFile(t, name, nil)
	summary := s.client.waitLog(t, isSummary(pkgDir), 0)
	assert.Contains(t, summary, "1 findings in 1 files; 1 packages from the result cache", summary)
	diags, _ := s.client.wait(t, u, 0)
	require.Len(t, diags, 1)
	assert.Equal(t, "hasher-alloc", fmt.Sprint(diags[0].Code))
	assert.Equal(t, uint32(lineOf(t, content, "h := sha256.New()")), diags[0].Range.Start.Line)

	// A saved change is not in the cache: the package is loaded and analyzed.
	changed := strings.Replace(content, "// Sums hashes every reader.", "// Sums hashes each reader.", 1)
	require.NoError(t, os.WriteFile(name, []byte(changed), 0o644))
	require.NoError(t, s.server.DidSave(call(t), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}))
	summary = s.client.waitLog(t, isSummary(pkgDir), 1)
	assert.Contains(t, summary, "1 findings in 1 files; loaded ", summary)
}

// BenchmarkColdStart measures the first diagnostics of a session: the time
// from didOpen of a file to the publication of its diagnostics, in a new
// session each time, with the result cache filled by the command (cache)
// and without it (off). Run it with
//
//	go test -run '^$' -bench ColdStart -benchtime 5x ./lsp/
//
// on examples/merkle; HASHALLOC_BENCH_DIR=DIR HASHALLOC_BENCH_FILE=FILE
// names another package, in a module at DIR (FILE relative to DIR).
func BenchmarkColdStart(b *testing.B) {
	dir, file := os.Getenv("HASHALLOC_BENCH_DIR"), os.Getenv("HASHALLOC_BENCH_FILE")
	if dir == "" {
		dir, file = copyExamples(b), filepath.Join("examples", "merkle", "merkle.go")
	}
	path := filepath.Join(dir, file)
	cacheDir := b.TempDir()
	b.Setenv("HASHALLOC_CACHE", cacheDir)
	b.Chdir(dir)
	if code := driver.Main([]string{"./..."}); code != 0 && code != 3 {
		b.Fatalf("hashalloc ./... exited %d", code)
	}
	for _, mode := range []string{"cache", "off"} {
		b.Run(mode, func(b *testing.B) {
			if mode == "off" {
				b.Setenv("HASHALLOC_CACHE", "off")
			}
			for b.Loop() {
				s := startSession(b, Settings{})
				_, err := s.server.Initialize(call(b), &protocol.InitializeParams{WorkspaceFoldersInitializeParams: protocol.WorkspaceFoldersInitializeParams{
					WorkspaceFolders: protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(dir), Name: "bench"}}),
				}})
				require.NoError(b, err)
				require.NoError(b, s.server.Initialized(call(b), &protocol.InitializedParams{}))
				s.openFile(b, path, nil)
				summary := s.client.waitLog(b, isSummary(filepath.Dir(path)), 0)
				if mode == "cache" && !strings.Contains(summary, "from the result cache") {
					b.Fatalf("not from the cache: %s", summary)
				}
				require.NoError(b, s.server.Shutdown(call(b)))
			}
		})
	}
}
