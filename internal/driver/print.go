package driver

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"strings"
)

// printText prints each finding as go vet does, file:line:col: message, with
// the file relative to the working directory; with context >= 0, the line
// and that many lines around it.
func printText(w io.Writer, findings []*finding, context int) {
	for _, f := range findings {
		fmt.Fprintf(w, "%s: %s\n", shortPosn(f.posn), f.diag.Message)
		if context < 0 {
			continue
		}
		data, err := os.ReadFile(f.posn.Filename)
		if err != nil {
			continue
		}
		lines := strings.Split(string(data), "\n")
		end := max(f.end.Line, f.posn.Line)
		for i := f.posn.Line - context; i <= end+context; i++ {
			if 1 <= i && i <= len(lines) {
				fmt.Fprintf(w, "%d\t%s\n", i, lines[i-1])
			}
		}
	}
}

// shortPosn spells p as file:line:col with a short file name.
func shortPosn(p token.Position) string {
	p.Filename = shortPath(p.Filename)
	return p.String()
}

// The JSON output has the shape of the x/tools checkers' -json output:
//
//	{"package ID": {"hashalloc": [diagnostic, ...]}}
//	{"package ID": {"hashalloc": {"error": "file:line:col: message"}}}
//
// with absolute file names and byte offsets.
type (
	jsonTree map[string]map[string]any

	jsonError struct {
		Err string `json:"error"`
	}

	jsonDiagnostic struct {
		Category       string            `json:"category,omitempty"`
		Posn           string            `json:"posn"`
		End            string            `json:"end"`
		Message        string            `json:"message"`
		SuggestedFixes []jsonFix         `json:"suggested_fixes,omitempty"`
		Related        []jsonRelatedInfo `json:"related,omitempty"`
	}

	jsonFix struct {
		Message string     `json:"message"`
		Edits   []jsonEdit `json:"edits"`
	}

	jsonEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}

	jsonRelatedInfo struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
)

// addError records that the package id could not be analyzed, and why.
func (t jsonTree) addError(id, msg string) {
	t[id] = map[string]any{"hashalloc": jsonError{msg}}
}

// add records a finding; withFixes includes its fixes.
func (t jsonTree) add(f *finding, withFixes bool) {
	fset := f.pkg.Fset
	jd := jsonDiagnostic{
		Category: f.diag.Category,
		Posn:     f.posn.String(),
		End:      f.end.String(),
		Message:  f.diag.Message,
	}
	if withFixes {
		for _, fix := range f.diag.SuggestedFixes {
			jf := jsonFix{Message: fix.Message, Edits: []jsonEdit{}}
			for _, e := range fix.TextEdits {
				end := e.End
				if !end.IsValid() {
					end = e.Pos
				}
				jf.Edits = append(jf.Edits, jsonEdit{
					Filename: fset.Position(e.Pos).Filename,
					Start:    fset.Position(e.Pos).Offset,
					End:      fset.Position(end).Offset,
					New:      string(e.NewText),
				})
			}
			jd.SuggestedFixes = append(jd.SuggestedFixes, jf)
		}
	}
	for _, r := range f.diag.Related {
		end := r.End
		if !end.IsValid() {
			end = r.Pos
		}
		jd.Related = append(jd.Related, jsonRelatedInfo{Posn: fset.Position(r.Pos).String(), End: fset.Position(end).String(), Message: r.Message})
	}
	m, ok := t[f.pkg.ID]
	if !ok {
		m = map[string]any{}
		t[f.pkg.ID] = m
	}
	list, _ := m["hashalloc"].([]jsonDiagnostic)
	m["hashalloc"] = append(list, jd)
}

// print writes the tree as indented JSON.
func (t jsonTree) print(w io.Writer) error {
	data, err := json.MarshalIndent(t, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}
