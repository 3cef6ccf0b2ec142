package analyzer_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/types/typeutil"
)

// TestOracle checks the allocation model against the toolchain. For every
// testdata package, every exported func CaseX() is run under
// testing.AllocsPerRun, before and after the suggested fixes:
//
//   - before: it must allocate exactly when a hash constructor it reaches
//     (statically, within the package) is predicted to heap allocate, or when
//     it reaches a finding (every finding claims an allocation);
//   - after: a case that reaches a reported finding with a fix must allocate
//     strictly less than before;
//   - a case whose doc comment says "after the fixes, it allocates nothing"
//     must measure 0 after the fixes;
//   - every func ResultX() string must return the same before and after the
//     fixes: a fix never changes what the program computes.
//
// Every decided constructor call in analyzed code must be reached by a case,
// so the model cannot drift from the compiler unnoticed: when a new Go
// release changes what escapes, this test fails until the model is updated.
func TestOracle(t *testing.T) {
	testenv.SkipUnlessSlow(t, "compiles and runs every testdata package under testing.AllocsPerRun, before and after the fixes")
	t.Parallel()
	packages := []struct {
		pkg  string
		opts analyzer.Options
	}{
		{"hasheralloc", analyzer.Options{}},
		{"keptimport", analyzer.Options{}},
		{"fieldapi", analyzer.Options{}},
		{"valuerecv", analyzer.Options{}},
		{"hmacrekey", analyzer.Options{}},
		{"atomickey", analyzer.Options{}},
		{"hmaconce", analyzer.Options{}},
		{"concathash", analyzer.Options{}},
		{"makecopy", analyzer.Options{}},
		{"digestvalues", analyzer.Options{}},
		{"ringhash", analyzer.Options{}},
		{"funcvars", analyzer.Options{}},
		{"dynsinks", analyzer.Options{}},
		{"inlinepool", analyzer.Options{Pool: analyzer.PoolInline}},
		{"concathashinline", analyzer.Options{Pool: analyzer.PoolInline}},
		{"suppress", analyzer.Options{}},
		{"sumalloc", analyzer.Options{}},
		{"fieldsum", analyzer.Options{}},
		{"hotbuffer", analyzer.Options{}},
		{"hotbufferinline", analyzer.Options{Pool: analyzer.PoolInline}},
		{"hotbuffervar", analyzer.Options{}},
		{"hotbufferhelper", analyzer.Options{}},
		{"fiximports", analyzer.Options{}},
		{"fiximportsinline", analyzer.Options{Pool: analyzer.PoolInline}},
		{"hotness", analyzer.Options{}},
		{"roles", analyzer.Options{}},
		{"escape", analyzer.Options{}},
		{"wrappers", analyzer.Options{}},
		{"writers", analyzer.Options{}},
		{"dyntargets", analyzer.Options{}},
		{"derivedkey", analyzer.Options{}},
		{"derivedkey/loops", analyzer.Options{}},
		{"joins", analyzer.Options{}},
		{"helperloop", analyzer.Options{}},
		{"funcctors", analyzer.Options{}},
		{"example.com/wrapperuser", analyzer.Options{}},
		{"sums", analyzer.Options{Sums: sumsOption}},
		{"sumsinline", analyzer.Options{Sums: sumsOption, Pool: analyzer.PoolInline}},
	}
	gopath := oracleGOPATH(t)

	// Analyze every package, in parallel, and write its cases twice: as
	// they are, and with the golden (fixed) files.
	type oracle struct {
		pkg     string
		cases   []oracleCase
		results []string
		ready   bool // analyzed and written
	}
	oracles := make([]*oracle, len(packages))
	t.Run("analyze", func(t *testing.T) {
		for i, tc := range packages {
			o := &oracle{pkg: tc.pkg}
			oracles[i] = o
			t.Run(tc.pkg, func(t *testing.T) {
				t.Parallel()
				var result *analysistest.Result
				for _, r := range analysistest.Run(t, testdata, newAnalyzer(t, tc.opts), tc.pkg) {
					if r.Pass.Pkg.Path() == tc.pkg && !hasTestFiles(r.Pass) {
						result = r // the package itself, not its test variants
					}
				}
				require.NotNil(t, result)
				o.cases = predict(t, result)
				require.NotEmpty(t, o.cases, "no func CaseX() in %s", tc.pkg)
				o.results = resultFuncs(result.Pass)
				writeOracle(t, gopath, tc.pkg, "", o.cases, o.results)
				writeOracle(t, gopath, tc.pkg, ".golden", o.cases, o.results)
				o.ready = true
			})
		}
	})

	// Measure them all with one go test: the go command builds and runs
	// the packages in parallel.
	var paths []string
	for _, o := range oracles {
		if o.ready {
			paths = append(paths, oraclePath(o.pkg, ""), oraclePath(o.pkg, ".golden"))
		}
	}
	require.NotEmpty(t, paths, "no package analyzed")
	outputs := runOracles(t, gopath, paths)

	for _, o := range oracles {
		if !o.ready {
			continue
		}
		t.Run(o.pkg, func(t *testing.T) {
			before, beforeResults := parseOracle(t, outputs, oraclePath(o.pkg, ""), o.cases, o.results)
			after, afterResults := parseOracle(t, outputs, oraclePath(o.pkg, ".golden"), o.cases, o.results)
			for _, name := range o.results {
				t.Logf("%-22s %s", name, beforeResults[name])
				if beforeResults[name] != afterResults[name] {
					t.Errorf("%s: returns %s after the fixes, %s before", name, afterResults[name], beforeResults[name])
				}
			}
			for _, c := range o.cases {
				got := before[c.name]
				t.Logf("%-22s predicted heap=%-5v measured %v allocs, %v after the fixes", c.name, c.heap, got, after[c.name])
				if c.heap != (got > 0) {
					t.Errorf("%s: the model predicts heap=%v (%s) but the case makes %v allocs per run", c.name, c.heap, c.why, got)
				}
				if c.fixed && after[c.name] >= got {
					t.Errorf("%s: %v allocs per run after the fixes, not fewer than %v before", c.name, after[c.name], got)
				}
				if c.nothingAfter && after[c.name] != 0 {
					t.Errorf("%s: %v allocs per run after the fixes, where its comment says it allocates nothing", c.name, after[c.name])
				}
			}
		})
	}
}

