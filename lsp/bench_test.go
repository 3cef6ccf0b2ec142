package lsp

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// BenchmarkSaveToDiagnostics measures what an editor waits for after a
// save: the time from didSave to the publication of the file's diagnostics,
// with the server warm (the file opened and analyzed once before). Each save
// follows an edit (a comment added at the end of the file), so the package is
// analyzed again; the files of examples/ and of the generated package are
// written before each save, those of GOROOT are not (the edit stays in the
// editor's buffer). Run it with
//
//	go test -run '^$' -bench SaveToDiagnostics -benchtime 20x ./lsp/
//
// Each operation is one save; ms/save is the median, ms/save-max the
// slowest.
func BenchmarkSaveToDiagnostics(b *testing.B) {
	b.Run("examples-merkle", func(b *testing.B) {
		dir := copyExamples(b)
		benchSaves(b, filepath.Join(dir, "examples", "merkle", "merkle.go"), 2, true, nil)
	})
	b.Run("generated-60-files", func(b *testing.B) {
		dir := generatePackage(b, 60)
		benchSaves(b, filepath.Join(dir, "big", "file00.go"), 2, true, nil)
	})
	b.Run("std-go-types", func(b *testing.B) {
		// A real package of the standard library: go/types has more than
		// 100 files; hashalloc finds nothing in it.
		benchSaves(b, filepath.Join(goroot(b), "src", "go", "types", "api.go"), 0, false, nil)
	})
	b.Run("generated-big-file", func(b *testing.B) {
		// BenchmarkSaveBigPackage's package and edits, in this process:
		// what a CPU profile of the server during saves is taken from.
		bp := generateBigPackage(b, 29, 37)
		content := bp.content
		benchSaves(b, bp.path, 111, true, func(version int32) string {
			content = bodyEdit(b, content, int(version)%bp.units, int(version))
			return content
		})
	})
}

// benchSaves opens path, waits for its first diagnostics, then edits and
// saves it b.N times, timing each save; write writes the file before each
// save, and puts it back as it was at the end. edit returns the content of
// each version; nil adds a comment at the end of the file. want is the number
// of diagnostics of the file.
func benchSaves(b *testing.B, path string, want int, write bool, edit func(version int32) string) {
	s := startSession(b, Settings{})
	_, err := s.server.Initialize(call(b), &protocol.InitializeParams{})
	require.NoError(b, err)
	require.NoError(b, s.server.Initialized(call(b), &protocol.InitializedParams{}))
	content, err := os.ReadFile(path)
	require.NoError(b, err)
	if write {
		b.Cleanup(func() { _ = os.WriteFile(path, content, 0o644) })
	}
	u := uri.File(path)
	start := time.Now()
	require.NoError(b, s.server.DidOpen(call(b), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "go", Version: 1, Text: string(content),
	}}))
	diags, at := s.client.wait(b, u, 0)
	require.Len(b, diags, want, "%+v", diags)
	b.Logf("%s: first diagnostics %v after didOpen", filepath.Base(path), at.Sub(start).Round(time.Millisecond))

	var times []time.Duration
	version := int32(1)
	for b.Loop() {
		version++
		edited := fmt.Sprintf("%s\n// edit %d\n", content, version)
		if edit != nil {
			edited = edit(version)
		}
		require.NoError(b, s.server.DidChange(call(b), &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: version},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: edited}},
		}))
		if write {
			require.NoError(b, os.WriteFile(path, []byte(edited), 0o644))
		}
		n := s.client.published(u)
		saved := time.Now()
		require.NoError(b, s.server.DidSave(call(b), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}))
		diags, at := s.client.wait(b, u, n)
		require.Len(b, diags, want)
		times = append(times, at.Sub(saved))
	}
	s.client.mu.Lock()
	b.Logf("the server's last word: %s", s.client.logs[len(s.client.logs)-1])
	s.client.mu.Unlock()
	reportTimes(b, "", times)
}

// reportTimes reports the median and the slowest of times, in ms, as
// ms/save and ms/save-max with suffix after "save".
func reportTimes(b *testing.B, suffix string, times []time.Duration) {
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/save"+suffix)
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "ms/save-max"+suffix)
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

// BenchmarkSaveToDiagnosticsStdio measures, with one client attached over
// stdio to two language servers, as an editor is, hashalloc lsp (built from
// this repository) and gopls (the binary $GOPLS names, else gopls on the
// PATH), how long each takes from a save of examples/merkle/merkle.go, in a
// copy of examples/, to its diagnostics of the version saved; each save adds
// a comment at the end of the file (see benchStdio for what a save sends and
// what is reported). Both publish for every version: hashalloc its findings,
// gopls at first its parse and type errors (its analyzers' come after its
// diagnosticsDelay, 1 s by default, unless another edit comes first). Run it
// with
//
//	GOPLS=/path/to/gopls go test -run '^$' -bench SaveToDiagnosticsStdio -benchtime 20x ./lsp/
func BenchmarkSaveToDiagnosticsStdio(b *testing.B) {
	gopls := goplsBinary(b)
	dir := copyExamples(b)
	path := filepath.Join(dir, "examples", "merkle", "merkle.go")
	content, err := os.ReadFile(path)
	require.NoError(b, err)
	benchStdio(b, dir, path, gopls, func(version int32) string {
		return fmt.Sprintf("%s\n// edit %d\n", content, version)
	})
}

