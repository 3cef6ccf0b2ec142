package realworld

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/hashalloc/hashalloc/internal/realworld/expect"
)

// This file prepares and measures a module that is a case with a figure to
// reach (package expect: replica, benchfile, bench, target): the functions a
// replica replaces, the benchmark files added to the copy, and the
// benchmarks run before and after the fixes.

// BenchResult is one benchmark's figures: the median over -count runs.
type BenchResult struct {
	Name   string // without Benchmark and the -GOMAXPROCS suffix
	Allocs int64  // allocs/op
	Bytes  int64  // B/op
}

// TargetResult is where a target stands after the fixes in one pool mode.
type TargetResult struct {
	Target *expect.Target
	Before int64 // on the unfixed copy, or -1 when the benchmark did not run there
	After  int64 // on the fixed copy, or -1 when the benchmark did not run
	Met    bool
}

// testdataDir is where the replicas and benchmark files of the corpus are.
func (r *Runner) testdataDir(kind string) string {
	return filepath.Join(r.cfg.Repo, "internal", "realworld", "testdata", kind)
}

// prepare applies m's replicas and adds its benchmark files to dir, the
// module's copy.
func (r *Runner) prepare(m *expect.Module, dir string) error {
	for _, rep := range m.Replicas {
		src, err := os.ReadFile(filepath.Join(r.testdataDir("replicas"), rep.File))
		if err != nil {
			return fmt.Errorf("replica: %v", err)
		}
		target := filepath.Join(dir, filepath.FromSlash(rep.Target))
		old, err := os.ReadFile(target)
		if err != nil {
			return fmt.Errorf("replica %s: %v", rep.File, err)
		}
		out, err := applyReplica(src, old)
		if err != nil {
			return fmt.Errorf("replica %s on %s: %v", rep.File, rep.Target, err)
		}
		if err := os.WriteFile(target, out, 0o644); err != nil {
			return fmt.Errorf("replica %s: %v", rep.File, err)
		}
		fmt.Fprintf(r.cfg.Log, "   replica %s replaces its functions in %s\n", rep.File, rep.Target)
	}
	for _, bf := range m.BenchFiles {
		src, err := os.ReadFile(filepath.Join(r.testdataDir("bench"), bf.File))
		if err != nil {
			return fmt.Errorf("benchfile: %v", err)
		}
		to := filepath.Join(dir, filepath.FromSlash(bf.Dir), bf.File)
		if _, err := os.Stat(to); err == nil {
			return fmt.Errorf("benchfile %s: %s already exists in the module", bf.File, bf.Dir)
		}
		if err := os.WriteFile(to, src, 0o644); err != nil {
			return fmt.Errorf("benchfile %s: %v", bf.File, err)
		}
	}
	return nil
}

// applyReplica returns target's source with every function of replica in
// place of the function of target with the same name and receiver type,
// doc comment included. Every function of replica must have one, and every
// import of replica must be one of target's.
func applyReplica(replica, target []byte) ([]byte, error) {
	fset := token.NewFileSet()
	rf, err := parser.ParseFile(fset, "replica.go", replica, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	tf, err := parser.ParseFile(fset, "target.go", target, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	if rf.Name.Name != tf.Name.Name {
		return nil, fmt.Errorf("replica is package %s, the file package %s", rf.Name.Name, tf.Name.Name)
	}
	have := map[string]bool{}
	for _, imp := range tf.Imports {
		have[imp.Path.Value] = true
	}
	for _, imp := range rf.Imports {
		if !have[imp.Path.Value] {
			return nil, fmt.Errorf("replica imports %s, which the file does not", imp.Path.Value)
		}
	}
	// span is the bytes of a declaration with its doc comment.
	span := func(f *ast.File, fd *ast.FuncDecl) (int, int) {
		from := fd.Pos()
		if fd.Doc != nil {
			from = fd.Doc.Pos()
		}
		tok := fset.File(f.Pos())
		return tok.Offset(from), tok.Offset(fd.End())
	}
	targets := map[string]*ast.FuncDecl{}
	for _, d := range tf.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			targets[funcKey(fd)] = fd
		}
	}
	type edit struct {
		from, to int
		text     []byte
	}
	var edits []edit
	for _, d := range rf.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue // imports: checked above
		}
		old := targets[funcKey(fd)]
		if old == nil {
			return nil, fmt.Errorf("no function %s to replace", funcKey(fd))
		}
		delete(targets, funcKey(fd))
		rfrom, rto := span(rf, fd)
		tfrom, tto := span(tf, old)
		edits = append(edits, edit{tfrom, tto, replica[rfrom:rto]})
	}
	if len(edits) == 0 {
		return nil, fmt.Errorf("replica has no function")
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	out := bytes.Clone(target)
	for _, e := range edits {
		out = append(out[:e.from:e.from], append(bytes.Clone(e.text), out[e.to:]...)...)
	}
	return out, nil
}

