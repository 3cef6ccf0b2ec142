package main_test

// Tests of the conventions of the output: paths relative to the working
// directory, -V and -V=full, a bad flag under go vet printed once, the
// progress and summary line on a terminal only, and the README's quick start
// and usage.

import (
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRelativePaths(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the command three times")
	t.Parallel()
	merkle := filepath.Join(repoRoot, "examples", "merkle")
	r := run(t, merkle, nil, binary, ".")
	require.Equal(t, 3, r.code, "%s", r)
	assert.Regexp(t, `^merkle\.go:\d+:\d+: concat-hash: `, r.stderr)

	r = run(t, repoRoot, nil, binary, "./examples/merkle")
	assert.Regexp(t, `^examples/merkle/merkle\.go:\d+:\d+: concat-hash: `, r.stderr)

	// Outside the working directory: absolute, as go vet prints it.
	r = run(t, merkle, nil, binary, "../treehash")
	assert.Regexp(t, `^`+regexp.QuoteMeta(filepath.Join(repoRoot, "examples", "treehash", "treehash.go"))+`:\d+:\d+: hasher-alloc: `, r.stderr)
}

func TestVersion(t *testing.T) {
	t.Parallel()
	// The binary says the version its build information holds: "devel"
	// without VCS stamping, a pseudo-version with it (GOFLAGS=-buildvcs=auto
	// in a git clone).
	bi, err := buildinfo.ReadFile(binary)
	require.NoError(t, err)
	want := bi.Main.Version
	if want == "" || want == "(devel)" {
		want = "devel"
	}
	r := run(t, repoRoot, nil, binary, "-V")
	require.Equal(t, 0, r.code, "%s", r)
	assert.Equal(t, "hashalloc version "+want+" "+runtime.Version()+"\n", r.stdout)

	r = run(t, repoRoot, nil, binary, "-V=full")
	require.Equal(t, 0, r.code, "%s", r)
	assert.Regexp(t, `^hashalloc version `+regexp.QuoteMeta(want+" "+runtime.Version())+` buildID=[0-9a-f]{64}\n$`, r.stdout)
}

// TestVersionStamped checks that a binary stamped with a module version
// prints it: the one go version -m reads from its build information.
func TestVersionStamped(t *testing.T) {
	testenv.SkipUnlessSlow(t, "builds the command with VCS stamping")
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git for VCS stamping")
	}
	stamped := filepath.Join(t.TempDir(), "hashalloc")
	b := run(t, filepath.Join(repoRoot, "cmd", "hashalloc"), []string{"GOFLAGS=-buildvcs=true"}, "go", "build", "-o", stamped, ".")
	require.Equal(t, 0, b.code, "%s", b)
	m := run(t, repoRoot, nil, "go", "version", "-m", stamped)
	require.Equal(t, 0, m.code, "%s", m)
	mod := regexp.MustCompile(`(?m)^\tmod\tgithub.com/hashalloc/hashalloc\t(\S+)`).FindStringSubmatch(m.stdout)
	require.NotNil(t, mod, "%s", m.stdout)
	want := mod[1]
	if want == "(devel)" {
		want = "devel"
	}
	r := run(t, repoRoot, nil, stamped, "-V=full")
	require.Equal(t, 0, r.code, "%s", r)
	assert.True(t, strings.HasPrefix(r.stdout, "hashalloc version "+want+" "), "%s (go version -m: %s)", r.stdout, mod[1])
}

// TestVetBadFlagOnce checks that go vet, which runs the tool once per
// package with the same flags, prints a bad flag value once.
func TestVetBadFlagOnce(t *testing.T) {
	t.Parallel()
	r := run(t, repoRoot, nil, "go", "vet", "-vettool="+binary, "-pool=global", "./examples/...")
	assert.NotEqual(t, 0, r.code, "%s", r)
	assert.Equal(t, 1, strings.Count(r.stderr, `invalid value "global" for flag -pool`), "%s", r)
	assert.Contains(t, r.stderr, `hashalloc: invalid value "global" for flag -pool: "global" is not a pool mode (want auto, runtime or inline)`)
	assert.NotContains(t, r.stderr, "exit status")

	// go vet itself rejects a flag the tool does not have, once.
	r = run(t, repoRoot, nil, "go", "vet", "-vettool="+binary, "-nosuchflag", "./examples/...")
	assert.NotEqual(t, 0, r.code, "%s", r)
	assert.Equal(t, 1, strings.Count(r.stderr, "nosuchflag"), "%s", r)
}

