package lsp

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

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
		if fd.fix != "" {
			actions = append(actions, action(fd.fix, protocol.CodeActionKindQuickFix, docURI, f.m, normalize(fd.edits), fd, true))
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
		if edits, n := fixAll(f.findings); n > 0 {
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

// fixAll merges the fixes of findings, in the order they were reported, as
// hashalloc -fix does: identical edits (an import two fixes add) are applied
// once, and a fix that overlaps one already taken is left out whole. It
// returns the merged edits and how many fixes they apply.
func fixAll(findings []*finding) ([]edit, int) {
	var taken []edit
	n := 0
next:
	for _, fd := range findings {
		if fd.fix == "" {
			continue
		}
		var add []edit
		for _, e := range fd.edits {
			if slices.Contains(taken, e) {
				continue
			}
			for _, t := range taken {
				if conflict(t, e) {
					continue next
				}
			}
			add = append(add, e)
		}
		taken = append(taken, add...)
		n++
	}
	return normalize(taken), n
}

// conflict reports whether two different edits cannot both be applied: they
// overlap, or both replace text from the same offset. An insertion at either
// end of another edit is no conflict.
func conflict(a, b edit) bool {
	if a.start == a.end || b.start == b.end {
		return a.start > b.start && a.start < b.end || b.start > a.start && b.start < a.end
	}
	return a.start < b.end && b.start < a.end
}

// normalize sorts edits by offset, keeping the given order at one offset,
// and joins the edits that start at the same offset (insertions, then at
// most one replacement) into one, so that no client has to decide in which
// order to apply them.
func normalize(edits []edit) []edit {
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b edit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		// Insertions before the replacement at the same offset.
		return (a.end - a.start) - (b.end - b.start)
	})
	var out []edit
	for _, e := range edits {
		if len(out) > 0 && out[len(out)-1].start == e.start {
			last := &out[len(out)-1]
			last.end = max(last.end, e.end)
			last.text += e.text
			continue
		}
		out = append(out, e)
	}
	return out
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
