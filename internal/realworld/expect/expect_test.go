package expect

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	src := `# comment
module example.com/m v1.2.3 fast
packages ./a/... ./b
finding a/x.go:12 concat-hash true  allocates per leaf
	in the loop at y.go:3
finding a/x.go:40 hasher-alloc unjudged
must-find a/x.go:12 concat-hash the leaf
must-stay-silent a/x.go:leafHashOpt reuses its hasher
must-stay-silent a/y.go:7-9
module example.com/n v0.1.0
packages ./...
profile workload.go
tests ^TestEncrypted
`
	c, err := Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Modules) != 2 {
		t.Fatalf("%d modules, want 2", len(c.Modules))
	}
	m := c.Modules[0]
	if m.Name() != "example.com/m@v1.2.3" || !m.Fast || len(m.Packages) != 2 || c.Modules[1].Fast || m.Profile != "" || c.Modules[1].Profile != "workload.go" || m.Tests != "" || c.Modules[1].Tests != "^TestEncrypted" {
		t.Errorf("module: %+v", m)
	}
	f := m.Findings[0]
	if f.Key != (Key{"a/x.go", 12, "concat-hash"}) || f.Verdict != True || f.Reason != "allocates per leaf in the loop at y.go:3" {
		t.Errorf("finding: %+v", f)
	}
	if m.Findings[1].Verdict != Unjudged || m.MustFind[0].Reason != "the leaf" {
		t.Errorf("entries: %+v %+v", m.Findings[1], m.MustFind[0])
	}
	if s := m.MustSilent[0]; s.Func != "leafHashOpt" || s.Where() != "a/x.go:leafHashOpt" {
		t.Errorf("silent: %+v", s)
	}
	if s := m.MustSilent[1]; s.From != 7 || s.To != 9 || s.Where() != "a/y.go:7-9" {
		t.Errorf("silent: %+v", s)
	}

	// A finding printed by Format reads back the same.
	var buf bytes.Buffer
	f.Format(&buf)
	c2, err := Parse(strings.NewReader("module m v1\npackages ./...\n" + buf.String()))
	if err != nil || *c2.Modules[0].Findings[0] != *f {
		t.Errorf("round trip: %v %+v", err, c2)
	}
}

func TestParseErrors(t *testing.T) {
	for src, want := range map[string]string{
		"finding a.go:1 x true":                                                  "1: finding before the first module line",
		"module m v1\nfinding a.go x true":                                       `2: "a.go" is not FILE:LINE`,
		"module m v1\npackages .\nfinding a.go:1 x maybe":                        `3: verdict "maybe" is not true, false, neutral or unjudged`,
		"module m v1\npackages .\nfinding a.go:1 x true\nfinding a.go:1 x false": "4: a.go:1 x judged twice",
		"module m v1":                                                             "1: module m@v1 has no packages line",
		"module m v1 slow\npackages .":                                            "1: want: module PATH VERSION [fast] [heldout]",
		"module m v1 fast fast\npackages .":                                       "1: want: module PATH VERSION [fast] [heldout]",
		"module m v1\npackages .\nper-item a.go x":                                `3: "a.go" is not FILE:LINE`,
		"module m v1\npackages .\nper-item a.go:1":                                "3: want: per-item FILE:LINE CATEGORY [REASON]",
		"module m v1\npackages .\nper-item a.go:1 x\nper-item a.go:1 x":           "4: per-item a.go:1 x listed twice",
		"module m v1\npackages .\nper-item a.go:1 x r\nfinding a.go:1 x false no": "3: per-item a.go:1 x is judged false: a per-item site is one whose finding would be judged true",
		"module m v1\npackages .\n\tmore":                                         "3: continuation line without an entry above",
		"module m v1\npackages .\nprofile x/w.go":                                 "3: want: profile PROGRAM.go",
		"module m v1\npackages .\nprofile w.go\nprofile v.go":                     "4: module m@v1 has two profile lines",
		"module m v1\npackages .\ntests a b":                                      "3: want: tests REGEXP",
		"module m v1\npackages .\ntests (":                                        "3: tests: error parsing regexp: missing closing ): `(`",
	} {
		if _, err := Parse(strings.NewReader(src)); err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %s", src, err, want)
		}
	}
}

