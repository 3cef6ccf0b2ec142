package prove

import (
	"encoding/json"
	"fmt"
	"go/format"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Finding is one finding of hashalloc on the copy, with the share of the
// benchmarks' profile that made it hot and what became of it.
type Finding struct {
	Posn     string `json:"posn"` // file:line:col in your tree
	Category string `json:"category"`
	Message  string `json:"message"`
	// Share is the share of the benchmarks' allocation profile measured in
	// the finding's function, when the profile has it (nil: it does not
	// cover the package, or the finding does not depend on hotness).
	Share *float64 `json:"share,omitempty"`
	// HotByProfile reports whether the profile is what makes the finding's
	// function hot.
	HotByProfile bool `json:"hot_by_profile"`
	Fixed        bool `json:"fixed"`
	// NotFixed says why a finding without a fix has none.
	NotFixed string `json:"not_fixed,omitempty"`
}

// finding is a Finding with where it is and its fix.
type finding struct {
	Finding
	file      string // in the copy
	tree      string // the same file in your tree
	line, col int
	fix       *jsonFix
}

// what spells a finding for a message: where, and which check; short
// shortens its file name.
func (f *finding) what(short func(string) string) string {
	return fmt.Sprintf("%s:%d:%d (%s)", short(f.tree), f.line, f.col, f.Category)
}

// The output of hashalloc -json: {"package": {"hashalloc": [diagnostic,
// ...] or {"error": "..."}}}.
type (
	jsonDiag struct {
		Posn           string     `json:"posn"`
		Category       string     `json:"category"`
		Message        string     `json:"message"`
		SuggestedFixes []*jsonFix `json:"suggested_fixes"`
		Related        []struct {
			Message string `json:"message"`
		} `json:"related"`
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
)

// noFixRE finds why a finding has no fix in its message.
var noFixRE = regexp.MustCompile(`\(no automatic fix: (.*)\)\s*$`)

// parseFindings reads the output of hashalloc -json: the findings, sorted
// by share (the largest first) then position, and the errors of the
// packages that could not be analyzed.
func parseFindings(out []byte) ([]*finding, []string, error) {
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &tree); err != nil {
		return nil, nil, fmt.Errorf("reading hashalloc -json: %v", err)
	}
	var (
		findings []*finding
		errs     []string
		seen     = map[string]bool{}
	)
	for _, pkg := range sortedKeys(tree) {
		raw := tree[pkg]["hashalloc"]
		var e struct{ Error string }
		if json.Unmarshal(raw, &e) == nil && e.Error != "" {
			errs = append(errs, pkg+": "+e.Error)
			continue
		}
		var diags []jsonDiag
		if err := json.Unmarshal(raw, &diags); err != nil {
			return nil, nil, fmt.Errorf("reading hashalloc -json for %s: %v", pkg, err)
		}
		for _, d := range diags {
			if seen[d.Posn+d.Message] {
				continue
			}
			seen[d.Posn+d.Message] = true
			f, err := newFinding(d)
			if err != nil {
				return nil, nil, err
			}
			findings = append(findings, f)
		}
	}
	sort.SliceStable(findings, func(i, j int) bool {
		a, b := findings[i], findings[j]
		if sa, sb := shareOf(a), shareOf(b); sa != sb {
			return sa > sb
		}
		if a.file != b.file {
			return a.file < b.file
		}
		return a.line < b.line
	})
	return findings, errs, nil
}

func shareOf(f *finding) float64 {
	if f.Share == nil {
		return -1
	}
	return *f.Share
}

// newFinding reads one diagnostic.
func newFinding(d jsonDiag) (*finding, error) {
	f := &finding{Finding: Finding{Category: d.Category, Message: d.Message}}
	// posn is /abs/file.go:LINE:COL
	i := strings.LastIndex(d.Posn, ":")
	j := strings.LastIndex(d.Posn[:max(i, 0)], ":")
	if i < 0 || j < 0 {
		return nil, fmt.Errorf("hashalloc -json: bad position %q", d.Posn)
	}
	var err1, err2 error
	f.file = d.Posn[:j]
	f.line, err1 = strconv.Atoi(d.Posn[j+1 : i])
	f.col, err2 = strconv.Atoi(d.Posn[i+1:])
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("hashalloc -json: bad position %q", d.Posn)
	}
	if len(d.SuggestedFixes) > 0 {
		f.fix = d.SuggestedFixes[0]
	} else if m := noFixRE.FindStringSubmatch(d.Message); m != nil {
		f.NotFixed = m[1]
	} else {
		f.NotFixed = "hashalloc offers no fix"
	}
	for _, r := range d.Related {
		if rest, ok := strings.CutPrefix(r.Message, "share: "); ok {
			v, _, _ := strings.Cut(rest, " ")
			if s, err := strconv.ParseFloat(v, 64); err == nil {
				f.Share = &s
			}
		}
		if strings.HasPrefix(r.Message, "evidence: profile: ") {
			f.HotByProfile = true
		}
	}
	return f, nil
}

// applyFix applies the edits of fix to src, the content of the file it
// edits as hashalloc -json read it, and formats the result.
func applyFix(src []byte, fix *jsonFix) ([]byte, error) {
	edits := append([]jsonEdit(nil), fix.Edits...)
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	var out []byte
	at := 0
	for _, e := range edits {
		if e.Start < at || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("the edits of %q overlap or lie outside the file", fix.Message)
		}
		out = append(out, src[at:e.Start]...)
		out = append(out, e.New...)
		at = e.End
	}
	out = append(out, src[at:]...)
	formatted, err := format.Source(out)
	if err != nil {
		return nil, fmt.Errorf("the fix %q alone does not parse: %v", fix.Message, err)
	}
	return formatted, nil
}