// oracleCase is one func CaseX() and what the analyzer says about what it reaches.
type oracleCase struct {
	name  string
	heap  bool   // a reached constructor is predicted to heap allocate
	why   string // the prediction's reason, for failures
	fixed bool   // a reached constructor is reported with a fix
	// nothingAfter: the case's doc comment says "after the fixes, it
	// allocates nothing".
	nothingAfter bool
}

// predict computes, for every case of the analyzed package, the model's
// prediction, and checks that every decided site is reached by a case.
func predict(t *testing.T, r *analysistest.Result) []oracleCase {
	t.Helper()
	pass := r.Pass
	res := r.Result.(*analyzer.Result)

	// Static call graph of the package, and the body of each function.
	bodies := map[*types.Func]*ast.FuncDecl{}
	calls := map[*types.Func][]*types.Func{}
	var caseFuncs []*types.Func
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			bodies[fn] = fd
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if callee := typeutil.StaticCallee(pass.TypesInfo, call); callee != nil && callee.Pkg() == pass.Pkg {
						calls[fn] = append(calls[fn], callee)
					}
				}
				return true
			})
			sig := fn.Signature()
			if strings.HasPrefix(fn.Name(), "Case") && sig.Recv() == nil && sig.Params().Len() == 0 && sig.Results().Len() == 0 {
				caseFuncs = append(caseFuncs, fn)
			}
		}
	}
	inside := func(fd *ast.FuncDecl, pos token.Pos) bool { return fd.Pos() <= pos && pos < fd.End() }

	reached := map[*analyzer.Site]bool{}
	reachedDiag := map[int]bool{}
	var cases []oracleCase
	for _, fn := range caseFuncs {
		c := oracleCase{name: fn.Name()}
		if doc := bodies[fn].Doc; doc != nil {
			c.nothingAfter = strings.Contains(strings.Join(strings.Fields(doc.Text()), " "), "after the fixes, it allocates nothing")
		}
		seen := map[*types.Func]bool{}
		var walk func(fn *types.Func)
		walk = func(fn *types.Func) {
			if seen[fn] || bodies[fn] == nil {
				return
			}
			seen[fn] = true
			for _, s := range res.Sites {
				if !inside(bodies[fn], s.Call.Pos()) {
					continue
				}
				reached[s] = true
				require.True(t, s.Decided, "%s reaches %s at %s, on which the model does not decide (%s): move it out of the cases",
					c.name, s.Constructor, pass.Fset.Position(s.Call.Pos()), s.Why)
				// A wrapper's own constructor call costs what the
				// wrapper's call site says (it may be inlined there).
				if s.Heap && !s.InWrapper {
					c.heap = true
					c.why = s.Constructor + " " + s.Why
				}
			}
			for i, d := range r.Diagnostics {
				if inside(bodies[fn], d.Pos) {
					reachedDiag[i] = true
					c.heap = true
					c.why = d.Message
					c.fixed = c.fixed || len(d.SuggestedFixes) > 0
				}
			}
			for _, callee := range calls[fn] {
				walk(callee)
			}
		}
		walk(fn)
		cases = append(cases, c)
	}

	// Every decided site in a function of an analyzed file is covered.
	for _, s := range res.Sites {
		posn := pass.Fset.Position(s.Call.Pos())
		if reached[s] || !s.Decided || strings.HasSuffix(posn.Filename, "_test.go") || isGenerated(pass, s.Call.Pos()) {
			continue
		}
		var owner *ast.FuncDecl
		for _, fd := range bodies {
			if inside(fd, s.Call.Pos()) {
				owner = fd
			}
		}
		if owner == nil || (owner.Recv == nil && owner.Name.Name == "init") {
			continue // package-level initializers and init run once
		}
		t.Errorf("%s: %s is reached by no func CaseX(): the oracle cannot check it", posn, s.Constructor)
	}
	for i, d := range r.Diagnostics {
		if !reachedDiag[i] {
			t.Errorf("%s: %q is reached by no func CaseX(): the oracle cannot check it", pass.Fset.Position(d.Pos), d.Message)
		}
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].name < cases[j].name })
	return cases
}

