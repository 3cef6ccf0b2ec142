package analyzer_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/internal/testenv"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestModelAgainstCompiler compares the allocation model's verdict at every
// hash constructor call it decides with the compiler's own escape analysis
// (go build -gcflags=-m), on the testdata packages and on a sample of the
// standard library that builds hashers. The compiler reports an allocation
// inside an inlined constructor at the position of the call's left
// parenthesis ("x.go:12:18: new(sha256.Digest) escapes to heap", "moved to
// heap: fnv.s"); a constructor it does not inline allocates in its own body
// and returns the pointer, so the hasher is on the heap. So, at each site:
//
//   - the compiler says "escapes" when it does not inline the constructor
//     there, or when an allocation at that position escapes or is moved to
//     the heap; "stays" otherwise. At a call of a constructor wrapper, the
//     constructor is the one the wrapper returns the hasher of: inlined with
//     the wrapper, the compiler reports both inlinings at the call;
//   - the model says "escapes" when it predicts a heap allocation (Heap),
//     "stays" otherwise; undecided sites are counted apart.
//
// The test fails on any site where the model says "stays" and the compiler
// "escapes" (a finding missed is fine, a fix justified by a wrong "stays" is
// not), and when agreement on decided sites is below 98%.
func TestModelAgainstCompiler(t *testing.T) {
	testenv.SkipUnlessSlow(t, "compiles the testdata packages and a sample of std with -gcflags=-m")
	t.Parallel()
	gopath := oracleGOPATH(t)
	gopathEnv := append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off")
	stdEnv := append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	groups := []struct {
		name string
		env  []string
		dir  string
		pkgs []string
	}{
		{"testdata", gopathEnv, filepath.Join(gopath, "src"), []string{
			"hasheralloc", "hmacrekey", "concathash", "sumalloc", "hotbuffer", "hotness", "roles", "escape",
			"example.com/escapelib", "example.com/escapeuser", "example.com/hashlib", "example.com/hashuser",
			"wrappers", "example.com/wrapperlib", "example.com/wrapperuser", "writers", "joins", "funcctors",
		}},
		{"std", stdEnv, ".", []string{
			"archive/zip", "compress/zlib", "image/png", "crypto/hmac", "crypto/rsa", "crypto/hpke",
			"internal/pkgbits", "internal/coverage/encodemeta", "internal/coverage/decodemeta",
		}},
	}
	var (
		mu    sync.Mutex
		total tally
	)
	t.Run("groups", func(t *testing.T) {
		for _, g := range groups {
			t.Run(g.name, func(t *testing.T) {
				t.Parallel()
				sites := modelSites(t, g.env, g.dir, g.pkgs)
				compiler := compilerVerdicts(t, g.env, g.dir, g.pkgs)
				var sub tally
				for _, s := range sites {
					sub.add(t, s, compiler)
				}
				t.Logf("%-8s %s", g.name, sub)
				mu.Lock()
				total.merge(sub)
				mu.Unlock()
			})
		}
	})
	t.Logf("total    %s", total)
	if total.modelStays > 0 {
		t.Errorf("%d sites where the model says the hasher stays and the compiler says it escapes", total.modelStays)
	}
	if agreement := total.agreement(); agreement < 0.98 {
		t.Errorf("agreement %.1f%% on decided sites, want at least 98%%", 100*agreement)
	}
}

// modelSite is one constructor call and the model's verdict on it.
type modelSite struct {
	pos     string // file:line:col of the call's left parenthesis
	ctor    string
	wraps   string // the constructor a wrapper's hasher comes from, "" for a constructor
	decided bool
	heap    bool
	why     string
}

