package lsp

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"golang.org/x/tools/go/analysis"
)

// server is the language server: the documents the editor has open, and per
// package directory the last analysis and the one running.
type server struct {
	protocol.UnimplementedServer

	ctx    context.Context // the connection's lifetime
	client protocol.Client
	exit   chan struct{} // closed by the exit notification

	// base are the settings from the command line, before the editor's
	// initializationOptions.
	base Settings

	// sem admits one analysis at a time: loading uses every core. An
	// analysis holds it to use views and workspaces.
	sem        chan struct{}
	views      map[string]*view     // by the root of the module or workspace
	workspaces map[string]workspace // by package directory
	// cachedDirs are, by workspace root, the directories whose results
	// came from the result cache before the workspace had a view: the
	// view's first load takes them in, so that a change reaches them.
	cachedDirs map[string][]string
	// publishMu orders the publication of results, so that an older
	// analysis never publishes after a newer one.
	publishMu sync.Mutex
	// analyzed, when set, is called after each analysis (tuneGC, in
	// the command).
	analyzed func()
	// early, while an update of a view runs for a save, publishes the
	// findings of the file saved before their fixes are proved (see
	// earlyPublisher); nil otherwise. Held by mu.
	early func(*analysis.Pass, []analysis.Diagnostic)

	mu       sync.Mutex
	settings Settings
	analyzer *analysis.Analyzer
	docs     map[string]*document // by absolute path
	pkgs     map[string]*pkgState // by directory
	shutdown bool
	exited   bool
}

// document is a file the editor has open, with its current content.
type document struct {
	uri     uri.URI // as the editor spells it
	version int32
	content []byte
}

// pkgState is what the server knows of the package in one directory.
type pkgState struct {
	// gen counts the analyses started (and the edits that canceled one); a
	// result is published only if no newer analysis or edit came after the
	// one that produced it.
	gen    int
	cancel context.CancelFunc // of the running analysis, if any
	result *result            // of the last completed analysis
	// proving is closed when the analysis that published diagnostics of
	// the package before proving their fixes is done (see waitProof).
	proving chan struct{}
}

func newServer(ctx context.Context, client protocol.Client, settings Settings) *server {
	return &server{
		ctx:        ctx,
		client:     client,
		exit:       make(chan struct{}),
		base:       settings,
		sem:        make(chan struct{}, 1),
		views:      map[string]*view{},
		workspaces: map[string]workspace{},
		cachedDirs: map[string][]string{},
		docs:       map[string]*document{},
		pkgs:       map[string]*pkgState{},
	}
}

func (s *server) Initialize(_ context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	settings, err := s.base.withInitOptions(params.InitializationOptions, workspaceRoot(params))
	if err != nil {
		return nil, err
	}
	a, err := settings.analyzerWith(s.unproved)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.settings, s.analyzer = settings, a
	s.mu.Unlock()

	yes := true
	full := protocol.TextDocumentSyncKindFull
	version := "devel"
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		version = info.Main.Version
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: protocol.PositionEncodingKindUTF16,
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: &yes,
				Change:    &full,
				Save:      &protocol.SaveOptions{},
			},
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, fixAllKind},
			},
		},
		ServerInfo: protocol.ServerInfo{Name: "hashalloc", Version: protocol.NewOptional(version)},
	}, nil
}

// workspaceRoot returns the directory of the workspace that the client
// opened, or "" when it names none: its first folder, else its root.
func workspaceRoot(params *protocol.InitializeParams) string {
	if folders, ok := params.WorkspaceFolders.Get(); ok && len(folders) > 0 && folders[0].URI.IsFile() {
		return folders[0].URI.FsPath()
	}
	//lint:ignore SA1019 clients older than workspace folders send only rootUri
	if u := params.RootURI; u != nil && u.IsFile() {
		return u.FsPath()
	}
	//lint:ignore SA1019 and the oldest only rootPath
	if root, ok := params.RootPath.Get(); ok && filepath.IsAbs(root) {
		return root
	}
	return ""
}

