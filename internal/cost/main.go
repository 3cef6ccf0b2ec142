// Command cost measures what hashalloc's own passes add to what the driver
// spends loading and type-checking code. It runs hashalloc and a do-nothing
// analyzer with the same requirements (inspect, one fact type; package nop)
// side by side, with the same standalone driver and flags, on generated
// packages of growing size (n callers of a hashing helper, a ring of n
// mutually recursive functions, n plain functions), on the standard library
// and on golang.org/x/tools, and prints CPU time (user and system: steadier
// than wall time on a shared machine) and peak memory with their ratios.
// Growth must be linear: doubling n at most doubles hashalloc's time.
//
//	go run ./internal/cost                     # generated packages, std, x/tools
//	go run ./internal/cost -n 1000,2000 -std=false -tools=false
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
)

func main() {
	sizes := flag.String("n", "1000,2000,4000,8000", "comma-separated sizes of the generated packages")
	std := flag.Bool("std", true, "measure the standard library")
	tools := flag.String("tools", "golang.org/x/tools@v0.52.0", "a module to measure (empty: none)")
	runs := flag.Int("runs", 3, "runs per measurement (the fastest counts)")
	binary := flag.String("hashalloc", "", "a hashalloc binary to measure instead of one built from this repository (e.g. an older build)")
	flag.Parse()
	if err := run(*sizes, *std, *tools, *runs, *binary); err != nil {
		fmt.Fprintln(os.Stderr, "cost:", err)
		os.Exit(1)
	}
}

func run(sizes string, std bool, tools string, runs int, binary string) error {
	var ns []int
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("-n: %q is not a positive size", s)
		}
		ns = append(ns, n)
	}
	tmp, err := os.MkdirTemp("", "hashalloc-cost-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	hashalloc, nop := filepath.Join(tmp, "hashalloc"), filepath.Join(tmp, "nopchecker")
	builds := map[string]string{hashalloc: "./cmd/hashalloc", nop: "./internal/cost/nopchecker"}
	if binary != "" {
		abs, err := filepath.Abs(binary)
		if err != nil {
			return err
		}
		hashalloc = abs
		delete(builds, filepath.Join(tmp, "hashalloc"))
	}
	for bin, pkg := range builds {
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	}

	w := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "target\tn\tnop CPU\thashalloc CPU\tratio\tnop memory\thashalloc memory\tratio\t")
	// The do-nothing analyzer runs under singlechecker, which loads test
	// variants unless told not to; hashalloc loads them only with -tests.
	row := func(target, n, dir string, args ...string) error {
		// The two take turns, so that what else the machine does slows
		// both alike.
		base, got := worst, worst
		for range runs {
			b, err := measure(nop, dir, append([]string{"-test=false"}, args...)...)
			if err != nil {
				return err
			}
			g, err := measure(hashalloc, dir, args...)
			if err != nil {
				return err
			}
			base, got = base.best(b), got.best(g)
		}
		fmt.Fprintf(w, "%s\t%s\t%.2fs\t%.2fs\t%.2fx\t%.0f MB\t%.0f MB\t%.2fx\t\n", target, n,
			base.cpu.Seconds(), got.cpu.Seconds(), got.cpu.Seconds()/base.cpu.Seconds(),
			float64(base.rss)/1e6, float64(got.rss)/1e6, float64(got.rss)/float64(base.rss))
		return w.Flush()
	}
	for _, s := range shapes {
		for _, n := range ns {
			dir, err := writeModule(tmp, s, n)
			if err != nil {
				return err
			}
			if err := row(s.name, strconv.Itoa(n), dir, "./..."); err != nil {
				return err
			}
		}
	}
	if std {
		if err := row("std", "", tmp, "std"); err != nil {
			return err
		}
	}
	if tools != "" {
		dir, err := moduleCopy(tmp, tools)
		if err != nil {
			return err
		}
		if err := row(tools, "", dir, "./..."); err != nil {
			return err
		}
	}
	return nil
}

// moduleCopy downloads module@version from the module proxy into a writable
// copy with its dependencies, and returns its directory.
func moduleCopy(tmp, modver string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", modver).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %v", modver, err)
	}
	i := strings.Index(string(out), `"Dir": "`)
	if i < 0 {
		return "", fmt.Errorf("go mod download %s: no directory in %s", modver, out)
	}
	src := strings.SplitN(string(out)[i+len(`"Dir": "`):], `"`, 2)[0]
	dir := filepath.Join(tmp, "module")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		return "", err
	}
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go mod download in %s: %v\n%s", dir, err, out)
	}
	return dir, nil
}
