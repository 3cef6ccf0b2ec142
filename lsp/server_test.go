package lsp

import (
	"context"
	"fmt"
	"go/format"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
)

// waitTimeout bounds every wait for the server: an analysis of a package of
// examples/ takes about a second on a small machine.
const waitTimeout = 2 * time.Minute

// testClient is the editor's side of the protocol test: it records what the
// server publishes.
type testClient struct {
	protocol.UnimplementedClient

	// diags, counts, times and version are of the publications of proved
	// findings: the server publishes the findings of a file saved before
	// it proves their fixes, then again (see earlyPublisher), and those
	// count only in events.
	mu      sync.Mutex
	diags   map[uri.URI][]protocol.Diagnostic
	counts  map[uri.URI]int       // publications per document
	times   map[uri.URI]time.Time // of the last publication
	version map[uri.URI]int32     // of the document, in the last publication
	logs    []string
	changed chan struct{} // closed and replaced on every publication
	// events are the publications per document, in order.
	events map[uri.URI][]publication
	// order are the documents of every publication, in order.
	order []uri.URI
}

// publication is when the diagnostics of a version were published.
type publication struct {
	version int32 // 0 when the server gives none
	at      time.Time
	// unproved: the findings were published before their fixes were
	// proved.
	unproved bool
	diags    []protocol.Diagnostic
}

// unproved reports whether diags are findings published before their
// fixes were proved: the message of one says that its fix is being
// checked.
func unproved(diags []protocol.Diagnostic) bool {
	return slices.ContainsFunc(diags, func(d protocol.Diagnostic) bool {
		return strings.Contains(fmt.Sprint(d.Message), "; automatic fix being checked: ")
	})
}

func newTestClient() *testClient {
	return &testClient{
		diags:   map[uri.URI][]protocol.Diagnostic{},
		counts:  map[uri.URI]int{},
		times:   map[uri.URI]time.Time{},
		version: map[uri.URI]int32{},
		changed: make(chan struct{}),
		events:  map[uri.URI][]publication{},
	}
}

func (c *testClient) PublishDiagnostics(_ context.Context, params *protocol.PublishDiagnosticsParams) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := params.Version.Get()
	if unproved(params.Diagnostics) {
		c.events[params.URI] = append(c.events[params.URI], publication{version: v, at: time.Now(), unproved: true, diags: params.Diagnostics})
		close(c.changed)
		c.changed = make(chan struct{})
		return nil
	}
	c.diags[params.URI] = params.Diagnostics
	c.counts[params.URI]++
	c.times[params.URI] = time.Now()
	if ok {
		c.version[params.URI] = v
	} else {
		delete(c.version, params.URI)
	}
	c.events[params.URI] = append(c.events[params.URI], publication{version: v, at: c.times[params.URI], diags: params.Diagnostics})
	c.order = append(c.order, params.URI)
	close(c.changed)
	c.changed = make(chan struct{})
	return nil
}

func (c *testClient) LogMessage(_ context.Context, params *protocol.LogMessageParams) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.logs = append(c.logs, params.Message)
	return nil
}

// published returns how many times the diagnostics of u were published.
func (c *testClient) published(u uri.URI) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[u]
}

// wait waits until the diagnostics of u have been published more than
// after times, and returns the last ones and when they came.
func (c *testClient) wait(t testing.TB, u uri.URI, after int) ([]protocol.Diagnostic, time.Time) {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		c.mu.Lock()
		if c.counts[u] > after {
			defer c.mu.Unlock()
			return c.diags[u], c.times[u]
		}
		changed := c.changed
		logs := slices.Clone(c.logs)
		c.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			require.FailNow(t, "no diagnostics published", "for %s; server log:\n%s", u, strings.Join(logs, "\n"))
		}
	}
}

// waitLog waits until the server has logged more than after messages that
// match, and returns the last.
func (c *testClient) waitLog(t testing.TB, match func(string) bool, after int) string {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		c.mu.Lock()
		var found []string
		for _, l := range c.logs {
			if match(l) {
				found = append(found, l)
			}
		}
		logs := slices.Clone(c.logs)
		c.mu.Unlock()
		if len(found) > after {
			return found[len(found)-1]
		}
		select {
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			require.FailNow(t, "no such log message", "server log:\n%s", strings.Join(logs, "\n"))
		}
	}
}

