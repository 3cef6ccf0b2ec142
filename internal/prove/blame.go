package prove

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Blame names a fix that breaks something on the copy, and what it breaks.
type Blame struct {
	Posn     string `json:"posn"` // the finding's position in your tree
	Category string `json:"category"`
	Fix      string `json:"fix"`  // the fix's message
	What     string `json:"what"` // what it does: "makes the tests of ./p fail"
}

// The states of the copy that blame compares, file by file: as the fixes
// left it, without any fix, with one fix alone, with one file's fixes
// reverted.

// writeFiles writes content into the copy, by path relative to its root.
func (p *prover) writeFiles(content map[string][]byte) error {
	for rel, data := range content {
		if err := os.WriteFile(filepath.Join(p.copyRoot, rel), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// setFixed puts every fixed file back as the fixes left it.
func (p *prover) setFixed() error { return p.writeFiles(p.fixed) }

// setOriginal reverts every fixed file.
func (p *prover) setOriginal() error {
	orig := map[string][]byte{}
	for rel := range p.fixed {
		orig[rel] = p.original[rel]
	}
	return p.writeFiles(orig)
}

// setAlone leaves only the fix of f applied.
func (p *prover) setAlone(f *finding) error {
	if err := p.setOriginal(); err != nil {
		return err
	}
	rel := p.relFile(f)
	data, err := applyFix(p.original[rel], f.fix)
	if err != nil {
		return err
	}
	return p.writeFiles(map[string][]byte{rel: data})
}

// setWithout reverts the fixes of one file, relative to the module's root.
func (p *prover) setWithout(rel string) error {
	if err := p.setFixed(); err != nil {
		return err
	}
	return p.writeFiles(map[string][]byte{rel: p.original[rel]})
}

// relFile returns the file of f relative to the module's root.
func (p *prover) relFile(f *finding) string {
	rel, _ := filepath.Rel(p.copyRoot, f.file)
	return rel
}

// culprits is what blame found: the fixes that do it alone, else the files
// whose fixes, reverted, undo it.
type culprits struct {
	alone []*finding
	files []string
}

// blame finds what makes bad true among the fixes of the findings in
// candidates: first each fix alone on the unfixed copy, then, when no fix
// alone does it, each fixed file reverted. The copy is left fixed.
func (p *prover) blame(ctx context.Context, what string, candidates []*finding, bad func() (bool, error)) (culprits, error) {
	var c culprits
	defer p.setFixed()
	for i, f := range candidates {
		p.prog.set(fmt.Sprintf("finding the fix that %s: %s alone (%d of %d)", what, f.what(p.short), i+1, len(candidates)), "")
		if err := p.setAlone(f); err != nil {
			continue // a fix that does not stand alone: the file-level search below
		}
		isBad, err := bad()
		if err != nil || ctx.Err() != nil {
			return c, cmpErr(ctx, err)
		}
		if isBad {
			c.alone = append(c.alone, f)
		}
	}
	if len(c.alone) > 0 {
		return c, nil
	}
	files := map[string]bool{}
	for _, f := range candidates {
		files[p.relFile(f)] = true
	}
	for _, rel := range sortedKeys(files) {
		p.prog.set(fmt.Sprintf("finding the fix that %s: reverting %s", what, rel), "")
		if err := p.setWithout(rel); err != nil {
			return c, err
		}
		isBad, err := bad()
		if err != nil || ctx.Err() != nil {
			return c, cmpErr(ctx, err)
		}
		if !isBad {
			c.files = append(c.files, rel)
		}
	}
	return c, nil
}

func cmpErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// candidates returns the fixed findings of the packages that pkg's tests
// build (pkg itself too).
func (p *prover) candidates(pkgs ...string) []*finding {
	var in []string
	for _, pkg := range pkgs {
		in = append(in, pkg)
		in = append(in, p.deps[pkg]...)
	}
	var c []*finding
	for _, f := range p.findings {
		if !f.Fixed || f.fix == nil {
			continue
		}
		if path := p.pkgOfFile(f.file); path == "" || slices.Contains(in, path) {
			c = append(c, f)
		}
	}
	return c
}

// pkgOfFile returns the import path of the package named that holds the
// file of the copy.
func (p *prover) pkgOfFile(file string) string {
	dir := filepath.Dir(p.inTree(file))
	for _, lp := range p.pkgs {
		if lp.Dir == dir {
			return lp.ImportPath
		}
	}
	return ""
}

// explain adds the culprits to the report and spells them for the message:
// what they do, one line each.
func (p *prover) explain(c culprits, does, undoes string) string {
	var lines []string
	for _, f := range c.alone {
		what := does + " (measured with this fix alone)"
		p.report.Blame = append(p.report.Blame, Blame{Posn: f.Posn, Category: f.Category, Fix: f.fix.Message, What: what})
		lines = append(lines, fmt.Sprintf("the fix of %s %s: %s", f.what(p.short), what, f.fix.Message))
	}
	for _, rel := range c.files {
		file := p.short(filepath.Join(p.mod.Dir, rel))
		for _, f := range p.findings {
			if p.relFile(f) == rel && f.Fixed {
				p.report.Blame = append(p.report.Blame, Blame{Posn: f.Posn, Category: f.Category, Fix: f.fix.Message, What: "with the other fixes of " + file + ", " + does})
			}
		}
		lines = append(lines, fmt.Sprintf("the fixes of %s, together, %s: without them it %s", file, does, undoes))
	}
	if len(lines) == 0 {
		lines = append(lines, "no fix alone "+does+", nor does reverting the fixes of any one file undo it: the fixes together do")
	}
	for _, note := range p.fixNotes {
		lines = append(lines, "hashalloc -fix said: "+strings.TrimPrefix(note, "hashalloc: "))
	}
	return strings.Join(lines, "\n")
}

// failedRE finds the packages that go test says failed.
var failedRE = regexp.MustCompile(`(?m)^FAIL\s+(\S+)`)

// blameTests explains tests that fail on the fixed copy, with out, the
// output of go test on pkgs.
func (p *prover) blameTests(ctx context.Context, pkgs []string, out []byte) error {
	var failing []string
	for _, m := range failedRE.FindAllSubmatch(out, -1) {
		if path := string(m[1]); slices.Contains(pkgs, path) && !slices.Contains(failing, path) {
			failing = append(failing, path)
		}
	}
	if len(failing) == 0 {
		failing = pkgs
	}
	where := p.rels(failing)
	msg := fmt.Sprintf("the tests of %s fail on the copy after the fixes:\n%s", where, indent(tail(out, 30)))

	p.prog.set("testing the copy without the fixes: "+where, "")
	if err := p.setOriginal(); err != nil {
		return err
	}
	_, err := p.goTest(ctx, failing...)
	if serr := p.setFixed(); serr != nil {
		return serr
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return failf("%s\nthey fail without the fixes too: prove needs tests that pass, to show that the fixes keep them passing", msg)
	}
	c, err := p.blame(ctx, "makes them fail", p.candidates(failing...), func() (bool, error) {
		_, err := p.goTest(ctx, failing...)
		return err != nil, nil
	})
	if err != nil {
		return err
	}
	return failf("%s\n%s", msg, p.explain(c, "makes the tests of "+where+" fail", "passes them"))
}

// blameBuild explains a package whose benchmarks do not build after the
// fixes, with out, the output of go test -c.
func (p *prover) blameBuild(ctx context.Context, bp *benchPackage, out []byte) error {
	msg := fmt.Sprintf("the benchmarks of %s do not build on the copy after the fixes:\n%s", bp.rel, indent(tail(out, 30)))
	bin := filepath.Join(p.tmp, "bin", "blame.test")
	c, err := p.blame(ctx, "breaks the build", p.candidates(bp.pkg.ImportPath), func() (bool, error) {
		_, err := p.goCmd(ctx, p.copyRoot, p.testArgs("-c", "-o", bin, bp.pkg.ImportPath)...)
		return err != nil, nil
	})
	if err != nil {
		return err
	}
	return failf("%s\n%s", msg, p.explain(c, "breaks the build of "+bp.rel, "builds"))
}

// topLevel returns the top-level benchmark of a result's name as benchstat
// shows it: "HashAlternatives/recursive-2" is BenchmarkHashAlternatives.
func topLevel(name string) string {
	top, _, sub := strings.Cut(name, "/")
	if !sub {
		if i := strings.LastIndex(top, "-"); i > 0 && strings.Trim(top[i+1:], "0123456789") == "" {
			top = top[:i]
		}
	}
	return "Benchmark" + top
}

// blameAllocations explains benchmarks that allocate more after the fixes:
// for each, the fix that makes it so, found by running the benchmark with
// each fix alone.
func (p *prover) blameAllocations(ctx context.Context, worse []Comparison) error {
	var msgs []string
	bin := filepath.Join(p.tmp, "bin", "blame.test")
	for len(worse) > 0 {
		c := worse[0]
		top := topLevel(c.Benchmark)
		var same []Comparison // the other figures of the same top-level benchmark
		worse = slices.DeleteFunc(worse, func(o Comparison) bool {
			if o.Package == c.Package && topLevel(o.Benchmark) == top {
				same = append(same, o)
				return true
			}
			return false
		})
		var bp *benchPackage
		for _, b := range p.bench {
			if b.pkg.ImportPath == c.Package && slices.Contains(b.benchmarks, top) {
				bp = b
			}
		}
		var figures []string
		for _, o := range same {
			change := " " + o.deltaString()
			if math.IsNaN(o.Delta) {
				change = "" // from nothing
			}
			figures = append(figures, fmt.Sprintf("%s %s: %s → %s%s %s", o.Benchmark, o.Unit, fmtValue(o.Unit, o.Before.Median), fmtValue(o.Unit, o.After.Median), change, o.pString()))
		}
		msg := fmt.Sprintf("%s of %s allocates more after the fixes:\n%s", top, p.relOf(c.Package), indent([]byte(strings.Join(figures, "\n"))))
		if bp == nil {
			msgs = append(msgs, msg)
			continue
		}
		cs, err := p.blame(ctx, "makes "+top+" allocate more", p.candidates(bp.pkg.ImportPath), func() (bool, error) {
			if out, err := p.goCmd(ctx, p.copyRoot, p.testArgs("-c", "-o", bin, bp.pkg.ImportPath)...); err != nil {
				return false, fmt.Errorf("building %s to find the fix: %v\n%s", bp.rel, err, indent(tail(out, 20)))
			}
			results, err := p.runBenchmark(ctx, bp, bin, top)
			if err != nil {
				return false, err
			}
			for _, r := range results {
				for _, o := range same {
					if r.name == o.Benchmark && r.values[o.Unit] > o.Before.Median*(1+allocTolerance[o.Unit]) {
						return true, nil
					}
				}
			}
			return false, nil
		})
		if err != nil {
			return err
		}
		msgs = append(msgs, msg+"\n"+p.explain(cs, "makes "+top+" allocate more", "allocates no more than before"))
	}
	return failf("%s", strings.Join(msgs, "\n"))
}
