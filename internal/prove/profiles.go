package prove

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// profileWeight is the total allocation bytes each benchmark's profile is
// scaled to before the profiles are merged: every benchmark weighs the same,
// whatever its allocation rate.
const profileWeight = 1 << 30

// errNoSamples is the error of mergeProfiles when the benchmarks allocated
// nothing.
var errNoSamples = errors.New("the benchmarks allocate nothing")

// mergeProfiles reads the allocation profiles of the benchmarks (one file
// per benchmark, from a test binary's -test.memprofile), readies them for
// the analysis and writes their merge to out:
//
//   - only what the benchmarks allocate is kept: the samples with test
//     code (a _test.go file) on their stack; those of the testing package
//     and of the program's initialization are dropped;
//   - frames of test code (_test.go files, the generated test main) are
//     hidden: a benchmark function has every sample of its run on its
//     stack, and neither it nor a test helper is code of the package;
//   - the functions of a package main, which a test binary names by the
//     package's import path, are renamed main.F, as hashalloc matches them
//     (mains lists the import paths of the package mains);
//   - each profile is scaled to the same total of allocation bytes, so that
//     a benchmark that allocates much does not silence the others.
func mergeProfiles(files []string, mains []string, out string) error {
	var profs []*profile.Profile
	for _, name := range files {
		p, err := readProfile(name)
		if err != nil {
			return err
		}
		hideTestFrames(p)
		renameMains(p, mains)
		total, err := allocSpace(p)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		if total == 0 {
			continue
		}
		p.Scale(float64(profileWeight) / float64(total))
		profs = append(profs, p)
	}
	if len(profs) == 0 {
		return errNoSamples
	}
	merged, err := profile.Merge(profs)
	if err != nil {
		return fmt.Errorf("merging the benchmarks' profiles: %v", err)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := merged.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readProfile(name string) (*profile.Profile, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return p, nil
}

// allocSpace returns the total of the profile's alloc_space samples.
func allocSpace(p *profile.Profile) (int64, error) {
	for i, st := range p.SampleType {
		if st.Type == "alloc_space" {
			var total int64
			for _, s := range p.Sample {
				total += s.Value[i]
			}
			return total, nil
		}
	}
	return 0, fmt.Errorf("not an allocation profile")
}

// isTestFile reports whether a function of a profile is in test code: a
// _test.go file, or the test main that go test generates.
func isTestFile(name string) bool {
	return strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_testmain.go")
}

// hideTestFrames keeps the samples of p that have test code on their
// stack, and removes the frames of test code from their stacks.
func hideTestFrames(p *profile.Profile) {
	p.Sample = slices.DeleteFunc(p.Sample, func(s *profile.Sample) bool {
		for _, loc := range s.Location {
			for _, l := range loc.Line {
				if l.Function != nil && strings.HasSuffix(l.Function.Filename, "_test.go") {
					return false // every stack has the test main: not that
				}
			}
		}
		return true
	})
	for _, loc := range p.Location {
		kept := loc.Line[:0]
		for _, l := range loc.Line {
			if l.Function == nil || !isTestFile(l.Function.Filename) {
				kept = append(kept, l)
			}
		}
		loc.Line = kept
	}
	for _, s := range p.Sample {
		kept := s.Location[:0]
		for _, loc := range s.Location {
			if len(loc.Line) > 0 {
				kept = append(kept, loc)
			}
		}
		s.Location = kept
	}
}

// renameMains renames the functions of the package mains whose import paths
// are mains: path.F is main.F.
func renameMains(p *profile.Profile, mains []string) {
	for _, fn := range p.Function {
		for _, path := range mains {
			rest, ok := strings.CutPrefix(fn.Name, path+".")
			if name, _, _ := strings.Cut(rest, "["); ok && !strings.Contains(name, "/") {
				fn.Name = "main." + rest
				fn.SystemName = fn.Name
				break
			}
		}
	}
}