// goplsBinary returns the gopls to compare with: the binary $GOPLS names,
// else gopls on the PATH; it skips the benchmark, saying so, when there is
// none.
func goplsBinary(b *testing.B) string {
	if gopls := os.Getenv("GOPLS"); gopls != "" {
		return gopls
	}
	gopls, err := exec.LookPath("gopls")
	if err != nil {
		b.Skip("no gopls, so nothing to compare with: GOBIN=$(mktemp -d) go install golang.org/x/tools/gopls@v0.23.0, and set GOPLS to the binary")
	}
	return gopls
}

// benchStdio starts hashalloc lsp, built from this repository, and gopls in
// the workspace dir, one client attached to both, opens path in both, and
// times b.N saves of it (after 3 to warm up). A save is what an editor's
// :write sends, didChange with the content that edit returns for the
// version then didSave, the file written before. The client saves to one
// server, waits for its diagnostics of that version, then does the same with
// the other, the first server changing from one save to the next: on a machine
// of two cores the servers would otherwise take the time of each other's
// work. It reports ms/save-hashalloc and ms/save-gopls, the medians from the
// didChange of each save, the slowest as -max, hashalloc/gopls, the median
// of the ratio of the two in each save, and on Linux cpu-ms/save-hashalloc
// and cpu-ms/save-gopls, the CPU time each server used per save, which the
// load of a shared machine sways less than how long it took.
func benchStdio(b *testing.B, dir, path, gopls string, edit func(version int32) string) {
	bin := buildHashalloc(b)
	content, err := os.ReadFile(path)
	require.NoError(b, err)
	servers := []*stdioServer{startStdio(b, "hashalloc", dir, bin, "lsp"), startStdio(b, "gopls", dir, gopls)}
	u := uri.File(path)
	for _, srv := range servers {
		srv.initialize(b, dir)
		require.NoError(b, srv.server.DidOpen(call(b), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: u, LanguageID: "go", Version: 1, Text: string(content),
		}}))
	}
	for _, srv := range servers {
		srv.client.waitVersion(b, u, 1, time.Time{}, true)
		srv.waitIdle(b)
	}

	version := int32(1)
	save := func() (times, proved []time.Duration) {
		version++
		edited := edit(version)
		require.NoError(b, os.WriteFile(path, []byte(edited), 0o644))
		times = make([]time.Duration, len(servers))
		proved = make([]time.Duration, len(servers))
		for k := range servers {
			i := (k + int(version)) % len(servers)
			srv := servers[i]
			start := time.Now()
			require.NoError(b, srv.server.DidChange(call(b), &protocol.DidChangeTextDocumentParams{
				TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: version},
				ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: edited}},
			}))
			require.NoError(b, srv.server.DidSave(call(b), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}))
			times[i] = srv.client.waitVersion(b, u, version, start, false).Sub(start)
			proved[i] = srv.client.waitVersion(b, u, version, start, true).Sub(start)
		}
		return times, proved
	}
	for range 3 { // warm up
		save()
	}
	perServer := make([][]time.Duration, len(servers))
	provedPerServer := make([][]time.Duration, len(servers))
	var ratios, provedRatios []float64
	cpuBefore := make([]time.Duration, len(servers))
	for i, srv := range servers {
		cpuBefore[i], _ = processCPU(srv.cmd.Process.Pid)
	}
	for b.Loop() {
		times, proved := save()
		for i, t := range times {
			perServer[i] = append(perServer[i], t)
			provedPerServer[i] = append(provedPerServer[i], proved[i])
		}
		ratios = append(ratios, float64(times[0])/float64(times[1]))
		provedRatios = append(provedRatios, float64(proved[0])/float64(proved[1]))
	}
	for i, srv := range servers {
		reportTimes(b, "-"+srv.name, perServer[i])
		if srv.name == "hashalloc" {
			reportTimes(b, "-proved-"+srv.name, provedPerServer[i])
		}
		if cpu, ok := processCPU(srv.cmd.Process.Pid); ok {
			b.ReportMetric(float64((cpu-cpuBefore[i]).Microseconds())/1000/float64(len(perServer[i])), "cpu-ms/save-"+srv.name)
		}
		srv.stop(b)
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "hashalloc/gopls")
	slices.Sort(provedRatios)
	b.ReportMetric(provedRatios[len(provedRatios)/2], "hashalloc-proved/gopls")
	servers[0].client.mu.Lock()
	b.Logf("hashalloc's last word: %s", servers[0].client.logs[len(servers[0].client.logs)-1])
	servers[0].client.mu.Unlock()
}

