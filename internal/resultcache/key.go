package resultcache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hashalloc/hashalloc/analyzer"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// ListMode is what Keyer needs of a package: a go list of the packages and
// their dependencies, without parsing or type-checking anything.
const ListMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedEmbedFiles | packages.NeedTypesSizes |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule | packages.NeedForTest

// goEnv are the variables of the go command that change what a package is
// built from or how: the toolchain and the build configuration.
var goEnv = []string{
	"GOVERSION", "GOROOT", "GOMODCACHE", "GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED",
	"GOEXPERIMENT", "GOAMD64", "GOARM", "GOARM64", "GO386", "GOMIPS", "GOPPC64", "GORISCV64", "GOWASM", "GOWORK",
}

// Toolchain is what the go command says of the toolchain and the build
// configuration in dir, the values of goEnv.
type Toolchain map[string]string

// GoEnv asks the go command in dir for the Toolchain.
func GoEnv(ctx context.Context, dir string) (Toolchain, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"env", "-json"}, goEnv...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var t Toolchain
	if err := json.Unmarshal(out, &t); err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	return t, nil
}

// Salt returns what every key of a run shares: the build of hashalloc
// (BuildID), the options that change a result, in a canonical order, the
// toolchain, the go.work that applies and the profile's content.
func Salt(buildID string, options map[string]string, t Toolchain, profile []byte) []byte {
	h := sha256.New()
	fmt.Fprintf(h, "hashalloc-results/1\nbuild %s\n", buildID)
	for _, k := range slices.Sorted(maps.Keys(options)) {
		fmt.Fprintf(h, "option %q=%q\n", k, options[k])
	}
	for _, k := range slices.Sorted(maps.Keys(t)) {
		fmt.Fprintf(h, "env %s=%q\n", k, t[k])
	}
	if w := t["GOWORK"]; w != "" && w != "off" {
		data, _ := os.ReadFile(w)
		fmt.Fprintf(h, "go.work %x\n", sha256.Sum256(data))
	}
	fmt.Fprintf(h, "profile %x\n", sha256.Sum256(profile))
	return h.Sum(nil)
}

// Keyer computes the keys of packages loaded with ListMode.
//
// A package's key hashes the salt, the package's identity (ID, path, name,
// module and its Go version), each of its files, and the keys of the
// packages it imports, so a change to a dependency changes the keys of all
// its dependents. A file of the standard library or of the module cache,
// which the toolchain version or the module version pins, is hashed by its
// path; any other file, and the go.mod of a module outside the module
// cache, by its content.
type Keyer struct {
	salt       []byte
	goroot     string
	modcache   string
	keys       map[*packages.Package]Key
	contents   map[string][]byte // the files read, by name
	contentSum map[string][sha256.Size]byte
}

// NewKeyer returns a Keyer of the packages of a run with salt, loaded by the
// toolchain t.
func NewKeyer(salt []byte, t Toolchain) *Keyer {
	return &Keyer{
		salt:       salt,
		goroot:     t["GOROOT"],
		modcache:   t["GOMODCACHE"],
		keys:       map[*packages.Package]Key{},
		contents:   map[string][]byte{},
		contentSum: map[string][sha256.Size]byte{},
	}
}

// Key returns p's key. It fails when a file cannot be read.
func (k *Keyer) Key(p *packages.Package) (Key, error) {
	if key, ok := k.keys[p]; ok {
		return key, nil
	}
	h := sha256.New()
	h.Write(k.salt)
	fmt.Fprintf(h, "package %q %q %q\n", p.ID, p.PkgPath, p.Name)
	pinned := k.Pinned(p)
	if m := p.Module; m != nil {
		fmt.Fprintf(h, "module %q %q %q %v\n", m.Path, m.Version, m.GoVersion, m.Main)
		if r := m.Replace; r != nil {
			fmt.Fprintf(h, "replace %q %q\n", r.Path, r.Version)
		}
		if m.GoMod != "" && !pinned {
			sum, err := k.sum(m.GoMod)
			if err != nil {
				return Key{}, err
			}
			fmt.Fprintf(h, "go.mod %x\n", sum)
		}
	}
	files := slices.Concat(p.GoFiles, p.OtherFiles, p.EmbedFiles)
	slices.Sort(files)
	for _, name := range slices.Compact(files) {
		if pinned {
			fmt.Fprintf(h, "file %q\n", name)
			continue
		}
		sum, err := k.sum(name)
		if err != nil {
			return Key{}, err
		}
		fmt.Fprintf(h, "file %q %x\n", name, sum)
	}
	for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
		dep, err := k.Key(p.Imports[path])
		if err != nil {
			return Key{}, err
		}
		fmt.Fprintf(h, "import %q %x\n", path, dep)
	}
	var key Key
	h.Sum(key[:0])
	k.keys[p] = key
	return key, nil
}

