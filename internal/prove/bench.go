package prove

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"
)

// benchmarkFuncs returns the names of the benchmarks that the test files
// of the package in dir declare, as the testing package finds them: func
// BenchmarkXxx(b *testing.B), Xxx not starting with a lower-case letter, in
// the order of the files.
func benchmarkFuncs(dir string, files []string) ([]string, error) {
	var names []string
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !isBenchmarkName(fd.Name.Name) || !takesB(fd.Type) {
				continue
			}
			if !slices.Contains(names, fd.Name.Name) {
				names = append(names, fd.Name.Name)
			}
		}
	}
	return names, nil
}

// isBenchmarkName reports whether name is the name of a benchmark:
// "Benchmark" and then nothing, or anything but a lower-case letter.
func isBenchmarkName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Benchmark")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// takesB reports whether the function type is func(*X.B): the testing
// package's benchmark signature, as the syntax shows it.
func takesB(ft *ast.FuncType) bool {
	if ft.Results != nil || ft.TypeParams != nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) > 1 {
		return false
	}
	star, ok := ft.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "B"
}

// benchPattern is a -bench regular expression split into its levels, as
// the testing package splits it: the first level matches the names of the
// top-level benchmarks, the others those of their sub-benchmarks.
type benchPattern struct {
	levels []string
	top    *regexp.Regexp
}

// parseBenchPattern reads the -bench flag.
func parseBenchPattern(s string) (*benchPattern, error) {
	p := &benchPattern{levels: splitRegexp(s)}
	for i, level := range p.levels {
		re, err := regexp.Compile(level)
		if err != nil {
			return nil, fmt.Errorf("-bench: %q is not a regular expression: %v", s, err)
		}
		if i == 0 {
			p.top = re
		}
	}
	return p, nil
}

// matches reports whether the top-level benchmark name is selected.
func (p *benchPattern) matches(name string) bool { return p.top.MatchString(name) }

// only returns the -test.bench pattern that runs the top-level benchmark
// name alone, with the sub-benchmarks the pattern selects.
func (p *benchPattern) only(name string) string {
	return strings.Join(append([]string{"^" + regexp.QuoteMeta(name) + "$"}, p.levels[1:]...), "/")
}

// splitRegexp splits a -bench or -run pattern at the slashes outside
// brackets and parentheses, as the testing package does.
func splitRegexp(s string) []string {
	var levels []string
	parens, brackets := 0, 0
	for i := 0; i < len(s); {
		switch s[i] {
		case '[':
			brackets++
		case ']':
			if brackets > 0 {
				brackets--
			}
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '\\':
			i++
		case '/':
			if parens == 0 && brackets == 0 {
				levels = append(levels, s[:i])
				s = s[i+1:]
				i = 0
				continue
			}
		}
		i++
	}
	return append(levels, s)
}

// A result is one line of benchmark output: a benchmark's name, as benchstat
// shows it ("HashAlternatives/recursive-2"), and its values by unit (tidied
// as benchfmt tidies them: sec/op, B/op, allocs/op, ...).
type result struct {
	name   string
	values map[string]float64
	units  []string // in the order of the line
}

// resultConfig is what the output of a test binary says of the machine and
// the package: goos, goarch, cpu and pkg.
type resultConfig map[string]string

// parseResults reads the benchmark lines of a test binary's output.
func parseResults(out []byte) ([]result, resultConfig, error) {
	r := benchfmt.NewReader(bytes.NewReader(out), "output")
	var results []result
	cfg := resultConfig{}
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			res := result{name: string(rec.Name.Full()), values: map[string]float64{}}
			for _, v := range rec.Values {
				res.values[v.Unit] = v.Value
				res.units = append(res.units, v.Unit)
			}
			for _, key := range []string{"goos", "goarch", "cpu", "pkg"} {
				if v := rec.GetConfig(key); v != "" {
					cfg[key] = v
				}
			}
			results = append(results, res)
		case *benchfmt.SyntaxError:
			// Output of the benchmark itself, or a line the reader does
			// not know: not a result.
		}
	}
	return results, cfg, r.Err()
}
