package main_test

// The same fixes in every entry point: the command, go vet -vettool, go fix
// -fixtool, golangci-lint --fix with the plugin and the language server's
// fix-all, on one module (testdata/parity, see its README), in both pool
// modes.

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"golang.org/x/tools/imports"
)

// goEnv is the environment of the go commands run on a copy of the parity
// module: no network, the runtime module replaced by the repository's.
var goEnv = []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"}

// parityModule copies testdata/parity into a new module that requires the
// runtime module, and returns its directory.
func parityModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("testdata", "parity")
	entries, err := os.ReadDir(src)
	require.NoError(t, err)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") {
			data, err := os.ReadFile(filepath.Join(src, e.Name()))
			require.NoError(t, err)
			writeFile(t, filepath.Join(dir, e.Name()), string(data))
		}
	}
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/parity\n\ngo 1.26.0\n\n"+
		"require github.com/hashalloc/hashalloc/runtime v0.0.0\n\n"+
		"replace github.com/hashalloc/hashalloc/runtime => "+filepath.Join(repoRoot, "runtime")+"\n")
	return dir
}

// findingLine matches a finding as the command and go vet print it.
var findingLine = regexp.MustCompile(`^(?:\./)?([\w./-]+\.go:\d+:\d+: [a-z-]+: .*)$`)

// findingLines returns the finding lines of output, sorted.
func findingLines(output string) []string {
	var lines []string
	for _, l := range strings.Split(output, "\n") {
		if m := findingLine.FindStringSubmatch(l); m != nil {
			lines = append(lines, m[1])
		}
	}
	slices.Sort(lines)
	return lines
}

// TestVetSameFindings checks that go vet -vettool reports what the command
// reports, with the same fixes: among them fixes that add imports the
// package did not have, which go vet's protocol must type-check without a
// loader for packages outside the package's imports.
func TestVetSameFindings(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs go vet -vettool on two copies of a module")
	t.Parallel()
	for _, pool := range []string{"runtime", "inline"} {
		t.Run(pool, func(t *testing.T) {
			t.Parallel()
			dir := parityModule(t)
			cmd := run(t, dir, goEnv, binary, "-pool="+pool, "./...")
			require.Equal(t, 3, cmd.code, "%s", cmd)
			vet := run(t, dir, goEnv, "go", "vet", "-vettool="+binary, "-pool="+pool, "./...")
			require.Equal(t, 1, vet.code, "%s", vet)
			want := findingLines(cmd.stderr)
			require.NotEmpty(t, want)
			for _, l := range want {
				assert.Contains(t, l, "automatic fix: ", "every finding of the module has a fix")
			}
			assert.Equal(t, want, findingLines(vet.stderr))
		})
	}
}

// TestFixOnePass checks that one -fix run fixes everything: fixes composed
// in one file never collide (tree.go's two fixes each import hashsum, in a
// file of two import declarations), -fix exits 0, and a fresh run finds
// nothing.
func TestFixOnePass(t *testing.T) {
	t.Parallel()
	for _, pool := range []string{"runtime", "inline"} {
		t.Run(pool, func(t *testing.T) {
			t.Parallel()
			dir := parityModule(t)
			r := run(t, dir, goEnv, binary, "-fix", "-pool="+pool, "./...")
			assert.Equal(t, 0, r.code, "%s", r)
			assert.NotContains(t, r.stderr, "not fixed")
			assert.Empty(t, findingLines(r.stderr), "-fix lists findings")
			b := run(t, dir, goEnv, "go", "build", "./...")
			require.Equal(t, 0, b.code, "%s", b)
			r = run(t, dir, goEnv, binary, "-pool="+pool, "./...")
			assert.Equal(t, 0, r.code, "%s", r)
			assert.Empty(t, r.stderr)
		})
	}
}

