// Package examplecopy copies the repository's examples/ into a new module, so
// that tests and the tables' generator (bench/cmd/readme) can fix, build and
// benchmark a copy without touching the examples themselves.
package examplecopy

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Copy writes into dir a module named module holding a copy of root's
// examples/ under dir/examples, rewriting an example's import of another
// example to the copy. With runtime, the module requires the runtime module
// replaced by root's runtime/, so that fixes that import it build.
func Copy(root, dir, module string, runtime bool) error {
	gomod := "module " + module + "\n\ngo 1.26.0\n"
	if runtime {
		gomod += "\nrequire github.com/hashalloc/hashalloc/runtime v0.0.0\n\n" +
			"replace github.com/hashalloc/hashalloc/runtime => " + filepath.Join(root, "runtime") + "\n"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	src := filepath.Join(root, "examples")
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, "examples", rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".go") {
			data = bytes.ReplaceAll(data, []byte(`"github.com/hashalloc/hashalloc/examples/`), []byte(`"`+module+`/examples/`))
		}
		return os.WriteFile(dst, data, 0o644)
	})
}
