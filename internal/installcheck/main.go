// Command installcheck checks that hashalloc can be installed with
//
//	go install github.com/hashalloc/hashalloc/cmd/hashalloc@VERSION
//
// once its two modules are tagged at VERSION, the version at which go.mod
// requires the runtime module: without the repository's go.work, and so
// without a replace directive, which go install refuses.
//
// It checks that go.mod has no replace or exclude directive, writes both
// modules as they are in the working tree (the files git tracks or would
// add) to a module proxy in a temporary directory, installs the command
// from that proxy with a module cache of its own, and runs the installed
// binary: -V must print VERSION, and examples/ must have findings. Run it
// from the repository's root:
//
//	go run ./internal/installcheck
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/zip"
)

const (
	mainModule    = "github.com/hashalloc/hashalloc"
	runtimeModule = "github.com/hashalloc/hashalloc/runtime"
	command       = mainModule + "/cmd/hashalloc"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("installcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	keep := fs.Bool("keep", false, "keep the temporary directory (the proxy, the module cache, the binary) and print its name")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "installcheck: no arguments expected, got %q\n", fs.Args())
		return 2
	}
	if err := check(".", *keep, stdout); err != nil {
		fmt.Fprintf(stderr, "installcheck: %v\n", err)
		return 1
	}
	return 0
}

// check runs the whole check on the repository whose root is root.
func check(root string, keep bool, stdout io.Writer) error {
	root, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	version, err := releaseVersion(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "go.mod: no replace; requires %s@%s\n", runtimeModule, version)

	tmp, err := os.MkdirTemp("", "installcheck-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintf(stdout, "keeping %s\n", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}

	files, err := workingTreeFiles(root)
	if err != nil {
		return err
	}
	proxy := filepath.Join(tmp, "proxy")
	for _, m := range []struct{ path, dir string }{{mainModule, ""}, {runtimeModule, "runtime"}} {
		if err := writeModule(proxy, module.Version{Path: m.path, Version: version}, root, m.dir, files); err != nil {
			return fmt.Errorf("%s@%s: %v", m.path, version, err)
		}
	}
	fmt.Fprintf(stdout, "proxy: %s@%s and %s@%s\n", mainModule, version, runtimeModule, version)

	// Dependencies come from the module cache's downloads when it has
	// them, else from the module proxy; the module cache itself is a new
	// one, so that the versions made here never reach the real one.
	gomodcache, err := goEnv("GOMODCACHE")
	if err != nil {
		return err
	}
	bin := filepath.Join(tmp, "bin")
	env := append(os.Environ(),
		"GOWORK=off",
		// As a user runs it (no -mod=mod: go install ...@version needs no
		// go.sum entry for the runtime, which the checksum database gives
		// once it is tagged); -trimpath only so that the build cache is
		// shared from one run to the next, whatever the module cache's path.
		"GOFLAGS=-modcacherw -trimpath",
		"GOPROXY="+fileURL(proxy)+","+fileURL(filepath.Join(gomodcache, "cache", "download"))+",https://proxy.golang.org",
		"GONOSUMDB="+mainModule, // versions the checksum database has never seen
		"GOMODCACHE="+filepath.Join(tmp, "modcache"),
		"GOBIN="+bin,
		"GOTOOLCHAIN=local",
	)
	start := time.Now()
	if out, err := runIn(tmp, env, "go", "install", command+"@"+version); err != nil {
		return fmt.Errorf("go install %s@%s: %v\n%s", command, version, err, out)
	}
	fmt.Fprintf(stdout, "go install %s@%s: ok (%.0fs)\n", command, version, time.Since(start).Seconds())

	hashalloc := filepath.Join(bin, "hashalloc")
	out, err := runIn(root, nil, hashalloc, "-V")
	if err != nil || !strings.HasPrefix(string(out), "hashalloc version "+version+" ") {
		return fmt.Errorf("the installed hashalloc -V: %v, want version %s\n%s", err, version, out)
	}
	fmt.Fprintf(stdout, "%s", out)
	out, err = runIn(root, nil, hashalloc, "./examples/...")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 || !bytes.Contains(out, []byte(": hmac-rekey: ")) {
		return fmt.Errorf("the installed hashalloc ./examples/...: %v, want exit status 3 and findings\n%s", err, out)
	}
	fmt.Fprintf(stdout, "the installed hashalloc ./examples/...: exit status 3, %d findings\n", bytes.Count(out, []byte("\n")))
	return nil
}

// releaseVersion checks that the go.mod file at path has no replace or
// exclude directive (go install ...@version refuses them), and returns the
// version at which it requires the runtime module: the version both modules
// would be tagged with.
func releaseVersion(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	f, err := modfile.Parse(path, data, nil)
	if err != nil {
		return "", err
	}
	var problems []string
	for _, r := range f.Replace {
		problems = append(problems, fmt.Sprintf("%s:%d: replace %s", path, r.Syntax.Start.Line, r.Old.Path))
	}
	for _, e := range f.Exclude {
		problems = append(problems, fmt.Sprintf("%s:%d: exclude %s", path, e.Syntax.Start.Line, e.Mod.Path))
	}
	if len(problems) > 0 {
		return "", fmt.Errorf("go install ...@version refuses a module whose go.mod has replace or exclude directives (the repository's go.work is the place for them):\n\t%s", strings.Join(problems, "\n\t"))
	}
	if f.Module == nil || f.Module.Mod.Path != mainModule {
		return "", fmt.Errorf("%s: not the go.mod of %s", path, mainModule)
	}
	for _, r := range f.Require {
		if r.Mod.Path != runtimeModule {
			continue
		}
		v := r.Mod.Version
		if semver.Prerelease(v) != "" || semver.Build(v) != "" || module.IsPseudoVersion(v) || v == "v0.0.0" {
			return "", fmt.Errorf("%s:%d: requires %s@%s, not a release version", path, r.Syntax.Start.Line, runtimeModule, v)
		}
		return v, nil
	}
	return "", fmt.Errorf("%s: does not require %s", path, runtimeModule)
}

// workingTreeFiles returns the files of the repository at root that git
// tracks or would add (untracked files that are not ignored), as slash
// paths relative to root, leaving out those deleted from the working tree.
func workingTreeFiles(root string) ([]string, error) {
	out, err := runIn(root, nil, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %v\n%s", err, out)
	}
	var files []string
	for name := range strings.SplitSeq(string(out), "\x00") {
		if name == "" {
			continue
		}
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(name))); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		files = append(files, name)
	}
	return files, nil
}

