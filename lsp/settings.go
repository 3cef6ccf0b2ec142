package lsp

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer"
	"golang.org/x/tools/go/analysis"
)

// Settings are the analyzer's options, the same as the command's flags. They
// come from the flags of `hashalloc lsp` and may be overridden by the
// editor's initializationOptions, a JSON object with the same names:
//
//	{"pool": "inline", "tests": true, "constructors": ["example.com/h.New"], "checks": ["all", "-hot-buffer"]}
//
// A new option of the analyzer is added here in one place: a field, its
// flag in bindFlags, and its mapping in options.
type Settings struct {
	// Pool is "runtime" (the default) or "inline", as -pool.
	Pool string `json:"pool"`
	// Tests also analyzes _test.go files, as -tests.
	Tests bool `json:"tests"`
	// Constructors adds hash constructors (importpath.Func) that always
	// allocate, as -constructors.
	Constructors []string `json:"constructors"`
	// Sums adds sum functions and constructors (importpath.Func=ALGORITHM
	// or importpath.Func), as -sums.
	Sums []string `json:"sums"`
	// Checks chooses the checks that report, as -checks.
	Checks []string `json:"checks"`
}

// bindFlags defines the flags of `hashalloc lsp` on fs, storing into s.
func (s *Settings) bindFlags(fs *flag.FlagSet) {
	fs.StringVar(&s.Pool, "pool", analyzer.PoolAuto, "where fixes take pooled hashers from: auto (runtime in a module that requires github.com/hashalloc/hashalloc/runtime, inline elsewhere), runtime or inline")
	fs.BoolVar(&s.Tests, "tests", false, "also analyze _test.go files")
	fs.Func("constructors", "comma-separated importpath.Func list of extra hash constructors that always allocate", func(v string) error {
		for c := range strings.SplitSeq(v, ",") {
			if c = strings.TrimSpace(c); c != "" {
				s.Constructors = append(s.Constructors, c)
			}
		}
		return nil
	})
	fs.Func("sums", "comma-separated sum functions and constructors, as importpath.Func=ALGORITHM (sha256, sha512, ...) or importpath.Func", func(v string) error {
		s.Sums = append(s.Sums, v)
		return nil
	})
	fs.Func("checks", "comma-separated checks to run: all, CHECK, -CHECK to turn one off (e.g. all,-hot-buffer)", func(v string) error {
		s.Checks = append(s.Checks, v)
		return nil
	})
}

func (s Settings) options() analyzer.Options {
	return analyzer.Options{Pool: s.Pool, Tests: s.Tests, Constructors: s.Constructors, Sums: s.Sums, Checks: s.Checks}
}

// analyzer returns hashalloc configured by s, or an error naming the bad
// option.
func (s Settings) analyzer() (*analysis.Analyzer, error) {
	return analyzer.New(s.options())
}

// withInitOptions returns s overridden by the fields present in the
// initializationOptions raw, which may be empty or null. An unknown field is
// an error that names it.
func (s Settings) withInitOptions(raw []byte) (Settings, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("hashalloc initializationOptions: %w", err)
	}
	return s, nil
}
