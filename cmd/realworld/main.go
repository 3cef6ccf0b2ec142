// Command realworld runs hashalloc, built from this repository, on the
// pinned real-world corpus of the expectations files and compares its
// findings with the verdicts there.
//
// Usage, from the repository's root:
//
//	go run ./cmd/realworld [flags]
//
// The corpus is read from every *.txt file of internal/realworld (sorted by
// name), or from the comma-separated files given with -expect; a module may
// be listed in one file only. -fast, -heldout, -rest and -module select
// modules.
//
// It prints a table (findings, true and false positives, precision, must-find
// sites found, audited per-item sites reported and recall, unexpected
// findings, panics, time and peak memory per module, then in total: for the
// held-out modules, for the rest, and for all), then what needs attention per
// module, with every per-item site found or missed. It exits 1 when a module
// panics or fails, when a finding is unexpected (not yet judged), when a
// must-stay-silent site is not silent, when a finding judged true is no longer
// reported, when a fix fails, when a benchmark misses its target after the
// fixes (with -fix; a table shows allocs/op and B/op before and after), when
// the precision of the modules that are not held out is below
// -min-precision, or when that of the held-out modules is below
// -min-heldout-precision (0 by default: their precision, like recall, is a
// measure until the hotness model has been designed without them); with
// -strict, also when a must-find site is missed. A missed per-item site never
// fails the run.
//
// With -pool=runtime (or inline), the findings judged are those of hashalloc
// in that pool mode: the same sites, whose messages say which have an
// automatic fix in that mode. Without it hashalloc chooses (-pool=auto),
// which for a module that does not require the runtime module is inline.
//
// With -audit, hashalloc runs with -audit too, and the command then prints,
// per module, the recall audit: every audited per-item site with what became
// of it (reported, or missed with the reason the model gave, or looked at by
// no check), then every hash constructor call, HMAC, concatenation built to
// be hashed and buffer in hashing code that a check looked at, reported
// (with its verdict) or silent (with why). It is how recall is judged.
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
		files    = flag.String("expect", "", "comma-separated expectations files (default every internal/realworld/*.txt of the repository)")
		work     = flag.String("work", filepath.Join(os.TempDir(), "hashalloc-realworld"), "scratch directory")
		fast     = flag.Bool("fast", false, "run only the modules marked fast (the CI subset)")
		heldout  = flag.Bool("heldout", false, "run only the held-out modules")
		rest     = flag.Bool("rest", false, "run only the modules that are not held out")
		only     = flag.String("module", "", "run only the modules whose PATH@VERSION contains this")
		fix      = flag.Bool("fix", false, "also apply the fixes in both pool modes and build, vet and test the changed packages")
		strict   = flag.Bool("strict", false, "also fail on a missed must-find site")
		minPrec  = flag.Float64("min-precision", 0.9, "fail when the precision of the modules that are not held out is below this")
		minHeld  = flag.Float64("min-heldout-precision", 0, "fail when the precision of the held-out modules is below this")
		unjudged = flag.Bool("unjudged", false, "print only the unexpected findings, as entries of the expectations file")
		count    = flag.Int("bench-count", 1, "with -fix, the -count of the benchmarks of modules with bench lines (the median is kept)")
		pool     = flag.String("pool", "", "the -pool of the run whose findings are judged, runtime or inline (empty: hashalloc's default, auto, which is inline in a module that does not require the runtime module); -fix applies the fixes in both modes")
		audit    = flag.Bool("audit", false, "also print every site a check looked at, reported or silent and why, and what became of each per-item site")
	)
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "realworld: no arguments expected; see -help")
		os.Exit(2)
	}
	if *heldout && *rest {
		fmt.Fprintln(os.Stderr, "realworld: -heldout and -rest select disjoint sets; give one")
		os.Exit(2)
	}
	if *pool != "" && *pool != "runtime" && *pool != "inline" {
		fmt.Fprintf(os.Stderr, "realworld: -pool %q: want runtime or inline\n", *pool)
		os.Exit(2)
	}
	if err := run(*files, *work, *fast, *heldout, *rest, *only, *fix, *strict, *minPrec, *minHeld, *unjudged, *count, *audit, *pool); err != nil {
		fmt.Fprintln(os.Stderr, "realworld:", err)
		os.Exit(1)
	}
}

func run(files, work string, fast, heldout, rest bool, only string, fix, strict bool, minPrec, minHeld float64, unjudged bool, count int, audit bool, pool string) error {
	repo, err := repoRoot()
	if err != nil {
		return err
	}
	var paths []string
	if files == "" {
		if paths, err = expect.Files(filepath.Join(repo, "internal", "realworld")); err != nil {
			return err
		}
		if len(paths) == 0 {
			return errors.New("no expectations file in internal/realworld")
		}
	} else {
		for _, f := range strings.Split(files, ",") {
			if f = strings.TrimSpace(f); f != "" {
				paths = append(paths, f)
			}
		}
	}
	corpus, err := expect.ReadFiles(paths)
	if err != nil {
		return err
	}
	var modules []*expect.Module
	for _, m := range corpus.Modules {
		if (!fast || m.Fast) && (!heldout || m.Heldout) && (!rest || !m.Heldout) && strings.Contains(m.Name(), only) {
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
	r, err := realworld.NewRunner(ctx, realworld.Config{Repo: repo, Work: work, Fix: fix, Audit: audit, Pool: pool, BenchCount: count, Log: os.Stderr})
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
		realworld.WriteBenchTable(os.Stdout, results)
	}
	realworld.WriteDetails(os.Stdout, results)
	if audit {
		realworld.WriteAudit(os.Stdout, results)
	}

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
	others := realworld.TotalHeldout(results, false)
	if p := realworld.Precision(others.True, others.False); p >= 0 && p < minPrec {
		return fmt.Errorf("precision %.1f%% (modules not held out) is below %.1f%%", 100*p, 100*minPrec)
	}
	held := realworld.TotalHeldout(results, true)
	if p := realworld.Precision(held.True, held.False); p >= 0 && p < minHeld {
		return fmt.Errorf("precision %.1f%% (held-out modules) is below %.1f%%", 100*p, 100*minHeld)
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
