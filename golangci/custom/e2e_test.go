package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// binary is the golangci-lint binary with the hashalloc plugin, built once.
var binary string

func TestMain(m *testing.M) { os.Exit(testMain(m)) }

// testMain builds the binary, and gives the runs of this test process a
// golangci-lint cache of their own, empty at first (TestCacheKeys gives
// its runs theirs).
func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "custom-gcl-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Setenv("GOLANGCI_LINT_CACHE", filepath.Join(dir, "cache")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binary = filepath.Join(dir, "custom-gcl")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// sample copies testdata/sample, a module with a .golangci.yml that enables
// hashalloc with pool: inline, into a fresh directory.
func sample(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "sample"))); err != nil {
		t.Fatal(err)
	}
	if config != "" {
		if err := os.WriteFile(filepath.Join(dir, ".golangci.yml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// run runs the binary (or go, when name is "go") in dir and returns its
// combined output and exit code.
func run(t *testing.T, dir, name string, args ...string) (string, int) {
	t.Helper()
	return runEnv(t, dir, nil, name, args...)
}

// runEnv is run with env added to the environment.
func runEnv(t *testing.T, dir string, env []string, name string, args ...string) (string, int) {
	t.Helper()
	if name == "" {
		name = binary
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &exit):
		return out.String(), exit.ExitCode()
	}
	t.Fatalf("%s %v: %v", name, args, err)
	return "", 0
}

// lineOf returns the line of sample.go that contains text.
func lineOf(t *testing.T, dir, text string) int {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "sample.go"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, text) {
			return i + 1
		}
	}
	t.Fatalf("sample.go has no %q", text)
	return 0
}

func TestFindings(t *testing.T) {
	dir := sample(t, "")
	out, code := run(t, dir, "", "run", "./...")
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (issues found)\n%s", code, out)
	}
	for _, want := range []string{
		fmt.Sprintf("sample.go:%d:9: hmac-rekey: hmac.New(sha256.New, s.key) re-keys an HMAC", lineOf(t, dir, "mac := hmac.New")),
		fmt.Sprintf("sample.go:%d:8: hasher-alloc: sha256.New() escapes to the heap (passed to io.Copy)", lineOf(t, dir, "h := sha256.New()")),
		"2 issues:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
	// //nolint:hashalloc keeps Total quiet.
	if nolint := fmt.Sprintf("sample.go:%d:", lineOf(t, dir, "//nolint:hashalloc")); strings.Contains(out, nolint) {
		t.Errorf("a //nolint:hashalloc line is reported\n%s", out)
	}
}

// TestJSON runs the command line that golangci-lint-langserver runs, and
// checks that every issue carries hashalloc's suggested fix.
func TestJSON(t *testing.T) {
	dir := sample(t, "")
	out, code := run(t, dir, "", "run", "--output.json.path=stdout", "--show-stats=false", "--issues-exit-code=1", "./...")
	if code != 1 {
		t.Fatalf("exit code %d, want 1\n%s", code, out)
	}
	var report struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename     string
				Line, Column int
			}
			SuggestedFixes []struct {
				Message   string
				TextEdits []struct {
					Pos, End int
					NewText  []byte
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(report.Issues) != 2 {
		t.Fatalf("%d issues, want 2\n%s", len(report.Issues), out)
	}
	for _, issue := range report.Issues {
		if issue.FromLinter != "hashalloc" || issue.Pos.Filename != "sample.go" || issue.Pos.Line == 0 {
			t.Errorf("unexpected issue %+v", issue)
		}
		if len(issue.SuggestedFixes) != 1 || len(issue.SuggestedFixes[0].TextEdits) == 0 {
			t.Errorf("%s: want one suggested fix with edits, got %+v", issue.Text, issue.SuggestedFixes)
		}
	}
}

// TestSARIF checks the output for code scanning.
func TestSARIF(t *testing.T) {
	dir := sample(t, "")
	sarif := filepath.Join(t.TempDir(), "hashalloc.sarif")
	if out, code := run(t, dir, "", "run", "--output.sarif.path="+sarif, "./..."); code != 1 {
		t.Fatalf("exit code %d, want 1\n%s", code, out)
	}
	data, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Message struct{ Text string }
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 2 {
		t.Fatalf("unexpected SARIF log\n%s", data)
	}
	for _, r := range log.Runs[0].Results {
		if r.RuleID != "hashalloc" || !(strings.HasPrefix(r.Message.Text, "hmac-rekey: ") || strings.HasPrefix(r.Message.Text, "hasher-alloc: ")) {
			t.Errorf("unexpected result %+v", r)
		}
	}
}

// TestFix applies every fix with the command line of the VS Code setup in
// docs/integrations.md, with the settings of .golangci.yml (pool: inline),
// then checks the module still passes its tests and that nothing is left.
func TestFix(t *testing.T) {
	dir := sample(t, "")
	if out, code := run(t, dir, "", "run", "--fix", "--path-mode=abs", "./..."); code != 0 {
		t.Fatalf("--fix: exit code %d\n%s", code, out)
	}
	src, err := os.ReadFile(filepath.Join(dir, "sample.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"keyMACs hmacPool", // pool: inline
		`mac := s.keyMACs.get("sha256.New", sha256.New, s.key)`,
		"defer s.keyMACs.put(mac)",
		"h.Reset()",
		"h := sha256.New() //nolint:hashalloc", // left alone
	} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("fixed sample.go lacks %q\n%s", want, src)
		}
	}
	if out, code := run(t, dir, "go", "test", "-count=1", "./..."); code != 0 {
		t.Fatalf("go test after --fix: exit code %d\n%s", code, out)
	}
	if out, code := run(t, dir, "go", "vet", "./..."); code != 0 {
		t.Fatalf("go vet after --fix: exit code %d\n%s", code, out)
	}
	if out, code := run(t, dir, "", "run", "./..."); code != 0 || !strings.Contains(out, "0 issues") {
		t.Fatalf("after --fix: exit code %d\n%s", code, out)
	}
}