// waitIdle waits until the server uses no CPU for half a second, for at
// most ten minutes: gopls indexes the module cache when it starts (for the
// completion of packages not imported yet), which takes minutes of CPU on a
// large module cache the first time, and would otherwise take the time of
// the saves. Where there is no /proc, it returns at once.
func (srv *stdioServer) waitIdle(b *testing.B) {
	start := time.Now()
	last, ok := processCPU(srv.cmd.Process.Pid)
	for ok && time.Since(start) < 10*time.Minute {
		time.Sleep(500 * time.Millisecond)
		var now time.Duration
		if now, ok = processCPU(srv.cmd.Process.Pid); now == last {
			break
		}
		last = now
	}
	if waited := time.Since(start); waited > 2*time.Second {
		b.Logf("%s was busy for %v after it opened the file", srv.name, waited.Round(time.Second))
	}
}

// processCPU returns the CPU time that the process pid has used, user and
// system, from /proc: false where there is none. Its unit is the clock
// tick, 10 ms on Linux, so a benchmark reports it over all its saves.
func processCPU(pid int) (time.Duration, bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The fields after the command's name, which is in parentheses, start
	// with the third; utime and stime are the 14th and the 15th.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 13 {
		return 0, false
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, false
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, true
}

// stdioServer is a language server run as a command, and the client
// connected to its standard input and output.
type stdioServer struct {
	name   string
	cmd    *exec.Cmd
	conn   jsonrpc2.Conn
	server protocol.Server
	client *stdioClient
	stderr *bytes.Buffer
}

// stdioClient answers the requests that gopls sends a client.
type stdioClient struct {
	*testClient
}

func (c *stdioClient) Configuration(_ context.Context, params *protocol.ConfigurationParams) ([]protocol.LSPAny, error) {
	out := make([]protocol.LSPAny, len(params.Items))
	for i := range out {
		out[i] = protocol.LSPAny("null")
	}
	return out, nil
}

func (c *stdioClient) RegisterCapability(context.Context, *protocol.RegistrationParams) error {
	return nil
}

func (c *stdioClient) WorkDoneProgressCreate(context.Context, *protocol.WorkDoneProgressCreateParams) error {
	return nil
}

func (c *stdioClient) Progress(context.Context, *protocol.ProgressParams) error { return nil }

func (c *stdioClient) ShowMessage(context.Context, *protocol.ShowMessageParams) error { return nil }

// startStdio starts the command name args in dir, with the environment of the
// tests' go commands, and connects a client to it.
func startStdio(b *testing.B, label, dir, name string, args ...string) *stdioServer {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), goEnv...)
	stdin, err := cmd.StdinPipe()
	require.NoError(b, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(b, err)
	srv := &stdioServer{name: label, cmd: cmd, client: &stdioClient{newTestClient()}, stderr: &bytes.Buffer{}}
	cmd.Stderr = srv.stderr
	require.NoError(b, cmd.Start())
	srv.conn = jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(stdio{stdout, stdin}), jsonrpc2.WithCodec(codec{}))
	srv.conn.Go(context.Background(), protocol.ClientHandler(srv.client, jsonrpc2.MethodNotFoundHandler))
	srv.server = protocol.ServerDispatcher(srv.conn)
	b.Cleanup(func() {
		_ = srv.conn.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return srv
}

// initialize initializes the server for the workspace dir.
func (srv *stdioServer) initialize(b *testing.B, dir string) {
	b.Helper()
	yes := true
	_, err := srv.server.Initialize(call(b), &protocol.InitializeParams{
		WorkspaceFoldersInitializeParams: protocol.WorkspaceFoldersInitializeParams{
			WorkspaceFolders: protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(dir), Name: "examples"}}),
		},
		Capabilities: protocol.ClientCapabilities{TextDocument: &protocol.TextDocumentClientCapabilities{
			Synchronization:    &protocol.TextDocumentSyncClientCapabilities{DidSave: &yes},
			PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{VersionSupport: &yes},
		}},
	})
	require.NoError(b, err, "%s: %s", srv.name, srv.stderr)
	require.NoError(b, srv.server.Initialized(call(b), &protocol.InitializedParams{}))
}

// stop shuts the server down, as an editor does when it quits.
func (srv *stdioServer) stop(b *testing.B) {
	b.Helper()
	assert.NoError(b, srv.server.Shutdown(call(b)), "%s", srv.name)
	assert.NoError(b, srv.server.Exit(call(b)), "%s", srv.name)
}