func (s *server) Shutdown(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shutdown = true
	for _, st := range s.pkgs {
		if st.cancel != nil {
			st.cancel()
			st.cancel = nil
		}
	}
	return nil
}

func (s *server) Exit(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.exited {
		s.exited = true
		close(s.exit)
	}
	return nil
}

func (s *server) DidOpen(_ context.Context, params *protocol.DidOpenTextDocumentParams) error {
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	s.docs[path] = &document{uri: params.TextDocument.URI, version: params.TextDocument.Version, content: []byte(params.TextDocument.Text)}
	s.mu.Unlock()
	s.schedule(filepath.Dir(path), path)
	return nil
}

func (s *server) DidChange(_ context.Context, params *protocol.DidChangeTextDocumentParams) error {
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	doc := s.docs[path]
	if doc == nil {
		return nil
	}
	for _, change := range params.ContentChanges {
		// The server asks for full content; an incremental change is a
		// client's error, and the document is left as it was.
		if whole, ok := change.(*protocol.TextDocumentContentChangeWholeDocument); ok {
			doc.content = []byte(whole.Text)
		}
	}
	doc.version = params.TextDocument.Version
	// The running analysis is of content that is gone: cancel it. The next
	// save starts a new one.
	if st := s.pkgs[filepath.Dir(path)]; st != nil {
		st.gen++
		if st.cancel != nil {
			st.cancel()
			st.cancel = nil
		}
	}
	return nil
}

func (s *server) DidSave(_ context.Context, params *protocol.DidSaveTextDocumentParams) error {
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return nil
	}
	if params.Text != nil {
		s.mu.Lock()
		if doc := s.docs[path]; doc != nil {
			doc.content = []byte(*params.Text)
		}
		s.mu.Unlock()
	}
	s.schedule(filepath.Dir(path), path)
	return nil
}

func (s *server) DidClose(_ context.Context, params *protocol.DidCloseTextDocumentParams) error {
	if path, ok := goFile(params.TextDocument.URI); ok {
		s.mu.Lock()
		delete(s.docs, path)
		s.mu.Unlock()
	}
	return nil
}

// DidChangeConfiguration is accepted and ignored: the settings are the
// command line's and the initializationOptions.
func (s *server) DidChangeConfiguration(context.Context, *protocol.DidChangeConfigurationParams) error {
	return nil
}

// schedule starts an analysis of the package in dir, canceling the one
// running there. It returns at once; the analysis publishes its diagnostics
// when it is done, unless a newer analysis or an edit came after it: those
// of first (the file just opened or saved, which the editor shows; "" for
// none) before those of the other files.
func (s *server) schedule(dir, first string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown || s.analyzer == nil {
		return
	}
	st := s.pkgs[dir]
	if st == nil {
		st = &pkgState{}
		s.pkgs[dir] = st
	}
	if st.cancel != nil {
		st.cancel()
	}
	st.gen++
	ctx, cancel := context.WithCancel(s.ctx)
	st.cancel = cancel
	j := &job{dir: dir, first: first, gen: st.gen, analyzer: s.analyzer, tests: s.settings.Tests, buildFlags: s.settings.buildFlags(),
		overlay: map[string][]byte{}, versions: map[string]int32{}, done: make(chan struct{})}
	for path, doc := range s.docs {
		j.versions[path] = doc.version
		if disk, err := os.ReadFile(path); err != nil || string(disk) != string(doc.content) {
			j.overlay[path] = doc.content
		}
	}
	go s.run(ctx, cancel, j)
}

// job is one analysis to run.
type job struct {
	dir      string
	first    string // the file whose diagnostics are published first, if any
	gen      int
	analyzer *analysis.Analyzer
	tests    bool
	// buildFlags are the go command's flags for loading (-tags).
	buildFlags []string
	// overlay holds the open documents that differ from the files on disk;
	// versions the version of every open document.
	overlay  map[string][]byte
	versions map[string]int32
	// done is closed when the job has published its result, or will not.
	done chan struct{}
}

