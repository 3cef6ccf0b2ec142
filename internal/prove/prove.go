package prove

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// Exit codes of hashalloc prove.
const (
	exitOK     = 0 // the fixes hold, or there is nothing to fix
	exitFailed = 1 // prove failed: the message says why
	exitUsage  = 2 // a bad flag or usage
)

// Main runs hashalloc prove with args, the command line after "prove", and
// returns its exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	o, _, err := parseFlags(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			Help(stdout)
			return exitOK
		}
		fmt.Fprintf(stderr, "hashalloc prove: %v\nRun hashalloc help prove for the flags.\n", err)
		return exitUsage
	}
	bin, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "hashalloc prove: finding the hashalloc binary: %v\n", err)
		return exitFailed
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p := &prover{o: o, bin: bin, stdout: stdout, stderr: stderr}
	return p.main(ctx)
}

// A prover is one run of hashalloc prove.
type prover struct {
	o              *options
	bin            string // the hashalloc binary
	stdout, stderr io.Writer
	prog           *progress

	cwd   string
	mod   module
	pkgs  []*listedPackage // the packages named
	bench []*benchPackage  // those with benchmarks to run

	tmp      string   // scratch directory: the copy, test binaries, profiles
	copyRoot string   // the module's copy
	env      []string // of the go commands run in the copy
	profile  string   // the merged profile of the benchmarks

	// original holds the .go files of the packages' directories in the
	// copy before the fixes, fixed those the fixes changed, after, by
	// path relative to the module's root.
	original, fixed map[string][]byte
	findings        []*finding
	deps            map[string][]string // package => what its tests build (its test binary's dependencies)
	testsFailed     bool                // on the fixed copy
	fixNotes        []string            // what hashalloc -fix said of the fixes as a whole

	report Report
}

// A listedPackage is a package as go list describes it.
type listedPackage struct {
	ImportPath   string
	Name         string
	Dir          string
	Standard     bool
	TestGoFiles  []string
	XTestGoFiles []string
	Module       *struct {
		Path, Dir string
		Main      bool
	}
	Error *struct{ Err string }
}

// A benchPackage is a package with benchmarks to run.
type benchPackage struct {
	pkg        *listedPackage
	rel        string   // ./crypto/merkle: its directory, relative to the module's root
	benchmarks []string // the top-level benchmarks selected
	before     string   // its test binary before the fixes
	after      string   // and after
	buildTime  time.Duration
	config     resultConfig
}

// key names one of bp's benchmarks for the estimate of the time left.
func (bp *benchPackage) key(name string) string { return bp.rel + " " + name }

// failure is an error of prove's own: the packages have no benchmarks, the
// copy does not build, a fix breaks a test or makes a benchmark allocate
// more. Its message is complete, for the user.
type failure struct{ msg string }

func (f *failure) Error() string { return f.msg }

func failf(format string, args ...any) error { return &failure{fmt.Sprintf(format, args...)} }

