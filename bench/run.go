package bench

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Options select and time the benchmarks that Run runs.
type Options struct {
	// Run selects the benchmarks whose Name, or whose kind's title as the
	// table prints it ("keyed MAC pool"), matches it; nil selects all.
	Run *regexp.Regexp
	// Sizes are the message sizes; nil means Sizes.
	Sizes []int
	// Count is the number of runs of each benchmark (at least 1).
	Count int
	// BenchTime is how long each run lasts, as go test's -benchtime says it:
	// a duration ("100ms") or a number of operations ("1000x").
	BenchTime string
	// Progress, when set, is called before each round of runs.
	Progress func(round, rounds int)
}

// A Result is what one benchmark measured over its runs.
type Result struct {
	Kind string `json:"kind"`
	Size int    `json:"size"`
	Code Code   `json:"code"`
	// NsPerOp is the median of the runs' times per operation, Runs the times
	// of every run.
	NsPerOp float64   `json:"ns_per_op"`
	Runs    []float64 `json:"ns_per_op_runs"`
	// BytesPerOp and AllocsPerOp are the medians of the runs' heap bytes and
	// allocations per operation.
	BytesPerOp  int64 `json:"bytes_per_op"`
	AllocsPerOp int64 `json:"allocs_per_op"`
	// ChangeVsBefore is NsPerOp relative to the before code's, minus one
	// (-0.25 is 25% faster); RatioToFloor is NsPerOp over the floor's. Each
	// is nil when the code it compares with was not run.
	ChangeVsBefore *float64 `json:"change_vs_before"`
	RatioToFloor   *float64 `json:"ratio_to_floor"`
}

// Spread is the largest distance of a run's time from the median, relative
// to the median.
func (r Result) Spread() float64 {
	var d float64
	for _, ns := range r.Runs {
		d = max(d, abs(ns-r.NsPerOp))
	}
	if r.NsPerOp == 0 {
		return 0
	}
	return d / r.NsPerOp
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// entry is one benchmark to run.
type entry struct {
	kind Kind
	size int
	code Code
	fn   func(b *testing.B)
	runs []testing.BenchmarkResult
}

// mu serializes runs: they change the testing package's -test.benchtime.
var mu sync.Mutex

// Run runs the selected benchmarks, each Count times, and returns their
// results by kind, size and code, in the order of Kinds, the sizes and Codes.
// The runs are interleaved: every selected benchmark runs once per round, so
// that a change in the machine's load touches all of them alike.
func Run(opts Options) ([]Result, error) {
	mu.Lock()
	defer mu.Unlock()
	sizes := opts.Sizes
	if sizes == nil {
		sizes = Sizes
	}
	for _, size := range sizes {
		if size < 8 {
			return nil, fmt.Errorf("size %d: sizes must be at least 8 bytes", size)
		}
	}
	count := max(opts.Count, 1)
	benchTime := opts.BenchTime
	if benchTime == "" {
		benchTime = DefaultBenchTime
	}
	restore, err := setBenchTime(benchTime)
	if err != nil {
		return nil, err
	}
	defer restore()

	var entries []*entry
	for _, k := range Kinds {
		for _, size := range sizes {
			var fns [3]func(b *testing.B)
			for i, code := range Codes {
				if opts.Run != nil && !opts.Run.MatchString(Name(k.Name, size, code)) && !opts.Run.MatchString(k.Title) {
					continue
				}
				if fns[0] == nil {
					fns = k.bench(size)
				}
				entries = append(entries, &entry{kind: k, size: size, code: code, fn: fns[i]})
			}
		}
	}
	if len(entries) == 0 {
		return nil, errors.New("no benchmark matches -run")
	}
	for round := range count {
		if opts.Progress != nil {
			opts.Progress(round, count)
		}
		for _, e := range entries {
			r := testing.Benchmark(e.fn)
			if r.N == 0 {
				return nil, fmt.Errorf("%s failed", Name(e.kind.Name, e.size, e.code))
			}
			e.runs = append(e.runs, r)
		}
	}

	results := make([]Result, len(entries))
	find := map[string]*Result{}
	for i, e := range entries {
		r := &results[i]
		*r = Result{Kind: e.kind.Name, Size: e.size, Code: e.code}
		var bytes, allocs []int64
		for _, run := range e.runs {
			r.Runs = append(r.Runs, float64(run.T.Nanoseconds())/float64(run.N))
			bytes = append(bytes, int64(run.MemBytes/uint64(run.N)))
			allocs = append(allocs, int64(run.MemAllocs/uint64(run.N)))
		}
		r.NsPerOp = median(r.Runs)
		r.BytesPerOp, r.AllocsPerOp = median(bytes), median(allocs)
		find[Name(r.Kind, r.Size, r.Code)] = r
	}
	for i := range results {
		r := &results[i]
		if before := find[Name(r.Kind, r.Size, Before)]; before != nil && r.Code != Before {
			change := r.NsPerOp/before.NsPerOp - 1
			r.ChangeVsBefore = &change
		}
		if floor := find[Name(r.Kind, r.Size, Floor)]; floor != nil {
			ratio := r.NsPerOp / floor.NsPerOp
			r.RatioToFloor = &ratio
		}
	}
	return results, nil
}

// median returns the median of xs (the mean of the middle two for an even
// count).
func median[T int64 | float64](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// setBenchTime sets the testing package's -test.benchtime, which
// testing.Benchmark follows, and returns a function that restores it.
func setBenchTime(value string) (restore func(), err error) {
	testing.Init()
	f := flag.Lookup("test.benchtime")
	if f == nil {
		return nil, errors.New("the testing package has no -test.benchtime flag")
	}
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		return nil, fmt.Errorf("-benchtime %q: %v", value, err)
	}
	return func() { f.Value.Set(old) }, nil
}

// Machine describes where the benchmarks ran.
type Machine struct {
	Go         string `json:"go"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPU        string `json:"cpu,omitempty"`
	GOMAXPROCS int    `json:"gomaxprocs"`
}

// ThisMachine returns the machine the benchmarks run on.
func ThisMachine() Machine {
	return Machine{
		Go:         runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		CPU:        cpuName(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
	}
}

// cpuName returns the processor's model name on Linux, as go test prints it,
// or "" elsewhere.
func cpuName() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if name, ok := strings.CutPrefix(line, "model name"); ok {
			if _, v, ok := strings.Cut(name, ":"); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return ""
}

// Elapsed rounds a duration for printing.
func Elapsed(d time.Duration) string {
	return d.Round(100 * time.Millisecond).String()
}
