// Command realworld runs hashalloc, built from this repository, on the
// pinned real-world corpus of internal/realworld/expectations.txt and
// compares its findings with the verdicts there.
//
// Usage, from the repository's root:
//
//	go run ./cmd/realworld [flags]
//
// It prints a table (findings, true and false positives, precision, must-find
// recall, unexpected findings, panics, time and peak memory per module and in
// total), then what needs attention per module. It exits 1 when a module
// panics or fails, when a finding is unexpected (not yet judged), when a
// must-stay-silent site is not silent, when a finding judged true is no longer
// reported, when a fix fails, or when the total precision is below
// -min-precision; with -strict, also when a must-find site is missed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/hashalloc/hashalloc/internal/realworld"
	"github.com/hashalloc/hashalloc/internal/realworld/expect"
)

func main() {
	var (
		file     = flag.String("expect", "", "expectations file (default internal/realworld/expectations.txt of the repository)")
		work     = flag.String("work", filepath.Join(os.TempDir(), "hashalloc-realworld"), "scratch directory")
		fast     = flag.Bool("fast", false, "run only the modules marked fast (the CI subset)")
		only     = flag.String("module", "", "run only the modules whose PATH@VERSION contains this")
		fix      = flag.Bool("fix", false, "also apply the fixes in both pool modes and build, vet and test the changed packages")
		strict   = flag.Bool("strict", false, "also fail on a missed must-find site")
		minPrec  = flag.Float64("min-precision", 0.9, "fail when the total precision is below this")
		unjudged = flag.Bool("unjudged", false, "print only the unexpected findings, as entries of the expectations file")
	)
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "realworld: no arguments expected; see -help")
		os.Exit(2)
	}
	if err := run(*file, *work, *fast, *only, *fix, *strict, *minPrec, *unjudged); err != nil {
		fmt.Fprintln(os.Stderr, "realworld:", err)
		os.Exit(1)
	}
}

func run(file, work string, fast bool, only string, fix, strict bool, minPrec float64, unjudged bool) error {
	repo, err := repoRoot()
	if err != nil {
		return err
	}
	if file == "" {
		file = filepath.Join(repo, "internal", "realworld", "expectations.txt")
	}
	corpus, err := expect.ReadFile(file)
	if err != nil {
		return err
	}
	var modules []*expect.Module
	for _, m := range corpus.Modules {
		if (!fast || m.Fast) && strings.Contains(m.Name(), only) {
			modules = append(modules, m)
		}
	}
	if len(modules) == 0 {
		return errors.New("no module selected")
	}
	work, err = filepath.Abs(work)
	if err != nil {
		return err
	}

	ctx := context.Background()
	r, err := realworld.NewRunner(ctx, realworld.Config{Repo: repo, Work: work, Fix: fix, Log: os.Stderr})
	if err != nil {
		return err
	}
	var results []*realworld.Result
	for _, m := range modules {
		results = append(results, r.Run(ctx, m))
	}

	if unjudged {
		for _, res := range results {
			if len(res.Unexpected) > 0 {
				fmt.Printf("# under module %s %s\n", res.Module.Path, res.Module.Version)
				realworld.WriteUnjudged(os.Stdout, res.Unexpected)
			}
		}
		return nil
	}
	fmt.Println()
	realworld.WriteTable(os.Stdout, results)
	if fix {
		fmt.Println()
		realworld.WriteFixTable(os.Stdout, results)
	}
	realworld.WriteDetails(os.Stdout, results)

	var failed []string
	t := realworld.Total(results)
	for _, res := range results {
		if res.Failed() {
			failed = append(failed, res.Module.Name())
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("failed: %s", strings.Join(failed, ", "))
	}
	if p := realworld.Precision(t.True, t.False); p >= 0 && p < minPrec {
		return fmt.Errorf("precision %.1f%% is below %.1f%%", 100*p, 100*minPrec)
	}
	if strict && t.Found < t.MustFind {
		return fmt.Errorf("-strict: %d of %d must-find sites missed", t.MustFind-t.Found, t.MustFind)
	}
	fmt.Println("\nrealworld: ok")
	return nil
}

// repoRoot returns the root of the hashalloc repository the command runs in.
func repoRoot() (string, error) {
	// The main module, or with the repository's go.work one of the
	// workspace's modules: go list -m alone would list them all.
	out, err := exec.Command("go", "list", "-m", "-f", "{{if .Main}}{{.Dir}}{{end}}", "github.com/hashalloc/hashalloc").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		return "", fmt.Errorf("go list -m github.com/hashalloc/hashalloc: %v (run from the hashalloc repository)", err)
	}
	return dir, nil
}