func TestParseCaseEntries(t *testing.T) {
	src := `module example.com/m v1.0.0
packages ./...
flags -sums=example.com/simd.Sum256=sha256
flags -tests
nosumdb
replica m-hash-abc123.go merkle/hash.go
benchfile seed_test.go merkle
bench ./merkle ^BenchmarkHash
bench . ^BenchmarkNewTreeSmall$ 1x
target Hash/recursive allocs<=199 the PR's figure
	(497 before)
target Hash/recursive bytes<=6400
target NewTreeSmall allocs<=16800000
module example.com/m v1.0.0
packages ./...
`
	c, err := Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	m := c.Modules[0]
	if got := strings.Join(m.Flags, " "); got != "-sums=example.com/simd.Sum256=sha256 -tests" {
		t.Errorf("flags: %s", got)
	}
	if !m.NoSumDB || c.Modules[1].NoSumDB {
		t.Errorf("nosumdb: %v %v", m.NoSumDB, c.Modules[1].NoSumDB)
	}
	if len(m.Replicas) != 1 || *m.Replicas[0] != (Replica{"m-hash-abc123.go", "merkle/hash.go"}) {
		t.Errorf("replicas: %+v", m.Replicas)
	}
	// The replica names the module apart from the same version listed as it is.
	if m.Name() != "example.com/m@v1.0.0+m-hash-abc123" || m.Query() != "example.com/m@v1.0.0" || c.Modules[1].Name() != "example.com/m@v1.0.0" {
		t.Errorf("names: %s %s %s", m.Name(), m.Query(), c.Modules[1].Name())
	}
	if len(m.BenchFiles) != 1 || *m.BenchFiles[0] != (BenchFile{"seed_test.go", "merkle"}) {
		t.Errorf("benchfiles: %+v", m.BenchFiles)
	}
	if len(m.Benches) != 2 || *m.Benches[0] != (Bench{"./merkle", "^BenchmarkHash", DefaultBenchtime}) || m.Benches[1].Benchtime != "1x" {
		t.Errorf("benches: %+v", m.Benches)
	}
	want := []Target{
		{"Hash/recursive", Allocs, 199, "the PR's figure (497 before)"},
		{"Hash/recursive", Bytes, 6400, ""},
		{"NewTreeSmall", Allocs, 16800000, ""},
	}
	if len(m.Targets) != len(want) {
		t.Fatalf("targets: %+v", m.Targets)
	}
	for i, w := range want {
		if *m.Targets[i] != w {
			t.Errorf("target %d: %+v, want %+v", i, *m.Targets[i], w)
		}
	}
	if s := m.Targets[0].String(); s != "Hash/recursive allocs<=199" {
		t.Errorf("target string: %s", s)
	}
}

func TestParseCaseEntryErrors(t *testing.T) {
	const head = "module m v1\npackages .\n"
	for src, want := range map[string]string{
		head + "flags":                                                 "3: want: flags FLAG [FLAG...]",
		head + "flags sums=x":                                          `3: flags: "sums=x" is not a flag`,
		head + "nosumdb yes":                                           "3: want: nosumdb",
		head + "replica x.go":                                          "3: want: replica REPLICA.go FILE.go",
		head + "replica a/x.go f.go":                                   "3: want: replica REPLICA.go FILE.go",
		head + "replica x.go ../f.go":                                  "3: want: replica REPLICA.go FILE.go",
		head + "replica x.go dir":                                      "3: want: replica REPLICA.go FILE.go",
		head + "benchfile x.go dir":                                    "3: want: benchfile BENCH_test.go DIR",
		head + "benchfile x_test.go /abs":                              "3: want: benchfile BENCH_test.go DIR",
		head + "bench pkg .":                                           "3: want: bench PKG REGEXP [BENCHTIME]",
		head + "bench ./pkg (":                                         "3: bench: error parsing regexp: missing closing ): `(`",
		head + "bench ./pkg . 0x":                                      `3: bench: benchtime "0x" is not Nx or a duration`,
		head + "bench ./pkg . soon":                                    `3: bench: benchtime "soon" is not Nx or a duration`,
		head + "bench ./pkg .\ntarget X":                               "4: want: target NAME METRIC<=N [REASON]",
		head + "bench ./pkg .\ntarget X ns<=5":                         `4: target: "ns<=5" is not allocs<=N or bytes<=N`,
		head + "bench ./pkg .\ntarget X allocs<5":                      `4: target: "allocs<5" is not allocs<=N or bytes<=N`,
		head + "bench ./pkg .\ntarget BenchmarkX allocs<=5":            "4: target: name BenchmarkX without the Benchmark prefix",
		head + "bench ./pkg .\ntarget X allocs<=5\ntarget X allocs<=4": "5: target: X allocs given twice",
		head + "target X allocs<=5":                                    "1: module m@v1 has targets but no bench line",
		head + "module m v1\npackages .":                               "3: module m@v1 listed twice",
	} {
		if _, err := Parse(strings.NewReader(src)); err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %s", src, err, want)
		}
	}
}

