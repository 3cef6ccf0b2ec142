package termline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDraw checks that the line is drawn in place and erased, once.
func TestDraw(t *testing.T) {
	var b bytes.Buffer
	l := &Line{w: &b, text: func() string { return "hashalloc: analyzing 3/10 packages…" }, stop: make(chan struct{}), stopped: make(chan struct{})}
	close(l.stopped)
	l.draw()
	l.draw()
	l.Clear()
	l.Clear()
	assert.Equal(t, "\r\033[Khashalloc: analyzing 3/10 packages…\r\033[Khashalloc: analyzing 3/10 packages…\r\033[K", b.String())
	assert.False(t, strings.Contains(b.String(), "\n"), "one line, rewritten")
}

// TestQuickRunShowsNothing checks that a line cleared within its first
// second never shows.
func TestQuickRunShowsNothing(t *testing.T) {
	var b bytes.Buffer
	l := Start(&b, 1, func() string { return "never" })
	l.Clear()
	assert.Empty(t, b.String())
}