// waitVersion waits for the first publication of the diagnostics of u for
// version or a later one, made after since, and returns when it came; with
// proved, for the first of the findings with their fixes proved.
func (c *testClient) waitVersion(t testing.TB, u uri.URI, version int32, since time.Time, proved bool) time.Time {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		c.mu.Lock()
		for _, p := range c.events[u] {
			if p.version >= version && !p.at.Before(since) && !(proved && p.unproved) {
				c.mu.Unlock()
				return p.at
			}
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			require.FailNow(t, "no diagnostics published", "for version %d of %s", version, u)
		}
	}
}

// session is a server on one end of a pipe and a client on the other.
type session struct {
	server protocol.Server
	client *testClient
	done   chan error // Serve's result
	conn   jsonrpc2.Conn
}

// startSession runs the server in the background and connects a client.
func startSession(t testing.TB, settings Settings) *session {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	s := &session{client: newTestClient(), done: make(chan error, 1)}
	go func() { s.done <- Serve(ctx, serverIn, serverOut, settings) }()

	s.conn = jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(stdio{clientIn, clientOut}), jsonrpc2.WithCodec(codec{}))
	s.conn.Go(ctx, protocol.ClientHandler(s.client, jsonrpc2.MethodNotFoundHandler))
	s.server = protocol.ServerDispatcher(s.conn)
	t.Cleanup(func() {
		cancel()
		_ = s.conn.Close()
	})
	return s
}

// call returns a context for one request, bounded in time.
func call(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	t.Cleanup(cancel)
	return ctx
}

// codeActions requests the code actions at a position.
func (s *session) codeActions(t *testing.T, u uri.URI, pos protocol.Position, only ...protocol.CodeActionKind) []*protocol.CodeAction {
	t.Helper()
	res, err := s.server.CodeAction(call(t), &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range:        protocol.Range{Start: pos, End: pos},
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}, Only: only},
	})
	require.NoError(t, err)
	var actions []*protocol.CodeAction
	for _, r := range res {
		a, ok := r.(*protocol.CodeAction)
		require.True(t, ok, "a command rather than a code action: %#v", r)
		actions = append(actions, a)
	}
	return actions
}

// applyEdit applies the edits of a code action to one document's content,
// as an editor does, and checks that it edits no other document.
func applyEdit(t *testing.T, content string, u uri.URI, a *protocol.CodeAction) string {
	t.Helper()
	require.NotNil(t, a.Edit, "%s has no edit", a.Title)
	require.Empty(t, a.Edit.DocumentChanges)
	require.Len(t, a.Edit.Changes, 1, "%s", a.Title)
	edits, ok := a.Edit.Changes[u]
	require.True(t, ok, "%s edits another document", a.Title)
	m := newMapper([]byte(content))
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		start, err := m.offset(e.Range.Start)
		require.NoError(t, err)
		end, err := m.offset(e.Range.End)
		require.NoError(t, err)
		require.LessOrEqual(t, start, end)
		spans = append(spans, span{start, end, e.NewText})
	}
	slices.SortStableFunc(spans, func(a, b span) int { return a.start - b.start })
	var out strings.Builder
	last := 0
	for _, s := range spans {
		require.GreaterOrEqual(t, s.start, last, "overlapping edits in %s", a.Title)
		out.WriteString(content[last:s.start])
		out.WriteString(s.text)
		last = s.end
	}
	out.WriteString(content[last:])
	return out.String()
}

func findAction(t *testing.T, actions []*protocol.CodeAction, kind protocol.CodeActionKind, titlePrefix string) *protocol.CodeAction {
	t.Helper()
	var titles []string
	for _, a := range actions {
		if a.Kind != nil && *a.Kind == kind && strings.HasPrefix(a.Title, titlePrefix) {
			return a
		}
		titles = append(titles, a.Title)
	}
	require.FailNow(t, "no such code action", "%s %q among %q", kind, titlePrefix, titles)
	return nil
}

// diagAt returns the diagnostic that starts on line, or nil.
func diagAt(diags []protocol.Diagnostic, line int) *protocol.Diagnostic {
	for i := range diags {
		if int(diags[i].Range.Start.Line) == line {
			return &diags[i]
		}
	}
	return nil
}

