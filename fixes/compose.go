package fixes

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ComposeImports plans the import edits of the fixes of one package's files
// together, file by file, so that any set of them composes in every driver:
// each fix keeps its meaning alone (what it imports and removes), and the
// import edits of two fixes are either the same edit or apart (they may
// touch). The drivers merge fixes differently — go fix and go vet -fix
// three-way merge them one after another, golangci-lint --fix makes the
// union of every edit of a file and applies none of them when two overlap,
// hashalloc -fix and the language server merge them as go fix does — and
// all of them format the file, which removes an import written twice in
// one group. So the same import is added at the same place by every fix
// that adds it, and no fix's import edit falls inside another's deletion:
//
//   - a file with a parenthesized import declaration takes every new import
//     in the first one, at its sorted place among the declaration's imports
//     as the file has them (not as the fix leaves them), or in a new group
//     before the closing parenthesis, after a blank line that follows an
//     import no fix removes;
//   - a file whose import declarations are all single has the last one that
//     no fix removes turned into a parenthesized declaration by the fixes
//     that add imports, the same three edits in each of them;
//   - an import goes with its line, and a declaration it empties with the
//     declaration, unless new imports go in it.
//
// The fixes of a file that only one fix of changes imports, and files whose
// imports are not laid out as gofmt lays them out (two on a line), or that
// import "C", are left as they are. source returns a file's content.
func ComposeImports(fset *token.FileSet, files []*ast.File, source func(*token.File) ([]byte, error), fixes []*analysis.SuggestedFix) {
	byFile := map[*token.File][]*analysis.SuggestedFix{}
	for _, fix := range fixes {
		if tf := fixFile(fset, fix); tf != nil {
			byFile[tf] = append(byFile[tf], fix)
		}
	}
	for _, f := range files {
		tf := fset.File(f.FileStart)
		if len(byFile[tf]) < 2 {
			continue
		}
		src, err := source(tf)
		if err != nil || len(src) != tf.Size() {
			continue
		}
		composeFile(&File{Fset: fset, AST: f, Src: src}, byFile[tf])
	}
}

// fixFile returns the file that every edit of fix lies in, or nil.
func fixFile(fset *token.FileSet, fix *analysis.SuggestedFix) *token.File {
	var tf *token.File
	for _, e := range fix.TextEdits {
		f := fset.File(e.Pos)
		if f == nil || tf != nil && f != tf {
			return nil
		}
		tf = f
	}
	return tf
}

// importIntent is what one fix does to a file's imports.
type importIntent struct {
	fix    *analysis.SuggestedFix
	others []analysis.TextEdit // its edits outside the imports
	adds   []newImport         // sorted by path
	drops  map[*ast.ImportSpec]bool
}

// importLayout is a file's import declarations, with the region of the
// file they take: from the first one's line to the line after the last
// one, and a blank line after it.
type importLayout struct {
	f          *File
	decls      []*ast.GenDecl
	start, end int // offsets of the region

	applied map[string]appliedImports // apply's results, by its edits: many fixes make the same
	// before holds the file's imports by key (see intent), built once;
	// twice says that two of them have the same key.
	before map[string]*ast.ImportSpec
	twice  bool
}

// appliedImports is a result of importLayout.apply.
type appliedImports struct {
	keys []string
	ok   bool
}

// composeFile plans the import edits of fixes, which all edit f.
func composeFile(f *File, fixes []*analysis.SuggestedFix) {
	l, ok := layout(f)
	if !ok {
		return
	}
	var intents []*importIntent
	changing := 0
	for _, fix := range fixes {
		in, ok := l.intent(fix)
		if !ok {
			return
		}
		if len(in.adds) > 0 || len(in.drops) > 0 {
			changing++
		}
		intents = append(intents, in)
	}
	if changing < 2 {
		return
	}
	plan := l.plan(intents)
	if plan == nil {
		return
	}
	// Every fix must still do what it did to the imports, or none changes.
	for i, in := range intents {
		if len(in.adds) == 0 && len(in.drops) == 0 {
			continue
		}
		got, ok := l.apply(plan[i])
		if !ok || !slices.Equal(got, l.expected(in)) {
			return
		}
	}
	for i, in := range intents {
		if len(in.adds) == 0 && len(in.drops) == 0 {
			continue
		}
		in.fix.TextEdits = append(plan[i], in.others...)
	}
}