// run analyzes the package in j.dir and publishes the result, if it is
// still the latest; then it schedules the analysis of the other directories
// whose packages changed with it.
func (s *server) run(ctx context.Context, cancel context.CancelFunc, j *job) {
	defer close(j.done) // last: the result is published
	defer cancel()
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return
	}
	res, others, err := s.analyze(ctx, j)
	if s.analyzed != nil {
		s.analyzed()
	}
	<-s.sem
	defer func() {
		for _, dir := range others {
			s.refresh(dir)
		}
	}()
	if err != nil {
		return // canceled
	}
	for path, f := range res.files {
		f.version, f.open = j.versions[path]
	}
	dir, gen := j.dir, j.gen

	s.publishMu.Lock()
	defer s.publishMu.Unlock()
	s.mu.Lock()
	st := s.pkgs[dir]
	if st.gen != gen || ctx.Err() != nil {
		s.mu.Unlock()
		return
	}
	old := st.result
	st.result = res
	st.cancel = nil
	if st.proving == j.done {
		st.proving = nil // the result holds the fixes proved
	}
	s.mu.Unlock()

	if res.err != nil {
		s.log(protocol.MessageTypeWarning, fmt.Sprintf("hashalloc: %s: %v", dir, res.err))
	}
	n := 0
	paths := slices.Sorted(maps.Keys(res.files))
	if i := slices.Index(paths, j.first); i > 0 {
		// The file the editor shows first.
		paths = slices.Insert(slices.Delete(paths, i, i+1), 0, j.first)
	}
	for _, path := range paths {
		f := res.files[path]
		n += len(f.findings)
		s.publish(path, f)
	}
	// Files of the last analysis that are no longer in the package.
	if old != nil {
		for _, path := range slices.Sorted(maps.Keys(old.files)) {
			if res.files[path] == nil {
				s.publish(path, &fileResult{path: path})
			}
		}
	}
	// Last, so that a client that reads it has every file's diagnostics.
	s.log(protocol.MessageTypeLog, fmt.Sprintf("hashalloc: %s: %d findings in %d files; %v in %v, analyzed in %v",
		dir, n, len(res.files), res.stats, round(res.stats.load), round(res.stats.analysis)))
}

