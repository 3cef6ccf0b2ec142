package fixes

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Check reports why fix cannot be offered, or nil when it can: every edit
// lies inside the file, no two edits overlap, and the fixed file parses. A
// driver panics or drops the diagnostic's fix on overlapping edits; a fix that
// does not parse would break the user's build. (The drivers format what they
// fix, as gofmt does.)
func (f *File) Check(fix analysis.SuggestedFix) error {
	tf := f.Fset.File(f.AST.FileStart)
	edits := append([]analysis.TextEdit(nil), fix.TextEdits...)
	for _, e := range edits {
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		if f.Fset.File(e.Pos) != tf || e.Pos < f.AST.FileStart || end > f.AST.FileEnd || end < e.Pos {
			return fmt.Errorf("an edit falls outside %s", tf.Name())
		}
	}
	slices.SortStableFunc(edits, func(a, b analysis.TextEdit) int {
		return cmp.Or(cmp.Compare(a.Pos, b.Pos), cmp.Compare(a.End, b.End))
	})
	// Apply the edits region by region, to the header (package clause and
	// imports) and the top-level declarations that they touch: parsing those
	// alone proves the same as parsing the whole file, at the cost of what
	// the fix touches rather than of the file, so that a file with many fixes
	// is not parsed once per fix.
	regions := f.regions()
	touched := map[int]bool{0: true}
	for _, e := range edits {
		end := e.Pos
		if e.End.IsValid() {
			end = e.End
		}
		first, last := regionOf(regions, f.offset(e.Pos)), regionOf(regions, f.offset(end)-1)
		if last < first {
			last = first
		}
		for i := first; i <= last; i++ {
			touched[i] = true
		}
	}
	order := slices.Sorted(maps.Keys(touched)) // not every region: a file may have thousands
	out := make([]byte, 0, 1024)
	var cuts []int     // where the header and each run of touched regions end in out
	next, done := 0, 0 // the next edit to apply; the end of the source it consumed
	for _, i := range order {
		r := regions[i]
		last := max(r[0], done)
		for ; next < len(edits) && (f.offset(edits[next].Pos) < r[1] || i == len(regions)-1); next++ {
			e := edits[next]
			start, end := f.offset(e.Pos), f.offset(e.Pos)
			if e.End.IsValid() {
				end = f.offset(e.End)
			}
			if start < last {
				return fmt.Errorf("edits %d and %d overlap at %s", next, next+1, f.Fset.Position(e.Pos))
			}
			out = append(out, f.Src[last:start]...)
			out = append(out, e.NewText...)
			last = max(end, last)
			done = last
		}
		if last < r[1] {
			out = append(out, f.Src[last:r[1]]...)
		}
		if !touched[i+1] {
			out = append(out, '\n') // the regions that follow are left out
			cuts = append(cuts, len(out))
		} else if i == 0 {
			cuts = append(cuts, len(out))
		}
	}
	sum := sha256.Sum256(out)
	if parsedBefore.has(sum) {
		return nil
	}
	if f.parsesInPieces(out, cuts) {
		parsedBefore.add(sum)
		return nil
	}
	if _, err := parser.ParseFile(token.NewFileSet(), tf.Name(), out, parser.SkipObjectResolution); err != nil {
		return fmt.Errorf("the fixed file would not parse: %v", err)
	}
	parsedBefore.add(sum)
	return nil
}

// parsedBefore are the texts that Check parsed without error in this
// process. Whether a text parses depends on nothing but its bytes, and a
// language server checks on every save the same fixes of the functions the
// edit did not touch: it parses only those of the function edited.
var parsedBefore = &parsedTexts{seen: map[[sha256.Size]byte]bool{}}

// parsedTexts is a set of texts, by their SHA-256, of at most maxParsedTexts
// (then it starts again from none), safe for concurrent use: the command
// analyzes several packages at once.
type parsedTexts struct {
	mu   sync.Mutex
	seen map[[sha256.Size]byte]bool
}

// maxParsedTexts bounds the memory of parsedBefore: 32 bytes a text and the
// map's own, a few MB.
const maxParsedTexts = 1 << 16

// has reports whether the text of SHA-256 sum is in the set.
func (p *parsedTexts) has(sum [sha256.Size]byte) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen[sum]
}

// add adds the text of SHA-256 sum to the set.
func (p *parsedTexts) add(sum [sha256.Size]byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.seen) >= maxParsedTexts {
		clear(p.seen)
	}
	p.seen[sum] = true
}

// parsesInPieces reports whether text, the fixed header and the runs of
// regions that a fix touches (each run after a newline, cut at cuts), parses
// because each piece does, with the pieces that the file's other fixes
// share (its header with the same imports, a run that ends with the same
// helper) parsed once. false means only that the pieces do not tell: Check
// then parses text whole, which also gives the error.
//
// The pieces tell: the header ends with a newline and parses alone as a
// package clause and import declarations; each run, after a package clause
// of its own, parses as declarations other than imports. The parser carries
// nothing from one top-level declaration to the next but where imports may
// come, no token runs across a newline where a run ends, and what the header
// and the runs parse as alone they parse as in text.
func (f *File) parsesInPieces(text []byte, cuts []int) bool {
	header := text[:cuts[0]]
	if len(header) == 0 || header[len(header)-1] != '\n' || !f.piece(header, true) {
		return false
	}
	for i, start := range cuts {
		end := len(text)
		if i+1 < len(cuts) {
			end = cuts[i+1]
		}
		if start < end && !f.piece(text[start:end], false) {
			return false
		}
	}
	return true
}

// piece parses text, the file's header or else a run of its declarations,
// once per text.
func (f *File) piece(text []byte, header bool) bool {
	memo := f.runsParsed
	if header {
		memo = f.headersParsed
	}
	if ok, seen := memo[string(text)]; seen {
		return ok
	}
	src := text
	if !header {
		src = append([]byte("package p\n"), text...)
	}
	file, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	ok := err == nil && file != nil
	for _, d := range file.Decls {
		gen, isGen := d.(*ast.GenDecl)
		ok = ok && header == (isGen && gen.Tok == token.IMPORT)
	}
	if memo == nil {
		memo = map[string]bool{}
		if header {
			f.headersParsed = memo
		} else {
			f.runsParsed = memo
		}
	}
	memo[string(text)] = ok
	return ok
}

// regions splits the file into its header (everything before the first
// declaration that is not an import) and one region per later top-level
// declaration, from its doc comment to the next one's; it computes them once.
func (f *File) regions() [][2]int {
	if f.regionCache != nil {
		return f.regionCache
	}
	var starts []int
	for _, decl := range f.AST.Decls {
		if gen, ok := decl.(*ast.GenDecl); ok && gen.Tok == token.IMPORT {
			continue
		}
		start := decl.Pos()
		switch d := decl.(type) {
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		}
		starts = append(starts, f.offset(start))
	}
	regions := [][2]int{}
	prev := 0
	for _, s := range starts {
		if s > prev {
			regions = append(regions, [2]int{prev, s})
			prev = s
		}
	}
	f.regionCache = append(regions, [2]int{prev, len(f.Src)})
	return f.regionCache
}

// regionOf returns the index of the region that holds the byte offset off.
func regionOf(regions [][2]int, off int) int {
	i := sort.Search(len(regions), func(i int) bool { return regions[i][1] > off })
	return min(i, len(regions)-1)
}
