package analyzer

import (
	"fmt"
	"go/types"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

// A profile is measured evidence of where a program spends its time or its
// allocations. Given one (-profile=FILE: a CPU profile such as the
// default.pgo of Go's profile-guided optimization, or an allocation profile
// as written by go test -memprofile), hashalloc decides hotness by it in
// every package the profile covers:
//
//   - a function with at least the threshold (-profile-threshold, 1% by
//     default) of the profile's samples, inclusive of what it calls, is hot,
//     whatever calls it, in this package or in another;
//   - a function below the threshold, or absent, is cold: the per-call checks
//     (hasher-alloc and sum-alloc per call, hot-buffer, calls of another
//     package's per-call allocations) say nothing there, even when the call
//     graph would have made it hot; only a //hashalloc:hot directive stands
//     against the profile, as the user's own statement;
//   - every finding in a package the profile covers says the share measured
//     in its function, and at its line when the profile has samples there.
//
// A package covers a profile when at least one of its functions appears in
// it; a package the profile does not cover (a profile of another binary, a
// package the workload never ran) is judged on static evidence alone.
// Functions are matched by full symbol name, as the runtime spells them:
// "example.com/p.F", "example.com/p.(*T).M", "example.com/p.T.M", with type
// arguments and the escapes of the linker (gopkg.in/yaml%2ev3) removed.

// DefaultProfileThreshold is the share of a profile's samples from which a
// function is hot: 1%. A function below it cannot gain measurably from
// dropping an allocation per call, and at the sampling rate of a CPU profile
// (100 Hz) 1% of a 30-second profile is 30 samples, well above sampling noise.
const DefaultProfileThreshold = 0.01

// profileIndex is what hashalloc reads from a profile: the value of the
// chosen sample type, in total, per function (inclusive: every sample with
// the function anywhere on its stack, once) and per function and line.
type profileIndex struct {
	path  string
	unit  string // what a share is a share of: "sampled CPU time", "sampled allocation bytes"
	total int64
	funcs map[string]int64
	lines map[funcLine]int64
	pkgs  map[string]bool // the packages that have a function in the profile
}

type funcLine struct {
	fn   string
	line int64
}

// loadProfile reads and indexes the pprof profile at path. Any error names
// the file; a profile that is neither a CPU nor an allocation profile is an
// error too.
func loadProfile(path string) (*profileIndex, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("-profile: %v", err)
	}
	defer f.Close()
	prof, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("-profile: %s is not a pprof profile: %v", path, err)
	}
	idx, err := indexProfile(prof)
	if err != nil {
		return nil, fmt.Errorf("-profile: %s: %v", path, err)
	}
	idx.path = path
	return idx, nil
}

// sampleTypes are the sample types hashalloc reads, in order of preference,
// with what their shares measure.
var sampleTypes = []struct{ typ, unit string }{
	{"cpu", "sampled CPU time"},                 // CPU profiles, default.pgo
	{"samples", "CPU samples"},                  // CPU profiles without the cpu type
	{"alloc_space", "sampled allocation bytes"}, // heap and allocs profiles, -memprofile
}

func indexProfile(prof *profile.Profile) (*profileIndex, error) {
	value := -1
	idx := &profileIndex{funcs: map[string]int64{}, lines: map[funcLine]int64{}, pkgs: map[string]bool{}}
	for _, st := range sampleTypes {
		for i, t := range prof.SampleType {
			if t.Type == st.typ && value < 0 {
				value, idx.unit = i, st.unit
			}
		}
	}
	if value < 0 {
		var types []string
		for _, t := range prof.SampleType {
			types = append(types, t.Type+"/"+t.Unit)
		}
		return nil, fmt.Errorf("not a CPU or allocation profile (its samples are %s)", strings.Join(types, ", "))
	}
	names := map[*profile.Function]string{}
	for _, s := range prof.Sample {
		v := s.Value[value]
		if v <= 0 {
			continue
		}
		idx.total += v
		seenFunc := map[string]bool{}
		seenLine := map[funcLine]bool{}
		for _, loc := range s.Location {
			for _, line := range loc.Line {
				if line.Function == nil {
					continue
				}
				name, ok := names[line.Function]
				if !ok {
					var pkg string
					name, pkg = symbolName(line.Function.Name)
					names[line.Function] = name
					idx.pkgs[pkg] = true
				}
				if !seenFunc[name] {
					seenFunc[name] = true
					idx.funcs[name] += v
				}
				if fl := (funcLine{name, line.Line}); !seenLine[fl] {
					seenLine[fl] = true
					idx.lines[fl] += v
				}
			}
		}
	}
	if idx.total == 0 {
		return nil, fmt.Errorf("the profile has no samples")
	}
	return idx, nil
}