// layout returns f's imports, or false when there are none or they are
// laid out as gofmt would not: a composed plan needs every import and
// parenthesis on a line of its own.
func layout(f *File) (*importLayout, bool) {
	l := &importLayout{f: f}
	for _, d := range f.AST.Decls {
		gen, ok := d.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			break
		}
		l.decls = append(l.decls, gen)
	}
	if len(l.decls) == 0 {
		return nil, false
	}
	line := func(p token.Pos) int { return f.Fset.Position(p).Line }
	prev := 0 // the last line taken
	for _, gen := range l.decls {
		if line(gen.Pos()) <= prev {
			return nil, false
		}
		if gen.Lparen.IsValid() {
			prev = line(gen.Lparen)
		}
		for _, s := range gen.Specs {
			spec := s.(*ast.ImportSpec)
			if spec.Path.Value == `"C"` || line(specStart(spec)) <= prev {
				return nil, false
			}
			prev = line(spec.End())
		}
		if gen.Lparen.IsValid() {
			if line(gen.Rparen) <= prev {
				return nil, false
			}
			prev = line(gen.Rparen)
		}
	}
	start := l.decls[0].Pos()
	if l.decls[0].Doc != nil {
		start = l.decls[0].Doc.Pos()
	}
	l.start = f.offset(f.LineStart(start))
	l.end = f.offset(f.NextLine(l.decls[len(l.decls)-1].End()))
	if l.end < len(f.Src) && f.Src[l.end] == '\n' {
		l.end++ // a declaration deleted with the blank line after it
	}
	return l, true
}

// key identifies an import: its name as written (empty for none) and path.
func key(spec *ast.ImportSpec) string {
	name := ""
	if spec.Name != nil {
		name = spec.Name.Name
	}
	return name + " " + spec.Path.Value
}

// intent splits fix's edits into those of the imports and the others, and
// says what the former do: which imports they add and which they remove.
// It reports false when that cannot be told.
func (l *importLayout) intent(fix *analysis.SuggestedFix) (*importIntent, bool) {
	tf := l.f.Fset.File(l.f.AST.FileStart)
	in := &importIntent{fix: fix, drops: map[*ast.ImportSpec]bool{}}
	var mine []analysis.TextEdit
	for _, e := range fix.TextEdits {
		start, end := tf.Offset(e.Pos), tf.Offset(e.Pos)
		if e.End.IsValid() {
			end = tf.Offset(e.End)
		}
		inside := l.start <= start && end <= l.end
		if inside && start == end && (start == l.start || start == l.end) {
			// An insertion at the region's edge: an import declaration, the
			// parenthesis that closes one, or a declaration of the fix's
			// before the first one after them.
			text := strings.TrimLeft(string(e.NewText), "\n")
			inside = strings.HasPrefix(text, "import") || strings.HasPrefix(text, ")")
		}
		switch {
		case inside:
			mine = append(mine, e)
		case start < l.end && end > l.start:
			return nil, false // an edit across the imports' region
		default:
			in.others = append(in.others, e)
		}
	}
	if len(mine) == 0 {
		return in, true
	}
	after, ok := l.apply(mine)
	if !ok {
		return nil, false
	}
	if l.before == nil {
		l.before = map[string]*ast.ImportSpec{}
		for _, spec := range l.f.AST.Imports {
			l.twice = l.twice || l.before[key(spec)] != nil
			l.before[key(spec)] = spec
		}
	}
	if l.twice {
		return nil, false
	}
	before := l.before
	kept := map[string]bool{}
	for _, k := range after {
		if kept[k] {
			return nil, false
		}
		kept[k] = true
		if before[k] != nil {
			continue
		}
		name, path, _ := strings.Cut(k, " ")
		p, err := strconv.Unquote(path)
		if err != nil {
			return nil, false
		}
		if name == "" {
			name = pathName(p)
		}
		in.adds = append(in.adds, newImport{path: p, name: name})
	}
	for k, spec := range before {
		if !kept[k] {
			in.drops[spec] = true
		}
	}
	slices.SortFunc(in.adds, func(a, b newImport) int { return cmp.Compare(a.path, b.path) })
	return in, true
}

