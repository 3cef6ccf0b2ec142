package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/bench"
)

// fakeReport is a report of every kind at every size, with numbers that do
// not matter.
func fakeReport() bench.Report {
	report := bench.Report{Kinds: bench.Kinds}
	one := 1.0
	for _, k := range bench.Kinds {
		for _, size := range bench.Sizes {
			for _, code := range bench.Codes {
				report.Results = append(report.Results, bench.Result{
					Kind: k.Name, Size: size, Code: code, NsPerOp: 100, ChangeVsBefore: &one, RatioToFloor: &one,
				})
			}
		}
	}
	return report
}

// rewritesDoc is the page whose tables the command regenerates.
var rewritesDoc = filepath.Join("..", "..", "..", "docs", "rewrites.md")

func readDoc(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(rewritesDoc)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestTablesShape checks that the generated tables of docs/rewrites.md have
// the shape that go run ./bench/cmd/readme gives them today: the same
// columns, and the same rows (rewrite and size; example, benchmark and seed). The numbers are
// not checked: they are noisy, and regenerated on demand.
func TestTablesShape(t *testing.T) {
	text := readDoc(t)
	for _, tc := range []struct {
		section string
		want    string
		labels  int
	}{
		{rewritesSection, rewritesTable(fakeReport()), 3},
		{examplesSection, examplesTable(nil, seedFigures), 2},
	} {
		got, err := section(text, tc.section)
		if err != nil {
			t.Fatal(err)
		}
		gotHeader, gotRows := shape(got, tc.labels)
		wantHeader, wantRows := shape(tc.want, tc.labels)
		if !slices.Equal(gotHeader, wantHeader) {
			t.Errorf("%s, section %s: header\n%q\nwant\n%q\n(go run ./bench/cmd/readme regenerates it)", rewritesDoc, tc.section, gotHeader, wantHeader)
		}
		if !slices.EqualFunc(gotRows, wantRows, slices.Equal) {
			t.Errorf("%s, section %s: rows\n%q\nwant\n%q\n(go run ./bench/cmd/readme regenerates it)", rewritesDoc, tc.section, gotRows, wantRows)
		}
	}
	// The seeds' figures are copied, not measured: they must be the seeds'.
	got, _ := section(text, examplesSection)
	for _, e := range exampleBenches {
		if e.Seed == "" {
			continue
		}
		fig := seedFigures[e.Seed][e.SeedBench]
		if want := fig.Allocs[0] + " → " + fig.Allocs[1]; !strings.Contains(got, want) {
			t.Errorf("%s, section %s, lacks the seed %s %s figure %s", rewritesDoc, examplesSection, e.Seed, e.SeedBench, want)
		}
	}
}

// TestSeedFigures checks the command's copy of the seeds' figures against
// the seeds, when they are there: ../shared/seeds beside the repository, or
// $HASHALLOC_SEEDS.
func TestSeedFigures(t *testing.T) {
	dir := os.Getenv("HASHALLOC_SEEDS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "seeds")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no seeds: %v", err)
	}
	seeds, err := readSeeds(dir)
	if err != nil {
		t.Fatal(err)
	}
	for id, figs := range seedFigures {
		for name, want := range figs {
			if got := seeds[id][name]; got != want {
				t.Errorf("seed %s %s: the copy says %v, the seed %v", id, name, want, got)
			}
		}
	}
	for _, e := range exampleBenches {
		if _, ok := seedFigures[e.Seed][e.SeedBench]; e.Seed != "" && !ok {
			t.Errorf("example %s %s is compared with seed %s %s, which has no figures", e.Example, e.Bench, e.Seed, e.SeedBench)
		}
	}
}

// Every benchmark of the examples' table exists in examples/.
func TestExampleBenchesExist(t *testing.T) {
	for _, e := range exampleBenches {
		top, sub, _ := strings.Cut(e.Bench, "/")
		files, err := filepath.Glob(filepath.Join("..", "..", "..", "examples", e.Example, "*_test.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("examples/%s: no test files (%v)", e.Example, err)
		}
		found := false
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(src), "func Benchmark"+top+"(b *testing.B)") {
				found = true
			}
		}
		if !found {
			t.Errorf("examples/%s has no Benchmark%s", e.Example, top)
		}
		_ = sub // sub-benchmark names are checked when the generator runs them
	}
}

func TestParseBenchstat(t *testing.T) {
	out := `goos: linux
goarch: amd64
pkg: example.com/examples/examples/tokensigner
cpu: AMD EPYC
,naive,,fixed,,,
,sec/op,CI,sec/op,CI,vs base,P
HS/Verify-HS256-2,1.065e-06,5%,2.719e-07,3%,-74.47%,p=0.002 n=6
geomean,1.065e-06,,2.719e-07,,-74.47%,

,naive,,fixed,,,
,allocs/op,CI,allocs/op,CI,vs base,P
HS/Verify-HS256-2,6,0%,1,0%,-83.33%,p=0.002 n=6
geomean,6,,1,,-83.33%,

pkg: example.com/examples/examples/trie
,naive,,fixed,,,
,B/op,CI,B/op,CI,vs base,P
HashChangedNodes/key=48B/n=1000-2,11664,0%,11664,0%,~,p=1.000 n=6
geomean,11664,,11664,,+0.00%,
`
	stats, err := parseBenchstat([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]stat{
		"tokensigner/HS/Verify-HS256": {
			"sec/op":    {"1065 ns", "271.9 ns", "-74.47%"},
			"allocs/op": {"6", "1", "-83.33%"},
		},
		"trie/HashChangedNodes/key=48B/n=1000": {"B/op": {"11.4 KiB", "11.4 KiB", "~"}},
	}
	for key, units := range want {
		for unit, w := range units {
			if got := stats[key][unit]; got != w {
				t.Errorf("%s %s: %+v, want %+v", key, unit, got, w)
			}
		}
	}
	if s := stats["tokensigner/HS/Verify-HS256"]["sec/op"].String(); s != "1065 ns → 271.9 ns (-74.47%)" {
		t.Errorf("String() = %q", s)
	}
}

func TestReplaceSection(t *testing.T) {
	text := "a\n<!-- bench:x -->\nold\n<!-- /bench:x -->\nb\n"
	got, err := replaceSection(text, "bench:x", "new $1\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "a\n<!-- bench:x -->\nnew $1\n<!-- /bench:x -->\nb\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := replaceSection(text, "bench:y", ""); err == nil || !regexp.MustCompile(`no section`).MatchString(err.Error()) {
		t.Errorf("missing section: error %v", err)
	}
}
