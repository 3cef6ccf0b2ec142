// Package realworld runs hashalloc on a pinned corpus of real modules from
// the module proxy and compares its findings with the verdicts of the
// expectations file (see package expect): precision, must-find sites,
// audited recall (per-item sites reported), unexpected findings, panics, time
// and memory per module, and in total for the held-out modules and for the
// rest apart; with Fix, it also applies the fixes in both pool modes, builds,
// vets and tests what they changed, checks that a second run offers no fix,
// and runs the module's benchmarks before and after the fixes against its
// targets.
package realworld

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/hashalloc/hashalloc/internal/realworld/expect"
)

// Config is one run of the corpus.
type Config struct {
	Repo string // root of the hashalloc repository to build and measure
	Work string // scratch directory: the binary and the copies of the modules
	Fix  bool   // also apply the fixes and test them
	// Audit runs hashalloc with -audit: every site a check looked at and
	// left silent comes back with why, in Result.Audit.
	Audit bool
	// Pool, when not empty, is the -pool of the run whose findings are
	// judged (runtime or inline; with runtime, the copy requires the
	// runtime module, as for the fixes of that mode); -fix applies the
	// fixes in both modes whatever it is.
	Pool string
	// BenchCount is the -count of the benchmarks of a module with bench
	// lines, run with Fix; 1 when 0.
	BenchCount int
	Log        io.Writer
}

// Result is what one module gave.
type Result struct {
	Module   *expect.Module
	Findings []Diagnostic // distinct by file, line and category
	// Audit are the sites that a check looked at and left silent, with
	// Config.Audit: Category is the check, Message says why.
	Audit []Diagnostic

	True, False, Neutral []*expect.Finding
	Unexpected           []Diagnostic      // not judged, or judged "unjudged"
	Gone                 []*expect.Finding // judged but no longer reported
	Found, Missed        []*expect.Finding // must-find sites
	PerItemFound         []*expect.Finding // audited per-item sites reported
	PerItemMissed        []*expect.Finding // and not reported (a measure, not a failure)
	Loud                 []Loud            // must-stay-silent sites that are not
	// Unaccounted are the sites of the census (see package census) that
	// the audit has no line for, with Config.Audit: each is a bug of the
	// audit.
	Unaccounted []string
	// CensusSites is the number of sites the census counts.
	CensusSites int
	Panics      int
	Errors      []string // hashalloc or the go command failed

	Time time.Duration
	Peak int64 // bytes

	Fixes []*FixResult // with Config.Fix: one per pool mode
	// Before are the module's benchmarks on the unfixed copy, with
	// Config.Fix and bench lines.
	Before []BenchResult
}

// Loud is a finding at a must-stay-silent site.
type Loud struct {
	Site    *expect.Silent
	Finding Diagnostic
}

// Diagnostic is one finding of hashalloc, at a position relative to the
// module's root.
type Diagnostic struct {
	expect.Key
	Col      int
	Message  string
	Fixable  bool
	Filename string // absolute
}

// Failed reports whether r is a failure: a panic, an error, an unexpected
// finding, a finding at a must-stay-silent site, a site of the census that
// the audit has no line for (with Config.Audit), a true finding no longer
// reported (a false one that goes away is progress), or a failed fix. A
// missed per-item site is not: recall is a measure.
func (r *Result) Failed() bool {
	if r.Panics > 0 || len(r.Errors) > 0 || len(r.Unexpected) > 0 || len(r.Loud) > 0 || len(r.Unaccounted) > 0 {
		return true
	}
	for _, f := range r.Gone {
		if f.Verdict == expect.True {
			return true
		}
	}
	for _, f := range r.Fixes {
		if f.Failed() {
			return true
		}
	}
	return false
}

// Runner runs modules of the corpus one after another.
type Runner struct {
	cfg Config
	bin string // the hashalloc binary built from cfg.Repo
}

// NewRunner builds hashalloc from cfg.Repo into cfg.Work.
func NewRunner(ctx context.Context, cfg Config) (*Runner, error) {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if err := os.MkdirAll(cfg.Work, 0o755); err != nil {
		return nil, err
	}
	r := &Runner{cfg: cfg, bin: filepath.Join(cfg.Work, "hashalloc")}
	fmt.Fprintf(cfg.Log, "building hashalloc from %s\n", cfg.Repo)
	// Built as the repository builds it, with its go.work (go.mod requires
	// the runtime module at a version that may not be released yet); the
	// corpus's modules are built without one (goEnv).
	build := exec.CommandContext(ctx, "go", "build", "-o", r.bin, "./cmd/hashalloc")
	build.Dir = cfg.Repo
	build.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building hashalloc: %v\n%s", err, out)
	}
	return r, nil
}