// resultFuncs returns the names of the package's func ResultX() string.
func resultFuncs(pass *analysis.Pass) []string {
	var names []string
	for _, name := range pass.Pkg.Scope().Names() {
		fn, ok := pass.Pkg.Scope().Lookup(name).(*types.Func)
		if !ok || !strings.HasPrefix(name, "Result") {
			continue
		}
		sig := fn.Signature()
		if sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
			names = append(names, name)
		}
	}
	return names
}

func hasTestFiles(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go") {
			return true
		}
	}
	return false
}

func isGenerated(pass *analysis.Pass, pos token.Pos) bool {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return ast.IsGenerated(f)
		}
	}
	return false
}

// oracleGOPATH lays out a GOPATH with every testdata package and the runtime
// module, so that both the cases and their golden (fixed) versions compile.
func oracleGOPATH(t *testing.T) string {
	t.Helper()
	gopath := t.TempDir()
	src := filepath.Join(testdata, "src")
	require.NoError(t, os.CopyFS(filepath.Join(gopath, "src"), os.DirFS(src)))
	runtimeDir, err := filepath.Abs(filepath.Join("..", "runtime"))
	require.NoError(t, err)
	link := filepath.Join(gopath, "src", "github.com", "hashalloc", "hashalloc", "runtime")
	require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o755))
	require.NoError(t, os.Symlink(runtimeDir, link))
	return gopath
}

// oraclePath is the import path, in the oracle's GOPATH, of the copy of pkg
// that runs its cases; with suffix ".golden", of the copy with the golden
// files in place of the files they fix.
func oraclePath(pkg, suffix string) string {
	return "oracle/" + pkg + strings.TrimPrefix(suffix, ".")
}

