package bench

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"regexp"
	"strings"
	"testing"
)

// BenchmarkRewrites runs every kind's three versions at every size, under
// go test -bench: go test -run '^$' -bench Rewrites -benchmem ./bench, then
// benchstat -col /code to compare them.
func BenchmarkRewrites(b *testing.B) {
	for _, k := range Kinds {
		for _, size := range Sizes {
			fns := k.Benchmarks(size)
			for i, code := range Codes {
				b.Run(Name(k.Name, size, code), func(b *testing.B) {
					b.ReportAllocs()
					fns[i](b)
				})
			}
		}
	}
}

// The three versions of every kind compute the same thing.
func TestOutputsAgree(t *testing.T) {
	for _, k := range Kinds {
		for _, size := range Sizes {
			out := k.Outputs(size)
			if len(out[0]) == 0 {
				t.Errorf("%s at %d bytes: empty output", k.Name, size)
			}
			for i, code := range Codes[1:] {
				if !bytes.Equal(out[0], out[i+1]) {
					t.Errorf("%s at %d bytes: %s gives %x, before gives %x", k.Name, size, code, out[i+1], out[0])
				}
			}
		}
	}
}

// Every before allocates, as the code it stands for does; no after and no
// floor does (2000 operations amortize the pools filling up), but for what
// a kind's after is said to keep (AfterAllocs), which must be less than
// before.
func TestAllocations(t *testing.T) {
	results, err := Run(Options{Count: 1, BenchTime: "2000x"})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(Kinds) * len(Sizes) * len(Codes); len(results) != want {
		t.Fatalf("%d results, want %d", len(results), want)
	}
	// The sinks hold what the last benchmarks computed: the work was done.
	if want := sha256.Sum256(message(Sizes[len(Sizes)-1])); sinkSum != want {
		t.Errorf("the multi-part sums left %x, want %x", sinkSum, want)
	}
	if first := sha256.Sum256(message(Sizes[len(Sizes)-1])); sinkDouble != sha256.Sum256(first[:]) {
		t.Errorf("the double sums left %x, want the double sum of the message", sinkDouble)
	}
	if want := truncatedFloor(message(Sizes[len(Sizes)-1])); sinkTruncated != want {
		t.Errorf("the truncated sums left %x, want %x", sinkTruncated, want)
	}
	if want := locationFloor(message(Sizes[len(Sizes)-1])); sinkUint != want {
		t.Errorf("the field sums left the location %#x, want %#x", sinkUint, want)
	}
	if sinkInt != 2000 {
		t.Errorf("the last stack sum benchmark found %d matches in 2000 operations", sinkInt)
	}
	kept := map[string]int64{}
	for _, k := range Kinds {
		kept[k.Name] = k.AfterAllocs
	}
	for _, r := range results {
		name := Name(r.Kind, r.Size, r.Code)
		switch {
		case r.Code == Before && r.AllocsPerOp < 1:
			t.Errorf("%s: %d allocs/op, want at least 1", name, r.AllocsPerOp)
		case r.Code == After && kept[r.Kind] > 0:
			if r.AllocsPerOp != kept[r.Kind] {
				t.Errorf("%s: %d allocs/op, want %d", name, r.AllocsPerOp, kept[r.Kind])
			}
		case r.Code != Before && (r.AllocsPerOp != 0 || r.BytesPerOp != 0):
			if r.AllocsPerOp == 0 && cleanAgain(t, name) {
				continue
			}
			t.Errorf("%s: %d allocs/op, %d B/op, want none", name, r.AllocsPerOp, r.BytesPerOp)
		}
		if r.NsPerOp <= 0 || len(r.Runs) != 1 {
			t.Errorf("%s: %v ns/op over runs %v", name, r.NsPerOp, r.Runs)
		}
	}
}

// cleanAgain runs the benchmark name again, up to three times, and reports
// whether a run allocates nothing. A few bytes per operation and no
// allocation per operation are one allocation somewhere in the process
// during the 2000 operations (the runtime's, the testing package's, another
// test's): code that allocates does it in every run.
func cleanAgain(t *testing.T, name string) bool {
	t.Helper()
	for range 3 {
		results, err := Run(Options{Count: 1, BenchTime: "2000x", Run: regexp.MustCompile("^" + regexp.QuoteMeta(name) + "$")})
		if err != nil {
			t.Fatal(err)
		}
		if len(results) == 1 && results[0].AllocsPerOp == 0 && results[0].BytesPerOp == 0 {
			t.Logf("%s: allocated in one run, not in the next", name)
			return true
		}
	}
	return false
}

func TestRunRestoresBenchTime(t *testing.T) {
	testing.Init()
	before := flag.Lookup("test.benchtime").Value.String()
	if _, err := Run(Options{Run: regexp.MustCompile(`^stack-sum/size=32/`), BenchTime: "10x"}); err != nil {
		t.Fatal(err)
	}
	if after := flag.Lookup("test.benchtime").Value.String(); after != before {
		t.Errorf("-test.benchtime is %s after Run, was %s", after, before)
	}
}

func TestMainJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"-json", "-run", `^(multipart-sum|hmac-oneshot)/size=64/`, "-count", "3", "-benchtime", "20x"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit code %d\n%s", code, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
	var report Report
	dec := json.NewDecoder(&stdout)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&report); err != nil {
		t.Fatal(err)
	}
	if report.Count != 3 || report.BenchTime != "20x" || report.Machine.Go == "" || report.Seconds <= 0 {
		t.Errorf("report header: %+v", report)
	}
	var kinds []string
	for _, k := range report.Kinds {
		kinds = append(kinds, k.Name)
		if k.Title == "" || k.Before == "" || k.After == "" || k.Floor == "" || k.Op == "" {
			t.Errorf("kind %s lacks a description: %+v", k.Name, k)
		}
	}
	if got := strings.Join(kinds, " "); got != "hmac-oneshot multipart-sum" {
		t.Errorf("kinds %s, want hmac-oneshot multipart-sum", got)
	}
	var names []string
	for _, r := range report.Results {
		names = append(names, Name(r.Kind, r.Size, r.Code))
		if len(r.Runs) != 3 {
			t.Errorf("%s: %d runs, want 3", r.Kind, len(r.Runs))
		}
		if (r.Code == Before) != (r.ChangeVsBefore == nil) || r.RatioToFloor == nil {
			t.Errorf("%s/%s: change %v, ratio %v", r.Kind, r.Code, r.ChangeVsBefore, r.RatioToFloor)
		}
		if r.Code == Floor && *r.RatioToFloor != 1 {
			t.Errorf("%s: floor's ratio to itself %v", r.Kind, *r.RatioToFloor)
		}
	}
	want := "hmac-oneshot/size=64/code=before hmac-oneshot/size=64/code=after hmac-oneshot/size=64/code=floor " +
		"multipart-sum/size=64/code=before multipart-sum/size=64/code=after multipart-sum/size=64/code=floor"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("results\n%s\nwant\n%s", got, want)
	}
}

func TestMainTable(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"-run", `^hmac-pool/size=1024/`, "-count", "2", "-benchtime", "20x"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit code %d\n%s", code, stderr.String())
	}
	lines := strings.Split(stdout.String(), "\n")
	if !strings.HasPrefix(lines[0], "hashalloc bench: go") || !strings.Contains(lines[1], "the median of 2 runs of 20x") {
		t.Errorf("header:\n%s", stdout.String())
	}
	if got := strings.Fields(lines[3]); strings.Join(got, " ") != strings.Join(TableHeader, " ") {
		t.Errorf("table header %q, want %q", got, TableHeader)
	}
	row := regexp.MustCompile(`^(keyed MAC pool  hmac-rekey|\s+)\s+1 KiB\s+(before|after|floor)\s+[0-9.]+ (ns|µs)\s+\d+%\s+\d+\s+\d+\s+([+-][0-9.]+%)?\s*[0-9.]+x$`)
	for i, code := range []string{"before", "after", "floor"} {
		line := lines[4+i]
		if m := row.FindStringSubmatch(line); m == nil || m[2] != code {
			t.Errorf("row %d: %q, want the %s row", i, line, code)
		}
	}
	if lines[7] != "" || !strings.HasPrefix(lines[8], "keyed MAC pool (hmac-rekey), per op: ") {
		t.Errorf("notes:\n%s", strings.Join(lines[7:], "\n"))
	}
}

func TestMainBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-count", "0"}, "-count 0"},
		{[]string{"-run", "("}, "-run: error parsing regexp"},
		{[]string{"-run", "no such benchmark"}, "no benchmark matches -run"},
		{[]string{"-benchtime", "soon"}, `-benchtime "soon"`},
		{[]string{"-sizes", "32,4"}, `-sizes: "4"`},
		{[]string{"-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"./..."}, `unexpected argument "./..."`},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(tc.args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit code %d, want 2", tc.args, code)
		}
		if !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: stderr %q, want %q", tc.args, stderr.String(), tc.want)
		}
		if stdout.Len() != 0 {
			t.Errorf("%q: stdout %q", tc.args, stdout.String())
		}
	}
}

// TestRunMatchesTitle checks that -run takes a kind's title as the table
// prints it, as well as its name.
func TestRunMatchesTitle(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"-json", "-run", "keyed MAC pool$", "-count", "1", "-benchtime", "1x", "-sizes", "32"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit code %d\n%s", code, stderr.String())
	}
	var report Report
	if err := json.NewDecoder(&stdout).Decode(&report); err != nil {
		t.Fatal(err)
	}
	if len(report.Kinds) != 1 || report.Kinds[0].Name != "hmac-pool" || len(report.Results) != 3 {
		t.Errorf("-run 'keyed MAC pool$' selected %+v, %d results; want the keyed MAC pool's 3", report.Kinds, len(report.Results))
	}
}
