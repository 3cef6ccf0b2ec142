// Package golangci registers hashalloc as a golangci-lint v2 module plugin
// named "hashalloc". Its settings are the command's flags:
//
//	linters:
//	  enable: [hashalloc]
//	  settings:
//	    custom:
//	      hashalloc:
//	        type: module
//	        settings:
//	          pool: inline          # -pool
//	          tests: false          # -tests
//	          constructors: []      # -constructors
//	          sums: [example.com/h.Sum256=sha256]  # -sums
//	          checks: [all, -hot-buffer]   # -checks
//	          profile: default.pgo  # -profile: a pprof CPU or allocation profile
//	          profile-threshold: 0.01  # -profile-threshold (or "1%")
//
// A relative profile path is relative to the directory golangci-lint runs in.
// An unknown setting, or a bad value, is an error that names the setting.
//
// golangci-lint makes an issue of each entry of a diagnostic's related
// information; hashalloc's are the evidence that its messages already say
// in words, so the plugin reports the message alone: one issue per finding.
package golangci

import (
	"fmt"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/internal/norelated"
	"golang.org/x/tools/go/analysis"
)

func init() { register.Plugin("hashalloc", New) }

// Settings are the plugin's settings in .golangci.yml.
type Settings struct {
	// Pool is "auto" (the default), "runtime" or "inline", as the -pool flag.
	Pool string `json:"pool"`
	// Tests also analyzes _test.go files, as the -tests flag.
	Tests bool `json:"tests"`
	// Constructors adds hash constructors (importpath.Func) that always
	// allocate, as the -constructors flag.
	Constructors []string `json:"constructors"`
	// Sums adds sum functions and constructors, as importpath.Func=ALGORITHM
	// (sha256, sha512, sha1, md5, sha3_256, ...) or importpath.Func, as the
	// -sums flag.
	Sums []string `json:"sums"`
	// Checks chooses the checks that report, as the -checks flag: "all", a
	// check's name, or "-" and a name to turn it off, read in order.
	Checks []string `json:"checks"`
	// Profile is a pprof CPU profile (such as default.pgo) or allocation
	// profile that decides which functions are hot, as the -profile flag.
	Profile string `json:"profile"`
	// ProfileThreshold is the share of the profile's samples from which a
	// function is hot, as the -profile-threshold flag: a number (0.01) or a
	// percentage ("1%"); empty for the default.
	ProfileThreshold threshold `json:"profile-threshold"`
}

// threshold is a share given as a number or as a string ("0.01", "1%").
type threshold string

func (t *threshold) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" {
		s = ""
	}
	*t = threshold(s)
	return nil
}

// New builds the plugin from the settings golangci-lint read from its
// configuration file.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("hashalloc settings: %w", err)
	}
	opts := analyzer.Options{Pool: s.Pool, Tests: s.Tests, Constructors: s.Constructors, Sums: s.Sums, Checks: s.Checks, Profile: s.Profile}
	if s.ProfileThreshold != "" {
		opts.ProfileThreshold, err = analyzer.ParseThreshold(string(s.ProfileThreshold))
	}
	var a *analysis.Analyzer
	if err == nil {
		a, err = analyzer.New(opts)
	}
	if err != nil {
		// The analyzer's errors name its flag (-pool: ...); name the setting.
		return nil, fmt.Errorf("hashalloc settings: %s", strings.TrimPrefix(err.Error(), "-"))
	}
	return plugin{norelated.Wrap(a)}, nil
}

type plugin struct{ analyzer *analysis.Analyzer }

func (p plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{p.analyzer}, nil
}

func (plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
