package lsp

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer"
	"golang.org/x/tools/go/analysis"
)

// Settings are the analyzer's options and the build tags, the same as the
// command's flags. They come from the flags of `hashalloc lsp` and may be
// overridden by the editor's initializationOptions, a JSON object with the
// same names:
//
//	{"pool": "inline", "tests": true, "constructors": ["example.com/h.New"],
//	 "sums": ["example.com/h.Sum=sha256"], "checks": ["all", "-hot-buffer"],
//	 "tags": ["integration"], "profile": "default.pgo", "profile-threshold": "2%"}
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
	// Tags are build tags, as -tags (go build's): files that the build
	// constraints exclude are not analyzed. Each entry may be a
	// comma-separated list.
	Tags []string `json:"tags"`
	// Profile is a pprof CPU profile (such as default.pgo) or allocation
	// profile that decides which functions are hot, as -profile. It is read
	// once, when the server starts. A relative path is relative to the
	// working directory on the command line, and to the workspace's root in
	// initializationOptions.
	Profile string `json:"profile"`
	// ProfileThreshold is the share of the profile's samples from which a
	// function is hot, as -profile-threshold: a fraction ("0.01") or a
	// percentage ("1%"); empty for the default.
	ProfileThreshold Threshold `json:"profile-threshold"`
	// Audit also publishes every site a check looked at and did not
	// report, and why, as information (category audit), as -audit.
	Audit bool `json:"audit"`
}

// Threshold is a share of a profile's samples, as -profile-threshold takes
// it. In JSON it is a number (0.01) or a string ("0.01", "1%").
type Threshold string

// UnmarshalJSON accepts a number or a string.
func (t *Threshold) UnmarshalJSON(b []byte) error {
	var s string
	switch b = bytes.TrimSpace(b); {
	case string(b) == "null":
	case len(b) > 0 && b[0] == '"':
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("profile-threshold: want a number or a string such as \"1%%\", not %s", b)
		}
		s = n.String()
	}
	*t = Threshold(s)
	return nil
}

// bindFlags defines the flags of `hashalloc lsp` on fs, storing into s.
func (s *Settings) bindFlags(fs *flag.FlagSet) {
	fs.StringVar(&s.Pool, "pool", analyzer.PoolAuto, "where fixes take pooled hashers from: auto (runtime in a module that requires github.com/hashalloc/hashalloc/runtime, inline elsewhere), runtime or inline")
	fs.BoolVar(&s.Tests, "tests", false, "also analyze _test.go files")
	fs.BoolVar(&s.Audit, "audit", false, "also publish every site not reported, and why, as information")
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
	fs.Func("tags", "comma-separated build tags, as for go build: files excluded by build constraints are not analyzed", func(v string) error {
		s.Tags = append(s.Tags, v)
		return nil
	})
	fs.Func("profile", "a pprof CPU profile (such as default.pgo) or allocation profile that decides which functions are hot", func(v string) error {
		s.Profile = v
		return nil
	})
	fs.Func("profile-threshold", "the share of the profile's samples from which a function is hot (0.01 or 1%)", func(v string) error {
		s.ProfileThreshold = Threshold(v)
		return nil
	})
}

func (s Settings) options() (analyzer.Options, error) {
	opts := analyzer.Options{Pool: s.Pool, Tests: s.Tests, Audit: s.Audit, Constructors: s.Constructors, Sums: s.Sums, Checks: s.Checks, Profile: s.Profile}
	if s.ProfileThreshold != "" {
		t, err := analyzer.ParseThreshold(string(s.ProfileThreshold))
		if err != nil {
			return opts, err
		}
		opts.ProfileThreshold = t
	}
	return opts, nil
}

// analyzer returns hashalloc configured by s, or an error naming the bad
// option. It reads the profile, if there is one.
func (s Settings) analyzer() (*analysis.Analyzer, error) {
	return s.analyzerWith(nil)
}

// analyzerWith is analyzer, with unproved receiving the findings of each
// package before their fixes are proved (analyzer.Options.Unproved).
func (s Settings) analyzerWith(unproved func(*analysis.Pass, []analysis.Diagnostic)) (*analysis.Analyzer, error) {
	if _, err := buildTags(s.Tags); err != nil {
		return nil, err
	}
	opts, err := s.options()
	if err != nil {
		return nil, err
	}
	opts.Unproved = unproved
	return analyzer.New(opts)
}

// buildFlags are the flags of the go command that load packages as s asks.
func (s Settings) buildFlags() []string {
	tags, _ := buildTags(s.Tags)
	if len(tags) == 0 {
		return nil
	}
	return []string{"-tags=" + strings.Join(tags, ",")}
}

// buildTags splits entries, each a comma-separated list of build tags (or a
// space-separated one, the form go build still accepts), into tags, and
// returns an error naming the first that is not a build tag.
func buildTags(entries []string) ([]string, error) {
	var tags []string
	for _, e := range entries {
		sep := ","
		if !strings.Contains(e, ",") {
			sep = " "
		}
		for tag := range strings.SplitSeq(e, sep) {
			tag = strings.TrimSpace(tag)
			if tag == "" {
				continue
			}
			if !validTag(tag) {
				return nil, fmt.Errorf("-tags: %q is not a build tag (letters, digits, _ and . only)", tag)
			}
			tags = append(tags, tag)
		}
	}
	return tags, nil
}

// validTag reports whether tag can be named by a build constraint.
func validTag(tag string) bool {
	for _, r := range tag {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.') {
			return false
		}
	}
	return tag != ""
}

// withInitOptions returns s overridden by the fields present in the
// initializationOptions raw, which may be empty or null. An unknown field is
// an error that names it. A relative profile path in raw is made relative
// to root, the workspace's directory, when there is one.
func (s Settings) withInitOptions(raw []byte, root string) (Settings, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(raw, &fields) // the decoder below reports any error
	_, hasProfile := fields["profile"]
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("hashalloc initializationOptions: %w", err)
	}
	if hasProfile && s.Profile != "" && root != "" && !filepath.IsAbs(s.Profile) {
		s.Profile = filepath.Join(root, s.Profile)
	}
	return s, nil
}
