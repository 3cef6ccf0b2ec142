package prove

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/hashalloc/hashalloc/internal/termline"
)

// progress is a line on a terminal, rewritten in place, that says what prove
// is doing (which package and benchmark) and how long the rest should take.
// A nil progress does nothing, and keeps no estimate.
type progress struct {
	line *termline.Line
	est  *estimate

	mu    sync.Mutex
	stage string
}

// isTerminal reports whether f is a terminal that can rewrite a line.
func isTerminal(f *os.File) bool { return termline.IsTerminal(f) }

// startProgress starts the line on w.
func startProgress(w io.Writer) *progress {
	p := &progress{est: newEstimate()}
	p.line = termline.Start(w, 250*time.Millisecond, p.text)
	return p
}

// estimate returns the estimate of the time left, nil for a nil progress.
func (p *progress) estimate() *estimate {
	if p == nil {
		return nil
	}
	return p.est
}

// set says what prove is doing now: stage, for the line, and key, the
// benchmark or step of the estimate under way ("" for none).
func (p *progress) set(stage, key string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.stage = stage
	p.mu.Unlock()
	if key != "" {
		p.est.begin(key)
	}
}

// text is the text of the progress line.
func (p *progress) text() string {
	p.mu.Lock()
	stage := p.stage
	p.mu.Unlock()
	s := "hashalloc prove: " + stage
	if left, ok := p.est.left(); ok {
		s += fmt.Sprintf(" · about %s left", roundLeft(left))
	}
	return s
}

// clear stops the line and erases it.
func (p *progress) clear() {
	if p != nil {
		p.line.Clear()
	}
}

// roundLeft rounds a time left for the progress line: seconds under a
// minute, else minutes and tens of seconds.
func roundLeft(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Round(time.Second)/time.Second))
	}
	d = d.Round(10 * time.Second)
	return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
}

// estimate predicts how long the rest of a run takes from what the run has
// measured so far: each benchmark's runs take what its last run took (one
// not yet run, what the others took on average), and every other step
// still to do (the analysis, the fixes, the tests, a build) what prove
// expects of it.
type estimate struct {
	mu      sync.Mutex
	now     func() time.Time
	last    map[string]time.Duration // the last run of each benchmark
	pending map[string]int           // the runs left of each benchmark
	steps   map[string]time.Duration // the other steps left, and what each should take
	current string                   // the benchmark or step under way
	since   time.Time                // when it began
}

func newEstimate() *estimate {
	return &estimate{now: time.Now, last: map[string]time.Duration{}, pending: map[string]int{}, steps: map[string]time.Duration{}}
}

// plan records that the benchmark bench has runs to run.
func (e *estimate) plan(bench string, runs int) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pending[bench] += runs
}

// expect records a step still to do and what it should take.
func (e *estimate) expect(step string, d time.Duration) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.steps[step] = d
}

// begin records that the benchmark or step key is under way.
func (e *estimate) begin(key string) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.current, e.since = key, e.now()
}

// done records that the step is done.
func (e *estimate) done(step string) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.steps, step)
	if e.current == step {
		e.current = ""
	}
}

// ran records a run of bench that took d.
func (e *estimate) ran(bench string, d time.Duration) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.last[bench] = d
	if e.pending[bench] > 0 {
		e.pending[bench]--
	}
	if e.current == bench {
		e.current = ""
	}
}

// left returns the time the rest should take, and false before a benchmark
// has run (nothing to go by) and when nothing planned is left (what remains
// is not known: finding the fix to blame).
func (e *estimate) left() (time.Duration, bool) {
	if e == nil {
		return 0, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.last) == 0 {
		return 0, false
	}
	var sum time.Duration
	for _, d := range e.last {
		sum += d
	}
	mean := sum / time.Duration(len(e.last))
	run := func(bench string) time.Duration {
		if d, ok := e.last[bench]; ok {
			return d
		}
		return mean
	}
	var left time.Duration
	for bench, n := range e.pending {
		left += time.Duration(n) * run(bench)
	}
	for _, d := range e.steps {
		left += d
	}
	if e.current != "" {
		elapsed := e.now().Sub(e.since)
		if d, ok := e.steps[e.current]; ok {
			left -= min(elapsed, d)
		} else if e.pending[e.current] > 0 {
			left -= min(elapsed, run(e.current))
		}
		left = max(left, time.Second) // under way: not done yet
	}
	return left, left > 0
}