// main runs prove and prints what it found; it returns the exit code.
func (p *prover) main(ctx context.Context) int {
	start := time.Now()
	if f, ok := p.stderr.(*os.File); ok && isTerminal(f) {
		p.prog = startProgress(p.stderr)
	}
	err := p.run(ctx)
	p.prog.clear()
	if p.tmp != "" {
		if p.o.work {
			fmt.Fprintf(p.stderr, "hashalloc prove: the copy of the module is in %s\n", p.copyRoot)
		} else {
			os.RemoveAll(p.tmp)
		}
	}
	if err != nil && ctx.Err() != nil {
		err = errors.New("interrupted") // whatever the commands killed said
	}
	if err != nil {
		p.report.Error = err.Error()
	}
	for _, f := range p.findings {
		p.report.Findings = append(p.report.Findings, f.Finding)
	}
	p.report.Seconds = time.Since(start).Seconds()
	if p.o.json {
		enc := json.NewEncoder(p.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "\t")
		if jerr := enc.Encode(&p.report); jerr != nil && err == nil {
			err = jerr
		}
	} else {
		p.printReport(p.stdout)
	}
	if err != nil {
		fmt.Fprintf(p.stderr, "hashalloc prove: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// run is prove, step by step.
func (p *prover) run(ctx context.Context) error {
	var err error
	if p.cwd, err = os.Getwd(); err != nil {
		return err
	}
	p.prog.set("listing the packages", "")
	if err := p.list(ctx); err != nil {
		return err
	}
	if err := p.findBenchmarks(); err != nil {
		return err
	}
	p.prog.set("copying the module", "")
	if p.tmp, err = os.MkdirTemp("", "hashalloc-prove-"); err != nil {
		return err
	}
	if p.copyRoot, p.env, err = copyModule(p.mod, p.tmp); err != nil {
		return err
	}
	if err := p.snapshot(); err != nil {
		return err
	}
	if err := p.buildBenchmarks(ctx, false); err != nil {
		return err
	}
	if err := p.profileBenchmarks(ctx); errors.Is(err, errNoSamples) {
		// As for a package that a profile does not cover: static
		// evidence alone, and the measurements say what the fixes do.
		p.profile = ""
		p.report.Unprofiled = true
	} else if err != nil {
		return err
	}
	if err := p.analyze(ctx); err != nil {
		return err
	}
	switch {
	case len(p.findings) == 0:
		p.report.Note = "hashalloc finds nothing in the packages: nothing to fix"
		return nil
	case !slices.ContainsFunc(p.findings, func(f *finding) bool { return f.fix != nil }):
		p.report.Note = "no finding has a fix: nothing to measure"
		return nil
	}
	if err := p.applyFixes(ctx); err != nil {
		return err
	}
	if len(p.fixed) == 0 {
		p.report.Note = "the fixes changed no file: nothing to measure"
		return nil
	}
	if err := p.test(ctx); err != nil {
		return err
	}
	if err := p.buildBenchmarks(ctx, true); err != nil {
		return err
	}
	if err := p.measure(ctx); err != nil {
		return err
	}
	if err := p.checkAllocations(ctx); err != nil {
		return err
	}
	if p.o.fix {
		return p.applyToTree()
	}
	return nil
}

// goCmd runs the go command in dir, in the copy's environment, and returns
// its combined output.
func (p *prover) goCmd(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), p.env...)
	return cmd.CombinedOutput()
}

// testArgs is the go test command line with args: the build tags, and
// -vet=off when go vet failed on the code before any fix.
func (p *prover) testArgs(args ...string) []string {
	cmd := append([]string{"test"}, p.tagsFlag()...)
	if p.report.VetFailed != "" {
		cmd = append(cmd, "-vet=off")
	}
	return append(cmd, args...)
}

// firstLines returns at most n lines of out, without the trailing newline.
func firstLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// tagsFlag is -tags for the go command and hashalloc, or nothing.
func (p *prover) tagsFlag() []string {
	if p.o.tags == "" {
		return nil
	}
	return []string{"-tags=" + p.o.tags}
}

// list lists the packages named and finds their module, which must be a
// main module (the user's own code), one for all of them.
func (p *prover) list(ctx context.Context) error {
	args := append([]string{"list", "-e", "-json=ImportPath,Name,Dir,Standard,TestGoFiles,XTestGoFiles,Module,Error"}, p.tagsFlag()...)
	cmd := exec.CommandContext(ctx, "go", append(append(args, "--"), p.o.patterns...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return failf("go list %s: %v\n%s", strings.Join(p.o.patterns, " "), err, strings.TrimSpace(stderr.String()))
	}
	dec := json.NewDecoder(&stdout)
	for {
		lp := new(listedPackage)
		if err := dec.Decode(lp); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("reading go list: %v", err)
		}
		p.pkgs = append(p.pkgs, lp)
	}
	if len(p.pkgs) == 0 {
		return failf("%s matched no packages", strings.Join(p.o.patterns, " "))
	}
	var errs []string
	for _, lp := range p.pkgs {
		switch {
		case lp.Error != nil:
			errs = append(errs, fmt.Sprintf("package %s: %s", lp.ImportPath, strings.TrimSpace(lp.Error.Err)))
		case lp.Standard:
			errs = append(errs, fmt.Sprintf("package %s is in the standard library: prove runs the benchmarks of a module of yours", lp.ImportPath))
		case lp.Module == nil:
			errs = append(errs, fmt.Sprintf("package %s is not in a module", lp.ImportPath))
		case !lp.Module.Main:
			errs = append(errs, fmt.Sprintf("package %s is in %s, a dependency: run prove in that module's own tree", lp.ImportPath, lp.Module.Path))
		}
	}
	if len(errs) > 0 {
		return failf("%s", strings.Join(errs, "\n"))
	}
	mods := map[string]bool{}
	for _, lp := range p.pkgs {
		mods[lp.Module.Path] = true
	}
	if len(mods) > 1 {
		return failf("the packages are in %d modules (%s): prove takes the packages of one module", len(mods), strings.Join(sortedKeys(mods), ", "))
	}
	m := p.pkgs[0].Module
	p.mod = module{Path: m.Path, Dir: m.Dir}
	out, err := exec.CommandContext(ctx, "go", "env", "GOWORK").Output()
	if err != nil {
		return fmt.Errorf("go env GOWORK: %v", err)
	}
	if work := strings.TrimSpace(string(out)); work != "" && work != "off" {
		p.mod.Work = work
	}
	p.report.Module = p.mod.Path
	p.report.Dir = p.mod.Dir
	for _, lp := range p.pkgs {
		p.report.Packages = append(p.report.Packages, lp.ImportPath)
	}
	p.report.Bench, p.report.Benchtime, p.report.Count = p.o.bench, p.o.benchtime, p.o.count
	return nil
}

// rel returns the directory of a package relative to the module's root, as
// ./dir (. for the root).
func (p *prover) rel(dir string) string {
	r, err := filepath.Rel(p.mod.Dir, dir)
	if err != nil || r == "." {
		return "."
	}
	return "./" + filepath.ToSlash(r)
}

// inCopy returns the path in the copy of a file or directory of the module.
func (p *prover) inCopy(path string) string {
	r, err := filepath.Rel(p.mod.Dir, path)
	if err != nil {
		return path
	}
	return filepath.Join(p.copyRoot, r)
}

// inTree returns the path in the user's tree of a file of the copy.
func (p *prover) inTree(path string) string {
	r, err := filepath.Rel(p.copyRoot, path)
	if err != nil || strings.HasPrefix(r, "..") {
		return path
	}
	return filepath.Join(p.mod.Dir, r)
}

// short spells a path of the user's tree for messages: relative to the
// working directory when it is below it.
func (p *prover) short(path string) string {
	if r, err := filepath.Rel(p.cwd, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// findBenchmarks finds the benchmarks that -bench selects in the packages'
// test files.
func (p *prover) findBenchmarks() error {
	pat, err := parseBenchPattern(p.o.bench)
	if err != nil {
		return err
	}
	var all []string
	for _, lp := range p.pkgs {
		names, err := benchmarkFuncs(lp.Dir, append(slices.Clone(lp.TestGoFiles), lp.XTestGoFiles...))
		if err != nil {
			return failf("reading the tests of %s: %v", lp.ImportPath, err)
		}
		all = append(all, names...)
		bp := &benchPackage{pkg: lp, rel: p.rel(lp.Dir)}
		for _, name := range names {
			if pat.matches(name) {
				bp.benchmarks = append(bp.benchmarks, name)
			}
		}
		if len(bp.benchmarks) > 0 {
			p.bench = append(p.bench, bp)
		}
	}
	if len(p.bench) > 0 {
		return nil
	}
	var rels []string
	for _, lp := range p.pkgs {
		rels = append(rels, p.rel(lp.Dir))
	}
	where := strings.Join(rels, " ")
	if len(rels) > 3 {
		where = fmt.Sprintf("%s and %d other packages", strings.Join(rels[:3], " "), len(rels)-3)
	}
	if len(all) == 0 {
		return failf("no benchmarks: %s %s none (prove measures the fixes with the packages' own benchmarks, func BenchmarkXxx(b *testing.B) in their _test.go files)", where, plural(len(rels), "has", "have"))
	}
	return failf("no benchmarks match -bench=%s in %s (they have %s)", p.o.bench, where, strings.Join(all, ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// snapshot records the .go files of the packages' directories in the copy,
// before anything changes them.
func (p *prover) snapshot() error {
	p.original = map[string][]byte{}
	for _, lp := range p.pkgs {
		entries, err := os.ReadDir(p.inCopy(lp.Dir))
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			rel, _ := filepath.Rel(p.mod.Dir, filepath.Join(lp.Dir, e.Name()))
			data, err := os.ReadFile(filepath.Join(p.copyRoot, rel))
			if err != nil {
				return err
			}
			p.original[rel] = data
		}
	}
	return nil
}

// buildBenchmarks builds the test binary of every package with benchmarks,
// before or after the fixes.
func (p *prover) buildBenchmarks(ctx context.Context, after bool) error {
	when := "before"
	if after {
		when = "after"
	}
	if err := os.MkdirAll(filepath.Join(p.tmp, "bin"), 0o755); err != nil {
		return err
	}
	for i, bp := range p.bench {
		step := "build " + bp.rel
		p.prog.set(fmt.Sprintf("building the benchmarks of %s (%s the fixes)", bp.rel, when), step)
		bin := filepath.Join(p.tmp, "bin", fmt.Sprintf("%d.%s.test", i, when))
		start := time.Now()
		out, err := p.goCmd(ctx, p.copyRoot, p.testArgs("-c", "-o", bin, bp.pkg.ImportPath)...)
		if err != nil && !after && p.report.VetFailed == "" && ctx.Err() == nil {
			// When the benchmarks build without go vet, which go test
			// runs first, vet failed on the code as it is, before any
			// fix: that is not for prove to judge. Build, and later
			// test, without it.
			if _, err2 := p.goCmd(ctx, p.copyRoot, append([]string{"test", "-vet=off", "-c", "-o", bin}, append(p.tagsFlag(), bp.pkg.ImportPath)...)...); err2 == nil {
				p.report.VetFailed = firstLines(out, 3)
				fmt.Fprintf(p.stderr, "hashalloc prove: go vet fails on %s before any fix, so its benchmarks and tests run with -vet=off:\n%s\n", bp.rel, indent([]byte(p.report.VetFailed)))
				out, err = nil, nil
			}
		}
		bp.buildTime = time.Since(start)
		p.prog.estimate().done(step)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if after {
				return p.blameBuild(ctx, bp, out)
			}
			return failf("the benchmarks of %s do not build on the copy of the module:\n%s", bp.rel, indent(tail(out, 30)))
		}
		if after {
			bp.after = bin
		} else {
			bp.before = bin
		}
	}
	return nil
}

// benchArgs are the flags of a test binary that runs the top-level
// benchmark name once.
func (p *prover) benchArgs(name string) []string {
	pat, _ := parseBenchPattern(p.o.bench)
	return []string{
		"-test.run=^$",
		"-test.bench=" + pat.only(name),
		"-test.benchtime=" + p.o.benchtime,
		"-test.count=1",
		"-test.benchmem",
		"-test.timeout=" + p.o.timeout.String(),
	}
}

// runBenchmark runs the top-level benchmark name of bp once with the test
// binary bin, with extra flags, and returns its results.
func (p *prover) runBenchmark(ctx context.Context, bp *benchPackage, bin, name string, extra ...string) ([]result, error) {
	cmd := exec.CommandContext(ctx, bin, append(p.benchArgs(name), extra...)...)
	cmd.Dir = p.inCopy(bp.pkg.Dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	p.prog.estimate().ran(bp.key(name), time.Since(start))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s of %s fails: %v\n%s", name, bp.rel, err, indent(tail(out.Bytes(), 30)))
	}
	results, cfg, err := parseResults(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("reading the output of %s of %s: %v", name, bp.rel, err)
	}
	if bp.config == nil {
		bp.config = cfg
	}
	return results, nil
}

// profileBenchmarks runs every benchmark once with an allocation profile of
// every allocation (-test.memprofilerate=1: the shares are exact; the
// figures of this run, slowed by the profiling, are not measurements), and
// merges the profiles.
func (p *prover) profileBenchmarks(ctx context.Context) error {
	// What the rest should take, until measured: the runs of each
	// benchmark as its profiling run, the analysis and the fixes as much as
	// the builds before the fixes (both load and compile the packages), the
	// tests and the builds after the fixes as those builds.
	est := p.prog.estimate()
	var builds time.Duration
	for _, bp := range p.bench {
		for _, name := range bp.benchmarks {
			est.plan(bp.key(name), 1+2*p.o.count)
		}
		builds += bp.buildTime
		est.expect("build "+bp.rel, bp.buildTime)
	}
	est.expect("analyze", builds)
	est.expect("fix", builds)
	est.expect("test", builds)
	dir := filepath.Join(p.tmp, "profiles")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var files, mains []string
	for _, lp := range p.pkgs {
		if lp.Name == "main" {
			mains = append(mains, lp.ImportPath)
		}
	}
	for i, bp := range p.bench {
		for j, name := range bp.benchmarks {
			p.prog.set(fmt.Sprintf("profiling %s %s", bp.rel, name), bp.key(name))
			file := filepath.Join(dir, fmt.Sprintf("%d.%d.pprof", i, j))
			if _, err := p.runBenchmark(ctx, bp, bp.before, name, "-test.memprofile="+file, "-test.memprofilerate=1"); err != nil {
				if errors.Is(err, context.Canceled) {
					return err
				}
				return failf("before the fixes: %v", err)
			}
			files = append(files, file)
		}
	}
	p.profile = filepath.Join(p.tmp, "benchmarks.pprof")
	return mergeProfiles(files, mains, p.profile)
}

// hashalloc runs the hashalloc binary in the copy's root on the packages,
// with the profile and flags, and returns its stdout, its stderr and its
// exit code.
func (p *prover) hashalloc(ctx context.Context, flags ...string) ([]byte, []byte, int, error) {
	// Without a profile (the benchmarks allocate nothing), -profile= all
	// the same: a default.pgo of the module is not the benchmarks'.
	args := []string{"-profile=" + p.profile}
	args = append(args, p.o.analyzer...)
	args = append(args, p.tagsFlag()...)
	args = append(args, flags...)
	for _, lp := range p.pkgs {
		args = append(args, lp.ImportPath)
	}
	cmd := exec.CommandContext(ctx, p.bin, args...)
	cmd.Dir = p.copyRoot
	cmd.Env = append(os.Environ(), p.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stdout.Bytes(), stderr.Bytes(), 0, nil
	case errors.As(err, &exit) && ctx.Err() == nil:
		return stdout.Bytes(), stderr.Bytes(), exit.ExitCode(), nil
	}
	return nil, nil, -1, err
}

// analyze runs hashalloc -json with the benchmarks' profile on the copy.
func (p *prover) analyze(ctx context.Context) error {
	p.prog.set("analyzing with the benchmarks' profile", "analyze")
	start := time.Now()
	stdout, stderr, code, err := p.hashalloc(ctx, "-json")
	if err != nil {
		return err
	}
	p.prog.estimate().done("analyze")
	p.prog.estimate().expect("fix", time.Since(start))
	if code != 0 {
		return failf("hashalloc -json on the copy (exit code %d):\n%s", code, indent(tail(stderr, 30)))
	}
	findings, errs, err := parseFindings(stdout)
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return failf("hashalloc could not analyze the copy:\n%s", indent([]byte(strings.Join(errs, "\n"))))
	}
	p.findings = findings
	for _, f := range findings {
		f.tree = p.inTree(f.file)
		f.Posn = fmt.Sprintf("%s:%d:%d", f.tree, f.line, f.col)
	}
	return nil
}

// applyFixes runs hashalloc -fix on the copy, again while it leaves fixes
// that overlap others for the next run (three runs at most), and records
// the files it changed.
func (p *prover) applyFixes(ctx context.Context) error {
	p.prog.set("fixing the copy", "fix")
	defer p.prog.estimate().done("fix")
	for range 3 {
		_, stderr, code, err := p.hashalloc(ctx, "-fix")
		if err != nil {
			return err
		}
		// -fix fails when the code it fixed has errors it had not (a
		// module pins a runtime release without the package a fix
		// imports): what it wrote is the copy that the build and the
		// tests then try, and that names the fix to blame.
		wrote := bytes.HasPrefix(stderr, []byte("fixed ")) || bytes.Contains(stderr, []byte("\nfixed "))
		if code != 0 && code != 3 && !wrote {
			return failf("hashalloc -fix on the copy (exit code %d):\n%s", code, indent(tail(stderr, 30)))
		}
		// What -fix says of the fixes as a whole (a module to require)
		// explains a copy that does not build.
		for _, line := range strings.Split(string(stderr), "\n") {
			if strings.HasPrefix(line, "hashalloc: ") && !slices.Contains(p.fixNotes, line) {
				p.fixNotes = append(p.fixNotes, line)
			}
		}
		if code != 0 && code != 3 || !bytes.Contains(stderr, []byte(": not fixed: ")) {
			break
		}
	}
	p.fixed = map[string][]byte{}
	for rel, before := range p.original {
		after, err := os.ReadFile(filepath.Join(p.copyRoot, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(before, after) {
			p.fixed[rel] = after
		}
	}
	for _, f := range p.findings {
		rel, _ := filepath.Rel(p.copyRoot, f.file)
		if _, ok := p.fixed[rel]; ok && f.fix != nil {
			f.Fixed = true
		}
	}
	for _, rel := range sortedKeys(p.fixed) {
		n := 0
		for _, f := range p.findings {
			if r, _ := filepath.Rel(p.copyRoot, f.file); r == rel && f.Fixed {
				n++
			}
		}
		p.report.Fixed = append(p.report.Fixed, FixedFile{File: filepath.Join(p.mod.Dir, rel), Findings: n})
	}
	return nil
}

// changedPackages returns the import paths of the packages whose files the
// fixes changed.
func (p *prover) changedPackages() []string {
	var changed []string
	for _, lp := range p.pkgs {
		for rel := range p.fixed {
			if filepath.Join(p.mod.Dir, filepath.Dir(rel)) == lp.Dir && !slices.Contains(changed, lp.ImportPath) {
				changed = append(changed, lp.ImportPath)
			}
		}
	}
	sort.Strings(changed)
	return changed
}

// testDeps lists, for every package named, the packages its test binary
// builds.
func (p *prover) testDeps(ctx context.Context) error {
	args := append([]string{"list", "-e", "-test", "-f", "{{.ImportPath}}\t{{join .Deps \" \"}}"}, p.tagsFlag()...)
	for _, lp := range p.pkgs {
		args = append(args, lp.ImportPath)
	}
	out, err := p.goCmd(ctx, p.copyRoot, args...)
	if err != nil {
		return failf("go list -test on the copy: %v\n%s", err, indent(tail(out, 20)))
	}
	p.deps = map[string][]string{}
	for _, line := range strings.Split(string(out), "\n") {
		path, deps, ok := strings.Cut(line, "\t")
		if base, isTest := strings.CutSuffix(path, ".test"); ok && isTest {
			p.deps[base] = strings.Fields(deps)
		}
	}
	return nil
}

// affected returns the packages named whose tests the fixes can change: a
// changed package, and every package whose test binary builds one.
func (p *prover) affected(changed []string) []string {
	var pkgs []string
	for _, lp := range p.pkgs {
		deps, hasTests := p.deps[lp.ImportPath]
		if slices.Contains(changed, lp.ImportPath) || hasTests && slices.ContainsFunc(changed, func(c string) bool { return slices.Contains(deps, c) }) {
			pkgs = append(pkgs, lp.ImportPath)
		}
	}
	return pkgs
}

// goTest runs go test on pkgs in the copy, as it stands.
func (p *prover) goTest(ctx context.Context, pkgs ...string) ([]byte, error) {
	args := []string{"-count=1", "-timeout=" + p.o.timeout.String()}
	if p.o.run != "" {
		args = append(args, "-run="+p.o.run)
	}
	return p.goCmd(ctx, p.copyRoot, p.testArgs(append(args, pkgs...)...)...)
}

// test runs, on the fixed copy, the tests of the packages the fixes can
// change; when they fail, it finds the fix that makes them fail.
func (p *prover) test(ctx context.Context) error {
	if err := p.testDeps(ctx); err != nil {
		return err
	}
	pkgs := p.affected(p.changedPackages())
	p.report.Tested = pkgs
	p.prog.set("testing the fixed copy: "+p.rels(pkgs), "test")
	defer p.prog.estimate().done("test")
	out, err := p.goTest(ctx, pkgs...)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	p.testsFailed = true
	return p.blameTests(ctx, pkgs, out)
}

// rels spells import paths of the module's packages as their directories.
func (p *prover) rels(pkgs []string) string {
	var rels []string
	for _, path := range pkgs {
		rels = append(rels, p.relOf(path))
	}
	return strings.Join(rels, " ")
}

// relOf returns the directory of the package path, relative to the module's
// root.
func (p *prover) relOf(path string) string {
	for _, lp := range p.pkgs {
		if lp.ImportPath == path {
			return p.rel(lp.Dir)
		}
	}
	return path
}

// measure runs every benchmark -count times before the fixes and as many
// after, in turn (before then after, then after then before, ...), so that
// what changes on the machine meanwhile falls on both sides alike.
func (p *prover) measure(ctx context.Context) error {
	type key struct{ pkg, name, unit string }
	samples := map[key]*[2][]float64{}
	var order []key
	add := func(pkg string, results []result, side int) {
		for _, r := range results {
			for _, unit := range r.units {
				k := key{pkg, r.name, unit}
				s := samples[k]
				if s == nil {
					s = new([2][]float64)
					samples[k] = s
					order = append(order, k)
				}
				s[side] = append(s[side], r.values[unit])
			}
		}
	}
	for round := range p.o.count {
		for _, bp := range p.bench {
			for _, name := range bp.benchmarks {
				sides := []int{0, 1}
				if round%2 == 1 {
					sides = []int{1, 0}
				}
				for _, side := range sides {
					bin, when := bp.before, "before"
					if side == 1 {
						bin, when = bp.after, "after"
					}
					p.prog.set(fmt.Sprintf("measuring %s %s (run %d of %d, %s the fixes)", bp.rel, name, round+1, p.o.count, when), bp.key(name))
					results, err := p.runBenchmark(ctx, bp, bin, name)
					if err != nil {
						if errors.Is(err, context.Canceled) {
							return err
						}
						return failf("%s the fixes: %v", when, err)
					}
					add(bp.pkg.ImportPath, results, side)
				}
			}
		}
	}
	for _, k := range order {
		s := samples[k]
		if len(s[0]) == 0 || len(s[1]) == 0 {
			continue // a benchmark that ran on one side only
		}
		p.report.Benchmarks = append(p.report.Benchmarks, compare(k.pkg, k.name, k.unit, s[0], s[1]))
	}
	return nil
}

// allocTolerance is how much more a benchmark may allocate after the fixes,
// per unit, before prove calls it worse: allocs/op are whole numbers, B/op
// move a little with a pool emptied by the collector.
var allocTolerance = map[string]float64{"allocs/op": 0, "B/op": 0.01}

// checkAllocations fails when a benchmark allocates significantly more
// after the fixes, and names the fix that makes it so.
func (p *prover) checkAllocations(ctx context.Context) error {
	var worse []Comparison
	for _, c := range p.report.Benchmarks {
		if tol, ok := allocTolerance[c.Unit]; ok && c.Worse(tol) {
			worse = append(worse, c)
		}
	}
	if len(worse) == 0 {
		return nil
	}
	return p.blameAllocations(ctx, worse)
}

// applyToTree writes the fixed files into the user's tree, once everything
// has passed on the copy; a file that changed meanwhile is left alone.
func (p *prover) applyToTree() error {
	var stale []string
	for _, rel := range sortedKeys(p.fixed) {
		cur, err := os.ReadFile(filepath.Join(p.mod.Dir, rel))
		if err != nil || !bytes.Equal(cur, p.original[rel]) {
			stale = append(stale, p.short(filepath.Join(p.mod.Dir, rel)))
		}
	}
	if len(stale) > 0 {
		return failf("-fix: %s changed while prove ran; nothing was written (run prove again)", strings.Join(stale, ", "))
	}
	for _, rel := range sortedKeys(p.fixed) {
		path := filepath.Join(p.mod.Dir, rel)
		mode := os.FileMode(0o644)
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
		if err := os.WriteFile(path, p.fixed[rel], mode); err != nil {
			return fmt.Errorf("-fix: %v", err)
		}
	}
	p.report.Applied = true
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// tail returns the last n lines of out.
func tail(out []byte, n int) []byte {
	lines := bytes.Split(bytes.TrimRight(out, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = append([][]byte{[]byte("...")}, lines[len(lines)-n:]...)
	}
	return bytes.Join(lines, []byte("\n"))
}

// indent indents every line of text by a tab.
func indent(text []byte) string {
	s := strings.TrimRight(string(text), "\n")
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t")
}
