package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestBuildInfo checks what --version says, from the build information of
// a stamped build, of one from a tagged plugin, and of an unstamped one.
func TestBuildInfo(t *testing.T) {
	deps := []*debug.Module{
		{Path: golangciModule, Version: "v2.15.0"},
		{Path: hashallocModule, Version: "v0.0.0", Replace: &debug.Module{Path: "../..", Version: ""}},
	}
	stamped := &debug.BuildInfo{GoVersion: "go1.26.8", Deps: deps, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "6ef873dc6f5d0123456789abcdef0123456789ab"},
		{Key: "vcs.time", Value: "2026-12-03T14:35:34Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	tagged := &debug.BuildInfo{GoVersion: "go1.26.8", Deps: []*debug.Module{deps[0], {Path: hashallocModule, Version: "v0.1.0"}}}
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{"stamped clone", stamped, true, "golangci-lint has version (devel) built with go1.26.8 from golangci-lint v2.15.0 with the hashalloc plugin (devel, commit 6ef873dc6f5d with local changes) on 2026-12-03T14:35:34Z"},
		{"tagged plugin", tagged, true, "golangci-lint has version v2.15.0-hashalloc.v0.1.0.go1.26.8 built with go1.26.8 from golangci-lint v2.15.0 with the hashalloc plugin (v0.1.0) on an unknown date"},
		{"no build information", nil, false, "golangci-lint has version (devel) built with an unknown Go from an unknown build on an unknown date"},
	} {
		got := buildInfo(tc.bi, tc.ok).String()
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
		if strings.Contains(got, " ? ") || strings.Contains(got, "(unknown)") {
			t.Errorf("%s: %s", tc.name, got)
		}
	}
}

// TestVersionLine checks the built binary's --version.
func TestVersionLine(t *testing.T) {
	out, code := run(t, t.TempDir(), "", "--version")
	if code != 0 {
		t.Fatalf("exit code %d\n%s", code, out)
	}
	if !strings.Contains(out, " from golangci-lint v2.15.0 with the hashalloc plugin (") || strings.Contains(out, "from ?") || strings.Contains(out, "(unknown)") {
		t.Errorf("--version: %s", out)
	}
}