// funcKey is Name or Recv.Name.
func funcKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	return recvName(fd.Recv.List[0].Type) + "." + fd.Name.Name
}

// benchmarks runs m's benchmarks in dir and returns their figures, sorted by
// name.
func (r *Runner) benchmarks(ctx context.Context, m *expect.Module, dir string) ([]BenchResult, error) {
	procs := runtime.GOMAXPROCS(0)
	var all []BenchResult
	for _, b := range m.Benches {
		count := max(r.cfg.BenchCount, 1)
		// -vet=off: vet is a step of its own, and some modules fail it
		// in their tests (an old Example name) before any fix.
		out, err := r.goCmd(ctx, dir, nil, "test", "-vet=off", "-run", "^$", "-bench", b.Regexp, "-benchmem",
			"-benchtime", b.Benchtime, "-count", strconv.Itoa(count), "-cpu", strconv.Itoa(procs), b.Package)
		if err != nil {
			return all, fmt.Errorf("go test -bench %s %s: %v\n%s", b.Regexp, b.Package, err, tail(out, 30))
		}
		res := parseBenchmarks(out, procs)
		if len(res) == 0 {
			return all, fmt.Errorf("go test -bench %s %s ran no benchmark", b.Regexp, b.Package)
		}
		all = append(all, res...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all, nil
}

// benchLine is a result line of go test -bench -benchmem.
var benchLine = regexp.MustCompile(`^Benchmark(\S+)\s+\d+\s+.*?\s([0-9.]+) B/op\s+([0-9.]+) allocs/op`)

// parseBenchmarks reads the output of go test -bench -benchmem run with
// -cpu procs: per benchmark, the median of its runs.
func parseBenchmarks(out []byte, procs int) []BenchResult {
	suffix := ""
	if procs != 1 {
		suffix = "-" + strconv.Itoa(procs)
	}
	allocs, bytesOp := map[string][]int64{}, map[string][]int64{}
	var names []string
	for _, line := range strings.Split(string(out), "\n") {
		sm := benchLine.FindStringSubmatch(strings.TrimSpace(line))
		if sm == nil {
			continue
		}
		name := strings.TrimSuffix(sm[1], suffix)
		b, errB := strconv.ParseFloat(sm[2], 64)
		a, errA := strconv.ParseFloat(sm[3], 64)
		if errA != nil || errB != nil {
			continue
		}
		if _, ok := allocs[name]; !ok {
			names = append(names, name)
		}
		allocs[name] = append(allocs[name], int64(a))
		bytesOp[name] = append(bytesOp[name], int64(b))
	}
	var res []BenchResult
	for _, n := range names {
		res = append(res, BenchResult{Name: n, Allocs: median(allocs[n]), Bytes: median(bytesOp[n])})
	}
	return res
}

// median returns the middle value (the lower one of an even count).
func median(v []int64) int64 {
	s := append([]int64(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)/2]
}

// checkTargets says where each of m's targets stands after the fixes.
func checkTargets(m *expect.Module, before, after []BenchResult) []TargetResult {
	value := func(list []BenchResult, t *expect.Target) int64 {
		for _, b := range list {
			if b.Name == t.Name {
				if t.Metric == expect.Bytes {
					return b.Bytes
				}
				return b.Allocs
			}
		}
		return -1
	}
	var res []TargetResult
	for _, t := range m.Targets {
		tr := TargetResult{Target: t, Before: value(before, t), After: value(after, t)}
		tr.Met = tr.After >= 0 && tr.After <= t.Max
		res = append(res, tr)
	}
	return res
}