// apply applies import edits to the region and returns the keys of the
// imports it then declares, sorted; false when the result does not parse
// or an edit falls outside the region.
func (l *importLayout) apply(edits []analysis.TextEdit) ([]string, bool) {
	tf := l.f.Fset.File(l.f.AST.FileStart)
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b analysis.TextEdit) int {
		return cmp.Or(cmp.Compare(a.Pos, b.Pos), cmp.Compare(a.End, b.End))
	})
	var id strings.Builder // the edits, as offsets and texts
	for _, e := range sorted {
		end := e.Pos
		if e.End.IsValid() {
			end = e.End
		}
		fmt.Fprintf(&id, "%d:%d:%q;", e.Pos, end, e.NewText)
	}
	if r, ok := l.applied[id.String()]; ok {
		return r.keys, r.ok
	}
	keys, ok := l.parseApplied(tf, sorted)
	if l.applied == nil {
		l.applied = map[string]appliedImports{}
	}
	l.applied[id.String()] = appliedImports{keys, ok}
	return keys, ok
}

// parseApplied is apply without its memory: sorted are the edits in order.
func (l *importLayout) parseApplied(tf *token.File, sorted []analysis.TextEdit) ([]string, bool) {
	var b strings.Builder
	b.WriteString("package p\n")
	last := l.start
	for _, e := range sorted {
		start, end := tf.Offset(e.Pos), tf.Offset(e.Pos)
		if e.End.IsValid() {
			end = tf.Offset(e.End)
		}
		if start < last || end > l.end {
			return nil, false
		}
		b.Write(l.f.Src[last:start])
		b.Write(e.NewText)
		last = end
	}
	b.Write(l.f.Src[last:l.end])
	file, err := parser.ParseFile(token.NewFileSet(), "", b.String(), parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	var keys []string
	for _, spec := range file.Imports {
		keys = append(keys, key(spec))
	}
	slices.Sort(keys)
	return keys, true
}

// expected returns the keys of the imports the region declares after in's
// changes, sorted.
func (l *importLayout) expected(in *importIntent) []string {
	var keys []string
	for _, spec := range l.f.AST.Imports {
		if !in.drops[spec] {
			keys = append(keys, key(spec))
		}
	}
	for _, a := range in.adds {
		name := ""
		if a.name != pathName(a.path) {
			name = a.name
		}
		keys = append(keys, name+" "+strconv.Quote(a.path))
	}
	slices.Sort(keys)
	return keys
}

// plan returns the import edits of each of intents, planned together (nil
// for an intent that changes no import), or nil when it cannot plan them.
func (l *importLayout) plan(intents []*importIntent) [][]analysis.TextEdit {
	f := l.f
	removed := map[*ast.ImportSpec]bool{} // by any fix
	adding := false
	for _, in := range intents {
		for spec := range in.drops {
			removed[spec] = true
		}
		adding = adding || len(in.adds) > 0
	}
	var target *ast.GenDecl // the declaration that takes new imports
	for _, gen := range l.decls {
		if gen.Lparen.IsValid() {
			target = gen
			break
		}
	}
	// A file of single declarations, to which every fix that adds imports
	// adds the same: each of them adds one declaration of those, the same
	// edit, before the last declaration (where the deletion of a
	// declaration never reaches).
	var alike []newImport
	if adding && target == nil {
		alike = sameAdds(intents)
	}
	var single *ast.GenDecl // the single declaration turned into a parenthesized one
	if adding && target == nil && alike == nil {
		for _, gen := range l.decls {
			if single == nil || !removed[gen.Specs[0].(*ast.ImportSpec)] {
				single = gen
			}
		}
		target = single
	}
	// Whether the fixes that parenthesize single put a group of the
	// standard library before its import: when it is a module's that stays,
	// and one of them adds the standard library's.
	before := false
	if single != nil {
		spec := single.Specs[0].(*ast.ImportSpec)
		p, _ := strconv.Unquote(spec.Path.Value)
		for _, in := range intents {
			before = before || !isStd(p) && !removed[spec] && slices.ContainsFunc(in.adds, newImport.std)
		}
		// The edits turn single into a parenthesized declaration: make sure
		// that nothing else is inserted or changed where its parenthesis
		// closes.
		end := f.NextLine(f.LineEnd(single.End()))
		for _, in := range intents {
			for _, e := range in.others {
				if e.Pos == end || e.Pos <= end && end < e.End {
					return nil
				}
			}
		}
	}

	plans := make([][]analysis.TextEdit, len(intents))
	for i, in := range intents {
		if len(in.adds) == 0 && len(in.drops) == 0 {
			continue
		}
		var edits []analysis.TextEdit
		for _, gen := range l.decls {
			var gone []*ast.ImportSpec
			for _, s := range gen.Specs {
				if in.drops[s.(*ast.ImportSpec)] {
					gone = append(gone, s.(*ast.ImportSpec))
				}
			}
			switch {
			case gen == single:
				// Below: its import goes, its declaration stays.
			case len(gone) == 0:
			case len(gone) == len(gen.Specs) && (gen != target || !adding):
				edits = append(edits, f.deleteDecl(gen))
			default:
				for _, spec := range gone {
					edits = append(edits, f.deleteSpec(spec))
				}
			}
		}
		switch {
		case single != nil && (len(in.adds) > 0 || in.drops[single.Specs[0].(*ast.ImportSpec)]):
			edits = append(edits, f.parenthesize(single, in.adds, in.drops[single.Specs[0].(*ast.ImportSpec)], before)...)
		case alike != nil && len(in.adds) > 0:
			last := l.decls[len(l.decls)-1]
			start := last.Pos()
			if last.Doc != nil {
				start = last.Doc.Pos()
			}
			at := f.LineStart(start)
			edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(importDecl(in.adds) + "\n")})
		case single == nil && target != nil:
			for _, a := range in.adds {
				edits = append(edits, f.placeSpec(target, a, removed)...)
			}
		}
		// In order, each edit once: a new group's blank line is the same
		// edit for each of its imports.
		slices.SortStableFunc(edits, func(a, b analysis.TextEdit) int {
			return cmp.Or(cmp.Compare(a.Pos, b.Pos), cmp.Compare(a.End, b.End))
		})
		plans[i] = slices.CompactFunc(edits, sameEdit)
	}
	return plans
}

