package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A figure is what a seed's pull request reported for one benchmark, as it
// printed it: before and after, per unit.
type figure struct {
	Time, Bytes, Allocs [2]string
}

// seedFigures are the seeds' own figures for the benchmarks the examples'
// table compares the examples with, by seed and benchmark (without the
// GOMAXPROCS suffix): a copy of what ../shared/seeds holds, so that the
// table can be generated without it. TestSeedFigures checks the copy against the seeds
// when they are there.
var seedFigures = map[string]map[string]figure{
	"000": {
		"NewTreeSmall":        {[2]string{"3.60s", "3.43s"}, [2]string{"1.07GB", "0.54GB"}, [2]string{"25.2M", "16.8M"}},
		"ValidatePartialTree": {[2]string{"59.9µs", "57.6µs"}, [2]string{"15.1kB", "5.9kB"}, [2]string{"302", "159"}},
	},
	"001": {
		"HashAlternatives/recursive": {[2]string{"77.6µs", "77.0µs"}, [2]string{"25.4kB", "6.4kB"}, [2]string{"497", "199"}},
		"HashAlternatives/iterative": {[2]string{"76.3µs", "76.2µs"}, [2]string{"28.1kB", "9.1kB"}, [2]string{"498", "200"}},
	},
	"002": {
		"HashChangedNodes/1":    {[2]string{"361.6ns", "337.9ns"}, [2]string{"144B", "144B"}, [2]string{"3", "3"}},
		"HashChangedNodes/10":   {[2]string{"2992ns", "2842ns"}, [2]string{"161B", "160B"}, [2]string{"5", "4"}},
		"HashChangedNodes/100":  {[2]string{"30044ns", "28271ns"}, [2]string{"280B", "272B"}, [2]string{"19", "11"}},
		"HashChangedNodes/1000": {[2]string{"332787ns", "321290ns"}, [2]string{"2746B", "2464B"}, [2]string{"293", "148"}},
	},
	"003": {
		"HS/Sign-HS256":   {[2]string{"3.02µs", "2.80µs"}, [2]string{"1.33kB", "0.85kB"}, [2]string{"18.0", "13.0"}},
		"HS/Verify-HS256": {[2]string{"1.53µs", "1.18µs"}, [2]string{"512B", "32B"}, [2]string{"6.00", "1.00"}},
	},
}

var (
	// An old benchstat table: a "name old time/op new time/op delta" header,
	// then "Name-8  114s ± 3%  112s ± 1%  ~  (p=...)" rows.
	benchstatHeader = regexp.MustCompile(`^name\s+old (time|alloc|allocs)/op\s+new`)
	benchstatRow    = regexp.MustCompile(`^(\S+?)(?:-\d+)?\s+(\S+)\s+±\s*\d+%\s+(\S+)\s+±`)
	// A go test line: "Benchmark_Name/1-12  3299274  361.6 ns/op  144 B/op  3 allocs/op".
	goTestRow = regexp.MustCompile(`^Benchmark_?(\S+?)(?:-\d+)?\s+\d+\s+([0-9.]+)\s+ns/op\s+(\d+) B/op\s+(\d+) allocs/op`)
)

// readSeeds parses the benchmark figures of every seed file in dir
// (NNN_*.txt): old benchstat tables, or go test output under "Before:" and
// "After:" lines.
func readSeeds(dir string) (map[string]map[string]figure, error) {
	files, err := filepath.Glob(filepath.Join(dir, "[0-9][0-9][0-9]_*.txt"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no seed in %s", dir)
	}
	seeds := map[string]map[string]figure{}
	for _, file := range files {
		id := filepath.Base(file)[:3]
		figs, err := parseSeed(file)
		if err != nil {
			return nil, err
		}
		seeds[id] = figs
	}
	return seeds, nil
}

func parseSeed(file string) (map[string]figure, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	figs := map[string]figure{}
	unit := ""  // the unit of the benchstat table being read
	phase := -1 // 0 under "Before:", 1 under "After:", -1 elsewhere
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			unit = ""
			continue
		case line == "Before:":
			phase = 0
			continue
		case line == "After:":
			phase = 1
			continue
		case strings.HasPrefix(line, "Honestly"):
			phase = -1
		}
		if m := benchstatHeader.FindStringSubmatch(line); m != nil {
			unit = m[1]
			continue
		}
		if unit != "" {
			m := benchstatRow.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			fig := figs[m[1]]
			pair := [2]string{m[2], m[3]}
			switch unit {
			case "time":
				fig.Time = pair
			case "alloc":
				fig.Bytes = pair
			case "allocs":
				fig.Allocs = pair
			}
			figs[m[1]] = fig
			continue
		}
		if phase >= 0 {
			if m := goTestRow.FindStringSubmatch(line); m != nil {
				fig := figs[m[1]]
				fig.Time[phase], fig.Bytes[phase], fig.Allocs[phase] = m[2]+"ns", m[3]+"B", m[4]
				figs[m[1]] = fig
			}
		}
	}
	return figs, sc.Err()
}
