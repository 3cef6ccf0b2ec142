package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nvimReport is what testdata/nvim/e2e.lua writes.
type nvimReport struct {
	Nvim    string     `json:"nvim"`
	Error   any        `json:"error"` // a string, or null
	Stopped bool       `json:"stopped"`
	Steps   []nvimStep `json:"steps"`
}

type nvimStep struct {
	File    string     `json:"file"`
	Action  string     `json:"action"`
	Before  []nvimDiag `json:"before"`
	Shown   int        `json:"shown"`
	Target  nvimDiag   `json:"target"`
	Actions []struct {
		Title string `json:"title"`
		Kind  string `json:"kind"`
	} `json:"actions"`
	Applied             string     `json:"applied"`
	After               []nvimDiag `json:"after"`
	SaveToDiagnosticsMS float64    `json:"save_to_diagnostics_ms"`
}

type nvimDiag struct {
	Line      int    `json:"line"`
	Character int    `json:"character"`
	Code      string `json:"code"`
	Href      string `json:"href"`
	Source    string `json:"source"`
	Message   string `json:"message"`
}

// nvimPlanStep is one step of the plan that the Lua script carries out.
type nvimPlanStep struct {
	File    string `json:"file"`
	Message string `json:"message"`
	Action  string `json:"action"`
	Only    string `json:"only,omitempty"`
}