// sameAdds returns the imports that every intent that adds imports adds,
// when they all add the same, or nil.
func sameAdds(intents []*importIntent) []newImport {
	var same []newImport
	for _, in := range intents {
		switch {
		case len(in.adds) == 0:
		case same == nil:
			same = in.adds
		case !slices.Equal(same, in.adds):
			return nil
		}
	}
	return same
}

// placeSpec inserts a's line into gen, at its sorted place within the
// first group of a's kind (standard library or not) among gen's imports as
// the file has them, or else in a new group: the standard library's before
// the others, as goimports puts it (unless a fix removes the import it would
// go before), and a module's after them: the line, before the closing
// parenthesis, and a blank line made by replacing the newline that ends the
// line of gen's last import, an edit that every fix starting the group makes
// alike (when every import before it goes too, the blank line opens the
// block, where gofmt removes it). removed are the imports that fixes remove.
//
// The line is inserted at the end of the line before its place (a line
// deleted is deleted from that point, see deleteSpec), and after the last
// import of its group at the end of that import's line: so a line added to
// the group that ends gen goes before the newline that the blank line
// replaces, and the new group's after it. No two fixes insert at one
// point what must come in one order, and every driver merges them alike.
func (f *File) placeSpec(gen *ast.GenDecl, a newImport, removed map[*ast.ImportSpec]bool) []analysis.TextEdit {
	line := func(p token.Pos) int { return f.Fset.Position(p).Line }
	insert := func(at token.Pos, indent string) []analysis.TextEdit {
		return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte("\n" + indent + a.specText())}}
	}
	var last *ast.ImportSpec
	for _, s := range gen.Specs {
		is := s.(*ast.ImportSpec)
		p, _ := strconv.Unquote(is.Path.Value)
		if isStd(p) != a.std() {
			if last != nil {
				break
			}
			continue
		}
		if last != nil && line(specStart(is)) > line(last.End())+1 {
			break // a blank line ends the group
		}
		if p > a.path {
			return insert(f.LineStart(specStart(is))-1, f.Indent(is.Pos()))
		}
		last = is
	}
	if last != nil {
		return insert(f.LineEnd(last.End()), f.Indent(last.Pos()))
	}
	if len(gen.Specs) > 0 && a.std() && !removed[gen.Specs[0].(*ast.ImportSpec)] && line(specStart(gen.Specs[0].(*ast.ImportSpec))) > line(gen.Lparen) {
		first := gen.Specs[0].(*ast.ImportSpec)
		// The standard library's first, as goimports groups imports: its
		// line at the start of the first import's line, and the blank line
		// after the group made by replacing that line's first byte, an edit
		// that every fix starting the group makes alike.
		at := f.LineStart(specStart(first))
		return []analysis.TextEdit{
			{Pos: at, End: at, NewText: []byte(f.Indent(first.Pos()) + a.specText() + "\n")},
			{Pos: at, End: at + 1, NewText: []byte("\n" + string(f.Src[f.offset(at)]))},
		}
	}
	at := f.LineStart(gen.Rparen)
	edits := []analysis.TextEdit{{Pos: at, End: at, NewText: []byte("\t" + a.specText() + "\n")}}
	if len(gen.Specs) > 0 {
		blank := f.LineEnd(gen.Specs[len(gen.Specs)-1].End())
		edits = append([]analysis.TextEdit{{Pos: blank, End: blank + 1, NewText: []byte("\n\n")}}, edits...)
	}
	return edits
}

