//go:build unix

package realworld

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS returns the peak resident set size of a finished process and of
// the children it waited for, in bytes, where the system says.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes
	}
	return int64(ru.Maxrss) * 1024 // kilobytes
}