// The checked-in expectations files parse, together: no module is listed
// in two of them.
func TestExpectationsFile(t *testing.T) {
	files, err := Files("..")
	if err != nil || len(files) == 0 {
		t.Skip("no expectations files", err)
	}
	c, err := ReadFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Modules) == 0 {
		t.Fatal("no modules")
	}
	for _, m := range c.Modules {
		for _, r := range m.Replicas {
			if _, err := os.Stat("../testdata/replicas/" + r.File); err != nil {
				t.Errorf("module %s: %v", m.Name(), err)
			}
		}
		for _, b := range m.BenchFiles {
			if _, err := os.Stat("../testdata/bench/" + b.File); err != nil {
				t.Errorf("module %s: %v", m.Name(), err)
			}
		}
		if m.Profile == "" {
			continue
		}
		src, err := os.ReadFile("../profiles/" + m.Profile)
		if err != nil {
			t.Errorf("module %s: %v", m.Name(), err)
		} else if !strings.HasPrefix(string(src), "//go:build ignore\n") {
			t.Errorf("module %s: %s does not start with //go:build ignore (it would be built with hashalloc)", m.Name(), m.Profile)
		}
	}
}

func TestParseHeldoutAndPerItem(t *testing.T) {
	src := `module example.com/m v1.2.3 heldout
packages ./...
finding a/x.go:12 concat-hash true per leaf
per-item a/x.go:12 concat-hash one allocation per leaf,
	measured
per-item a/y.go:30 hasher-alloc
module example.com/n v0.1.0 fast heldout
packages ./...
module example.com/o v0.1.0 heldout fast
packages ./...
module example.com/p v0.1.0
packages ./...
`
	c, err := Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range c.Modules {
		got = append(got, fmt.Sprintf("%s fast=%v heldout=%v", m.Path, m.Fast, m.Heldout))
	}
	want := []string{"example.com/m fast=false heldout=true", "example.com/n fast=true heldout=true", "example.com/o fast=true heldout=true", "example.com/p fast=false heldout=false"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("modules:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	m := c.Modules[0]
	if len(m.PerItem) != 2 {
		t.Fatalf("%d per-item sites, want 2", len(m.PerItem))
	}
	if p := m.PerItem[0]; p.Key != (Key{"a/x.go", 12, "concat-hash"}) || p.Reason != "one allocation per leaf, measured" {
		t.Errorf("per-item: %+v", p)
	}
	if p := m.PerItem[1]; p.Key != (Key{"a/y.go", 30, "hasher-alloc"}) || p.Reason != "" {
		t.Errorf("per-item: %+v", p)
	}
}

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	dup := filepath.Join(dir, "dup.txt")
	for path, src := range map[string]string{
		a:   "module example.com/m v1\npackages ./...\n",
		b:   "module example.com/n v1 heldout\npackages ./...\n",
		dup: "# again\nmodule example.com/m v1\npackages .\n",
	} {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Files(dir)
	if err != nil || strings.Join(files, " ") != strings.Join([]string{a, b, dup}, " ") {
		t.Errorf("Files: %v %v", files, err)
	}
	c, err := ReadFiles([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Modules) != 2 || c.Modules[0].Path != "example.com/m" || c.Modules[1].Path != "example.com/n" || !c.Modules[1].Heldout {
		t.Errorf("modules: %+v %+v", c.Modules[0], c.Modules[1])
	}
	if c.Modules[1].File != b {
		t.Errorf("module n read from %q, want %q", c.Modules[1].File, b)
	}
	_, err = ReadFiles([]string{a, dup})
	if want := dup + ":2: module example.com/m@v1 listed twice (also at " + a + ":1)"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