// parenthesize turns gen, a single import declaration, into a parenthesized
// one that also declares adds, and no longer its own import when drop. The
// groups are the standard library's, then the others', with the same edits
// in every fix that parenthesizes gen, so that they merge: the parentheses,
// and the blank line between the groups (made by replacing the newline that
// ends gen's line after its import of the standard library; before its
// import of a module, made by replacing the first byte of the import, when
// before says that a fix adds one of the standard library there and none
// removes the module's).
//
//	import "crypto/sha256"
//	import (
//		"crypto/sha256"
//		"sync"
//
//		"github.com/hashalloc/hashalloc/runtime/hashsum"
//	)
//
// The closing parenthesis replaces the blank line after gen when there is
// one, so that the lines of a new group of modules, inserted before it, are
// ordered with it; without a blank line, the new imports make one group.
func (f *File) parenthesize(gen *ast.GenDecl, adds []newImport, drop, before bool) []analysis.TextEdit {
	spec := gen.Specs[0].(*ast.ImportSpec)
	p, _ := strconv.Unquote(spec.Path.Value)
	pos, eol := spec.Pos(), f.LineEnd(gen.End())
	end := f.NextLine(eol)
	closed := f.offset(end) < len(f.Src) && f.Src[f.offset(end)] == '\n'
	before = before && f.offset(pos) > 0 && f.Src[f.offset(pos)-1] == ' '
	var edits []analysis.TextEdit
	if before {
		edits = append(edits,
			analysis.TextEdit{Pos: pos - 1, End: pos, NewText: []byte(" (")},
			analysis.TextEdit{Pos: pos, End: pos + 1, NewText: []byte("\n\n\t" + string(f.Src[f.offset(pos)]))})
	} else {
		edits = append(edits, analysis.TextEdit{Pos: pos, End: pos, NewText: []byte("(\n\t")})
	}
	if drop {
		edits = append(edits, analysis.TextEdit{Pos: pos, End: spec.End()})
	}
	blank := false
	for _, a := range adds {
		switch {
		case before && a.std():
			edits = append(edits, analysis.TextEdit{Pos: pos, End: pos, NewText: []byte("\n\t" + a.specText())})
		case closed && isStd(p) && !a.std():
			if !blank {
				edits = append(edits, analysis.TextEdit{Pos: eol, End: eol + 1, NewText: []byte("\n\n")})
				blank = true
			}
			edits = append(edits, analysis.TextEdit{Pos: end, End: end, NewText: []byte("\t" + a.specText() + "\n")})
		default:
			edits = append(edits, analysis.TextEdit{Pos: eol, End: eol, NewText: []byte("\n\t" + a.specText())})
		}
	}
	if closed {
		edits = append(edits, analysis.TextEdit{Pos: end, End: end + 1, NewText: []byte(")\n\n")})
	} else {
		edits = append(edits, analysis.TextEdit{Pos: end, End: end, NewText: []byte(")\n")})
	}
	slices.SortStableFunc(edits, func(a, b analysis.TextEdit) int {
		return cmp.Or(cmp.Compare(a.Pos, b.Pos), cmp.Compare(a.End, b.End))
	})
	return edits
}

