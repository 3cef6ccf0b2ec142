package prove

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// fakeClock is a clock that moves only when told.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time       { return c.t }
func (c *fakeClock) add(d time.Duration)  { c.t = c.t.Add(d) }
func newFakeClock() *fakeClock            { return &fakeClock{time.Unix(1e9, 0)} }
func estimateWith(c *fakeClock) *estimate { e := newEstimate(); e.now = c.now; return e }
func leftOf(t *testing.T, e *estimate) string {
	l, ok := e.left()
	assert.True(t, ok)
	return roundLeft(l)
}

// TestEstimate checks the time left: nothing before a benchmark has run,
// then the runs left at what each benchmark's last run took (the mean of
// those run for the others), the steps left at what they are expected to
// take, less what the step under way has already taken.
func TestEstimate(t *testing.T) {
	c := newFakeClock()
	e := estimateWith(c)
	e.plan("./a BenchmarkA", 3)
	e.plan("./b BenchmarkB", 3)
	e.expect("analyze", 4*time.Second)
	_, ok := e.left()
	assert.False(t, ok, "nothing measured yet")

	e.ran("./a BenchmarkA", 2*time.Second)
	assert.Equal(t, "14s", leftOf(t, e), "2 runs of A and 3 of B at 2s, the analysis at 4s")

	e.begin("analyze")
	c.add(3 * time.Second)
	assert.Equal(t, "11s", leftOf(t, e), "3s of the analysis done")
	c.add(10 * time.Second)
	assert.Equal(t, "10s", leftOf(t, e), "a step that runs late counts as done, not as negative")
	e.done("analyze")

	e.ran("./b BenchmarkB", 40*time.Second)
	assert.Equal(t, "1m20s", leftOf(t, e), "2 runs of A at 2s, 2 of B at 40s: 84s, to ten seconds above a minute")
	assert.Equal(t, 0, e.pending["none"])
}

// TestProgressLine checks what the line says: the stage, and the time left
// once there is an estimate; a nil progress (not a terminal) does nothing.
func TestProgressLine(t *testing.T) {
	c := newFakeClock()
	p := &progress{est: estimateWith(c)}
	p.set("copying the module", "")
	assert.Equal(t, "hashalloc prove: copying the module", p.text())
	p.est.plan("./merkle BenchmarkHashAlternatives", 13)
	p.set("profiling ./merkle BenchmarkHashAlternatives", "./merkle BenchmarkHashAlternatives")
	p.est.ran("./merkle BenchmarkHashAlternatives", 500*time.Millisecond)
	p.set("measuring ./merkle BenchmarkHashAlternatives (run 1 of 6, before the fixes)", "./merkle BenchmarkHashAlternatives")
	assert.Equal(t, "hashalloc prove: measuring ./merkle BenchmarkHashAlternatives (run 1 of 6, before the fixes) · about 6s left", p.text())

	var nilProgress *progress
	nilProgress.set("anything", "step")
	nilProgress.estimate().ran("x", time.Second)
	nilProgress.clear()
	_, ok := nilProgress.estimate().left()
	assert.False(t, ok)
}