// TestProtocol drives the server as an editor does: initialize, open files
// (one with unsaved changes and characters outside the BMP before a
// finding), wait for diagnostics, request code actions, apply a quick fix,
// an ignore directive and fix-all, save, and shut down.
func TestProtocol(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs a whole editing session")
	t.Parallel()
	dir := copyExamples(t)
	s := startSession(t, Settings{})

	init, err := s.server.Initialize(call(t), &protocol.InitializeParams{
		WorkspaceFoldersInitializeParams: protocol.WorkspaceFoldersInitializeParams{
			WorkspaceFolders: protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(dir), Name: "fixed"}}),
		},
	})
	require.NoError(t, err)
	assert.Equal(t, "hashalloc", init.ServerInfo.Name)
	sync, ok := init.Capabilities.TextDocumentSync.(*protocol.TextDocumentSyncOptions)
	require.True(t, ok, "%#v", init.Capabilities.TextDocumentSync)
	assert.Equal(t, protocol.TextDocumentSyncKindFull, *sync.Change)
	assert.NotNil(t, sync.Save, "the server needs didSave")
	actionsCap, ok := init.Capabilities.CodeActionProvider.(*protocol.CodeActionOptions)
	require.True(t, ok, "%#v", init.Capabilities.CodeActionProvider)
	assert.Equal(t, []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, fixAllKind}, actionsCap.CodeActionKinds)
	require.NoError(t, s.server.Initialized(call(t), &protocol.InitializedParams{}))

	// merkle.go, opened with an unsaved edit: a comment with é (2 bytes, 1
	// UTF-16 unit) and 😀 (4 bytes, 2 units) before the first finding.
	merklePath := filepath.Join(dir, "examples", "merkle", "merkle.go")
	merkleURI := uri.File(merklePath)
	disk, err := os.ReadFile(merklePath)
	require.NoError(t, err)
	const call1 = "return sum(append(leafPrefix, leaf...))"
	merkle := strings.Replace(string(disk), call1, "return /* é😀 */ sum(append(leafPrefix, leaf...))", 1)
	require.NotEqual(t, string(disk), merkle)
	require.NoError(t, s.server.DidOpen(call(t), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: merkleURI, LanguageID: "go", Version: 1, Text: merkle,
	}}))
	diags, _ := s.client.wait(t, merkleURI, 0)
	require.Len(t, diags, 2, "%+v", diags)
	leafLine := lineOf(t, merkle, "é😀")
	d := diagAt(diags, leafLine)
	require.NotNil(t, d, "no diagnostic on line %d: %+v", leafLine, diags)
	// "\treturn /* é😀 */ sum(" is 22 UTF-16 units (25 bytes).
	assert.Equal(t, protocol.Range{
		Start: protocol.Position{Line: uint32(leafLine), Character: 22},
		End:   protocol.Position{Line: uint32(leafLine), Character: 22 + uint32(len("append(leafPrefix, leaf...)"))},
	}, d.Range)
	assert.Equal(t, protocol.String("concat-hash"), d.Code)
	assert.Equal(t, uri.URI("https://github.com/hashalloc/hashalloc#concat-hash"), d.CodeDescription.Href)
	assert.Equal(t, protocol.DiagnosticSeverityWarning, d.Severity)
	source, _ := d.Source.Get()
	assert.Equal(t, "hashalloc", source)
	msg, _ := d.Message.(protocol.String)
	assert.True(t, strings.HasPrefix(string(msg), "append(leafPrefix, leaf...) builds a buffer only to hash it"), "%s", msg)

	// The quick fix of the finding under the cursor, and the ignore action.
	actions := s.codeActions(t, merkleURI, protocol.Position{Line: uint32(leafLine), Character: 24})
	fix := findAction(t, actions, protocol.CodeActionKindQuickFix, "Hash the parts with a variadic form of sum, declared next to it")
	require.NotNil(t, fix.IsPreferred)
	assert.True(t, *fix.IsPreferred)
	require.Len(t, fix.Diagnostics, 1)
	assert.Equal(t, d.Range, fix.Diagnostics[0].Range)
	findAction(t, actions, protocol.CodeActionKindQuickFix, "Ignore with //hashalloc:ignore concat-hash")
	findAction(t, actions, fixAllKind, "Apply every hashalloc fix in merkle.go")
	// Nothing where there is no finding, and no quick fix when only
	// source actions are asked for.
	assert.Empty(t, s.codeActions(t, merkleURI, protocol.Position{Line: 0, Character: 0}))
	for _, a := range s.codeActions(t, merkleURI, protocol.Position{Line: uint32(leafLine), Character: 24}, "source.fixAll") {
		assert.Equal(t, fixAllKind, *a.Kind)
	}

	fixed := applyEdit(t, merkle, merkleURI, fix)
	assert.Contains(t, fixed, "return /* é😀 */ sumParts(leafPrefix, leaf)")
	formatted, err := format.Source([]byte(fixed))
	require.NoError(t, err)
	assert.Equal(t, fixed, string(formatted), "the fixed file is not gofmt-clean")

	// An edit makes the last analysis stale: no code actions until a save.
	require.NoError(t, s.server.DidChange(call(t), &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: merkleURI}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: fixed}},
	}))
	assert.Empty(t, s.codeActions(t, merkleURI, protocol.Position{Line: uint32(leafLine), Character: 24}))
	require.NoError(t, os.WriteFile(merklePath, []byte(fixed), 0o644))
	before := s.client.published(merkleURI)
	saved := time.Now()
	require.NoError(t, s.server.DidSave(call(t), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: merkleURI}}))
	diags, at := s.client.wait(t, merkleURI, before)
	t.Logf("examples/merkle: diagnostics %v after didSave", at.Sub(saved).Round(time.Millisecond))
	require.Len(t, diags, 1, "%+v", diags)
	assert.Nil(t, diagAt(diags, leafLine), "the fixed finding is still reported")
	s.client.mu.Lock()
	assert.Equal(t, int32(2), s.client.version[merkleURI], "the diagnostics are not of the version saved")
	s.client.mu.Unlock()

	// tokensigner.go: every fix of the file at once.
	signerPath := filepath.Join(dir, "examples", "tokensigner", "tokensigner.go")
	signerURI := uri.File(signerPath)
	signer, err := os.ReadFile(signerPath)
	require.NoError(t, err)
	require.NoError(t, s.server.DidOpen(call(t), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: signerURI, LanguageID: "go", Version: 1, Text: string(signer),
	}}))
	diags, _ = s.client.wait(t, signerURI, 0)
	require.Len(t, diags, 3, "%+v", diags)
	all := findAction(t, s.codeActions(t, signerURI, protocol.Position{}, "source.fixAll"), fixAllKind, "Apply every hashalloc fix")
	signerFixed := applyEdit(t, string(signer), signerURI, all)
	assert.Contains(t, signerFixed, `"github.com/hashalloc/hashalloc/runtime/hashpool"`)
	require.NoError(t, os.WriteFile(signerPath, []byte(signerFixed), 0o644))
	require.NoError(t, s.server.DidChange(call(t), &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: signerURI}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: signerFixed}},
	}))
	before = s.client.published(signerURI)
	require.NoError(t, s.server.DidSave(call(t), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: signerURI}}))
	diags, _ = s.client.wait(t, signerURI, before)
	assert.Empty(t, diags, "fix-all left findings")

	// treehash.go: ignore the finding on crypto.SHA256.New().
	treePath := filepath.Join(dir, "examples", "treehash", "treehash.go")
	treeURI := uri.File(treePath)
	tree, err := os.ReadFile(treePath)
	require.NoError(t, err)
	require.NoError(t, s.server.DidOpen(call(t), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: treeURI, LanguageID: "go", Version: 1, Text: string(tree),
	}}))
	diags, _ = s.client.wait(t, treeURI, 0)
	require.Len(t, diags, 3, "%+v", diags)
	ctorLine := lineOf(t, string(tree), "crypto.SHA256.New()")
	d = diagAt(diags, ctorLine)
	require.NotNil(t, d)
	ignore := findAction(t, s.codeActions(t, treeURI, d.Range.Start), protocol.CodeActionKindQuickFix, "Ignore with //hashalloc:ignore hasher-alloc")
	treeIgnored := applyEdit(t, string(tree), treeURI, ignore)
	lines := strings.Split(treeIgnored, "\n")
	assert.Equal(t, "\t//hashalloc:ignore hasher-alloc", lines[ctorLine])
	assert.Contains(t, lines[ctorLine+1], "crypto.SHA256.New()")
	require.NoError(t, os.WriteFile(treePath, []byte(treeIgnored), 0o644))
	require.NoError(t, s.server.DidChange(call(t), &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: treeURI}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: treeIgnored}},
	}))
	before = s.client.published(treeURI)
	require.NoError(t, s.server.DidSave(call(t), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: treeURI}}))
	diags, _ = s.client.wait(t, treeURI, before)
	assert.Len(t, diags, 2, "%+v", diags)
	assert.Nil(t, diagAt(diags, ctorLine+1), "the ignored finding is still reported")

	// The fixed copy builds and passes its tests.
	runGo(t, dir, "build", "./...")
	runGo(t, dir, "vet", "./...")

	require.NoError(t, s.server.Shutdown(call(t)))
	require.NoError(t, s.server.Exit(call(t)))
	select {
	case err := <-s.done:
		assert.NoError(t, err, "Serve after shutdown and exit")
	case <-time.After(waitTimeout):
		require.FailNow(t, "the server did not stop after exit")
	}
}