// PlaceHelpers moves the package-level declarations that fixes add for what
// they share — an inline pool, a one-shot HMAC, a sum helper, the bytes of a
// concatenation — from where their builders insert them (after the imports,
// or at the end of the file) to where a reader meets them: just before the
// top-level declaration that holds the first finding, in source order, of
// the fixes of its file that declare it. fixes are the fixes of a package's
// findings in the order they are reported, at where each finding is, and
// already proved (see fixes.Verifier): a package-level declaration may go
// anywhere at the top level of its file without changing how the package
// type-checks, so moving one changes neither the proof nor what each fix
// means alone.
//
// Each fix stands alone (an editor may apply one of a file's fixes and not
// the others), so every fix that needs a helper declares it; the drivers
// merge the declarations into one because each fix makes the same edit at
// the same place. So a helper's place is chosen from all the fixes of its
// file that declare it, and all of them move it there; several helpers
// bound for one place go in the order in which the fixes declare them
// first, each group that the same fixes declare at an offset of its own, so
// that every driver writes them in that order (see placeHelpers). A helper
// stays where it is when another edit of the file's fixes touches its place.
func PlaceHelpers(fset *token.FileSet, files []*ast.File, source func(*token.File) ([]byte, error), fixes []*analysis.SuggestedFix, at []token.Pos) {
	byFile := map[*token.File][]int{}
	for i, fix := range fixes {
		if tf := fixFile(fset, fix); tf != nil {
			byFile[tf] = append(byFile[tf], i)
		}
	}
	for _, file := range files {
		tf := fset.File(file.FileStart)
		if len(byFile[tf]) == 0 {
			continue
		}
		src, err := source(tf)
		if err != nil || len(src) != tf.Size() {
			continue
		}
		f := &File{Fset: fset, AST: file, Src: src}
		var these []*analysis.SuggestedFix
		var where []token.Pos
		for _, i := range byFile[tf] {
			these = append(these, fixes[i])
			where = append(where, at[i])
		}
		f.placeHelpers(these, where)
	}
}

