package driver

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// manyPackages is the number of packages to analyze from which a run on a
// terminal shows its progress and ends with a summary line.
const manyPackages = 10

// progress is a line on a terminal, rewritten in place, that says what a
// long run is doing: loading, then how many packages are analyzed.
type progress struct {
	w     io.Writer
	start time.Time

	mu      sync.Mutex
	stage   string        // "loading packages" or "analyzing"
	total   int           // packages to analyze, when known
	done    *atomic.Int64 // packages analyzed
	visible bool          // the line is on screen
	stop    chan struct{}
	stopped chan struct{}
}

// isTerminal reports whether f is a terminal that can rewrite a line.
func isTerminal(f *os.File) bool {
	if os.Getenv("TERM") == "dumb" {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// startProgress starts the line on w; it shows only after a short delay, so
// that quick runs do not flicker.
func startProgress(w io.Writer) *progress {
	p := &progress{w: w, start: time.Now(), stage: "loading packages", done: new(atomic.Int64),
		stop: make(chan struct{}), stopped: make(chan struct{})}
	go p.loop()
	return p
}

func (p *progress) loop() {
	defer close(p.stopped)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
			if time.Since(p.start) > time.Second {
				p.draw()
			}
		}
	}
}

// analyzing moves to the analysis of total packages (with dependencies).
func (p *progress) analyzing(total int) {
	p.mu.Lock()
	p.stage, p.total = "analyzing", total
	p.mu.Unlock()
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf("hashalloc: %s…", p.stage)
	if p.total > 0 {
		line = fmt.Sprintf("hashalloc: analyzing %d/%d packages…", min(p.done.Load(), int64(p.total)), p.total)
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.visible = true
}

// clear stops the line and erases it.
func (p *progress) clear() {
	select {
	case <-p.stop:
		return
	default:
	}
	close(p.stop)
	<-p.stopped
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.visible {
		fmt.Fprint(p.w, "\r\033[K")
		p.visible = false
	}
}
