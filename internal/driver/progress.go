package driver

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashalloc/hashalloc/internal/termline"
)

// manyPackages is the number of packages to analyze from which a run on a
// terminal shows its progress and ends with a summary line.
const manyPackages = 10

// progress is a line on a terminal, rewritten in place, that says what a
// long run is doing: loading, then how many packages are analyzed.
type progress struct {
	line *termline.Line

	mu    sync.Mutex
	stage string        // "loading packages", "analyzing", or a stage after the analysis
	total int           // packages to analyze, when known
	done  *atomic.Int64 // packages analyzed
}

// isTerminal reports whether f is a terminal that can rewrite a line.
func isTerminal(f *os.File) bool { return termline.IsTerminal(f) }

// startProgress starts the line on w.
func startProgress(w io.Writer) *progress {
	p := &progress{stage: "loading packages", done: new(atomic.Int64)}
	p.line = termline.Start(w, 200*time.Millisecond, p.text)
	return p
}

// startStage starts a line on w that says the run is at stage, such as
// "merging the fixes of 2000 findings".
func startStage(w io.Writer, stage string) *progress {
	p := &progress{stage: stage, done: new(atomic.Int64)}
	p.line = termline.Start(w, 200*time.Millisecond, p.text)
	return p
}

// analyzing moves to the analysis of total packages (with dependencies).
func (p *progress) analyzing(total int) {
	p.mu.Lock()
	p.stage, p.total = "analyzing", total
	p.mu.Unlock()
}

// text is the line's text.
func (p *progress) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.total > 0 {
		return fmt.Sprintf("hashalloc: analyzing %d/%d packages…", min(p.done.Load(), int64(p.total)), p.total)
	}
	return fmt.Sprintf("hashalloc: %s…", p.stage)
}

// clear stops the line and erases it.
func (p *progress) clear() { p.line.Clear() }