// round rounds a duration for the log: to 0.1 ms below 10 ms, else to 1 ms.
func round(d time.Duration) time.Duration {
	if d < 10*time.Millisecond {
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(time.Millisecond)
}

// analyze brings the view of j.dir up to date, loading it anew when it must,
// and returns the result for j.dir and the other directories of the view
// whose packages changed. It returns ctx.Err() when canceled; packages that
// cannot be loaded or analyzed are a result with err set, not an error.
// The caller holds s.sem.
func (s *server) analyze(ctx context.Context, j *job) (*result, []string, error) {
	ws, ok := s.workspaces[j.dir]
	if !ok {
		ws = readWorkspace(ctx, j.dir)
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		s.workspaces[j.dir] = ws
	}
	var st loadStats
	v := s.views[ws.root]
	dirs := []string{j.dir}
	if v != nil {
		s.setEarly(s.earlyPublisher(ctx, j, v))
		err := v.update(ctx, j.dir, j.overlay, &st)
		s.setEarly(nil)
		var r *errReload
		switch {
		case err == nil:
			res := v.result(j.dir)
			res.stats = st
			return res, v.takeDirty(j.dir), nil
		case !errors.As(err, &r):
			return nil, v.takeDirty(j.dir), err
		}
		st = loadStats{reason: r.reason}
		dirs = v.dirs
		if !slices.Contains(dirs, j.dir) {
			dirs = append(slices.Clone(dirs), j.dir)
		}
	}
	if v == nil {
		if res, ok := fromCache(ctx, j, j.analyzer.URL); ok {
			if !slices.Contains(s.cachedDirs[ws.root], j.dir) {
				s.cachedDirs[ws.root] = append(s.cachedDirs[ws.root], j.dir)
			}
			return res, nil, nil
		}
		for _, d := range s.cachedDirs[ws.root] {
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	nv, err := loadView(ctx, ws, j.analyzer, loadOptions{tests: j.tests, buildFlags: j.buildFlags}, dirs, j.overlay, &st)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if err != nil {
		return &result{files: map[string]*fileResult{}, err: err, stats: st}, nil, nil
	}
	s.views[ws.root] = nv
	res := nv.result(j.dir)
	res.stats = st
	return res, nv.others(j.dir), nil
}

// setEarly sets what receives the findings of the packages analyzed before
// their fixes are proved.
func (s *server) setEarly(early func(*analysis.Pass, []analysis.Diagnostic)) {
	s.mu.Lock()
	s.early = early
	s.mu.Unlock()
}

// unproved receives the findings of each package that the analyzer
// analyzes, before their fixes are proved (analyzer.Options.Unproved).
func (s *server) unproved(pass *analysis.Pass, diags []analysis.Diagnostic) {
	s.mu.Lock()
	early := s.early
	s.mu.Unlock()
	if early != nil {
		early(pass, diags)
	}
}

// earlyPublisher returns what publishes, while v is updated for j, the
// findings of the file that j saves as soon as the analysis of its package
// knows them, when one of them has a fix: proving the fixes type-checks the
// package once more, which on a large package is a third of the save. The
// message of a finding whose fix is being proved says so (the proof may
// withdraw the fix), and the result is published again when the fixes are
// proved; code actions wait for it (see waitProof). It returns nil when j
// saves no file of its directory's package, or with tests: the test
// variants of a package repeat its findings, and the result is their union.
func (s *server) earlyPublisher(ctx context.Context, j *job, v *view) func(*analysis.Pass, []analysis.Diagnostic) {
	if j.first == "" || filepath.Dir(j.first) != j.dir || j.tests {
		return nil
	}
	return func(pass *analysis.Pass, diags []analysis.Diagnostic) {
		if !slices.ContainsFunc(pass.Files, func(f *ast.File) bool { return v.fset.File(f.FileStart).Name() == j.first }) {
			return // another package that the update re-analyzes
		}
		f := &fileResult{path: j.first, pkg: pass.Pkg}
		res := &result{files: map[string]*fileResult{j.first: f}}
		for _, d := range diags {
			res.add(v.fset, d, v.a.URL, pass.ReadFile)
		}
		if !slices.ContainsFunc(f.findings, func(fd *finding) bool { return fd.fix != "" }) {
			return // the proof changes nothing in the file: its result comes as it is
		}
		f.version, f.open = j.versions[j.first]
		s.publishMu.Lock()
		defer s.publishMu.Unlock()
		s.mu.Lock()
		st := s.pkgs[j.dir]
		if st.gen != j.gen || ctx.Err() != nil {
			s.mu.Unlock()
			return
		}
		st.proving = j.done
		s.mu.Unlock()
		s.publish(j.first, f)
	}
}

// proofWait is how long a code action waits for the proof of the fixes of
// findings published before it (see earlyPublisher).
const proofWait = 2 * time.Second

// waitProof waits, at most proofWait, until the analysis that published the
// findings of path's package before proving their fixes is done: an editor
// asks for code actions as soon as it shows diagnostics, and the actions
// offer only proved fixes.
func (s *server) waitProof(path string) {
	s.mu.Lock()
	var proving chan struct{}
	if st := s.pkgs[filepath.Dir(path)]; st != nil {
		proving = st.proving
	}
	s.mu.Unlock()
	if proving != nil {
		select {
		case <-proving:
		case <-time.After(proofWait):
		}
	}
}

// refresh analyzes dir again, unless an analysis of it is already to come,
// which will see what changed.
func (s *server) refresh(dir string) {
	s.mu.Lock()
	st := s.pkgs[dir]
	pending := st != nil && st.cancel != nil
	s.mu.Unlock()
	if !pending {
		s.schedule(dir, "")
	}
}

// publish sends the diagnostics of one file; none clears the file's.
func (s *server) publish(path string, f *fileResult) {
	diags := make([]protocol.Diagnostic, 0, len(f.findings))
	for _, fd := range f.findings {
		diags = append(diags, fd.diag)
	}
	u := uri.File(path)
	s.mu.Lock()
	if doc := s.docs[path]; doc != nil {
		u = doc.uri
	}
	s.mu.Unlock()
	params := &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: diags}
	if f.open {
		// The version of the document analyzed: no edit came after it, or
		// the result would not be published.
		params.Version = protocol.NewOptional(f.version)
	}
	err := s.client.PublishDiagnostics(s.ctx, params)
	if err != nil && s.ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "hashalloc lsp: publishing diagnostics of %s: %v\n", path, err)
	}
}

