package driver

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/hashalloc/hashalloc/internal/resultcache"
)

// moduleVersion is the version of the hashalloc module the binary was built
// from: v1.2.3 when installed with go install ...@v1.2.3, a pseudo-version
// when built in a clone with VCS stamping, "devel" otherwise.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// printVersion prints the version for -V, and for -V=full the line go vet
// and go fix read to tell one build of the tool from another:
//
//	hashalloc version v1.2.3 go1.26.8 buildID=<sha256 of the executable>
//
// The go command keys its cache of vet results on the build ID (for a
// "devel" version) or on the whole line, so both change with the binary.
func printVersion(w io.Writer, full bool) error {
	line := fmt.Sprintf("hashalloc version %s %s", moduleVersion(), runtime.Version())
	if full {
		id, err := resultcache.BuildID()
		if err != nil {
			return err
		}
		line += " buildID=" + id
	}
	_, err := fmt.Fprintln(w, line)
	return err
}