// openFile opens path in the session with content (the file's on disk when
// nil) and returns its URI and content.
func (s *session) openFile(t testing.TB, path string, content []byte) (uri.URI, string) {
	t.Helper()
	if content == nil {
		var err error
		content, err = os.ReadFile(path)
		require.NoError(t, err)
	}
	u := uri.File(path)
	require.NoError(t, s.server.DidOpen(call(t), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "go", Version: 1, Text: string(content),
	}}))
	return u, string(content)
}

func (s *session) initialize(t *testing.T, options string) {
	t.Helper()
	params := &protocol.InitializeParams{}
	if options != "" {
		params.InitializationOptions = protocol.LSPAny(options)
	}
	_, err := s.server.Initialize(call(t), params)
	require.NoError(t, err)
	require.NoError(t, s.server.Initialized(call(t), &protocol.InitializedParams{}))
}

// TestEditCancels checks that an edit cancels the analysis in progress: the
// diagnostics of the content opened are never published, only those of the
// content saved after the edit.
func TestEditCancels(t *testing.T) {
	t.Parallel()
	dir := copyExamples(t)
	s := startSession(t, Settings{})
	s.initialize(t, "")
	path := filepath.Join(dir, "examples", "merkle", "merkle.go")
	u, content := s.openFile(t, path, nil)
	// At once, before the analysis of the open can finish: an edit that
	// ignores one of the two findings, then a save.
	edited := strings.Replace(content, "\treturn sum(append(leafPrefix, leaf...))", "\t//hashalloc:ignore\n\treturn sum(append(leafPrefix, leaf...))", 1)
	require.NotEqual(t, content, edited)
	require.NoError(t, s.server.DidChange(call(t), &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: edited}},
	}))
	require.NoError(t, os.WriteFile(path, []byte(edited), 0o644))
	require.NoError(t, s.server.DidSave(call(t), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}))
	diags, _ := s.client.wait(t, u, 0)
	assert.Len(t, diags, 1, "the first diagnostics published are not those of the saved content: %+v", diags)
	// Nothing else comes.
	time.Sleep(2 * time.Second)
	assert.Equal(t, 1, s.client.published(u))
}

