// Command readme regenerates the benchmark tables of hashalloc's
// documentation, in docs/rewrites.md (what the rewrites buy): the rewrites'
// table from hashalloc bench, and the examples' table from go test -bench on
// a copy of examples/ before and after hashalloc -fix, compared by
// benchstat, next to the figures of the seeds' pull requests. It rewrites
// the text between the page's <!-- bench:rewrites --> and
// <!-- bench:examples --> markers and their closing markers.
//
// Run it from the repository (it takes a few minutes):
//
//	go run ./bench/cmd/readme
//
// The seeds' figures are read from ../shared/seeds when it is there (-seeds
// to change), and otherwise taken from the copy in this command.
package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hashalloc/hashalloc/bench"
	"github.com/hashalloc/hashalloc/internal/examplecopy"
)

// benchstatVersion is the version of golang.org/x/perf whose benchstat
// compares the examples.
const benchstatVersion = "v0.0.0-20260908200009-22c9c6c9d4da"

func main() {
	log := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "readme: "+format+"\n", args...) }
	root, err := repoRoot()
	if err != nil {
		log("%v", err)
		os.Exit(1)
	}
	docPath := flag.String("doc", filepath.Join(root, "docs", "rewrites.md"), "the page to rewrite")
	seedsDir := flag.String("seeds", filepath.Join(root, "..", "shared", "seeds"), "the seeds' directory")
	count := flag.Int("count", 6, "runs of each benchmark")
	benchTime := flag.String("benchtime", "200ms", "time of each run of the examples' benchmarks")
	dryRun := flag.Bool("n", false, "print the sections instead of rewriting the page")
	flag.Parse()

	if err := run(root, *docPath, *seedsDir, *count, *benchTime, *dryRun, log); err != nil {
		log("%v", err)
		os.Exit(1)
	}
}

