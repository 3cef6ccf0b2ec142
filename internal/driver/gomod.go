package driver

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/fixes"
	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// missingRuntime returns the modules whose files the fixes make import the
// runtime module, when their go.mod does not require it: their build fails
// until they do.
func missingRuntime(files []*fixedFile) []*packages.Module {
	importPrefix := []byte(`"` + fixes.RuntimeModule + "/")
	var missing []*packages.Module
	seen := map[string]bool{}
	for _, ff := range files {
		mod := ff.pkg.Module
		if mod == nil || mod.GoMod == "" || seen[mod.GoMod] || !bytes.Contains(ff.new, importPrefix) || bytes.Contains(ff.old, importPrefix) {
			continue
		}
		seen[mod.GoMod] = true
		if mod.Path == fixes.RuntimeModule || requires(mod.GoMod, fixes.RuntimeModule) {
			continue
		}
		missing = append(missing, mod)
	}
	slices.SortFunc(missing, func(a, b *packages.Module) int { return strings.Compare(a.Path, b.Path) })
	return missing
}

// requires reports whether the go.mod file gomod requires the module path;
// when gomod cannot be read, it assumes so.
func requires(gomod, path string) bool {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return true
	}
	f, err := modfile.ParseLax(gomod, data, nil)
	if err != nil {
		return true
	}
	for _, r := range f.Require {
		if r.Mod.Path == path {
			return true
		}
	}
	return false
}

// printGoGet says which modules must require the runtime module, with the
// go get line that does it.
func printGoGet(w io.Writer, mods []*packages.Module, pending bool) {
	for _, mod := range mods {
		verb := "now import"
		if pending {
			verb = "would import"
		}
		where := ""
		if dir := filepath.Dir(mod.GoMod); shortPath(dir) != "." {
			where = " (in " + shortPath(dir) + ")"
		}
		fmt.Fprintf(w, "hashalloc: the fixed files %s %s, which %s does not require; run%s:\n\tgo get %s@latest\n",
			verb, fixes.RuntimeModule, mod.Path, where, fixes.RuntimeModule)
	}
}
