package driver

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/go/packages"
)

// maxTypeErrors is how many type errors of one package are printed, as the
// compiler does.
const maxTypeErrors = 10

// pkgErrors are the errors of one package that could not be analyzed.
type pkgErrors struct {
	pkg  *packages.Package
	errs []packages.Error // what to print, cascades left out
	more int              // type errors left out beyond maxTypeErrors
}

// loadErrors returns, in dependency order, the packages of the graph under
// roots that have errors of their own, with the errors worth printing: the
// first syntax error of each file (go/parser's next ones are mostly its
// own confusion), type errors only when there is no syntax error, and none
// in a package whose errors come from an import that has errors. It also
// returns the packages that have no error of their own but import one that
// does: they cannot be analyzed either.
func loadErrors(roots []*packages.Package) (broken []pkgErrors, blocked map[*packages.Package]*packages.Package) {
	blocked = map[*packages.Package]*packages.Package{}
	cause := map[*packages.Package]*packages.Package{} // package => a broken package it is or imports
	packages.Visit(roots, nil, func(p *packages.Package) {
		var dep *packages.Package
		for _, imp := range p.Imports {
			if c := cause[imp]; c != nil {
				dep = c
				break
			}
		}
		own := ownErrors(p, dep != nil)
		switch {
		case len(own.errs) > 0:
			broken = append(broken, own)
			cause[p] = p
		case dep != nil:
			cause[p] = dep
			blocked[p] = dep
		}
	})
	return broken, blocked
}

// ownErrors selects the errors of p worth printing; depBroken says that an
// import of p has errors, which then explain p's type errors.
func ownErrors(p *packages.Package, depBroken bool) pkgErrors {
	pe := pkgErrors{pkg: p}
	var syntax, types, list []packages.Error
	seenFile := map[string]bool{}
	for _, e := range p.Errors {
		switch e.Kind {
		case packages.ParseError:
			if file, _ := splitPosition(e.Pos); !seenFile[file] {
				seenFile[file] = true
				syntax = append(syntax, e)
			}
		case packages.TypeError:
			types = append(types, e)
		default:
			list = append(list, e)
		}
	}
	pe.errs = append(list, syntax...)
	if len(syntax) == 0 && !depBroken {
		if len(types) > maxTypeErrors {
			pe.more = len(types) - maxTypeErrors
			types = types[:maxTypeErrors]
		}
		pe.errs = append(pe.errs, types...)
	}
	return pe
}

// errorText spells e with its file relative to the working directory when
// rel is set.
func errorText(e packages.Error, rel bool) string {
	if e.Pos == "" || e.Pos == "-" {
		return e.Msg
	}
	pos := e.Pos
	if rel {
		file, lineCol := splitPosition(pos)
		pos = shortPath(file) + lineCol
	}
	return pos + ": " + e.Msg
}

// summary is the one-line error of a package in -json.
func (pe pkgErrors) summary() string {
	var msgs []string
	for _, e := range pe.errs {
		msgs = append(msgs, errorText(e, false))
	}
	if pe.more > 0 {
		msgs = append(msgs, fmt.Sprintf("and %d more type errors", pe.more))
	}
	return strings.Join(msgs, "\n")
}

// reportProblems says which packages could not be analyzed, and why: the
// errors of each broken package once, under "# package" as go build prints
// them (when text is set), one line naming the packages that a broken
// dependency blocked, and an entry per root in the JSON tree. It returns the
// number of roots analyzed.
func reportProblems(roots []*packages.Package, res *analysisResult, tree jsonTree, text bool, stderr io.Writer) int {
	broken, blocked := loadErrors(roots)
	byPkg := map[*packages.Package]pkgErrors{}
	for _, pe := range broken {
		byPkg[pe.pkg] = pe
		if !text {
			continue
		}
		fmt.Fprintf(stderr, "# %s\n", pe.pkg.ID)
		for _, e := range pe.errs {
			fmt.Fprintln(stderr, errorText(e, true))
		}
		if pe.more > 0 {
			fmt.Fprintf(stderr, "too many errors (%d more)\n", pe.more)
		}
	}
	analyzed := 0
	var notAnalyzed []string
	for _, p := range roots {
		pe, isBroken := byPkg[p]
		switch {
		case isBroken:
			tree.addError(p.ID, pe.summary())
		case blocked[p] != nil:
			tree.addError(p.ID, fmt.Sprintf("not analyzed: it depends on %s, which has errors", blocked[p].ID))
			notAnalyzed = append(notAnalyzed, p.ID)
		case res.failed[p] != nil:
			msg := fmt.Sprintf("not analyzed: %v", res.failed[p])
			tree.addError(p.ID, msg)
			if text {
				fmt.Fprintf(stderr, "# %s\nhashalloc: %s\n", p.ID, msg)
			}
		default:
			analyzed++
		}
	}
	if len(notAnalyzed) > 0 && text {
		fmt.Fprintf(stderr, "hashalloc: not analyzed, because a package they depend on has errors: %s\n", strings.Join(notAnalyzed, ", "))
	}
	return analyzed
}