// TestFileShownFirst checks that an analysis publishes the diagnostics of
// the file opened or saved before those of the other files of its package,
// which come in the order of their names.
func TestFileShownFirst(t *testing.T) {
	t.Parallel()
	bp := generateBigPackage(t, 3, 2)
	dir := filepath.Dir(bp.path)
	s := startSession(t, Settings{})
	s.initialize(t, "")
	// publishedSince returns the base names of the files published after
	// the first n publications, in order.
	publishedSince := func(n int) []string {
		s.client.mu.Lock()
		defer s.client.mu.Unlock()
		var names []string
		for _, u := range s.client.order[n:] {
			names = append(names, filepath.Base(u.FsPath()))
		}
		return names
	}
	want := []string{"file02.go", "big.go", "file00.go", "file01.go"}
	doc := s.open(t, dir, "file02.go")
	assert.Equal(t, want, publishedSince(0))
	before := len(s.client.order)
	summaries := len(s.client.summaries(dir))
	doc.edit(t, "// Record2 is", "// Record2, edited, is")
	doc.save(t)
	s.client.waitLog(t, isSummary(dir), summaries)
	assert.Equal(t, want, publishedSince(before))
}

// TestUnprovedFirst checks that a save publishes the findings of the file
// saved before their fixes are proved, saying that the fixes are being
// checked, then the same findings with their fixes proved; and that a code
// action asked for between the two waits for the proof and offers the fix.
func TestUnprovedFirst(t *testing.T) {
	t.Parallel()
	bp := generateBigPackage(t, 3, 2)
	dir := filepath.Dir(bp.path)
	s := startSession(t, Settings{})
	s.initialize(t, "")
	doc := s.open(t, dir, "big.go")
	edited := bodyEdit(t, doc.content, 1, 7)
	doc.edit(t, doc.content, edited)
	doc.save(t)
	since := time.Time{}
	first := s.client.waitVersion(t, doc.u, doc.version, since, false)
	s.client.mu.Lock()
	var early publication
	for _, p := range s.client.events[doc.u] {
		if p.at.Equal(first) {
			early = p
		}
	}
	s.client.mu.Unlock()
	require.True(t, early.unproved, "the first diagnostics of the save are those proved")
	i := slices.IndexFunc(early.diags, func(d protocol.Diagnostic) bool { return unproved([]protocol.Diagnostic{d}) })
	require.GreaterOrEqual(t, i, 0)
	// At once: the action waits for the proof.
	var fixes int
	for _, a := range s.codeActions(t, doc.u, early.diags[i].Range.Start, protocol.CodeActionKindQuickFix) {
		if !strings.HasPrefix(a.Title, "Ignore with") {
			fixes++
		}
	}
	assert.Positive(t, fixes, "the quick fix of %s", early.diags[i].Message)
	s.client.waitVersion(t, doc.u, doc.version, since, true)
	s.client.mu.Lock()
	proved := s.client.diags[doc.u]
	s.client.mu.Unlock()
	// Every fix of the package type-checks: the proof withdraws none.
	require.Len(t, proved, len(early.diags))
	for i, d := range early.diags {
		msg := strings.Replace(fmt.Sprint(d.Message), "; automatic fix being checked: ", "; automatic fix: ", 1)
		assert.Equal(t, fmt.Sprint(proved[i].Message), msg)
		assert.Equal(t, proved[i].Range, d.Range)
	}
}

