// Package defaultpgo finds the profile that Go's profile-guided optimization
// reads for the programs of a module: the default.pgo file in the directory
// of a main package (go build -pgo=auto, the default since Go 1.21). The
// hashalloc command uses it as its -profile when none is given.
package defaultpgo

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// Name is the name of the file that go build -pgo=auto reads in a main
// package's directory.
const Name = "default.pgo"

// Find returns the default.pgo files of the main packages of the modules
// rooted at dirs, sorted: in each module, every directory of a package main
// that holds one, outside vendor, testdata, directories that the go command
// ignores (starting with . or _) and nested modules.
func Find(dirs []string) ([]string, error) {
	var found []string
	for _, root := range dirs {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path == root {
					return nil
				}
				name := d.Name()
				if name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
				return nil
			}
			if d.Name() == Name && isMain(filepath.Dir(path)) && !slices.Contains(found, path) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(found)
	return found, nil
}

// isMain reports whether the Go files of dir, other than tests, are a
// package main.
func isMain(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.PackageClauseOnly)
		if err == nil {
			return f.Name.Name == "main"
		}
	}
	return false
}

// Merge writes into a new file of dir the merge of the profiles files, each
// scaled to the same total, so that every program weighs the same, and
// returns its name. Profiles that cannot be merged (a CPU profile and an
// allocation profile) are an error naming them.
func Merge(files []string, dir string) (string, error) {
	var profs []*profile.Profile
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		p, err := profile.Parse(f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("%s is not a pprof profile: %v", name, err)
		}
		if total := total(p); total > 0 {
			p.Scale(1e9 / float64(total))
		}
		profs = append(profs, p)
	}
	merged, err := profile.Merge(profs)
	if err != nil {
		return "", fmt.Errorf("the profiles %s cannot be merged (%v): choose one with -profile", strings.Join(files, ", "), err)
	}
	out, err := os.CreateTemp(dir, "hashalloc-default-*.pgo")
	if err != nil {
		return "", err
	}
	if err := merged.Write(out); err != nil {
		out.Close()
		os.Remove(out.Name())
		return "", err
	}
	return out.Name(), out.Close()
}

// total returns the total of the first sample type that hashalloc reads in
// p (CPU time, CPU samples or allocation bytes), else of the first.
func total(p *profile.Profile) int64 {
	index := 0
find:
	for _, want := range []string{"cpu", "samples", "alloc_space"} {
		for i, st := range p.SampleType {
			if st.Type == want {
				index = i
				break find
			}
		}
	}
	var sum int64
	for _, s := range p.Sample {
		if index < len(s.Value) {
			sum += s.Value[index]
		}
	}
	return sum
}

// Use sets the profile of the analysis, through set (the -profile flag's
// Set, which reads the file at once), to the default.pgo files of the
// modules rooted at dirs, merged when there are several, and returns the
// note that says so, with paths relative to cwd; it returns "" when the
// modules have none.
func Use(dirs []string, cwd string, set func(path string) error) (string, error) {
	files, err := Find(dirs)
	if err != nil || len(files) == 0 {
		return "", err
	}
	path := files[0]
	if len(files) > 1 {
		if path, err = Merge(files, ""); err != nil {
			return "", err
		}
		defer os.Remove(path)
	}
	if err := set(path); err != nil {
		return "", err
	}
	var names []string
	for _, f := range files {
		if rel, err := filepath.Rel(cwd, f); err == nil && !strings.HasPrefix(rel, "..") {
			f = rel
		}
		names = append(names, f)
	}
	what := "the default.pgo of a main package"
	if len(names) > 1 {
		what = "the default.pgo files of the main packages, merged"
	}
	return fmt.Sprintf("profile: %s (%s, as go build -pgo=auto reads it); -profile= analyzes without it", strings.Join(names, ", "), what), nil
}
