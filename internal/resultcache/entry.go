package resultcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// Entry is one package's result: its diagnostics, with positions as byte
// offsets in files named by their path, and the content hash of each file
// that a position names.
type Entry struct {
	Files       map[string]string `json:"files"` // path => SHA-256 of its content, in hex
	Diagnostics []Diagnostic      `json:"diagnostics"`
}

// Diagnostic is an analysis.Diagnostic stored in an Entry.
type Diagnostic struct {
	Pos      Position  `json:"pos"`
	End      Position  `json:"end"`
	Category string    `json:"category,omitempty"`
	Message  string    `json:"message"`
	URL      string    `json:"url,omitempty"`
	Fixes    []Fix     `json:"fixes,omitempty"`
	Related  []Related `json:"related,omitempty"`
}

// Fix is an analysis.SuggestedFix stored in an Entry.
type Fix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
}

// Edit is an analysis.TextEdit stored in an Entry.
type Edit struct {
	Pos     Position `json:"pos"`
	End     Position `json:"end"`
	NewText string   `json:"new"`
}

// Related is an analysis.RelatedInformation stored in an Entry.
type Related struct {
	Pos     Position `json:"pos"`
	End     Position `json:"end"`
	Message string   `json:"message"`
}

// Position is a byte offset in a file; the zero Position is no position.
type Position struct {
	File   string `json:"file,omitempty"`
	Offset int    `json:"offset,omitempty"`
}

// Encode returns the entry of diags, whose positions are in fset; sum gives
// the content hash of a file. It fails on a position outside any file of
// fset, or in a file with //line directives.
func Encode(fset *token.FileSet, diags []analysis.Diagnostic, sum func(name string) ([sha256.Size]byte, error)) ([]byte, error) {
	e := Entry{Files: map[string]string{}, Diagnostics: []Diagnostic{}}
	var err error
	pos := func(p token.Pos) Position {
		if !p.IsValid() || err != nil {
			return Position{}
		}
		tf := fset.File(p)
		if tf == nil {
			err = fmt.Errorf("a position outside the package's files")
			return Position{}
		}
		if fset.PositionFor(p, true) != fset.PositionFor(p, false) {
			err = fmt.Errorf("%s has //line directives, whose positions an entry does not keep", tf.Name())
			return Position{}
		}
		name := tf.Name()
		if _, ok := e.Files[name]; !ok {
			s, serr := sum(name)
			if serr != nil {
				err = serr
				return Position{}
			}
			e.Files[name] = hex.EncodeToString(s[:])
		}
		return Position{name, tf.Offset(p)}
	}
	for _, d := range diags {
		sd := Diagnostic{Pos: pos(d.Pos), End: pos(d.End), Category: d.Category, Message: d.Message, URL: d.URL}
		for _, f := range d.SuggestedFixes {
			sf := Fix{Message: f.Message, Edits: []Edit{}}
			for _, te := range f.TextEdits {
				sf.Edits = append(sf.Edits, Edit{pos(te.Pos), pos(te.End), string(te.NewText)})
			}
			sd.Fixes = append(sd.Fixes, sf)
		}
		for _, r := range d.Related {
			sd.Related = append(sd.Related, Related{pos(r.Pos), pos(r.End), r.Message})
		}
		e.Diagnostics = append(e.Diagnostics, sd)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(e)
}

// Files maps the files of cached entries into one token.FileSet.
type Files struct {
	Fset    *token.FileSet
	files   map[string]*token.File
	content func(name string) ([]byte, error)
}

// NewFiles returns the Files of entries whose files content reads.
func NewFiles(content func(name string) ([]byte, error)) *Files {
	return &Files{Fset: token.NewFileSet(), files: map[string]*token.File{}, content: content}
}

// Decode returns the diagnostics of the entry data, with positions in
// f.Fset. It reports false, a miss, when data is not an entry or a file it
// names has changed since.
func (f *Files) Decode(data []byte) ([]analysis.Diagnostic, bool) {
	var e Entry
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, false
	}
	for name, sum := range e.Files {
		if _, ok := f.files[name]; ok {
			continue
		}
		content, err := f.content(name)
		if err != nil {
			return nil, false
		}
		if s := sha256.Sum256(content); hex.EncodeToString(s[:]) != sum {
			return nil, false
		}
		tf := f.Fset.AddFile(name, -1, len(content))
		tf.SetLinesForContent(content)
		f.files[name] = tf
	}
	ok := true
	pos := func(p Position) token.Pos {
		if p.File == "" {
			return token.NoPos
		}
		tf := f.files[p.File]
		if tf == nil || p.Offset > tf.Size() {
			ok = false
			return token.NoPos
		}
		return tf.Pos(p.Offset)
	}
	diags := make([]analysis.Diagnostic, 0, len(e.Diagnostics))
	for _, sd := range e.Diagnostics {
		d := analysis.Diagnostic{Pos: pos(sd.Pos), End: pos(sd.End), Category: sd.Category, Message: sd.Message, URL: sd.URL}
		for _, sf := range sd.Fixes {
			fix := analysis.SuggestedFix{Message: sf.Message}
			for _, se := range sf.Edits {
				fix.TextEdits = append(fix.TextEdits, analysis.TextEdit{Pos: pos(se.Pos), End: pos(se.End), NewText: []byte(se.NewText)})
			}
			d.SuggestedFixes = append(d.SuggestedFixes, fix)
		}
		for _, r := range sd.Related {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: pos(r.Pos), End: pos(r.End), Message: r.Message})
		}
		diags = append(diags, d)
	}
	if !ok {
		return nil, false
	}
	return diags, true
}
