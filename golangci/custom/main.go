// Command custom-gcl is golangci-lint v2 with the hashalloc module plugin
// compiled in: the binary that `golangci-lint custom` would build from
// .custom-gcl.yml, built here with nothing but the Go module proxy:
//
//	cd golangci/custom && go build -o custom-gcl .
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/hashalloc/hashalloc/golangci" // registers the hashalloc plugin
)

func main() {
	info := commands.BuildInfo{Version: "v2.15.0-hashalloc", Commit: "?", Date: "(unknown)", GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
	}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