// symbolName normalizes a function name of a profile, as the runtime spells
// it, and returns it with its package path: type arguments ("[...]") are
// dropped and the linker's escapes (%2e for a dot in the last element of the
// package path) undone.
func symbolName(name string) (string, string) {
	// Drop bracketed type arguments: F[...], (*T[...]).M.
	if strings.Contains(name, "[") {
		var b strings.Builder
		depth := 0
		for _, r := range name {
			switch {
			case r == '[':
				depth++
			case r == ']' && depth > 0:
				depth--
			case depth == 0:
				b.WriteRune(r)
			}
		}
		name = b.String()
	}
	// The package path ends at the first dot after the last slash; dots in
	// its last element are escaped, so the split is unambiguous.
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return unescape(name), ""
	}
	pkg := unescape(name[:slash+1+dot])
	return pkg + name[slash+1+dot:], pkg
}

// unescape undoes the linker's %xx escapes of a package path; a name with
// no escapes, or with a malformed one, is left as it is.
func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// symbolOf spells fn as the profile's function names do (see symbolName):
// "path.F", "path.(*T).M", "path.T.M"; a package main's functions are
// "main.F".
func symbolOf(fn *types.Func) string {
	pkg := fn.Pkg().Path()
	if fn.Pkg().Name() == "main" {
		pkg = "main"
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return pkg + "." + fn.Name()
	}
	t := recv.Type()
	ptr := false
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	name := "?"
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		name = t.Obj().Name()
	case *types.Interface:
		return "" // an interface method has no body
	}
	if ptr {
		return pkg + ".(*" + name + ")." + fn.Name()
	}
	return pkg + "." + name + "." + fn.Name()
}

// Covers reports whether the profile has a function of pkg (see profile;
// "main" stands for every package main). Covers, Share and Unit are the
// profile as the frequency model reads it.
func (x *profileIndex) Covers(pkg *types.Package) bool {
	if pkg.Name() == "main" {
		return x.pkgs["main"]
	}
	return x.pkgs[pkg.Path()]
}

// Share returns the fraction of the profile's samples that have fn on their
// stack, inclusive.
func (x *profileIndex) Share(fn *types.Func) float64 {
	return float64(x.funcs[symbolOf(fn)]) / float64(x.total)
}

// Unit names what a share is a share of.
func (x *profileIndex) Unit() string { return x.unit }

// Percent spells a share of a profile as the messages do: "31%", "2.5%",
// "0.04%".
func Percent(share float64) string {
	switch {
	case share == 0:
		return "0%"
	case share >= 0.095:
		return fmt.Sprintf("%.0f%%", 100*share)
	case share >= 0.0095:
		return fmt.Sprintf("%.1f%%", 100*share)
	}
	return fmt.Sprintf("%.2g%%", 100*share)
}

// profileFlag is the value of the -profile flag: the profile is read when
// the flag is set, so that a missing, unreadable or foreign file is one error
// before any package is analyzed.
type profileFlag struct{ c *config }

func (f profileFlag) String() string {
	if f.c == nil || f.c.profile == nil {
		return ""
	}
	return f.c.profile.path
}

func (f profileFlag) Set(path string) error {
	if path == "" {
		f.c.profile = nil
		return nil
	}
	idx, err := loadProfile(path)
	if err != nil {
		return err
	}
	f.c.profile = idx
	return nil
}

// thresholdFlag is the value of the -profile-threshold flag: a fraction
// (0.01) or a percentage (1%), above 0 and at most 1.
type thresholdFlag struct{ c *config }

func (f thresholdFlag) String() string {
	if f.c == nil {
		return ""
	}
	return strconv.FormatFloat(f.c.threshold, 'g', -1, 64)
}

func (f thresholdFlag) Set(s string) error {
	t, err := ParseThreshold(s)
	if err != nil {
		return err
	}
	f.c.threshold = t
	return nil
}

// ParseThreshold reads a profile threshold as -profile-threshold takes it: a
// fraction ("0.01") or a percentage ("1%"), above 0 and at most 1.
func ParseThreshold(s string) (float64, error) {
	v, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	t, err := strconv.ParseFloat(v, 64)
	if pct {
		t /= 100
	}
	if err != nil || math.IsNaN(t) || t <= 0 || t > 1 {
		return 0, fmt.Errorf("-profile-threshold: %q is not a share above 0 and at most 1 (0.01 or 1%%)", s)
	}
	return t, nil
}
