package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// cost is what one run of a checker took.
type cost struct {
	cpu time.Duration // user and system CPU time: on a shared machine, steadier than wall time
	rss int64         // peak resident memory, bytes
}

// measure runs the checker binary on args in dir, runs times, and returns the
// smallest CPU time and the smallest peak memory (the least disturbed by the
// rest of the machine). A checker's exit code 3 (findings) is not an error.
func measure(binary, dir string, runs int, args ...string) (cost, error) {
	best := cost{cpu: 1<<63 - 1, rss: 1<<63 - 1}
	for range runs {
		cmd := exec.Command(binary, args...)
		cmd.Dir = dir
		// Every run analyzes: hashalloc's result cache would answer repeats.
		cmd.Env = append(os.Environ(), "HASHALLOC_CACHE=off")
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = nil, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 3) {
			return cost{}, fmt.Errorf("%s %v in %s: %v\n%s", binary, args, dir, err, tail(stderr.Bytes()))
		}
		if bytes.Contains(stderr.Bytes(), []byte("panic:")) {
			return cost{}, fmt.Errorf("%s %v in %s panicked:\n%s", binary, args, dir, tail(stderr.Bytes()))
		}
		best.cpu = min(best.cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			best.rss = min(best.rss, ru.Maxrss*1024)
		}
	}
	return best, nil
}

// tail returns the last lines of a command's output, for errors.
func tail(b []byte) []byte {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return b
}