// TestParity applies the fixes of the parity module through every entry
// point, each on a copy of its own, and compares the fixed files byte for
// byte with what hashalloc -fix writes: go fix -fixtool, the language
// server's fix-all (source.fixAll.hashalloc) and golangci-lint --fix with
// the plugin.
//
// golangci-lint applies the edits of the fixes and formats the files, but
// removes no import that the fixes leave unused together (go fix, gopls and
// hashalloc -fix do): in runtime mode shared.go's two fixes each replace
// one of the file's two uses of crypto/sha256, and neither alone may remove
// its import. The test runs golangci-lint as configured by default and
// checks that the import is the only difference, then with the goimports
// formatter enabled, which removes it, and checks that it writes the files
// of hashalloc -fix as goimports formats them.
func TestParity(t *testing.T) {
	testenv.SkipUnlessSlow(t, "fixes copies of a module through four entry points, golangci-lint built with the plugin among them")
	t.Parallel()
	gcl := buildCustomGCL(t)
	for _, pool := range []string{"runtime", "inline"} {
		t.Run(pool, func(t *testing.T) {
			t.Parallel()
			orig := readGoFiles(t, parityModule(t))

			cmdDir := parityModule(t)
			r := run(t, cmdDir, goEnv, binary, "-fix", "-pool="+pool, "./...")
			require.Equal(t, 0, r.code, "%s", r)
			want := readGoFiles(t, cmdDir)
			for name := range orig {
				assert.NotEqual(t, orig[name], want[name], "-fix left %s unchanged", name)
			}
			b := run(t, cmdDir, goEnv, "go", "vet", "./...")
			require.Equal(t, 0, b.code, "the fixed module does not build\n%s", b)

			fixDir := parityModule(t)
			r = run(t, fixDir, goEnv, "go", "fix", "-fixtool="+binary, "-pool="+pool, "./...")
			require.Equal(t, 0, r.code, "%s", r)
			assertSameFiles(t, "go fix", want, readGoFiles(t, fixDir))

			lspDir := parityModule(t)
			lspFixAll(t, lspDir, pool)
			assertSameFiles(t, "the language server's fix-all", want, readGoFiles(t, lspDir))

			// The pool modes run golangci-lint at once, each in its own
			// module with its own cache: without --allow-parallel-runners,
			// the second exits at once ("parallel golangci-lint is running").
			gclDir := parityModule(t)
			writeFile(t, filepath.Join(gclDir, ".golangci.yml"), golangciConfig(pool, false))
			r = run(t, gclDir, append(goEnv, "GOLANGCI_LINT_CACHE="+t.TempDir()), gcl, "run", "--fix", "--allow-parallel-runners", "./...")
			assert.NotContains(t, r.stdout+r.stderr, "panic")
			gclWant := maps.Clone(want)
			if pool == "runtime" {
				// The one difference: the import that no fix alone may
				// remove, which golangci-lint leaves.
				const decl = "import \"github.com/hashalloc/hashalloc/runtime/hashsum\"\n"
				require.Contains(t, want["shared.go"], decl)
				gclWant["shared.go"] = strings.Replace(want["shared.go"], decl, decl+"import \"crypto/sha256\"\n", 1)
			}
			assertSameFiles(t, "golangci-lint --fix", gclWant, readGoFiles(t, gclDir))

			// With the goimports formatter, which removes that import (and
			// gathers a file's import declarations into one): the files of
			// -fix, as goimports formats them.
			gclDir = parityModule(t)
			writeFile(t, filepath.Join(gclDir, ".golangci.yml"), golangciConfig(pool, true))
			r = run(t, gclDir, append(goEnv, "GOLANGCI_LINT_CACHE="+t.TempDir()), gcl, "run", "--fix", "--allow-parallel-runners", "./...")
			assert.Equal(t, 0, r.code, "%s", r)
			goimportsWant := map[string]string{}
			for name, src := range want {
				out, err := imports.Process(name, []byte(src), nil)
				require.NoError(t, err, name)
				goimportsWant[name] = string(out)
			}
			assertSameFiles(t, "golangci-lint --fix with goimports", goimportsWant, readGoFiles(t, gclDir))
		})
	}
}

// assertSameFiles compares the files an entry point fixed with the
// command's.
func assertSameFiles(t *testing.T, entry string, want, got map[string]string) {
	t.Helper()
	assert.Equal(t, slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got)), "%s: the files", entry)
	for name, w := range want {
		assert.Equal(t, w, got[name], "%s fixed %s differently from hashalloc -fix", entry, name)
	}
}

// golangciConfig enables hashalloc in golangci-lint, and no other linter,
// with the pool mode pool, and with goimports the goimports formatter.
func golangciConfig(pool string, goimports bool) string {
	formatters := ""
	if goimports {
		formatters = "formatters:\n  enable:\n    - goimports\n"
	}
	return formatters + `version: "2"
linters:
  default: none
  enable:
    - hashalloc
  settings:
    custom:
      hashalloc:
        type: module
        description: finds allocation-heavy hashing and rewrites it
        settings:
          pool: ` + pool + "\n"
}

// buildCustomGCL builds golangci-lint with the plugin from golangci/custom,
// as its own tests do (the go command's build cache makes a second build
// quick), and returns the binary.
func buildCustomGCL(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "custom-gcl")
	r := run(t, filepath.Join(repoRoot, "golangci", "custom"), goEnv, "go", "build", "-o", bin, ".")
	require.Equal(t, 0, r.code, "%s", r)
	return bin
}