// manyPackagesModule has twelve small packages, one of them with a finding.
func manyPackagesModule(t *testing.T) string {
	files := map[string]string{"go.mod": "module example.com/many\n\ngo 1.26.0\n"}
	for i := range 12 {
		files[fmt.Sprintf("p%d/p.go", i)] = fmt.Sprintf("package p%d\n\nvar X = %d\n", i, i)
	}
	files["p0/p.go"] = strings.Replace(unfixable, "package extra", "package p0", 1)
	return writeModule(t, files)
}

// TestProgressOnTerminal runs the command under a terminal (script(1)): on
// a run over many packages it ends with a summary line on stderr; without a
// terminal there is none.
func TestProgressOnTerminal(t *testing.T) {
	testenv.SkipUnlessSlow(t, "runs the command under a terminal, three times")
	if _, err := exec.LookPath("script"); err != nil || runtime.GOOS != "linux" {
		t.Skip("needs script(1) from util-linux")
	}
	t.Parallel()
	dir := manyPackagesModule(t)
	r := run(t, dir, []string{"TERM=xterm"}, "script", "-qefc", binary+" ./...", "/dev/null")
	require.Equal(t, 3, r.code, "%s", r)
	out := strings.ReplaceAll(r.stdout, "\r\n", "\n")
	assert.Contains(t, out, "p0/p.go:11:9: hmac-rekey: ")
	assert.Regexp(t, `(?m)^hashalloc: 12 packages analyzed in \d+\.\ds: 1 finding$`, out)

	r = run(t, dir, nil, binary, "./...")
	require.Equal(t, 3, r.code, "%s", r)
	assert.NotContains(t, r.stderr, "packages analyzed")
	assert.Len(t, strings.Split(strings.TrimSpace(r.stderr), "\n"), 1)

	// A few packages: no summary, even on a terminal.
	r = run(t, filepath.Join(dir, "p0"), []string{"TERM=xterm"}, "script", "-qefc", binary+" .", "/dev/null")
	assert.NotContains(t, r.stdout, "packages analyzed")
}