// findNvim returns the nvim binary, installing Neovim from Debian's packages
// when it is missing and the test runs as root where apt-get is; it skips
// the test only when it can do neither, and fails instead under CI (CI set),
// which must run it.
func findNvim(t *testing.T) string {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	if path, err := exec.LookPath("nvim"); err == nil {
		return path
	}
	if _, err := exec.LookPath("apt-get"); err != nil || os.Geteuid() != 0 {
		skip("nvim is not installed, and it cannot be installed here (needs root and apt-get): apt-get install neovim")
	}
	for _, args := range [][]string{{"update"}, {"install", "-y", "neovim"}} {
		cmd := exec.CommandContext(t.Context(), "apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			skip("nvim is not installed, and apt-get %s failed: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	path, err := exec.LookPath("nvim")
	if err != nil {
		skip("nvim is not installed, and installing the neovim package did not provide it")
	}
	return path
}

// buildHashalloc builds the command into a temporary directory.
func buildHashalloc(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hashalloc")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./cmd/hashalloc")
	cmd.Dir = repoRoot(t)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build\n%s", out)
	return bin
}

// TestNeovim runs `hashalloc lsp` in Neovim's own LSP client, headless, on a
// copy of examples/: it waits for the diagnostics, requests the code actions
// at a finding, applies a quick fix (one that imports the runtime module), an
// ignore directive and fix-all, writes the files, and checks the
// diagnostics published after each save. Then the copy must build, vet,
// pass its tests and be gofmt-clean, and hashalloc must report nothing at
// the sites fixed or ignored.
func TestNeovim(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs Neovim on a copy of examples/, then builds and tests it")
	nvim := findNvim(t)
	bin := buildHashalloc(t)
	dir := copyExamples(t)
	home := t.TempDir() // Neovim's own files (the LSP log) go there
	report := filepath.Join(home, "report.json")
	plan, err := json.Marshal([]nvimPlanStep{
		{File: "examples/treehash/treehash.go", Message: "take h from a pool of sha256.New hashers", Action: "quickfix"},
		{File: "examples/treehash/treehash.go", Message: "crypto.SHA256.New()", Action: "ignore"},
		{File: "examples/merkle/merkle.go", Action: "fixall", Only: "source.fixAll"},
	})
	require.NoError(t, err)
	script, err := filepath.Abs(filepath.Join("testdata", "nvim", "e2e.lua"))
	require.NoError(t, err)

	// Every wait of the script is bounded by HASHALLOC_WAIT; the whole run
	// by this context.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		// hashalloc.lua, the snippet of docs/integrations.md, runs hashalloc
		// from the PATH.
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HASHALLOC_ROOT="+dir,
		"HASHALLOC_PLAN="+string(plan),
		"HASHALLOC_OUT="+report,
		"HASHALLOC_WAIT=90000",
		"XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home, "XDG_STATE_HOME="+home, "XDG_CACHE_HOME="+home,
	)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		require.FailNow(t, "nvim timed out", "%s", out)
	}
	require.NoError(t, err, "nvim\n%s", out)
	data, err := os.ReadFile(report)
	require.NoError(t, err, "nvim wrote no report\n%s", out)
	var r nvimReport
	require.NoError(t, json.Unmarshal(data, &r), "%s", data)
	t.Logf("Neovim %s", r.Nvim)
	require.Nil(t, r.Error, "the Lua script failed\n%s", logOf(home))
	require.Len(t, r.Steps, 3)
	assert.True(t, r.Stopped, "the server did not stop after shutdown and exit")

	// 1. The quick fix that takes the hasher from hashpool.
	s := r.Steps[0]
	require.Len(t, s.Before, 3, "%+v", s.Before)
	assert.Equal(t, 3, s.Shown, "Neovim shows every diagnostic")
	assert.Equal(t, "hasher-alloc", s.Target.Code)
	assert.Equal(t, "https://github.com/hashalloc/hashalloc#hasher-alloc", s.Target.Href)
	assert.Equal(t, "hashalloc", s.Target.Source)
	assert.Equal(t, "Take h from a pool of sha256.New hashers", s.Applied)
	assert.Len(t, s.After, 2, "%+v", s.After)
	for _, d := range s.After {
		assert.NotContains(t, d.Message, "take h from a pool", "the fixed finding is still reported")
	}
	// 2. The ignore directive.
	s = r.Steps[1]
	assert.Equal(t, "Ignore with //hashalloc:ignore hasher-alloc", s.Applied)
	assert.Len(t, s.After, 1, "%+v", s.After)
	for _, d := range s.After {
		assert.NotContains(t, d.Message, "crypto.SHA256.New()", "the ignored finding is still reported")
	}
	// 3. Every fix of merkle.go.
	s = r.Steps[2]
	assert.Len(t, s.Before, 2, "%+v", s.Before)
	assert.Equal(t, "Apply every hashalloc fix in merkle.go", s.Applied)
	assert.Empty(t, s.After)
	for _, s := range r.Steps {
		t.Logf("%s, %s: diagnostics %.0f ms after :write", s.File, s.Action, s.SaveToDiagnosticsMS)
	}

	// What Neovim wrote.
	tree, err := os.ReadFile(filepath.Join(dir, "examples", "treehash", "treehash.go"))
	require.NoError(t, err)
	assert.Contains(t, string(tree), "h := hashpool.SHA256.Get()")
	assert.Contains(t, string(tree), `"github.com/hashalloc/hashalloc/runtime/hashpool"`)
	assert.Contains(t, string(tree), "\t//hashalloc:ignore hasher-alloc\n\th := crypto.SHA256.New()")
	merkle, err := os.ReadFile(filepath.Join(dir, "examples", "merkle", "merkle.go"))
	require.NoError(t, err)
	assert.Contains(t, string(merkle), "sumParts(leafPrefix, leaf)")

	runGo(t, dir, "build", "./...")
	runGo(t, dir, "vet", "./...")
	runGo(t, dir, "test", "-count=1", "./...")
	gofmt := exec.CommandContext(t.Context(), filepath.Join(goroot(t), "bin", "gofmt"), "-l", ".")
	gofmt.Dir = dir
	unformatted, err := gofmt.CombinedOutput()
	require.NoError(t, err, "%s", unformatted)
	assert.Empty(t, string(unformatted), "files that are not gofmt-clean")

	// hashalloc reports nothing where the fixes and the directive went: what
	// is left is the loop of LeafHashes, which was not touched, and the
	// untouched tokensigner and trie.
	check := exec.CommandContext(t.Context(), bin, "./...")
	check.Dir = dir
	check.Env = append(os.Environ(), goEnv...)
	findings, err := check.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit) && exit.ExitCode() == 3, "hashalloc: %v\n%s", err, findings)
	var files []string
	for line := range strings.SplitSeq(strings.TrimSpace(string(findings)), "\n") {
		if strings.Contains(line, ": \t") {
			continue // the evidence printed under a finding
		}
		file := strings.SplitN(line, ":", 2)[0] // relative to dir, where hashalloc ran
		if filepath.IsAbs(file) {
			file, _ = filepath.Rel(dir, file)
		}
		files = append(files, filepath.ToSlash(file))
	}
	slices.Sort(files)
	assert.Equal(t, []string{
		"examples/tokensigner/tokensigner.go", "examples/tokensigner/tokensigner.go", "examples/tokensigner/tokensigner.go",
		"examples/treehash/treehash.go", "examples/trie/trie.go",
	}, files, "%s", findings)
	assert.Contains(t, string(findings), "hoist h out of the loop")
}

// logOf returns Neovim's LSP log under home, for a failure message.
func logOf(home string) string {
	var logs []string
	_ = filepath.WalkDir(home, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".log") {
			if data, err := os.ReadFile(path); err == nil {
				logs = append(logs, path+":\n"+string(data))
			}
		}
		return nil
	})
	return strings.Join(logs, "\n")
}

func goroot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// TestDocSnippet checks that the Neovim setup of docs/integrations.md is
// testdata/nvim/hashalloc.lua, the snippet that TestNeovim runs.
func TestDocSnippet(t *testing.T) {
	snippet, err := os.ReadFile(filepath.Join("testdata", "nvim", "hashalloc.lua"))
	require.NoError(t, err)
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "integrations.md"))
	require.NoError(t, err)
	// There the snippet is in a list item, indented by two spaces.
	var indented strings.Builder
	for line := range strings.SplitSeq(strings.TrimSuffix(string(snippet), "\n"), "\n") {
		if line != "" {
			indented.WriteString("  ")
		}
		indented.WriteString(line + "\n")
	}
	assert.Contains(t, string(doc), "  ```lua\n"+indented.String()+"  ```\n",
		"the Neovim snippet of docs/integrations.md is not testdata/nvim/hashalloc.lua")
}