// writeModule writes module m to the proxy directory, in the layout of
// GOPROXY=file://: its version list, .info, .mod and .zip. The module's
// files are those of files under dir (a slash path relative to root, "" for
// root itself); zip.Create leaves out those of nested modules.
func writeModule(proxy string, m module.Version, root, dir string, files []string) error {
	escaped, err := module.EscapePath(m.Path)
	if err != nil {
		return err
	}
	vdir := filepath.Join(proxy, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	var zfiles []zip.File
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	for _, name := range files {
		if rel, ok := strings.CutPrefix(name, prefix); ok {
			zfiles = append(zfiles, diskFile{path: rel, name: filepath.Join(root, filepath.FromSlash(name))})
		}
	}
	gomod, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(prefix+"go.mod")))
	if err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{m.Version, time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return err
	}
	var z bytes.Buffer
	if err := zip.Create(&z, m, zfiles); err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		"list":              []byte(m.Version + "\n"),
		m.Version + ".info": info,
		m.Version + ".mod":  gomod,
		m.Version + ".zip":  z.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(vdir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// diskFile is a file of a module zip, read from the working tree.
type diskFile struct {
	path string // in the module
	name string // on disk
}

func (f diskFile) Path() string                 { return f.path }
func (f diskFile) Lstat() (os.FileInfo, error)  { return os.Lstat(f.name) }
func (f diskFile) Open() (io.ReadCloser, error) { return os.Open(f.name) }

// fileURL is the file:// URL of an absolute path.
func fileURL(path string) string {
	return "file://" + filepath.ToSlash(path)
}

// goEnv returns the value of a go env variable.
func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// runIn runs a command in dir, with env (nil: the environment as it is), and
// returns its combined output.
func runIn(dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	return cmd.CombinedOutput()
}