// TestFixProgressOnTerminal checks that -fix shows its progress on a
// terminal even for one package, whose 2,000 findings take seconds, without
// the summary line of a run over many packages; the fixed package builds
// and has nothing left to fix.
func TestFixProgressOnTerminal(t *testing.T) {
	testenv.SkipUnlessSlow(t, "fixes 2,000 findings under a terminal")
	if _, err := exec.LookPath("script"); err != nil || runtime.GOOS != "linux" {
		t.Skip("needs script(1) from util-linux")
	}
	t.Parallel()
	var b strings.Builder
	b.WriteString("package gen\n\nimport (\n\t\"bytes\"\n\t\"crypto/sha256\"\n\t\"io\"\n)\n\nvar out [32]byte\n\n")
	const n = 2000
	for i := range n {
		fmt.Fprintf(&b, "func F%d(d []byte, depth int) {\n\tif depth == 0 {\n\t\treturn\n\t}\n\th := sha256.New()\n\tio.Copy(h, bytes.NewReader(d))\n\th.Sum(out[:0])\n\tF%d(d, depth-1)\n}\n\n", i, (i+1)%n)
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/gen\n\ngo 1.26\n", "gen.go": b.String()})
	r := run(t, dir, []string{"TERM=xterm"}, "script", "-qefc", binary+" -cache=off -fix .", "/dev/null")
	require.Equal(t, 0, r.code, "%s", r)
	out := strings.ReplaceAll(r.stdout, "\r\n", "\n")
	assert.Contains(t, out, "hashalloc: analyzing ")
	assert.Contains(t, out, "fixed gen.go (2000 findings)\n")
	assert.NotContains(t, out, "packages analyzed")

	r = run(t, dir, nil, "go", "vet", ".")
	assert.Equal(t, 0, r.code, "%s", r)
	r = run(t, dir, nil, binary, "-cache=off", ".")
	assert.Equal(t, 0, r.code, "one -fix leaves nothing to fix: %s", r)
}

// TestREADMEUsage checks that the flags the README's usage and
// configuration sections show are the command's, and that every flag of the
// command is documented there or in docs/usage.md's table.
func TestREADMEUsage(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	require.NoError(t, err)
	readme := string(data)
	usage, err := os.ReadFile(filepath.Join(repoRoot, "docs", "usage.md"))
	require.NoError(t, err)
	documented := readme + string(usage)
	h := run(t, repoRoot, nil, binary, "-help")
	require.Equal(t, 0, h.code, "%s", h)
	var flags []string
	for _, m := range regexp.MustCompile(`(?m)^  -(\S+)`).FindAllStringSubmatch(h.stderr, -1) {
		flags = append(flags, m[1])
	}
	require.NotEmpty(t, flags)
	for _, f := range flags {
		assert.True(t, strings.Contains(documented, "`-"+f), "the README or docs/usage.md documents -%s", f)
	}
	for _, m := range regexp.MustCompile("(?m)^hashalloc (-[a-zA-Z]+)").FindAllStringSubmatch(readme, -1) {
		name := strings.TrimPrefix(m[1], "-")
		assert.Contains(t, flags, name, "the README shows hashalloc %s", m[1])
	}
	for _, cmd := range []string{"hashalloc help", "hashalloc -explain", "-checks=all,-hot-buffer", "-tags", "-tests"} {
		assert.True(t, strings.Contains(readme, cmd), "the README shows %s", cmd)
	}
}

// TestREADMEInstallPath checks where the README says go install puts the
// binary: in GOBIN, or in GOPATH's bin when GOBIN is unset.
func TestREADMEInstallPath(t *testing.T) {
	testenv.SkipUnlessSlow(t, "builds and installs the command twice")
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	require.NoError(t, err)
	readme := strings.Join(strings.Fields(string(data)), " ")
	assert.Contains(t, readme, "`go install` puts the `hashalloc` binary in `$(go env GOBIN)`, or in `$(go env GOPATH)/bin`")
	assert.Contains(t, readme, "`export PATH=\"$PATH:$(go env GOPATH)/bin\"`")

	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	require.NoError(t, err)
	modcache := strings.TrimSpace(string(out))
	gopath, gobin := t.TempDir(), t.TempDir()
	env := []string{"GOPATH=" + gopath, "GOMODCACHE=" + modcache}
	r := run(t, repoRoot, append(env, "GOBIN="), "go", "install", "./cmd/hashalloc")
	require.Equal(t, 0, r.code, "%s", r)
	assert.FileExists(t, filepath.Join(gopath, "bin", "hashalloc"))
	r = run(t, repoRoot, append(env, "GOBIN="+gobin), "go", "install", "./cmd/hashalloc")
	require.Equal(t, 0, r.code, "%s", r)
	assert.FileExists(t, filepath.Join(gobin, "hashalloc"))
}

// TestREADMEQuickStart checks the README's quick start: the command it shows
// prints, among its findings on examples/, the one the README quotes, and
// under go run the shell sees exit code 1 and go run prints exit status 3.
func TestREADMEQuickStart(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	require.NoError(t, err)
	readme := string(data)
	const command = "go run ./cmd/hashalloc ./examples/..."
	require.Contains(t, readme, "```sh\n"+command+"\n```\n")
	quoted := regexp.MustCompile(`(?m)^examples/\S+\.go:\d+:\d+: .+$`).FindString(readme)
	require.NotEmpty(t, quoted, "the README quotes a finding on examples/")
	r := run(t, repoRoot, nil, "go", "run", "./cmd/hashalloc", "./examples/...")
	require.Equal(t, 1, r.code, "%s", r)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	assert.Contains(t, lines, quoted, "%s", r)
	assert.Equal(t, "exit status 3", lines[len(lines)-1], "%s", r)
}

// TestAuditExitCode checks that the audit's lines are not findings: -audit
// that prints only them exits 0, and 3 once a finding stands beside them.
func TestAuditExitCode(t *testing.T) {
	t.Parallel()
	digest := `package aud

import (
	"crypto/sha256"
	"io"
)

func Digest(r io.Reader) []byte {
	h := sha256.New()
	io.Copy(h, r)
	return h.Sum(nil)
}
`
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/aud\n\ngo 1.26.0\n", "a.go": digest})
	r := run(t, dir, nil, binary, "-audit", "-cache=off", "./...")
	assert.Equal(t, 0, r.code, "%s", r)
	assert.Equal(t, "a.go:9:7: audit: hasher-alloc: sha256.New() is silent: it runs once per call of Digest, and nothing shows Digest to run per item\n"+
		"a.go:11:9: audit: sum-alloc: h.Sum(nil) is silent: its result is kept (returned, stored, or used beyond the call): it is meant to outlive the call\n", r.stderr)

	writeFile(t, filepath.Join(dir, "b.go"), `package aud

import (
	"crypto/sha256"
	"io"
)

func DigestAll(rs []io.Reader) (sums [][]byte) {
	for _, r := range rs {
		h := sha256.New()
		io.Copy(h, r)
		sums = append(sums, h.Sum(nil))
	}
	return sums
}
`)
	r = run(t, dir, nil, binary, "-audit", "-cache=off", "./...")
	assert.Equal(t, 3, r.code, "%s", r)
	assert.Contains(t, r.stderr, "b.go:10:8: hasher-alloc: ")
}