// Pinned reports whether p's files cannot change without a change of the
// toolchain or of a module version: a package of the standard library, or
// of a module version in the module cache.
func (k *Keyer) Pinned(p *packages.Package) bool {
	if len(p.GoFiles) == 0 {
		return false
	}
	m := p.Module
	var root string
	switch {
	case m == nil && k.goroot != "":
		root = filepath.Join(k.goroot, "src")
	case m != nil && m.Version != "" && (m.Replace == nil || m.Replace.Version != "") && k.modcache != "":
		root = k.modcache
	default:
		return false
	}
	for _, name := range slices.Concat(p.GoFiles, p.OtherFiles, p.EmbedFiles) {
		if !within(root, name) {
			return false
		}
	}
	return true
}

// within reports whether name is in dir.
func within(dir, name string) bool {
	rel, err := filepath.Rel(dir, name)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// sum returns the SHA-256 of the content of the file name, reading it once.
func (k *Keyer) sum(name string) ([sha256.Size]byte, error) {
	if _, err := k.Content(name); err != nil {
		return [sha256.Size]byte{}, err
	}
	return k.contentSum[name], nil
}

// Content returns the content of the file name, as it was keyed when Key
// read it, or as it is now.
func (k *Keyer) Content(name string) ([]byte, error) {
	if data, ok := k.contents[name]; ok {
		return data, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	k.contents[name], k.contentSum[name] = data, sha256.Sum256(data)
	return data, nil
}

// ContentSum returns the SHA-256 of the content of the file name.
func (k *Keyer) ContentSum(name string) ([sha256.Size]byte, error) {
	return k.sum(name)
}

// AnalyzedRoots returns the packages of pkgs, loaded as roots, that a run
// analyzes: with tests, a package's test variant ("p [p.test]") stands for
// the package, whose files it holds with the test files, so that every file
// is analyzed once; generated test mains are left out.
func AnalyzedRoots(pkgs []*packages.Package, tests bool) []*packages.Package {
	if !tests {
		return pkgs
	}
	hasVariant := map[string]bool{} // package path => it has an internal test variant
	for _, p := range pkgs {
		if p.ForTest != "" && p.PkgPath == p.ForTest {
			hasVariant[p.PkgPath] = true
		}
	}
	return slices.DeleteFunc(pkgs, func(p *packages.Package) bool {
		switch {
		case p.ForTest == "" && hasVariant[p.PkgPath]:
			return true // its test variant is analyzed instead
		case p.Name == "main" && strings.HasSuffix(p.ID, ".test") && !strings.Contains(p.ID, " "):
			return true // the test main that go test generates
		}
		return false
	})
}

// HasErrors reports whether a package of the graph under roots has an
// error: the cache does not answer for it.
func HasErrors(roots []*packages.Package) bool {
	found := false
	packages.Visit(roots, nil, func(p *packages.Package) {
		found = found || len(p.Errors) > 0
	})
	return found
}

// RunSalt returns the salt of a run of a (hashalloc, see analyzer.Settings)
// with the build tags tags (comma-separated) on toolchain: the build
// (BuildID), a's settings, the tags, the toolchain and the profile's
// content.
func RunSalt(a *analysis.Analyzer, tags string, toolchain Toolchain) ([]byte, error) {
	build, err := buildID()
	if err != nil {
		return nil, err
	}
	opts, profilePath, ok := analyzer.Settings(a)
	if !ok {
		return nil, fmt.Errorf("%s is not hashalloc's analyzer", a.Name)
	}
	opts["tags"] = tags
	var profile []byte
	if profilePath != "" {
		if profile, err = os.ReadFile(profilePath); err != nil {
			return nil, fmt.Errorf("profile: %v", err)
		}
	}
	return Salt(build, opts, toolchain, profile), nil
}

// buildID is BuildID, computed once.
var buildID = sync.OnceValues(BuildID)

// Known returns the key of p that Key computed, for p or for a package that
// imports it, or false when it computed none.
func (k *Keyer) Known(p *packages.Package) (Key, bool) {
	key, ok := k.keys[p]
	return key, ok
}