// Run fetches m, analyzes it and compares the findings with its expectations.
func (r *Runner) Run(ctx context.Context, m *expect.Module) *Result {
	res := &Result{Module: m}
	log := r.cfg.Log
	fmt.Fprintf(log, "== %s (%s)\n", m.Name(), strings.Join(m.Packages, " "))
	src, err := r.fetch(ctx, m)
	if err != nil {
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	dir := filepath.Join(r.cfg.Work, "src", dirName(m))
	if err := copyTree(src, dir); err != nil {
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	if err := r.prepare(m, dir); err != nil {
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	// Download what the packages need before the clock starts.
	if out, err := r.goCmd(ctx, dir, nil, append([]string{"list", "-e", "-deps", "-test"}, m.Packages...)...); err != nil {
		res.Errors = append(res.Errors, fmt.Sprintf("go list: %v\n%s", err, tail(out, 20)))
		return res
	}

	if m.Profile != "" {
		if err := r.profile(ctx, m, dir); err != nil {
			res.Errors = append(res.Errors, err.Error())
			return res
		}
	}

	flags := append(r.flags(m), "-json")
	if r.cfg.Pool != "" {
		// The copy requires the runtime module as the runtime mode's
		// fixes do (-fix), or hashalloc would offer none.
		if r.cfg.Pool == "runtime" {
			if err := r.requireRuntime(ctx, dir); err != nil {
				res.Errors = append(res.Errors, err.Error())
				return res
			}
		}
		flags = append(flags, "-pool="+r.cfg.Pool)
	}
	if r.cfg.Audit {
		flags = append(flags, "-audit")
	}
	run, err := r.hashalloc(ctx, dir, m.Packages, flags...)
	res.Time, res.Peak, res.Panics = run.time, run.peak, run.panics
	if err != nil {
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	res.Findings, res.Audit = splitAudit(run.findings)
	res.Errors = append(res.Errors, run.errors...)
	if r.cfg.Audit {
		if res.Unaccounted, res.CensusSites, err = unaccounted(dir, m.Packages, flags, run.findings); err != nil {
			res.Errors = append(res.Errors, err.Error())
		}
	}
	if err := compare(res, dir); err != nil {
		res.Errors = append(res.Errors, err.Error())
	}
	fmt.Fprintf(log, "   %d findings in %v, peak %s\n", len(res.Findings), res.Time.Round(time.Millisecond), mib(res.Peak))

	if r.cfg.Fix {
		if len(m.Benches) > 0 {
			fmt.Fprintf(log, "   benchmarks before the fixes\n")
			if res.Before, err = r.benchmarks(ctx, m, dir); err != nil {
				res.Errors = append(res.Errors, "before the fixes: "+err.Error())
			}
		}
		for _, pool := range []string{"runtime", "inline"} {
			res.Fixes = append(res.Fixes, r.fix(ctx, m, dir, pool, res.Before))
		}
	}
	return res
}

// profileFile is where the profile of m is written.
func (r *Runner) profileFile(m *expect.Module) string {
	return filepath.Join(r.cfg.Work, "profiles", dirName(m)+".pprof")
}

// flags returns the flags that every run of hashalloc on m takes: the
// profile, when m has one, then those of its flags lines.
func (r *Runner) flags(m *expect.Module) []string {
	var flags []string
	if m.Profile != "" {
		flags = append(flags, "-profile="+r.profileFile(m))
	}
	return append(flags, m.Flags...)
}

// profile runs m's profile program in the root of dir, its copy, where it
// builds against the module itself, and leaves the profile it writes at
// profileFile(m). The program is removed from the copy afterwards.
func (r *Runner) profile(ctx context.Context, m *expect.Module, dir string) error {
	program, err := os.ReadFile(filepath.Join(r.cfg.Repo, "internal", "realworld", "profiles", m.Profile))
	if err != nil {
		return fmt.Errorf("profile: %v", err)
	}
	const name = "hashalloc_profile.go"
	if err := os.WriteFile(filepath.Join(dir, name), program, 0o644); err != nil {
		return fmt.Errorf("profile: %v", err)
	}
	defer os.Remove(filepath.Join(dir, name))
	out := r.profileFile(m)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("profile: %v", err)
	}
	fmt.Fprintf(r.cfg.Log, "   profile: go run %s (%s)\n", m.Profile, out)
	if b, err := r.goCmd(ctx, dir, nil, "run", name, out); err != nil {
		return fmt.Errorf("profile: go run %s: %v\n%s", m.Profile, err, tail(b, 20))
	}
	return nil
}

// fetch downloads m from the module proxy and returns its directory in the
// module cache.
func (r *Runner) fetch(ctx context.Context, m *expect.Module) (string, error) {
	var env []string
	if m.NoSumDB {
		env = append(env, "GONOSUMDB="+m.Path)
	}
	out, err := r.goCmd(ctx, r.cfg.Work, env, "mod", "download", "-json", m.Query())
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: %v %s\n%s", m.Query(), err, info.Error, tail(out, 20))
	}
	return info.Dir, nil
}

// run is one run of hashalloc.
type run struct {
	findings []Diagnostic
	errors   []string
	panics   int
	time     time.Duration
	peak     int64
	stderr   []byte
}

// panicRE finds a Go panic or fatal error in the output of hashalloc.
var panicRE = regexp.MustCompile(`(?m)^(panic: |fatal error: |goroutine \d+ \[running\]:)`)

// hashalloc runs the binary in dir on pkgs with flags, and reads its -json
// output when it has one.
func (r *Runner) hashalloc(ctx context.Context, dir string, pkgs []string, flags ...string) (run, error) {
	var res run
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, r.bin, append(flags, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = goEnv()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res.time = time.Since(start)
	if cmd.ProcessState != nil {
		res.peak = peakRSS(cmd.ProcessState)
	}
	res.stderr = stderr.Bytes()
	if panicRE.Match(stderr.Bytes()) || panicRE.Match(stdout.Bytes()) {
		res.panics = 1
		return res, fmt.Errorf("hashalloc %s panicked:\n%s", strings.Join(flags, " "), tail(stderr.Bytes(), 40))
	}
	if !contains(flags, "-json") {
		if err != nil && exitCode(err) != 3 {
			return res, fmt.Errorf("hashalloc %s: %v\n%s", strings.Join(flags, " "), err, tail(stderr.Bytes(), 20))
		}
		return res, nil
	}
	if err != nil {
		return res, fmt.Errorf("hashalloc %s: %v\n%s", strings.Join(flags, " "), err, tail(stderr.Bytes(), 20))
	}
	res.findings, res.errors, err = parseJSON(stdout.Bytes(), dir)
	return res, err
}

// jsonDiag is a diagnostic in the output of hashalloc -json.
type jsonDiag struct {
	Posn           string            `json:"posn"`
	Category       string            `json:"category"`
	Message        string            `json:"message"`
	SuggestedFixes []json.RawMessage `json:"suggested_fixes"`
}

// parseJSON reads the output of hashalloc -json: per package, per analyzer,
// a list of diagnostics or an error. Positions are made relative to root.
func parseJSON(out []byte, root string) ([]Diagnostic, []string, error) {
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &tree); err != nil {
		return nil, nil, fmt.Errorf("reading hashalloc -json: %v\n%s", err, tail(out, 10))
	}
	var (
		diags []Diagnostic
		errs  []string
		seen  = map[expect.Key]bool{}
	)
	for pkg, byAnalyzer := range tree {
		for _, raw := range byAnalyzer {
			var e struct{ Error string }
			if json.Unmarshal(raw, &e) == nil && e.Error != "" {
				errs = append(errs, pkg+": "+e.Error)
				continue
			}
			var list []jsonDiag
			if err := json.Unmarshal(raw, &list); err != nil {
				return nil, nil, fmt.Errorf("reading hashalloc -json for %s: %v", pkg, err)
			}
			for _, jd := range list {
				d, err := diagnostic(jd, root)
				if err != nil {
					return nil, nil, err
				}
				k := d.Key
				if d.Category == "audit" {
					k.Category += ": " + d.Message // two checks may look at one line
				}
				if !seen[k] {
					seen[k] = true
					diags = append(diags, d)
				}
			}
		}
	}
	sort.Slice(diags, func(i, j int) bool { return less(diags[i].Key, diags[j].Key) })
	sort.Strings(errs)
	return diags, errs, nil
}

// splitAudit separates the audit entries of diags (category audit, the
// message "audit: CHECK: ... is silent: WHY") from the findings, and gives each the
// category of its check.
func splitAudit(diags []Diagnostic) (findings, audit []Diagnostic) {
	for _, d := range diags {
		if d.Category != "audit" {
			findings = append(findings, d)
			continue
		}
		if check, rest, ok := strings.Cut(strings.TrimPrefix(d.Message, "audit: "), ": "); ok {
			d.Category, d.Message = check, rest
		}
		audit = append(audit, d)
	}
	return findings, audit
}

func diagnostic(jd jsonDiag, root string) (Diagnostic, error) {
	// posn is /abs/file.go:LINE:COL
	var d Diagnostic
	i := strings.LastIndex(jd.Posn, ":")
	j := strings.LastIndex(jd.Posn[:max(i, 0)], ":")
	if i < 0 || j < 0 {
		return d, fmt.Errorf("bad position %q", jd.Posn)
	}
	if _, err := fmt.Sscanf(jd.Posn[j+1:], "%d:%d", &d.Line, &d.Col); err != nil {
		return d, fmt.Errorf("bad position %q", jd.Posn)
	}
	d.Filename = jd.Posn[:j]
	rel, err := filepath.Rel(root, d.Filename)
	if err != nil {
		rel = d.Filename
	}
	d.File = filepath.ToSlash(rel)
	d.Category = jd.Category
	d.Message = jd.Message
	d.Fixable = len(jd.SuggestedFixes) > 0
	return d, nil
}

func less(a, b expect.Key) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Category < b.Category
}

// compare sorts the findings of res by verdict and checks the must-find and
// must-stay-silent sites. dir is the module's copy, where function names of
// must-stay-silent sites are resolved.
func compare(res *Result, dir string) error {
	m := res.Module
	judged := map[expect.Key]*expect.Finding{}
	for _, f := range m.Findings {
		judged[f.Key] = f
	}
	reported := map[expect.Key]bool{}
	for _, d := range res.Findings {
		reported[d.Key] = true
		f := judged[d.Key]
		switch {
		case f == nil || f.Verdict == expect.Unjudged:
			res.Unexpected = append(res.Unexpected, d)
		case f.Verdict == expect.True:
			res.True = append(res.True, f)
		case f.Verdict == expect.False:
			res.False = append(res.False, f)
		case f.Verdict == expect.Neutral:
			res.Neutral = append(res.Neutral, f)
		}
	}
	for _, f := range m.Findings {
		if !reported[f.Key] {
			res.Gone = append(res.Gone, f)
		}
	}
	for _, f := range m.MustFind {
		if reported[f.Key] {
			res.Found = append(res.Found, f)
		} else {
			res.Missed = append(res.Missed, f)
		}
	}
	for _, f := range m.PerItem {
		if err := lineExists(dir, f.Key); err != nil {
			return fmt.Errorf("per-item %s: %v", f.Key, err)
		}
		if reported[f.Key] {
			res.PerItemFound = append(res.PerItemFound, f)
		} else {
			res.PerItemMissed = append(res.PerItemMissed, f)
		}
	}
	for _, s := range m.MustSilent {
		from, to := s.From, s.To
		if s.Func != "" {
			var err error
			if from, to, err = funcLines(filepath.Join(dir, s.File), s.Func); err != nil {
				return fmt.Errorf("must-stay-silent %s: %v", s.Where(), err)
			}
		}
		for _, d := range res.Findings {
			if d.File == s.File && from <= d.Line && d.Line <= to {
				res.Loud = append(res.Loud, Loud{Site: s, Finding: d})
			}
		}
	}
	return nil
}

// lineExists checks that the file of k, in the module's copy at dir, has
// k's line: a per-item site that names no line would be missed forever.
func lineExists(dir string, k expect.Key) error {
	data, err := os.ReadFile(filepath.Join(dir, k.File))
	if err != nil {
		return fmt.Errorf("no such file in the module")
	}
	if n := bytes.Count(data, []byte("\n")); k.Line > n {
		return fmt.Errorf("%s has %d lines", k.File, n)
	}
	return nil
}

// funcLines returns the lines of the declaration of the function or method
// name (Name or Recv.Name) in file.
func funcLines(file, name string) (int, int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return 0, 0, err
	}
	recv, fn, isMethod := strings.Cut(name, ".")
	if !isMethod {
		recv, fn = "", name
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Name.Name != fn || (fd.Recv == nil) != (recv == "") {
			continue
		}
		if recv != "" && recvName(fd.Recv.List[0].Type) != recv {
			continue
		}
		return fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line, nil
	}
	return 0, 0, fmt.Errorf("no function %s in %s", name, filepath.Base(file))
}

func recvName(t ast.Expr) string {
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// goEnv is the environment of every command run in a module's copy: the
// module graph may be completed from the proxy, no other toolchain is
// fetched, no workspace applies.
func goEnv() []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOTOOLCHAIN=local", "GOWORK=off")
}

// goCmd runs the go command in dir and returns its combined output.
func (r *Runner) goCmd(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(goEnv(), env...)
	return cmd.CombinedOutput()
}

// copyTree copies the module at src to a fresh, writable dst.
func copyTree(src, dst string) error {
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case !d.Type().IsRegular():
			return nil // module zips hold regular files only
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
}

func dirName(m *expect.Module) string {
	return strings.NewReplacer("/", "_", "@", "@").Replace(m.Name())
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

func mib(b int64) string { return fmt.Sprintf("%d MiB", b>>20) }