// lspFixAll runs hashalloc lsp in dir as an editor does, opens every Go
// file of dir, and applies to each the edits of its
// source.fixAll.hashalloc code action, writing the files.
func lspFixAll(t *testing.T, dir, pool string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "lsp", "-pool="+pool)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), goEnv...)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	defer func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	}()
	client := &lspClient{published: map[uri.URI]int{}, changed: make(chan struct{})}
	conn := jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(stdioPipes{stdout, stdin}), jsonrpc2.WithCodec(lspCodec{}))
	conn.Go(ctx, protocol.ClientHandler(client, jsonrpc2.MethodNotFoundHandler))
	server := protocol.ServerDispatcher(conn)
	defer conn.Close()

	_, err = server.Initialize(ctx, &protocol.InitializeParams{
		WorkspaceFoldersInitializeParams: protocol.WorkspaceFoldersInitializeParams{
			WorkspaceFolders: protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(dir), Name: "parity"}}),
		},
	})
	require.NoError(t, err, "initialize: %s", &stderr)
	require.NoError(t, server.Initialized(ctx, &protocol.InitializedParams{}))

	files := readGoFiles(t, dir)
	uris := map[string]uri.URI{}
	for name, content := range files {
		u := uri.File(filepath.Join(dir, name))
		uris[name] = u
		require.NoError(t, server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: u, LanguageID: "go", Version: 1, Text: content,
		}}))
	}
	for name, u := range uris {
		require.True(t, client.wait(ctx, u), "no diagnostics for %s: %s", name, &stderr)
	}
	for name, u := range uris {
		res, err := server.CodeAction(ctx, &protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u},
			Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}, Only: []protocol.CodeActionKind{"source.fixAll.hashalloc"}},
		})
		require.NoError(t, err)
		require.Len(t, res, 1, "%s: the fix-all action", name)
		a, ok := res[0].(*protocol.CodeAction)
		require.True(t, ok, "%#v", res[0])
		require.NotNil(t, a.Edit)
		edits := a.Edit.Changes[u]
		require.NotEmpty(t, edits, "%s", a.Title)
		writeFile(t, filepath.Join(dir, name), applyLSPEdits(t, files[name], edits))
	}
	require.NoError(t, server.Shutdown(ctx))
	require.NoError(t, server.Exit(ctx))
}

// applyLSPEdits applies the edits of a code action to content, as an editor
// does: positions count UTF-16 code units in lines.
func applyLSPEdits(t *testing.T, content string, edits []protocol.TextEdit) string {
	t.Helper()
	lineStarts := []int{0}
	for i := 0; i < len(content); i++ {
		if content[i] == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	offset := func(p protocol.Position) int {
		require.Less(t, int(p.Line), len(lineStarts)+1, "position %v", p)
		if int(p.Line) == len(lineStarts) {
			return len(content)
		}
		off := lineStarts[p.Line]
		for units := 0; units < int(p.Character); off++ {
			r := []rune(content[off:min(off+4, len(content))])[0]
			units++
			if r >= 0x10000 {
				units++
			}
			off += len(string(r)) - 1
		}
		return off
	}
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		spans = append(spans, span{offset(e.Range.Start), offset(e.Range.End), e.NewText})
	}
	slices.SortStableFunc(spans, func(a, b span) int { return a.start - b.start })
	var out strings.Builder
	last := 0
	for _, s := range spans {
		require.GreaterOrEqual(t, s.start, last, "overlapping edits")
		out.WriteString(content[last:s.start])
		out.WriteString(s.text)
		last = s.end
	}
	out.WriteString(content[last:])
	return out.String()
}

// lspClient is the editor's side: it counts the diagnostics published for
// each document.
type lspClient struct {
	protocol.UnimplementedClient
	mu        sync.Mutex
	published map[uri.URI]int
	changed   chan struct{} // closed and replaced on each publication
}

func (c *lspClient) PublishDiagnostics(_ context.Context, params *protocol.PublishDiagnosticsParams) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.published[params.URI]++
	close(c.changed)
	c.changed = make(chan struct{})
	return nil
}

func (c *lspClient) LogMessage(context.Context, *protocol.LogMessageParams) error { return nil }

// wait waits until diagnostics were published for u, and reports whether
// they were before ctx ended.
func (c *lspClient) wait(ctx context.Context, u uri.URI) bool {
	for {
		c.mu.Lock()
		n, ch := c.published[u], c.changed
		c.mu.Unlock()
		if n > 0 {
			return true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// stdioPipes joins the server's standard output and input into a stream.
type stdioPipes struct {
	r interface{ Read([]byte) (int, error) }
	w interface {
		Write([]byte) (int, error)
		Close() error
	}
}

func (s stdioPipes) Read(p []byte) (int, error)  { return s.r.Read(p) }
func (s stdioPipes) Write(p []byte) (int, error) { return s.w.Write(p) }
func (s stdioPipes) Close() error                { return s.w.Close() }

// lspCodec marshals the protocol's payloads with its union-aware codec, as
// the server does.
type lspCodec struct{}

func (lspCodec) Marshal(v any) ([]byte, error) {
	if raw, ok := v.(jsonrpc2.RawMessage); ok {
		if raw == nil {
			return []byte("null"), nil
		}
		return raw, nil
	}
	return protocol.Marshal(v)
}

func (lspCodec) Unmarshal(data []byte, v any) error {
	data = slices.Clone(data)
	if raw, ok := v.(*jsonrpc2.RawMessage); ok {
		*raw = data
		return nil
	}
	return protocol.Unmarshal(data, v)
}