func run(root, docPath, seedsDir string, count int, benchTime string, dryRun bool, log func(string, ...any)) error {
	doc, err := os.ReadFile(docPath)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "hashalloc-readme-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	seeds := seedFigures
	if _, err := os.Stat(seedsDir); err == nil {
		if seeds, err = readSeeds(seedsDir); err != nil {
			return err
		}
		log("seeds' figures from %s", seedsDir)
	} else {
		log("no %s: the seeds' figures are this command's copy", seedsDir)
	}

	binary := filepath.Join(tmp, "hashalloc")
	if _, err := command(root, nil, "go", "build", "-o", binary, "./cmd/hashalloc"); err != nil {
		return err
	}

	log("hashalloc bench -json -count %d", count)
	out, err := command(root, nil, binary, "bench", "-json", "-count", fmt.Sprint(count))
	if err != nil {
		return err
	}
	var report bench.Report
	if err := json.Unmarshal(out, &report); err != nil {
		return fmt.Errorf("hashalloc bench -json: %v", err)
	}

	// The examples, naive and fixed, each in a module of its own.
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off"}
	dirs := map[string]string{"naive": filepath.Join(tmp, "naive"), "fixed": filepath.Join(tmp, "fixed")}
	for _, dir := range dirs {
		if err := examplecopy.Copy(root, dir, "example.com/examples", true); err != nil {
			return err
		}
	}
	if out, err := command(dirs["fixed"], env, binary, "-fix", "./..."); err != nil && !exitCode(err, 3) {
		return fmt.Errorf("hashalloc -fix: %v\n%s", err, out)
	}
	results := map[string]*bytes.Buffer{"naive": {}, "fixed": {}}
	for i := range count {
		for _, name := range []string{"naive", "fixed"} {
			log("examples, %s, run %d of %d", name, i+1, count)
			out, err := command(dirs[name], env, "go", "test", "-run", "^$", "-bench", ".", "-benchmem",
				"-count", "1", "-benchtime", benchTime, "./...")
			if err != nil {
				return err
			}
			results[name].Write(out)
		}
	}
	for name, buf := range results {
		if err := os.WriteFile(filepath.Join(tmp, name+".txt"), buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	out, err = command(tmp, nil, "go", "run", "golang.org/x/perf/cmd/benchstat@"+benchstatVersion,
		"-format", "csv", "naive=naive.txt", "fixed=fixed.txt")
	if err != nil {
		return err
	}
	stats, err := parseBenchstat(out)
	if err != nil {
		return err
	}

	m := report.Machine
	rewrites := fmt.Sprintf("`hashalloc bench` on %s %s/%s, %s, GOMAXPROCS %d: medians of %d runs of %s per row, %s in all.\n\n",
		m.Go, m.GOOS, m.GOARCH, m.CPU, m.GOMAXPROCS, report.Count, report.BenchTime,
		bench.Elapsed(time.Duration(report.Seconds*float64(time.Second)))) + rewritesTable(report)
	examples := fmt.Sprintf("The examples, naive → after `hashalloc -fix`: `go test -bench . -benchmem -count %d -benchtime %s`, "+
		"runs of the two copies interleaved, compared by benchstat (medians; the change when it is significant, ~ when it is not). "+
		"The seeds' figures are their pull requests', by hand, on other machines and other code: compare the changes, not the times.\n\n",
		count, benchTime) + examplesTable(stats, seeds)
	if dryRun {
		fmt.Printf("<!-- %s -->\n%s<!-- /%s -->\n\n<!-- %s -->\n%s<!-- /%s -->\n",
			rewritesSection, rewrites, rewritesSection, examplesSection, examples, examplesSection)
		return nil
	}
	text, err := replaceSection(string(doc), rewritesSection, rewrites)
	if err != nil {
		return err
	}
	if text, err = replaceSection(text, examplesSection, examples); err != nil {
		return err
	}
	log("rewrote %s", docPath)
	return os.WriteFile(docPath, []byte(text), 0o644)
}

// parseBenchstat parses benchstat -format csv output into comparisons by
// example/benchmark and unit.
func parseBenchstat(out []byte) (map[string]map[string]stat, error) {
	stats := map[string]map[string]stat{}
	pkg, unit := "", ""
	suffix := regexp.MustCompile(`-\d+$`)
	for block := range strings.SplitSeq(string(out), "\n\n") {
		var lines []string
		for line := range strings.SplitSeq(block, "\n") {
			if p, ok := strings.CutPrefix(line, "pkg: "); ok {
				pkg = p[strings.LastIndex(p, "/")+1:]
				continue
			}
			if strings.Contains(line, ":") && !strings.Contains(line, ",") {
				continue // goos: linux, cpu: ...
			}
			lines = append(lines, line)
		}
		r := csv.NewReader(strings.NewReader(strings.Join(lines, "\n")))
		r.FieldsPerRecord = -1
		records, err := r.ReadAll()
		if err != nil {
			return nil, fmt.Errorf("benchstat output: %v", err)
		}
		for _, rec := range records {
			switch {
			case len(rec) < 7:
			case rec[0] == "" && rec[1] != "naive":
				unit = rec[1]
			case rec[0] != "" && rec[0] != "geomean" && unit != "":
				key := pkg + "/" + suffix.ReplaceAllString(rec[0], "")
				if stats[key] == nil {
					stats[key] = map[string]stat{}
				}
				delta := rec[5]
				if delta != "~" && !strings.HasPrefix(delta, "-") && !strings.HasPrefix(delta, "+") {
					delta = ""
				}
				stats[key][unit] = stat{Base: formatValue(rec[1], unit), New: formatValue(rec[3], unit), Delta: delta}
			}
		}
	}
	if len(stats) == 0 {
		return nil, errors.New("benchstat compared nothing")
	}
	return stats, nil
}

// formatValue prints a benchstat value in a unit as the tables do.
func formatValue(v, unit string) string {
	var x float64
	if _, err := fmt.Sscan(v, &x); err != nil {
		return v
	}
	switch unit {
	case "sec/op":
		return bench.FormatNs(x * 1e9)
	case "B/op":
		if x >= 1024 {
			return fmt.Sprintf("%.1f KiB", x/1024)
		}
		return fmt.Sprintf("%.0f B", x)
	default:
		return fmt.Sprintf("%.0f", x)
	}
}

// repoRoot finds the main module's directory from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(data, []byte("module github.com/hashalloc/hashalloc\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run me inside the hashalloc repository")
		}
		dir = parent
	}
}

// command runs name with args in dir and returns its standard output.
func command(dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s: %w\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}

func exitCode(err error, code int) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit) && exit.ExitCode() == code
}