// writeOracle writes the copy of pkg at oraclePath(pkg, suffix), with a test
// that runs every case under testing.AllocsPerRun and prints what each
// result function returns.
func writeOracle(t *testing.T, gopath, pkg, suffix string, cases []oracleCase, results []string) {
	t.Helper()
	dir := filepath.Join(gopath, "src", filepath.FromSlash(oraclePath(pkg, suffix)))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	entries, err := os.ReadDir(filepath.Join(gopath, "src", pkg))
	require.NoError(t, err)
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		from := filepath.Join(gopath, "src", pkg, name)
		if suffix != "" {
			if _, err := os.Stat(from + suffix); err == nil {
				from += suffix
			}
		}
		data, err := os.ReadFile(from)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}

	var test bytes.Buffer
	fmt.Fprintf(&test, "package %s\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n)\n\nfunc TestOracle(t *testing.T) {\n", path.Base(pkg))
	for _, c := range cases {
		fmt.Fprintf(&test, "\tfmt.Printf(\"ORACLE %%s %%v\\n\", %q, testing.AllocsPerRun(200, %s))\n", c.name, c.name)
	}
	for _, name := range results {
		fmt.Fprintf(&test, "\tfmt.Printf(\"RESULT %%s %%q\\n\", %q, %s())\n", name, name)
	}
	test.WriteString("}\n")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "zz_oracle_test.go"), test.Bytes(), 0o644))
}

// oracleOutput is what go test printed for one package, and how it ended.
type oracleOutput struct {
	output strings.Builder
	action string // pass, fail, skip; "" when go test said nothing of it
}

// runOracles runs the tests written by writeOracle for every import path in
// paths with one go test -json, and returns each package's output.
func runOracles(t *testing.T, gopath string, paths []string) map[string]*oracleOutput {
	t.Helper()
	cmd := exec.Command("go", append([]string{"test", "-count=1", "-json", "-run=^TestOracle$", "-v"}, paths...)...)
	cmd.Dir = filepath.Join(gopath, "src")
	cmd.Env = append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	outputs := map[string]*oracleOutput{}
	get := func(path string) *oracleOutput {
		if outputs[path] == nil {
			outputs[path] = &oracleOutput{}
		}
		return outputs[path]
	}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e struct {
			ImportPath, Package, Action, Test, Output string
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		switch {
		case e.Action == "build-output":
			get(e.ImportPath).output.WriteString(e.Output)
		case e.Package == "":
		case e.Action == "output":
			get(e.Package).output.WriteString(e.Output)
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			get(e.Package).action = e.Action
		}
	}
	if err != nil && len(outputs) == 0 {
		require.NoError(t, err, "go test %s:\n%s%s", strings.Join(paths, " "), stdout, stderr.Bytes())
	}
	if stderr.Len() > 0 {
		t.Logf("go test: %s", stderr.Bytes())
	}
	return outputs
}

// parseOracle returns, from the output of the copy of a package at path,
// the allocations per run of every case, and what each result function
// returns.
func parseOracle(t *testing.T, outputs map[string]*oracleOutput, path string, cases []oracleCase, results []string) (map[string]float64, map[string]string) {
	t.Helper()
	out := outputs[path]
	require.NotNil(t, out, "go test printed nothing for %s", path)
	output := out.output.String()
	require.Equal(t, "pass", out.action, "go test %s:\n%s", path, output)

	allocs := map[string]float64{}
	values := map[string]string{}
	for line := range strings.SplitSeq(output, "\n") {
		// A result is quoted, and may hold spaces.
		if f := strings.SplitN(line, " ", 3); len(f) == 3 && f[0] == "RESULT" {
			values[f[1]] = f[2]
		}
		if f := strings.Fields(line); len(f) == 3 && f[0] == "ORACLE" {
			n, err := strconv.ParseFloat(f[2], 64)
			require.NoError(t, err)
			allocs[f[1]] = n
		}
	}
	require.Len(t, allocs, len(cases), "go test %s:\n%s", path, output)
	require.Len(t, values, len(results), "go test %s:\n%s", path, output)
	return allocs, values
}