// helperDecl is a declaration that fixes of one file insert alike.
type helperDecl struct {
	rank  int       // the order in which the fixes declare it first
	first token.Pos // the first of its fixes' findings, in source order
	fixes []int     // the fixes that declare it, by index
	to    token.Pos // its new place; invalid when it stays
	edit  analysis.TextEdit
	// lead is the helper whose edit inserts this one's text too (itself,
	// when it is the first of its group): the helpers bound for one place
	// that the same fixes declare are inserted as one text.
	lead *helperDecl
}

// placeHelpers places the helpers of fixes, all of f, found at where.
//
// Two fixes that insert different texts at one offset are ordered there by
// each driver as it merges them (hashalloc -fix in the order of the
// findings, analysistest in the order of the fixes' messages), so the
// helpers bound for one place go to distinct offsets, in the order of their
// ranks, one for each group of helpers that the same fixes declare:
//
//	}                      the end of the previous declaration: "\n\n" + helper
//	                       the blank line's start: "\n" + helper + "\n"
//	func First() {         the place: helper + "\n\n"
//
// Each fix alone, and any of them together, then leaves one blank line
// between declarations, and every driver writes the helpers in one order.
// More groups than offsets share the last, in the order of their ranks.
func (f *File) placeHelpers(fixes []*analysis.SuggestedFix, where []token.Pos) {
	// Where the builders insert helpers: before the first declaration after
	// the imports (firstDecl), and at the end of the file.
	top, end := f.firstDecl(), f.AST.FileEnd
	helpers := map[string]*helperDecl{}
	var ordered []string // the helpers' texts, by rank
	// The fixes of a file insert the same few helpers: each text is parsed
	// once.
	declares := map[string]bool{}
	isHelper := func(e analysis.TextEdit) bool {
		if (e.Pos != top && e.Pos != end) || e.End.IsValid() && e.End != e.Pos {
			return false
		}
		only, ok := declares[string(e.NewText)]
		if !ok {
			only = declaresOnly(e.NewText)
			declares[string(e.NewText)] = only
		}
		return only
	}
	for i, fix := range fixes {
		for _, e := range fix.TextEdits {
			if !isHelper(e) {
				continue
			}
			h := helpers[string(e.NewText)]
			if h == nil {
				h = &helperDecl{rank: len(helpers), first: where[i]}
				helpers[string(e.NewText)] = h
				ordered = append(ordered, string(e.NewText))
			}
			h.first = min(h.first, where[i])
			if len(h.fixes) == 0 || h.fixes[len(h.fixes)-1] != i {
				h.fixes = append(h.fixes, i)
			}
		}
	}
	if len(helpers) == 0 {
		return
	}
	byPlace := map[token.Pos][]*helperDecl{}
	var places []token.Pos
	for _, text := range ordered {
		h := helpers[text]
		d := f.DeclAt(h.first)
		if d == nil {
			continue
		}
		start := d.Pos()
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		}
		to := f.LineStart(start)
		if f.touched(fixes, to, isHelper) {
			continue
		}
		h.to = to
		if byPlace[to] == nil {
			places = append(places, to)
		}
		// The helpers of one place that the same fixes declare form one
		// group, led by the first of them, whose edit inserts them all.
		lead := h
		for _, o := range byPlace[to] {
			if o.lead == o && slices.Equal(o.fixes, h.fixes) {
				lead = o
				break
			}
		}
		h.lead = lead
		byPlace[to] = append(byPlace[to], h)
	}
	for _, to := range places {
		var groups []*helperDecl // the leads, by rank
		texts := map[*helperDecl][]string{}
		for _, h := range byPlace[to] {
			if h.lead == h {
				groups = append(groups, h)
			}
		}
		for _, text := range ordered {
			if h := helpers[text]; h.to == to {
				texts[h.lead] = append(texts[h.lead], strings.Trim(text, "\n"))
			}
		}
		slots := f.helperSlots(fixes, to, isHelper)
		for i, g := range groups {
			// Groups in excess share the last slot.
			slot := slots[min(i, len(slots)-1)]
			g.edit = analysis.TextEdit{Pos: slot.at, End: slot.at, NewText: []byte(slot.before + strings.Join(texts[g], "\n\n") + slot.after)}
		}
	}
	for _, fix := range fixes {
		var out []analysis.TextEdit
		var moved []*helperDecl // the leads of the fix's groups
		for _, e := range fix.TextEdits {
			h := helpers[string(e.NewText)]
			switch {
			case !isHelper(e) || !h.to.IsValid():
				out = append(out, e)
			case h.lead == h && !slices.Contains(moved, h):
				moved = append(moved, h)
			}
		}
		if len(out) == len(fix.TextEdits) {
			continue
		}
		// The moved edits by rank, then all of them by place: the
		// drivers keep the order of insertions at one point.
		slices.SortFunc(moved, func(a, b *helperDecl) int { return cmp.Compare(a.rank, b.rank) })
		for _, h := range moved {
			out = append(out, h.edit)
		}
		slices.SortStableFunc(out, func(a, b analysis.TextEdit) int { return cmp.Compare(a.Pos, b.Pos) })
		fix.TextEdits = out
	}
}

