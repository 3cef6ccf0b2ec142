package lsp

import (
	"context"
	"go/types"
	"path/filepath"
	"strings"

	"github.com/hashalloc/hashalloc/internal/textedit"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// fixAllKind is the kind of the action that applies every fix of a file.
const fixAllKind protocol.CodeActionKind = "source.fixAll.hashalloc"

// CodeAction answers from the last analysis of the document's package: for
// each finding under the range, a quickfix with its fix and one that adds
// //hashalloc:ignore CATEGORY above it; and source.fixAll.hashalloc, every
// fix of the file. It offers nothing when the document changed since it was
// analyzed: the edits would land in the wrong place.
func (s *server) CodeAction(_ context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	actions := []protocol.CommandOrCodeAction{}
	path, ok := goFile(params.TextDocument.URI)
	if !ok {
		return actions, nil
	}
	s.waitProof(path)
	f := s.fileResult(path)
	if f == nil || len(f.findings) == 0 {
		return actions, nil
	}
	if current, err := s.current(path); err != nil || !f.sameContent(current) {
		return actions, nil
	}
	start, err := f.m.offset(params.Range.Start)
	if err != nil {
		return actions, nil
	}
	end, err := f.m.offset(params.Range.End)
	if err != nil {
		return actions, nil
	}
	docURI := params.TextDocument.URI
	only := params.Context.Only

	touched := false // a finding is under the range
	for _, fd := range f.findings {
		if fd.start > end || start > fd.end {
			continue
		}
		touched = true
		if !wants(only, protocol.CodeActionKindQuickFix) {
			continue
		}
		if edits, n := fixAll(f.content, f.pkg, []*finding{fd}); n > 0 {
			actions = append(actions, action(fd.fix, protocol.CodeActionKindQuickFix, docURI, f.m, edits, fd, true))
		}
		// The directive goes on a line of its own above the finding's, with
		// the same indentation, which suppresses it (the line above counts).
		lineStart := f.m.lineStart(fd.start)
		indent := f.content[lineStart:lineStart]
		for i := lineStart; i < len(f.content) && (f.content[i] == ' ' || f.content[i] == '\t'); i++ {
			indent = f.content[lineStart : i+1]
		}
		directive := "//hashalloc:ignore " + fd.category
		ignore := edit{start: lineStart, end: lineStart, text: string(indent) + directive + "\n"}
		actions = append(actions, action("Ignore with "+directive, protocol.CodeActionKindQuickFix, docURI, f.m, []edit{ignore}, fd, false))
	}

	// Every fix of the file: on request, or beside the quick fixes of a
	// finding when the client asks for any kind.
	if (len(only) > 0 && wants(only, fixAllKind)) || (len(only) == 0 && touched) {
		if edits, n := fixAll(f.content, f.pkg, f.findings); n > 0 {
			title := "Apply every hashalloc fix in " + filepath.Base(path)
			actions = append(actions, action(title, fixAllKind, docURI, f.m, edits, nil, false))
		}
	}
	return actions, nil
}

// action makes a code action that edits the document docURI.
func action(title string, kind protocol.CodeActionKind, docURI uri.URI, m *mapper, edits []edit, fd *finding, preferred bool) *protocol.CodeAction {
	textEdits := make([]protocol.TextEdit, 0, len(edits))
	for _, e := range edits {
		textEdits = append(textEdits, protocol.TextEdit{
			Range:   protocol.Range{Start: m.position(e.start), End: m.position(e.end)},
			NewText: e.text,
		})
	}
	a := &protocol.CodeAction{
		Title: title,
		Kind:  &kind,
		Edit:  &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{docURI: textEdits}},
	}
	if fd != nil {
		a.Diagnostics = []protocol.Diagnostic{fd.diag}
	}
	if preferred {
		a.IsPreferred = &preferred
	}
	return a
}

// wants reports whether a client that asks only for the kinds in only (all,
// when empty) wants an action of kind: kinds are hierarchical, so
// "source.fixAll" asks for "source.fixAll.hashalloc".
func wants(only []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, k := range only {
		if kind == k || strings.HasPrefix(string(kind), string(k)+".") {
			return true
		}
	}
	return false
}

// fixAll applies the fixes of findings to content, the file of package pkg
// as analyzed, as hashalloc -fix applies the fixes of a file (see
// textedit.Compose): in the order the findings were reported, an edit two
// fixes make made once, a fix that overlaps those before it left out, the
// imports they leave unused together removed and what they changed
// formatted. It returns the edits that turn content into the result, whole
// lines, and how many fixes they apply: none when the result would not
// parse (every fix was checked alone and with the others when it was made).
func fixAll(content []byte, pkg *types.Package, findings []*finding) ([]edit, int) {
	var lists [][]textedit.Edit
	for _, fd := range findings {
		if fd.fix == "" {
			continue
		}
		l := make([]textedit.Edit, len(fd.edits))
		for i, e := range fd.edits {
			l[i] = textedit.Edit{Start: e.start, End: e.end, New: e.text}
		}
		sorted, err := textedit.Sort(l)
		if err != nil {
			continue // edits that overlap one another: a fix no driver applies
		}
		lists = append(lists, sorted)
	}
	if len(lists) == 0 {
		return nil, 0
	}
	fixed, applied, err := textedit.Compose(content, lists, pkg)
	if err != nil {
		return nil, 0
	}
	n := 0
	for _, ok := range applied {
		if ok {
			n++
		}
	}
	return toEdits(textedit.LineEdits(content, fixed)), n
}

// toEdits converts textedit's edits into the server's.
func toEdits(tes []textedit.Edit) []edit {
	edits := make([]edit, len(tes))
	for i, e := range tes {
		edits[i] = edit{start: e.Start, end: e.End, text: e.New}
	}
	return edits
}

// fileResult returns the last analysis's result for the file at path, or nil.
func (s *server) fileResult(path string) *fileResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.pkgs[filepath.Dir(path)]
	if st == nil || st.result == nil {
		return nil
	}
	return st.result.files[path]
}