// TestChecksSetting turns a check off with the setting checks.
func TestChecksSetting(t *testing.T) {
	config := strings.Replace(mustRead(t, filepath.Join("testdata", "sample", ".golangci.yml")), "pool: inline", "pool: inline\n          checks: [all, -hmac-rekey]", 1)
	dir := sample(t, config)
	out, code := run(t, dir, "", "run", "./...")
	if code != 1 || strings.Contains(out, "hmac-rekey:") || !strings.Contains(out, "hasher-alloc:") || !strings.Contains(out, "1 issues:") {
		t.Fatalf("exit code %d, want 1 and only the hasher-alloc finding\n%s", code, out)
	}
}

// TestBadSettings checks that a misspelt or bad setting is an error naming it.
func TestBadSettings(t *testing.T) {
	for setting, want := range map[string]string{
		"poool: inline":             `unknown field "poool"`,
		"pool: global":              `hashalloc settings: pool: "global" is not a pool mode`,
		"checks: [all, -hot-bufer]": `hashalloc settings: checks: "-hot-bufer" is not a check (did you mean hot-buffer?)`,
	} {
		config := strings.Replace(mustRead(t, filepath.Join("testdata", "sample", ".golangci.yml")), "pool: inline", setting, 1)
		out, code := run(t, sample(t, config), "", "run", "./...")
		if code == 0 || code == 1 || !strings.Contains(out, want) {
			t.Errorf("%s: exit code %d, want a configuration error containing %q\n%s", setting, code, want, out)
		}
	}
}

func mustRead(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestCacheKeys checks that golangci-lint's cache answers a repeat run, and
// that its key changes with hashalloc's settings and with the build of the
// binary: another build or other settings analyze again.
func TestCacheKeys(t *testing.T) {
	dir := sample(t, "")
	env := []string{"GOLANGCI_LINT_CACHE=" + t.TempDir(), "GL_DEBUG=goanalysis/issues/cache"}
	analyzing := regexp.MustCompile(`analyzing (\d+)/(\d+) packages`)
	lint := func(bin string) (string, string) {
		t.Helper()
		out, code := runEnv(t, dir, env, bin, "run", "./...")
		if code != 1 {
			t.Fatalf("exit code %d, want 1\n%s", code, out)
		}
		m := analyzing.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no cache statistics in the output\n%s", out)
		}
		return m[1], out
	}
	if n, out := lint(binary); n != "1" {
		t.Fatalf("a first run analyzes the package\n%s", out)
	}
	if n, out := lint(binary); n != "0" {
		t.Fatalf("a repeat run takes the package's issues from the cache\n%s", out)
	}

	config := strings.Replace(mustRead(t, filepath.Join("testdata", "sample", ".golangci.yml")), "pool: inline", "pool: inline\n          checks: [all, -hmac-rekey]", 1)
	if err := os.WriteFile(filepath.Join(dir, ".golangci.yml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	n, out := lint(binary)
	if n != "1" || strings.Contains(out, "hmac-rekey:") {
		t.Fatalf("other settings analyze again, without hmac-rekey\n%s", out)
	}

	other := filepath.Join(t.TempDir(), "custom-gcl")
	if out, err := exec.Command("go", "build", "-ldflags=-s", "-o", other, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if n, out := lint(other); n != "1" {
		t.Fatalf("another build of the binary analyzes again\n%s", out)
	}
}