// TestSettingsAndErrors checks initializationOptions (-pool=inline, and a
// bad option refused at initialize) and a package that does not type-check:
// its diagnostics are cleared and the error logged.
func TestSettingsAndErrors(t *testing.T) {
	t.Parallel()
	t.Run("bad option", func(t *testing.T) {
		s := startSession(t, Settings{})
		_, err := s.server.Initialize(call(t), &protocol.InitializeParams{InitializationOptions: protocol.LSPAny(`{"pool": "global"}`)})
		assert.ErrorContains(t, err, `-pool: "global" is not a pool mode`)
	})
	t.Run("pool inline", func(t *testing.T) {
		dir := copyExamples(t)
		s := startSession(t, Settings{})
		s.initialize(t, `{"pool": "inline"}`)
		u, content := s.openFile(t, filepath.Join(dir, "examples", "treehash", "treehash.go"), nil)
		diags, _ := s.client.wait(t, u, 0)
		var d *protocol.Diagnostic
		for i := range diags {
			if msg, _ := diags[i].Message.(protocol.String); strings.Contains(string(msg), "take h from a pool") {
				d = &diags[i]
			}
		}
		require.NotNil(t, d, "%+v", diags)
		fixed := applyEdit(t, content, u, findAction(t, s.codeActions(t, u, d.Range.Start), protocol.CodeActionKindQuickFix, "Take h from a pool"))
		assert.Contains(t, fixed, "sync.Pool")
		assert.NotContains(t, fixed, "hashalloc/runtime")
	})
	t.Run("type error", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/bad\n\ngo 1.26.0\n"), 0o644))
		path := filepath.Join(dir, "bad.go")
		require.NoError(t, os.WriteFile(path, []byte("package bad\n\nvar x int = \"s\"\n"), 0o644))
		s := startSession(t, Settings{})
		s.initialize(t, "")
		u, _ := s.openFile(t, path, nil)
		diags, _ := s.client.wait(t, u, 0)
		assert.Empty(t, diags)
		s.client.mu.Lock()
		defer s.client.mu.Unlock()
		assert.Contains(t, strings.Join(s.client.logs, "\n"), `bad.go:3:13: cannot use "s"`)
	})
}

