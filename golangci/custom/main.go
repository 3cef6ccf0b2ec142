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
	info := commands.BuildInfo{Version: version(debug.ReadBuildInfo()), Commit: "?", Date: "(unknown)", GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
	}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

// version is the binary's version, which golangci-lint's cache keys
// include: golangci-lint's, hashalloc's and the Go toolchain's, as
// v2.15.0-hashalloc.v0.1.0.go1.26.8, when hashalloc's module has a version;
// otherwise "(devel)", for which golangci-lint keys its cache on the
// executable's content. Either way a new build of hashalloc does not read
// what another build cached.
func version(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return "(devel)"
	}
	for _, dep := range bi.Deps {
		if dep.Path != hashallocModule {
			continue
		}
		if dep.Replace != nil {
			dep = dep.Replace
		}
		if dep.Version == "" || dep.Version == "(devel)" || dep.Version == "v0.0.0" {
			return "(devel)"
		}
		return "v2.15.0-hashalloc." + dep.Version + "." + bi.GoVersion
	}
	return "(devel)"
}

// hashallocModule is the module of the plugin.
const hashallocModule = "github.com/hashalloc/hashalloc"
