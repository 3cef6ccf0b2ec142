package realworld

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/hashalloc/hashalloc/internal/realworld/expect"
)

// runtimeModule is the module that fixes import in the runtime pool mode.
const runtimeModule = "github.com/hashalloc/hashalloc/runtime"

// FixResult is what applying the fixes in one pool mode gave.
type FixResult struct {
	Pool     string
	Changed  []string // packages (./dir) whose files the fixes changed
	Files    int      // files changed
	Failures []Failure
	// Again are the findings that still offer a fix on the fixed copy.
	Again []Diagnostic
	// Bench are the module's benchmarks on the fixed copy, Targets where its
	// targets stand there (bench and target lines).
	Bench   []BenchResult
	Targets []TargetResult
}

// Failure is a command that fails on the fixed copy and passes on the
// unfixed one (or that could not be run at all).
type Failure struct {
	Package string // ./dir, or "" for the whole module
	Step    string // fix, gofmt, build, vet, test
	Output  string
}

// Failed reports whether the fixes broke something, are not idempotent, or
// miss a target.
func (f *FixResult) Failed() bool {
	return len(f.Failures) > 0 || len(f.Again) > 0 || f.Missed() > 0
}

// Missed counts the targets not met.
func (f *FixResult) Missed() int {
	n := 0
	for _, t := range f.Targets {
		if !t.Met {
			n++
		}
	}
	return n
}

// fix copies base, the unfixed copy of the module (with its replicas and
// benchmark files), adds the runtime module (pool "runtime"), applies
// hashalloc -fix, and builds, vets and tests every package the fixes changed,
// against the same commands on base; then checks that hashalloc offers no
// fix on the fixed copy, and runs the module's benchmarks there against its
// targets (before: their figures on base).
func (r *Runner) fix(ctx context.Context, m *expect.Module, base, pool string, before []BenchResult) *FixResult {
	res := &FixResult{Pool: pool}
	log := r.cfg.Log
	fail := func(pkg, step, out string) {
		res.Failures = append(res.Failures, Failure{Package: pkg, Step: step, Output: strings.TrimSpace(out)})
	}
	dir := filepath.Join(r.cfg.Work, "fix-"+pool, dirName(m))
	if err := copyTree(base, dir); err != nil {
		fail("", "fix", err.Error())
		return res
	}
	if pool == "runtime" {
		if err := r.requireRuntime(ctx, dir); err != nil {
			fail("", "fix", err.Error())
			return res
		}
	}
	if _, err := r.hashalloc(ctx, dir, m.Packages, append(r.flags(m), "-fix", "-pool="+pool)...); err != nil {
		fail("", "fix", err.Error())
		return res
	}
	changed, err := changedFiles(base, dir)
	if err != nil {
		fail("", "fix", err.Error())
		return res
	}
	res.Files = len(changed)
	pkgs := map[string]bool{}
	for _, f := range changed {
		pkgs["./"+filepath.ToSlash(filepath.Dir(f))] = true
	}
	for p := range pkgs {
		res.Changed = append(res.Changed, p)
	}
	sort.Strings(res.Changed)
	fmt.Fprintf(log, "   -fix -pool=%s: %d files in %d packages changed\n", pool, len(changed), len(res.Changed))

	// A fixed file must be gofmt-clean if it was before: a fix formats
	// what it touches and leaves the rest of a file that was not as it is.
	if clean := r.gofmtClean(ctx, base, changed); len(clean) > 0 {
		args := append([]string{"-l"}, clean...)
		if out, err := r.run(ctx, dir, "gofmt", args...); err != nil || len(bytes.TrimSpace(out)) > 0 {
			fail("", "gofmt", fmt.Sprintf("not gofmt-clean: %v\n%s", err, out))
		}
	}
	for _, pkg := range res.Changed {
		test := []string{"test", "-count=1", "-timeout=10m", pkg}
		if m.Tests != "" {
			test = []string{"test", "-count=1", "-timeout=10m", "-run", m.Tests, pkg}
		}
		for _, step := range [][]string{
			{"build", pkg},
			{"vet", pkg},
			test,
		} {
			out, err := r.goCmd(ctx, dir, nil, step...)
			if err == nil {
				continue
			}
			// The same command on the unfixed copy: a failure that exists
			// before the fix is not the fix's. What the failure leaves
			// checkable is still checked: vet must report nothing new, and
			// the tests, which go test's vet checks of the module's own
			// test files may keep from running, must pass without them.
			bout, berr := r.goCmd(ctx, base, nil, step...)
			if berr == nil {
				fail(pkg, step[0], tail(out, 30))
				if step[0] == "build" {
					break // vet and test would fail the same way
				}
				continue
			}
			switch step[0] {
			case "vet":
				if added := newVetDiagnostics(string(bout), string(out)); len(added) > 0 {
					fail(pkg, "vet", strings.Join(added, "\n"))
					continue
				}
				fmt.Fprintf(log, "   go vet %s fails before the fix too, and reports nothing new after it\n", pkg)
				continue
			case "test":
				noVet := append([]string{"test", "-vet=off"}, step[1:]...)
				if _, berr := r.goCmd(ctx, base, nil, noVet...); berr == nil {
					if out, err := r.goCmd(ctx, dir, nil, noVet...); err != nil {
						fail(pkg, "test", tail(out, 30))
					} else {
						fmt.Fprintf(log, "   go test %s fails before the fix too, and passes with -vet=off before and after it\n", pkg)
					}
					continue
				}
			}
			fmt.Fprintf(log, "   go %s %s fails before the fix too\n", step[0], pkg)
		}
	}

	// Idempotence: nothing more to fix in the fixed copy.
	again, err := r.hashalloc(ctx, dir, m.Packages, append(r.flags(m), "-json", "-pool="+pool)...)
	if err != nil {
		fail("", "fix", "hashalloc on the fixed copy: "+err.Error())
	}
	for _, d := range again.findings {
		if d.Fixable {
			res.Again = append(res.Again, d)
		}
	}

	if len(m.Benches) > 0 {
		fmt.Fprintf(log, "   benchmarks after -fix -pool=%s\n", pool)
		if res.Bench, err = r.benchmarks(ctx, m, dir); err != nil {
			fail("", "bench", err.Error())
		}
		res.Targets = checkTargets(m, before, res.Bench)
	}
	return res
}

