package driver

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer"
)

// isProtocol reports whether args are a call of the go vet / go fix
// protocol: -flags (which flags go vet may pass), -V=full (the tool's build
// ID), or flags and a single *.cfg file (one package to analyze).
func isProtocol(args []string) bool {
	if slices.ContainsFunc(args, func(a string) bool { return a == "-flags" || a == "--flags" }) {
		return true
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") && !strings.HasPrefix(args[len(args)-1], "-")
}

// protocolFlags returns a flag set with the flags that singlechecker accepts
// under go vet: the analyzer's, bound to it, and the driver's, bound to
// nothing (singlechecker parses them again).
func protocolFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("hashalloc", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	analyzer.Analyzer.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) })
	for _, name := range []string{"json", "fix", "diff", "flags", "source", "v", "all", "test"} {
		fs.Bool(name, false, "")
	}
	fs.Int("c", -1, "")
	for _, name := range []string{"tags", "debug", "cpuprofile", "memprofile", "trace", "V"} {
		fs.String(name, "", "")
	}
	return fs
}

// checkVetFlags parses the flags of a go vet or go fix call of one package.
// go vet passes the same flags for every package, its dependencies
// included: a bad one would be printed once per package, a hundred times.
// So only the first call of a run prints the error and fails; the others
// succeed silently. The calls of one run share go's $WORK directory, where
// the first one leaves a mark. It returns the exit code, and false when the
// flags are good.
func checkVetFlags(args []string, stderr io.Writer) (int, bool) {
	err := protocolFlags().Parse(args)
	if err == nil {
		return 0, false
	}
	var cfg struct {
		VetxOnly   bool
		VetxOutput string
	}
	if data, rerr := os.ReadFile(args[len(args)-1]); rerr == nil {
		_ = json.Unmarshal(data, &cfg)
	}
	if cfg.VetxOnly {
		return 0, true // a dependency, analyzed for facts: the run fails at the packages named
	}
	if cfg.VetxOutput != "" {
		work := filepath.Dir(filepath.Dir(cfg.VetxOutput))
		f, merr := os.OpenFile(filepath.Join(work, "hashalloc-bad-flag"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if errors.Is(merr, os.ErrExist) {
			return 0, true // printed by another package's call
		}
		if f != nil {
			f.Close()
		}
	}
	fmt.Fprintf(stderr, "hashalloc: %s\nRun hashalloc -help for the flags.\n", flagError(err))
	return 2, true
}
