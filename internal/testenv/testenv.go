// Package testenv holds what the repository's tests share about their
// environment: the switch that runs the slow tests.
//
// go test ./... is the fast suite. The tests that are slow by nature (the
// oracle over every testdata package, end-to-end runs of the built command
// that fix, build and test copies of code, Neovim) skip unless
// HASHALLOC_SLOW=1 is set; .ci/test, the command that runs every test, runs
// them in a step of their own.
package testenv

import (
	"os"
	"testing"
)

// SlowVar is the environment variable that runs the slow tests when it is "1".
const SlowVar = "HASHALLOC_SLOW"

// Slow reports whether the slow tests run.
func Slow() bool { return os.Getenv(SlowVar) == "1" }

// SkipUnlessSlow skips t unless the slow tests run; why says what makes it
// slow. Call it first in the test function, so that .ci/test finds the test:
// it runs the slow tests by name.
func SkipUnlessSlow(t testing.TB, why string) {
	t.Helper()
	if !Slow() {
		t.Skipf("slow: %s (set %s=1 to run it)", why, SlowVar)
	}
}
