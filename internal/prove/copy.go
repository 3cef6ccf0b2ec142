package prove

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// A module is the module that holds the packages to prove.
type module struct {
	Path string // module path
	Dir  string // its root in the user's tree
	// Work is the go.work file in effect for the user's tree ("" outside a
	// workspace).
	Work string
}

// vcsDirs are the directories of version control systems, never copied.
var vcsDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, ".bzr": true, ".jj": true}

// copyModule copies the module m into dir/<name of its root> and makes the
// copy build as the original does: a replace directive with a relative path
// (the go.mod's, or the go.work's) points to the same directory, absolute;
// in a workspace, a go.work beside the copy uses the copy in place of the
// original and the other modules where they are. It returns the root of
// the copy and the environment of the go commands run in it (GOWORK).
//
// Copied: everything but version control directories and the directories
// of other modules (a go.mod of their own), except those under testdata,
// which tests read. vendor/ is copied as it is, and its module's relative
// replacements are left alone: the go command reads the vendored copy.
func copyModule(m module, dir string) (string, []string, error) {
	root := filepath.Join(dir, filepath.Base(m.Dir))
	if err := copyTree(m.Dir, root); err != nil {
		return "", nil, fmt.Errorf("copying the module %s: %v", m.Path, err)
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "vendor", "modules.txt")); err != nil {
		if err := absoluteReplaces(filepath.Join(root, "go.mod"), m.Dir); err != nil {
			return "", nil, err
		}
	}
	if m.Work == "" {
		return root, []string{"GOWORK=off"}, nil
	}
	work, err := copyWork(m, root, dir)
	if err != nil {
		return "", nil, err
	}
	return root, []string{"GOWORK=" + work}, nil
}

// copyTree copies the tree at src to dst, which it creates, with every file
// and directory writable by its owner (a module from the module cache is
// read-only).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			if path != src {
				if vcsDirs[d.Name()] {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && !underTestdata(rel) {
					return filepath.SkipDir // another module
				}
			}
			return os.MkdirAll(to, 0o755)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			if !filepath.IsAbs(target) {
				if resolved := filepath.Join(filepath.Dir(path), target); !within(resolved, src) {
					target = resolved // a link out of the module keeps its target
				}
			}
			return os.Symlink(target, to)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return copyFile(path, to, info.Mode().Perm()|0o200)
	})
}

// underTestdata reports whether the slash- or separator-separated path rel
// has a testdata element.
func underTestdata(rel string) bool {
	for _, elem := range strings.Split(filepath.ToSlash(rel), "/") {
		if elem == "testdata" {
			return true
		}
	}
	return false
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// within reports whether path lies in dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// absoluteReplaces rewrites the replace directives of the go.mod at gomod
// whose target is a relative directory, relative to orig, the directory of
// the original go.mod, to that directory's absolute path.
func absoluteReplaces(gomod, orig string) error {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return err
	}
	f, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		return err
	}
	changed := false
	for _, r := range f.Replace {
		if r.New.Version != "" || !modfile.IsDirectoryPath(r.New.Path) || filepath.IsAbs(r.New.Path) {
			continue
		}
		abs := filepath.Join(orig, filepath.FromSlash(r.New.Path))
		if err := f.AddReplace(r.Old.Path, r.Old.Version, abs, ""); err != nil {
			return fmt.Errorf("%s: replace %s: %v", gomod, r.Old.Path, err)
		}
		changed = true
	}
	if !changed {
		return nil
	}
	out, err := f.Format()
	if err != nil {
		return err
	}
	return os.WriteFile(gomod, out, 0o644)
}

// copyWork writes dir/go.work: the workspace of m.Work with the copy at
// root in place of m's directory, every other module used where it is, and
// its relative replacements made absolute; go.work.sum is copied beside it.
// It returns the new file's path.
func copyWork(m module, root, dir string) (string, error) {
	data, err := os.ReadFile(m.Work)
	if err != nil {
		return "", err
	}
	f, err := modfile.ParseWork(m.Work, data, nil)
	if err != nil {
		return "", err
	}
	base := filepath.Dir(m.Work)
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(base, filepath.FromSlash(p))
	}
	var uses []modfile.Use // values: DropUse clears the entries of f.Use
	for _, u := range f.Use {
		uses = append(uses, *u)
	}
	for _, u := range uses {
		if err := f.DropUse(u.Path); err != nil {
			return "", err
		}
	}
	for _, u := range uses {
		path := abs(u.Path)
		if filepath.Clean(path) == filepath.Clean(m.Dir) {
			path = root
		}
		if err := f.AddUse(path, u.ModulePath); err != nil {
			return "", err
		}
	}
	for _, r := range f.Replace {
		if r.New.Version != "" || !modfile.IsDirectoryPath(r.New.Path) || filepath.IsAbs(r.New.Path) {
			continue
		}
		if err := f.AddReplace(r.Old.Path, r.Old.Version, abs(r.New.Path), ""); err != nil {
			return "", err
		}
	}
	f.Cleanup()
	work := filepath.Join(dir, "go.work")
	if err := os.WriteFile(work, modfile.Format(f.Syntax), 0o644); err != nil {
		return "", err
	}
	if sum, err := os.ReadFile(m.Work + ".sum"); err == nil {
		if err := os.WriteFile(work+".sum", sum, 0o644); err != nil {
			return "", err
		}
	}
	return work, nil
}
