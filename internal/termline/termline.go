// Package termline draws a status line on a terminal, rewritten in place
// until it is cleared: what a long run of hashalloc is doing.
package termline

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// delay is how long a run goes before its line shows, so that quick runs do
// not flicker.
const delay = time.Second

// IsTerminal reports whether f is a terminal that can rewrite a line.
func IsTerminal(f *os.File) bool {
	if os.Getenv("TERM") == "dumb" {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Line is a status line on a terminal.
type Line struct {
	w     io.Writer
	start time.Time
	text  func() string

	mu      sync.Mutex
	visible bool // the line is on screen
	stop    chan struct{}
	stopped chan struct{}
}

// Start starts a line on w that shows text() every interval, from a second
// on.
func Start(w io.Writer, interval time.Duration, text func() string) *Line {
	l := &Line{w: w, start: time.Now(), text: text, stop: make(chan struct{}), stopped: make(chan struct{})}
	go l.loop(interval)
	return l
}

func (l *Line) loop(interval time.Duration) {
	defer close(l.stopped)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-tick.C:
			if time.Since(l.start) > delay {
				l.draw()
			}
		}
	}
}

func (l *Line) draw() {
	text := l.text()
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "\r\033[K%s", text)
	l.visible = true
}

// Clear stops the line and erases it; it may be called more than once.
func (l *Line) Clear() {
	select {
	case <-l.stop:
		return
	default:
	}
	close(l.stop)
	<-l.stopped
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.visible {
		fmt.Fprint(l.w, "\r\033[K")
		l.visible = false
	}
}
