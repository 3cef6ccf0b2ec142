package driver

import (
	"bytes"
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/internal/textedit"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// fixedFile is a file that the fixes change.
type fixedFile struct {
	name     string            // absolute
	pkg      *packages.Package // a package the file belongs to
	old, new []byte
	findings []*finding      // the findings whose fixes it takes
	edits    []textedit.Edit // merged
}

// notFixed is a finding whose fix was left out, and why.
type notFixed struct {
	f   *finding
	why string
}

// fixPlan is the outcome of merging the fixes of the findings.
type fixPlan struct {
	files    []*fixedFile // by name
	fixed    map[*finding]bool
	notFixed []notFixed
	errs     []error // files that cannot be fixed at all
}

// remaining returns the findings that the plan does not fix, in order.
func (p *fixPlan) remaining(findings []*finding) []*finding {
	var rest []*finding
	for _, f := range findings {
		if !p.fixed[f] {
			rest = append(rest, f)
		}
	}
	return rest
}

// planFixes merges the first fix of every finding, file by file, in the
// order of the findings: an edit already made by another fix is made once,
// a fix that changes the bytes another fix changes is left out (a second
// run applies it, if it still holds), the imports the fixes together leave
// unused are removed, and what they touched is formatted as gofmt would
// (see textedit.Finish): every other line stays as it was.
func planFixes(findings []*finding) *fixPlan {
	plan := &fixPlan{fixed: map[*finding]bool{}}
	byName := map[string]*fixedFile{}
	unreadable := map[string]error{}
	var fixes []*finding
	perFix := map[*finding]map[*fixedFile][]textedit.Edit{}
	byFile := map[*fixedFile][]int{} // the indexes into fixes of the fixes of each file, in order
	for _, f := range findings {
		if !f.hasFix() {
			continue
		}
		perFile, err := editsByFile(f.pkg.Fset, f.diag.SuggestedFixes[0])
		if err != nil {
			plan.notFixed = append(plan.notFixed, notFixed{f, err.Error()})
			continue
		}
		edits := map[*fixedFile][]textedit.Edit{}
		var why string
		for name, fe := range perFile {
			ff := byName[name]
			if ff == nil {
				if err, ok := unreadable[name]; ok {
					why = err.Error()
					break
				}
				var err error
				if ff, err = readFixedFile(f.pkg, name, fe.size); err != nil {
					unreadable[name] = err
					plan.errs = append(plan.errs, err)
					why = err.Error()
					break
				}
				byName[name] = ff
			}
			edits[ff] = fe.edits
		}
		if why != "" {
			plan.notFixed = append(plan.notFixed, notFixed{f, why})
			continue
		}
		perFix[f] = edits
		for ff := range edits {
			byFile[ff] = append(byFile[ff], len(fixes))
		}
		fixes = append(fixes, f)
	}

	// Merge every file's fixes at once. A fix that conflicts with the
	// fixes before it (the first, in order, of all files) is left out, and
	// the files it edits are merged again without it: what merging the
	// fixes one by one, in order, leaving out each that conflicts, gives
	// (a second run applies what is left out, if it still holds).
	left := map[int]bool{}
	bad := map[*fixedFile]int{}
	merge := func(ff *fixedFile) {
		var lists [][]textedit.Edit
		var index []int
		for _, i := range byFile[ff] {
			if !left[i] {
				lists = append(lists, perFix[fixes[i]][ff])
				index = append(index, i)
			}
		}
		m, b := textedit.MergeAll(lists)
		ff.edits = m
		if b >= 0 {
			bad[ff] = index[b]
		} else {
			delete(bad, ff)
		}
	}
	for ff := range byFile {
		merge(ff)
	}
	for len(bad) > 0 {
		first := -1
		for _, i := range bad {
			if first < 0 || i < first {
				first = i
			}
		}
		left[first] = true
		f := fixes[first]
		plan.notFixed = append(plan.notFixed, notFixed{f, "it overlaps the fix of another finding (run hashalloc -fix again)"})
		for ff := range perFix[f] {
			merge(ff)
		}
	}
	order := map[*finding]int{}
	for i, f := range findings {
		order[f] = i
	}
	slices.SortStableFunc(plan.notFixed, func(a, b notFixed) int { return cmp.Compare(order[a.f], order[b.f]) })
	for i, f := range fixes {
		if left[i] {
			continue
		}
		for ff := range perFix[f] {
			ff.findings = append(ff.findings, f)
		}
	}

	for _, ff := range byName {
		src, err := textedit.Finish(ff.old, ff.edits, typesOf(ff.pkg))
		if err != nil {
			// Should not happen: every fix is checked alone. Leave the file
			// as it is rather than write code that does not parse.
			plan.errs = append(plan.errs, fmt.Errorf("%s: the fixes together do not give valid Go (%v); the file is left unchanged", shortPath(ff.name), err))
			for _, f := range ff.findings {
				plan.notFixed = append(plan.notFixed, notFixed{f, "the fixes of its file do not fit together"})
			}
			continue
		}
		if bytes.Equal(src, ff.old) {
			continue
		}
		ff.new = src
		plan.files = append(plan.files, ff)
		for _, f := range ff.findings {
			plan.fixed[f] = true
		}
	}
	slices.SortFunc(plan.files, func(a, b *fixedFile) int { return strings.Compare(a.name, b.name) })
	return plan
}

// fileEdits are the edits of one fix to one file, and the file's size.
type fileEdits struct {
	size  int
	edits []textedit.Edit // sorted
}

// editsByFile converts the edits of fix into byte offsets, by file.
func editsByFile(fset *token.FileSet, fix analysis.SuggestedFix) (map[string]*fileEdits, error) {
	byFile := map[*token.File][]analysis.TextEdit{}
	for _, e := range fix.TextEdits {
		tf := fset.File(e.Pos)
		if tf == nil {
			return nil, fmt.Errorf("the fix has an edit at an invalid position")
		}
		if fset.Position(e.Pos).Filename != tf.Name() {
			return nil, fmt.Errorf("the fix edits a file mapped by //line directives")
		}
		byFile[tf] = append(byFile[tf], e)
	}
	perFile := map[string]*fileEdits{}
	for tf, edits := range byFile {
		sorted, err := textedit.FromAnalysis(fset, tf, edits)
		if err != nil {
			return nil, fmt.Errorf("the fix is not valid: %v", err)
		}
		perFile[tf.Name()] = &fileEdits{size: tf.Size(), edits: sorted}
	}
	return perFile, nil
}

// readFixedFile reads a file that fixes will change, checking that it is
// still the file that was analyzed, of size bytes.
func readFixedFile(pkg *packages.Package, name string, size int) (*fixedFile, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if len(src) != size {
		return nil, fmt.Errorf("%s changed since it was analyzed; it is not fixed", shortPath(name))
	}
	return &fixedFile{name: name, pkg: pkg, old: src}, nil
}

// typesOf returns p.Types, or for a package that was only listed (its
// result came from the cache) a stand-in that imports every package p
// imports, directly or not, by path and name: what textedit.Finish asks.
func typesOf(p *packages.Package) *types.Package {
	if p.Types != nil {
		return p.Types
	}
	var imports []*types.Package
	packages.Visit([]*packages.Package{p}, nil, func(dep *packages.Package) {
		if dep != p {
			imports = append(imports, types.NewPackage(dep.PkgPath, dep.Name))
		}
	})
	stand := types.NewPackage(p.PkgPath, p.Name)
	stand.SetImports(imports)
	return stand
}
