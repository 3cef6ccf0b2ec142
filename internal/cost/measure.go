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

// worst is the cost that any run beats: where the smallest of several
// runs (the least disturbed by the rest of the machine) starts.
var worst = cost{cpu: 1<<63 - 1, rss: 1<<63 - 1}

// best is the smaller CPU time and the smaller peak memory of c and o.
func (c cost) best(o cost) cost {
	return cost{cpu: min(c.cpu, o.cpu), rss: min(c.rss, o.rss)}
}

// measure runs the checker binary on args in dir once and returns its CPU
// time and peak memory. A checker's exit code 3 (findings) is not an error.
func measure(binary, dir string, args ...string) (cost, error) {
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
	run := cost{cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), rss: worst.rss}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		run.rss = ru.Maxrss * 1024
	}
	return run, nil
}

// tail returns the last lines of a command's output, for errors.
func tail(b []byte) []byte {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return b
}
