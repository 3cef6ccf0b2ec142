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
	"strings"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/hashalloc/hashalloc/golangci" // registers the hashalloc plugin
)

func main() {
	if err := commands.Execute(buildInfo(debug.ReadBuildInfo())); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

// buildInfo is what --version says of the binary, from its build
// information:
//
//	golangci-lint has version (devel) built with go1.26.8 from golangci-lint
//	v2.15.0 with the hashalloc plugin (devel, commit 6ef873dc6f5d) on
//	2026-12-03T14:35:34Z
//
// The commit and its date are the repository's when the build stamped them
// (VCS stamping, the go command's default in a clone).
func buildInfo(bi *debug.BuildInfo, ok bool) commands.BuildInfo {
	info := commands.BuildInfo{Version: version(bi, ok), GoVersion: "an unknown Go", Commit: "an unknown build", Date: "an unknown date"}
	if !ok {
		return info
	}
	info.GoVersion = bi.GoVersion
	linter, plugin := "", "(devel)"
	for _, dep := range bi.Deps {
		if dep.Replace != nil {
			dep = dep.Replace
		}
		switch dep.Path {
		case golangciModule:
			linter = dep.Version
		case hashallocModule:
			if dep.Version != "" && dep.Version != "v0.0.0" {
				plugin = dep.Version
			}
		}
	}
	var commit, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.time":
			info.Date = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if commit != "" {
		plugin = strings.TrimSuffix(plugin, ")") + ", commit " + commit[:min(12, len(commit))]
		if modified == "true" {
			plugin += " with local changes"
		}
		if !strings.HasPrefix(plugin, "(") {
			plugin = "(" + plugin
		}
		plugin += ")"
	} else if !strings.HasPrefix(plugin, "(") {
		plugin = "(" + plugin + ")"
	}
	info.Commit = "golangci-lint " + linter + " with the hashalloc plugin " + plugin
	return info
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

// The modules of the plugin and of golangci-lint.
const (
	hashallocModule = "github.com/hashalloc/hashalloc"
	golangciModule  = "github.com/golangci/golangci-lint/v2"
)