// requireRuntime makes the module copied in dir require the runtime module,
// replaced by the repository's, as a user of -pool=runtime does.
func (r *Runner) requireRuntime(ctx context.Context, dir string) error {
	runtimeDir := filepath.Join(r.cfg.Repo, "runtime")
	if out, err := r.goCmd(ctx, dir, nil, "mod", "edit",
		"-require="+runtimeModule+"@v0.0.0", "-replace="+runtimeModule+"="+runtimeDir); err != nil {
		return fmt.Errorf("go mod edit: %v\n%s", err, out)
	}
	return nil
}

// vetPosition is the position that starts a line of go vet's output.
var vetPosition = regexp.MustCompile(`^(\S+?\.go):\d+:\d+: `)

// newVetDiagnostics returns the diagnostics of go vet's output after that
// its output before does not have, each counted: a diagnostic is its file
// and message, whose line the fixes may have moved.
func newVetDiagnostics(before, after string) []string {
	key := func(line string) (string, bool) {
		m := vetPosition.FindStringSubmatchIndex(line)
		if m == nil {
			return "", false
		}
		return line[m[2]:m[3]] + ": " + line[m[1]:], true
	}
	seen := map[string]int{}
	for _, l := range strings.Split(before, "\n") {
		if k, ok := key(strings.TrimPrefix(l, "./")); ok {
			seen[k]++
		}
	}
	var added []string
	for _, l := range strings.Split(after, "\n") {
		k, ok := key(strings.TrimPrefix(l, "./"))
		if !ok {
			continue
		}
		if seen[k] > 0 {
			seen[k]--
			continue
		}
		added = append(added, l)
	}
	return added
}

// changedFiles lists the .go files (relative, slash-separated) whose
// contents differ between base and fixed, or that only fixed has.
func changedFiles(base, fixed string) ([]string, error) {
	var changed []string
	err := filepath.WalkDir(fixed, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(fixed, path)
		after, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		before, err := os.ReadFile(filepath.Join(base, rel))
		if err != nil || !bytes.Equal(before, after) {
			changed = append(changed, filepath.ToSlash(rel))
		}
		return nil
	})
	return changed, err
}

// run runs a command other than go in dir.
func (r *Runner) run(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// gofmtClean returns the files of files that gofmt -l does not list in dir.
func (r *Runner) gofmtClean(ctx context.Context, dir string, files []string) []string {
	if len(files) == 0 {
		return nil
	}
	out, err := r.run(ctx, dir, "gofmt", append([]string{"-l"}, files...)...)
	if err != nil {
		return files // no verdict before: hold every file to it after
	}
	listed := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		listed[filepath.Clean(l)] = true
	}
	var clean []string
	for _, f := range files {
		if !listed[filepath.Clean(f)] {
			clean = append(clean, f)
		}
	}
	return clean
}