// helperSlot is an offset at which a helper may be inserted before a
// declaration, with the newlines that its text takes there.
type helperSlot struct {
	at            token.Pos
	before, after string
}

// helperSlots returns the offsets at which helpers go before the
// declaration whose line starts at to, earliest first: the end of the
// previous line's text and, when a blank line comes between, that line's
// start, as long as no edit of fixes but a helper's touches them; then to
// itself. A helper has a doc comment, which a blank line precedes.
func (f *File) helperSlots(fixes []*analysis.SuggestedFix, to token.Pos, isHelper func(analysis.TextEdit) bool) []helperSlot {
	slots := []helperSlot{{at: to, after: "\n\n"}}
	off := f.offset(to)
	nl := func(i int) bool { return i >= 0 && f.Src[i] == '\n' }
	switch {
	case !nl(off-1) || f.touched(fixes, to-1, isHelper):
		return slots
	case !nl(off - 2):
		// var a int        the end of the line: "\n\n" + helper + "\n"
		// var b int        to
		return append([]helperSlot{{at: to - 1, before: "\n\n", after: "\n"}}, slots...)
	case nl(off-3) || f.touched(fixes, to-2, isHelper):
		return append([]helperSlot{{at: to - 1, before: "\n", after: "\n"}}, slots...)
	}
	return append([]helperSlot{{at: to - 2, before: "\n\n"}, {at: to - 1, before: "\n", after: "\n"}}, slots...)
}

// touched reports whether an edit of fixes other than a helper's insertion
// starts, ends or lies across pos: then an insertion at pos would be ordered
// with it differently by different drivers.
func (f *File) touched(fixes []*analysis.SuggestedFix, pos token.Pos, isHelper func(analysis.TextEdit) bool) bool {
	for _, fix := range fixes {
		for _, e := range fix.TextEdits {
			end := e.End
			if !end.IsValid() {
				end = e.Pos
			}
			if !isHelper(e) && e.Pos <= pos && pos <= end {
				return true
			}
		}
	}
	return false
}

// declaresOnly reports whether text is one or more top-level declarations
// other than imports, with their comments.
func declaresOnly(text []byte) bool {
	file, err := parser.ParseFile(token.NewFileSet(), "", append([]byte("package p\n"), text...), parser.SkipObjectResolution)
	if err != nil || len(file.Decls) == 0 {
		return false
	}
	for _, d := range file.Decls {
		if gen, ok := d.(*ast.GenDecl); ok && gen.Tok == token.IMPORT {
			return false
		}
	}
	return true
}
