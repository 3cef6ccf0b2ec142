package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashalloc/hashalloc/bench"
)

// The generated sections of docs/rewrites.md: each lies between a start and an end
// marker, which the generator keeps.
const (
	rewritesSection = "bench:rewrites"
	examplesSection = "bench:examples"
)

// An exampleBench is a row of the examples' table: a benchmark of an
// example, and the seed's benchmark it is compared with ("" for none).
type exampleBench struct {
	Example, Bench  string
	Seed, SeedBench string
}

// exampleBenches are the rows of the examples' table, in order.
var exampleBenches = []exampleBench{
	{"merkle", "HashAlternatives/recursive", "001", "HashAlternatives/recursive"},
	{"merkle", "HashAlternatives/iterative", "001", "HashAlternatives/iterative"},
	{"treehash", "RootOfReaders", "", ""},
	{"trie", "HashChangedNodes/key=32B/n=10", "002", "HashChangedNodes/10"},
	{"trie", "HashChangedNodes/key=32B/n=100", "002", "HashChangedNodes/100"},
	{"trie", "HashChangedNodes/key=32B/n=1000", "002", "HashChangedNodes/1000"},
	{"trie", "HashChangedNodes/key=48B/n=10", "002", "HashChangedNodes/10"},
	{"trie", "HashChangedNodes/key=48B/n=100", "002", "HashChangedNodes/100"},
	{"trie", "HashChangedNodes/key=48B/n=1000", "002", "HashChangedNodes/1000"},
	{"tokensigner", "HS/Sign-HS256", "003", "HS/Sign-HS256"},
	{"tokensigner", "HS/Verify-HS256", "003", "HS/Verify-HS256"},
	{"tokensigner", "SignVerify", "", ""},
}

// rewritesHeader is the header of the rewrites' table.
var rewritesHeader = []string{"rewrite", "size", "check", "before", "after", "floor", "after vs before", "after / floor", "allocs/op before → after"}

// rewritesTable renders hashalloc bench's report as the rewrites' table.
func rewritesTable(report bench.Report) string {
	var b strings.Builder
	row(&b, rewritesHeader)
	row(&b, dashes(len(rewritesHeader)))
	kinds := map[string]bench.Kind{}
	for _, k := range report.Kinds {
		kinds[k.Name] = k
	}
	type key struct {
		kind string
		size int
	}
	byKey := map[key]map[bench.Code]bench.Result{}
	var keys []key
	for _, r := range report.Results {
		k := key{r.Kind, r.Size}
		if byKey[k] == nil {
			byKey[k] = map[bench.Code]bench.Result{}
			keys = append(keys, k)
		}
		byKey[k][r.Code] = r
	}
	for _, k := range keys {
		rs, kind := byKey[k], kinds[k.kind]
		before, after, floor := rs[bench.Before], rs[bench.After], rs[bench.Floor]
		title := kind.Title
		if kind.ByHand {
			title += " (by hand)"
		}
		row(&b, []string{
			title, bench.FormatSize(k.size), kind.CheckName(),
			bench.FormatNs(before.NsPerOp), bench.FormatNs(after.NsPerOp), bench.FormatNs(floor.NsPerOp),
			bench.FormatChange(after.ChangeVsBefore), bench.FormatRatio(after.RatioToFloor),
			fmt.Sprintf("%d → %d", before.AllocsPerOp, after.AllocsPerOp),
		})
	}
	return b.String()
}

// examplesHeader is the header of the examples' table.
var examplesHeader = []string{"example", "benchmark", "time/op", "B/op", "allocs/op", "seed", "seed's time/op", "seed's B/op", "seed's allocs/op"}

// A stat is benchstat's comparison of one benchmark in one unit.
type stat struct {
	Base, New string // the medians, formatted
	Delta     string // "-25.31%" or "~"
}

func (s stat) String() string {
	if s.Base == "" {
		return "?"
	}
	delta := ""
	if s.Delta != "" {
		delta = " (" + s.Delta + ")"
	}
	return s.Base + " → " + s.New + delta
}

// examplesTable renders the examples' benchstat comparison, by example and
// benchmark and then unit ("sec/op", "B/op", "allocs/op"), next to the seeds'
// figures.
func examplesTable(stats map[string]map[string]stat, seeds map[string]map[string]figure) string {
	var b strings.Builder
	row(&b, examplesHeader)
	row(&b, dashes(len(examplesHeader)))
	for _, e := range exampleBenches {
		s := stats[e.Example+"/"+e.Bench]
		cells := []string{e.Example, e.Bench, s["sec/op"].String(), s["B/op"].String(), s["allocs/op"].String()}
		fig, ok := seeds[e.Seed][e.SeedBench]
		if e.Seed == "" || !ok {
			cells = append(cells, "—", "", "", "")
		} else {
			cells = append(cells, e.Seed+" "+e.SeedBench,
				fig.Time[0]+" → "+fig.Time[1], fig.Bytes[0]+" → "+fig.Bytes[1], fig.Allocs[0]+" → "+fig.Allocs[1])
		}
		row(&b, cells)
	}
	return b.String()
}

func row(b *strings.Builder, cells []string) {
	b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
}

func dashes(n int) []string {
	d := make([]string, n)
	for i := range d {
		d[i] = "---"
	}
	return d
}

// shape returns the header of the first Markdown table in text and the
// first labels cells of each of its rows: what the generator decides, not
// what was measured.
func shape(text string, labels int) (header []string, rows [][]string) {
	lines := strings.Split(text, "\n")
	start := -1
	for i, line := range lines {
		if strings.HasPrefix(line, "|") {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, nil
	}
	header = cells(lines[start])
	for _, line := range lines[start+2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		c := cells(line)
		rows = append(rows, c[:min(labels, len(c))])
	}
	return header, rows
}

func cells(line string) []string {
	parts := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// section returns the text between a section's markers in doc.
func section(doc, name string) (string, error) {
	re := sectionRegexp(name)
	m := re.FindStringSubmatch(doc)
	if m == nil {
		return "", fmt.Errorf("no section <!-- %s --> ... <!-- /%s -->", name, name)
	}
	return m[1], nil
}

// replaceSection replaces the text between a section's markers.
func replaceSection(doc, name, text string) (string, error) {
	if _, err := section(doc, name); err != nil {
		return "", err
	}
	re := sectionRegexp(name)
	return re.ReplaceAllLiteralString(doc, "<!-- "+name+" -->\n"+text+"<!-- /"+name+" -->"), nil
}

func sectionRegexp(name string) *regexp.Regexp {
	q := regexp.QuoteMeta(name)
	return regexp.MustCompile(`(?s)<!-- ` + q + ` -->\n(.*?)<!-- /` + q + ` -->`)
}