// TestSettingsReach checks that the settings that choose what is analyzed
// reach the analysis, as flags and as initializationOptions: -tags brings in
// a file that a build constraint excludes, -tests the test files, and
// -profile makes hot a function that nothing else says is hot.
func TestSettingsReach(t *testing.T) {
	testenv.SkipUnlessSlow(t, "starts a server per setting")
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"go.mod": "module example.com/hot\n\ngo 1.26.0\n",
		"hot/hot.go": `package hot

import (
	"crypto/sha256"
	"io"
)

// Digest writes the SHA-256 of what r reads into dst: it returns no hash,
// so nothing but a profile shows it to run per item.
func Digest(dst *[32]byte, r io.Reader) {
	h := sha256.New()
	io.Copy(h, r)
	h.Sum(dst[:0])
}
`,
		"hot/special.go": `//go:build special

package hot

import (
	"crypto/hmac"
	"crypto/sha256"
)

// Signer signs with its key.
type Signer struct{ key []byte }

// Sign returns the HMAC-SHA256 of m.
func (s *Signer) Sign(m []byte) []byte {
	mac := hmac.New(sha256.New, s.key)
	mac.Write(m)
	return mac.Sum(nil)
}
`,
		"hot/hot_test.go": `package hot

import (
	"crypto/sha256"
	"io"
	"strings"
	"testing"
)

func TestDigests(t *testing.T) {
	for _, s := range strings.Fields("a b c d e f g h i j") {
		h := sha256.New()
		io.Copy(h, strings.NewReader(s))
		t.Log(h.Sum(nil))
	}
}
`,
	})
	profile := writeProfile(t, dir, "example.com/hot/hot.Digest", "example.com/hot/hot.(*Signer).Sign", "example.com/hot/hot.Other")
	files := []string{"hot.go", "special.go", "hot_test.go"}
	// codes returns the codes of the diagnostics published for each of
	// files, after hot.go is opened.
	codes := func(t *testing.T, settings Settings, options string) map[string][]string {
		s := startSession(t, settings)
		params := &protocol.InitializeParams{WorkspaceFoldersInitializeParams: protocol.WorkspaceFoldersInitializeParams{
			WorkspaceFolders: protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(dir), Name: "hot"}}),
		}}
		if options != "" {
			params.InitializationOptions = protocol.LSPAny(options)
		}
		_, err := s.server.Initialize(call(t), params)
		require.NoError(t, err)
		require.NoError(t, s.server.Initialized(call(t), &protocol.InitializedParams{}))
		s.openFile(t, filepath.Join(dir, "hot", "hot.go"), nil)
		s.client.waitLog(t, func(msg string) bool { return strings.Contains(msg, " findings in ") }, 0)
		got := map[string][]string{}
		for _, name := range files {
			fu := uri.File(filepath.Join(dir, "hot", name))
			s.client.mu.Lock()
			published := s.client.counts[fu] > 0
			for _, d := range s.client.diags[fu] {
				got[name] = append(got[name], fmt.Sprint(d.Code))
			}
			s.client.mu.Unlock()
			if !published {
				got[name] = []string{"(not published)"}
			}
		}
		return got
	}
	t.Run("defaults", func(t *testing.T) {
		assert.Equal(t, map[string][]string{"special.go": {"(not published)"}, "hot_test.go": {"(not published)"}}, codes(t, Settings{}, ""))
	})
	want := map[string][]string{"hot.go": {"hasher-alloc"}, "special.go": {"hmac-rekey"}, "hot_test.go": {"hasher-alloc"}}
	t.Run("flags", func(t *testing.T) {
		assert.Equal(t, want, codes(t, Settings{Tags: []string{"special"}, Tests: true, Profile: profile}, ""))
	})
	t.Run("initializationOptions", func(t *testing.T) {
		// The profile's path is relative to the workspace's root.
		assert.Equal(t, want, codes(t, Settings{}, `{"tags": ["special"], "tests": true, "profile": `+strconv.Quote(filepath.Base(profile))+`}`))
	})
	t.Run("profile-threshold", func(t *testing.T) {
		// Above Digest's share, 50%: nothing is hot.
		got := codes(t, Settings{Profile: profile, ProfileThreshold: "60%"}, "")
		assert.Empty(t, got["hot.go"])
	})
}

// writeFiles writes files (by slash-separated path) into a new directory
// and returns it.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	return dir
}