// modelSites runs the analyzer on pkgs (and, for their facts, on their
// dependencies) and returns its verdict at every constructor call of pkgs.
func modelSites(t *testing.T, env []string, dir string, patterns []string) []modelSite {
	t.Helper()
	a, err := analyzer.New(analyzer.Options{})
	require.NoError(t, err)
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Env: env, Dir: dir}
	pkgs, err := packages.Load(cfg, patterns...)
	require.NoError(t, err)
	require.Zero(t, packages.PrintErrors(pkgs), "packages did not load")
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	require.NoError(t, err)
	var sites []modelSite
	for _, root := range graph.Roots {
		require.NoError(t, root.Err, root.Package.PkgPath)
		res := root.Result.(*analyzer.Result)
		for _, s := range res.Sites {
			posn := root.Package.Fset.Position(s.Call.Lparen)
			sites = append(sites, modelSite{
				pos:     fmt.Sprintf("%s:%d:%d", posn.Filename, posn.Line, posn.Column),
				ctor:    s.Constructor,
				wraps:   s.Wraps,
				decided: s.Decided,
				heap:    s.Heap,
				why:     s.Why,
			})
		}
	}
	return sites
}

// compilerLine is a line of go build -gcflags=-m: position, message.
var compilerLine = regexp.MustCompile(`^(.+\.go:\d+:\d+): (.*)$`)

// compilerVerdict is what the compiler says at one position.
type compilerVerdict struct {
	inlined bool            // a call inlined there ("inlining call to ...")
	calls   map[string]bool // the functions whose calls are inlined there
	heap    bool            // an allocation there escapes or is moved to the heap
}

// compilerVerdicts builds pkgs with -gcflags=-m and returns what the
// compiler says, by absolute file:line:col.
func compilerVerdicts(t *testing.T, env []string, dir string, pkgs []string) map[string]compilerVerdict {
	t.Helper()
	flags := make([]string, 0, len(pkgs))
	for _, p := range pkgs {
		flags = append(flags, "-gcflags="+p+"=-m")
	}
	args := append(append([]string{"build"}, flags...), pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build -gcflags=-m:\n%s", out)
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	verdicts := map[string]compilerVerdict{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := compilerLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		pos := m[1]
		if !filepath.IsAbs(pos) {
			pos = filepath.Join(abs, pos)
		}
		v := verdicts[pos]
		switch msg := m[2]; {
		case strings.HasPrefix(msg, "inlining call to "):
			v.inlined = true
			if v.calls == nil {
				v.calls = map[string]bool{}
			}
			v.calls[strings.TrimPrefix(msg, "inlining call to ")] = true
		case strings.HasSuffix(msg, " escapes to heap"), strings.HasPrefix(msg, "moved to heap: "):
			v.heap = true
		}
		verdicts[pos] = v
	}
	return verdicts
}

// tally counts the sites of one comparison.
type tally struct {
	decided, agree, undecided int
	modelStays, modelEscapes  int // disagreements: the model says stays (escapes), the compiler escapes (stays)
}

func (c *tally) add(t *testing.T, s modelSite, compiler map[string]compilerVerdict) {
	t.Helper()
	if !s.decided {
		c.undecided++
		return
	}
	c.decided++
	v := compiler[s.pos]
	inlined := v.inlined
	if s.wraps != "" {
		inlined = v.calls[s.wraps] // the wrapper and its constructor
	}
	escapes := !inlined || v.heap
	switch {
	case s.heap == escapes:
		c.agree++
	case !s.heap:
		c.modelStays++
		t.Errorf("%s: %s: the model says the hasher stays, the compiler that it escapes", s.pos, s.ctor)
	default:
		c.modelEscapes++
		t.Logf("%s: %s: the model says the hasher escapes (%s), the compiler that it stays", s.pos, s.ctor, s.why)
	}
}

func (c *tally) merge(o tally) {
	c.decided += o.decided
	c.agree += o.agree
	c.undecided += o.undecided
	c.modelStays += o.modelStays
	c.modelEscapes += o.modelEscapes
}

func (c tally) agreement() float64 {
	if c.decided == 0 {
		return 1
	}
	return float64(c.agree) / float64(c.decided)
}

func (c tally) String() string {
	return fmt.Sprintf("%d decided sites, %d agree (%.1f%%), model stays/compiler escapes %d, model escapes/compiler stays %d, %d undecided",
		c.decided, c.agree, 100*c.agreement(), c.modelStays, c.modelEscapes, c.undecided)
}