func (s *server) log(typ protocol.MessageType, msg string) {
	_ = s.client.LogMessage(s.ctx, &protocol.LogMessageParams{Type: typ, Message: msg})
}

// goFile returns the path of a file: URI of a Go file.
func goFile(u uri.URI) (string, bool) {
	if !u.IsFile() {
		return "", false
	}
	path := u.FsPath()
	if !strings.HasSuffix(path, ".go") || !filepath.IsAbs(path) {
		return "", false
	}
	return filepath.Clean(path), true
}

// current returns the content of the file at path as the editor has it, or
// as it is on disk when it is not open.
func (s *server) current(path string) ([]byte, error) {
	s.mu.Lock()
	doc := s.docs[path]
	s.mu.Unlock()
	if doc != nil {
		return doc.content, nil
	}
	return os.ReadFile(path)
}

// serve runs the server on stream until the client sends exit or closes
// the stream, calling analyzed after each analysis when it is not nil. It
// reports an error when the client exits without shutting down first, as
// the protocol asks.
func serve(ctx context.Context, stream jsonrpc2.Stream, settings Settings, analyzed func()) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	conn := jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(codec{}))
	s := newServer(ctx, protocol.ClientDispatcher(conn), settings)
	s.analyzed = analyzed
	// Every message is handled in order on the read goroutine (a didChange
	// must not overtake the didOpen before it), and every handler returns at
	// once (but a code action, which may wait a little for a proof, see
	// waitProof): the analyses run in goroutines of their own. So there is nothing
	// for $/cancelRequest to cancel, and neither protocol.AsyncHandler nor
	// protocol.CancelHandler is used. (The latter derives a context from the
	// pooled request context, whose watcher goroutine can outlive the request
	// and panic on its recycled parent in go.lsp.dev/jsonrpc2 v1.0.1.)
	handler := protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler)
	conn.Go(ctx, func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == protocol.MethodCancelRequest {
			return nil, nil
		}
		return handler(ctx, req)
	})
	select {
	case <-s.exit:
	case <-conn.Done():
	}
	cancel()
	// Close waits for the read goroutine, which a blocking read of standard
	// input (editors give the server a pipe in blocking mode) holds until
	// the editor closes it: wait a little, then let the process exit.
	closed := make(chan struct{})
	go func() {
		_ = conn.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(250 * time.Millisecond):
	}
	s.mu.Lock()
	clean := s.shutdown
	s.mu.Unlock()
	if !clean {
		return errors.New("the client exited without shutdown")
	}
	return nil
}

// codec marshals the protocol's payloads with its own union-aware codec.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	if raw, ok := v.(jsonrpc2.RawMessage); ok {
		if raw == nil {
			return []byte("null"), nil
		}
		return raw, nil
	}
	return protocol.Marshal(v)
}

// Unmarshal decodes from a copy of data: jsonrpc2 reuses the buffer of a
// message once its handler or call returns, and the protocol's decoders make
// strings that share the bytes they decode, without a copy of their own in
// some paths (a []CommandOrCodeAction result: the titles of code actions
// changed under a client as the next messages came in).
func (codec) Unmarshal(data []byte, v any) error {
	data = slices.Clone(data)
	if raw, ok := v.(*jsonrpc2.RawMessage); ok {
		*raw = data
		return nil
	}
	return protocol.Unmarshal(data, v)
}
