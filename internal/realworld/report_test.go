package realworld

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/realworld/expect"
)

func diag(file string, line int, category string) Diagnostic {
	return Diagnostic{Key: expect.Key{File: file, Line: line, Category: category}}
}

func result(t *testing.T, src string, diags ...Diagnostic) *Result {
	t.Helper()
	c, err := expect.Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	// The module's copy: a file of 100 lines for each per-item site.
	dir := t.TempDir()
	for _, p := range c.Modules[0].PerItem {
		if err := os.WriteFile(filepath.Join(dir, p.File), []byte(strings.Repeat("\n", 100)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := &Result{Module: c.Modules[0], Findings: diags}
	if err := compare(res, dir); err != nil {
		t.Fatal(err)
	}
	return res
}

// A per-item site is found when a finding of its file, line and category is
// reported; a missed one is listed but does not fail the module.
func TestPerItemRecall(t *testing.T) {
	res := result(t, `module example.com/h v1 heldout
packages ./...
finding a.go:10 concat-hash true per leaf
finding a.go:20 hasher-alloc false once per tree
per-item a.go:10 concat-hash per leaf
per-item a.go:30 sum-alloc per node
per-item a.go:20 concat-hash per node, not the false finding's category
`, diag("a.go", 10, "concat-hash"), diag("a.go", 20, "hasher-alloc"))
	if len(res.PerItemFound) != 1 || res.PerItemFound[0].Line != 10 {
		t.Errorf("found: %v", res.PerItemFound)
	}
	if len(res.PerItemMissed) != 2 || res.PerItemMissed[0].Line != 30 || res.PerItemMissed[1].Line != 20 {
		t.Errorf("missed: %v", res.PerItemMissed)
	}
	if res.Failed() {
		t.Errorf("missed per-item sites fail the module: %+v", res)
	}
	var buf bytes.Buffer
	WriteDetails(&buf, []*Result{res})
	for _, want := range []string{"per-item a.go:10 concat-hash: found\n", "per-item a.go:30 sum-alloc: missed\n", "per-item a.go:20 concat-hash: missed\n"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("details lack %q:\n%s", want, buf.String())
		}
	}

	// An unjudged finding still fails, per-item site or not.
	res = result(t, "module example.com/h v1 heldout\npackages ./...\nper-item a.go:10 concat-hash per leaf\n", diag("a.go", 10, "concat-hash"))
	if !res.Failed() || len(res.Unexpected) != 1 || len(res.PerItemFound) != 1 {
		t.Errorf("unjudged per-item finding: failed=%v %+v", res.Failed(), res)
	}
}

// The table has a total row for the held-out modules, one for the rest and
// one for all, each with its precision and audited recall.
func TestTableTotals(t *testing.T) {
	held := result(t, `module example.com/h v1 heldout
packages ./...
finding a.go:10 concat-hash true
finding a.go:20 hasher-alloc false
per-item a.go:10 concat-hash
per-item a.go:30 sum-alloc
`, diag("a.go", 10, "concat-hash"), diag("a.go", 20, "hasher-alloc"))
	rest := result(t, `module example.com/r v1
packages ./...
finding b.go:1 concat-hash true
finding b.go:2 concat-hash true
finding b.go:3 concat-hash true
per-item b.go:1 concat-hash
`, diag("b.go", 1, "concat-hash"), diag("b.go", 2, "concat-hash"), diag("b.go", 3, "concat-hash"))
	var buf bytes.Buffer
	WriteTable(&buf, []*Result{held, rest})
	rows := map[string][]string{}
	for _, line := range strings.Split(buf.String(), "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			rows[f[0]] = f
		}
	}
	for name, want := range map[string]string{
		"module":           "module findings true false neutral precision must-find per-item recall unexpected panics time peak mem",
		"example.com/h@v1": "example.com/h@v1 (held-out) 2 1 1 0 50.0% 0/0 1/2 50.0% 0 0",
		"held-out":         "held-out (1 modules) 2 1 1 0 50.0% 0/0 1/2 50.0% 0 0",
		"rest":             "rest (1 modules) 3 3 0 0 100.0% 0/0 1/1 100.0% 0 0",
		"total":            "total (2 modules) 5 4 1 0 80.0% 0/0 2/3 66.7% 0 0",
	} {
		if got := strings.Join(rows[name], " "); !strings.HasPrefix(got, want) {
			t.Errorf("row %s:\n got %s\nwant %s...", name, got, want)
		}
	}

	// Without held-out modules, the table has one total row, as before.
	buf.Reset()
	WriteTable(&buf, []*Result{rest})
	if strings.Contains(buf.String(), "held-out") || strings.Contains(buf.String(), "rest (") {
		t.Errorf("split totals without held-out modules:\n%s", buf.String())
	}
}

func TestTotalSplit(t *testing.T) {
	held := &Result{Module: &expect.Module{Heldout: true}, True: []*expect.Finding{{}}, False: []*expect.Finding{{}}, PerItemMissed: []*expect.Finding{{}}}
	rest := &Result{Module: &expect.Module{}, True: []*expect.Finding{{}}, PerItemFound: []*expect.Finding{{}}}
	h, r := TotalHeldout([]*Result{held, rest}, true), TotalHeldout([]*Result{held, rest}, false)
	if h.Modules != 1 || h.True != 1 || h.False != 1 || h.PerItem != 1 || h.PerItemFound != 0 || Recall(h.PerItemFound, h.PerItem) != 0 {
		t.Errorf("held-out: %+v", h)
	}
	if r.Modules != 1 || r.True != 1 || r.False != 0 || r.PerItem != 1 || Recall(r.PerItemFound, r.PerItem) != 1 {
		t.Errorf("rest: %+v", r)
	}
	if Recall(0, 0) != -1 {
		t.Error("recall of no site")
	}
}

// A per-item site must name a line of a file of the module's copy: a typo
// would otherwise count as a site missed forever.
func TestPerItemSiteExists(t *testing.T) {
	c, err := expect.Parse(strings.NewReader("module example.com/h v1 heldout\npackages ./...\nper-item a.go:2 concat-hash\nper-item a.go:3 concat-hash\nper-item b.go:1 concat-hash\n"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nvar x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := &Result{Module: c.Modules[0]}
	err = compare(res, dir)
	if err == nil || !strings.Contains(err.Error(), "per-item b.go:1 concat-hash: no such file in the module") {
		t.Errorf("error %v, want one for b.go", err)
	}
	c.Modules[0].PerItem = c.Modules[0].PerItem[:2]
	c.Modules[0].PerItem[1].Line = 4
	res = &Result{Module: c.Modules[0]}
	err = compare(res, dir)
	if err == nil || err.Error() != "per-item a.go:4 concat-hash: a.go has 3 lines" {
		t.Errorf("error %v, want one for line 4", err)
	}
}

// The audit of a run with -audit: the audit entries are apart from the
// findings, each per-item site says what became of it, and every site a
// check looked at is listed, reported with its verdict or silent with why.
func TestWriteAudit(t *testing.T) {
	audit := func(line int, msg string) Diagnostic {
		d := diag("a.go", line, "audit")
		d.Message = msg
		return d
	}
	findings, silent := splitAudit([]Diagnostic{
		diag("a.go", 10, "concat-hash"),
		audit(20, "audit: hasher-alloc: sha256.New() is silent: it stays on the stack"),
		audit(30, "audit: hmac-rekey: hmac.New(sha256.New, key) is silent: it runs once per call of New"),
	})
	if len(findings) != 1 || len(silent) != 2 || silent[0].Category != "hasher-alloc" || silent[0].Message != "sha256.New() is silent: it stays on the stack" {
		t.Fatalf("splitAudit: findings %v, audit %v", findings, silent)
	}
	res := result(t, `module example.com/h v1 heldout
packages ./...
finding a.go:10 concat-hash true per leaf
per-item a.go:10 concat-hash per leaf
per-item a.go:30 hmac-rekey per request
per-item a.go:40 sum-alloc per node
`, findings...)
	res.Audit = silent
	var buf bytes.Buffer
	WriteAudit(&buf, []*Result{res})
	want := `
== audit of example.com/h@v1: 1 reported, 2 silent, 0 census sites
per-item a.go:10 concat-hash: reported
per-item a.go:30 hmac-rekey: MISSED: hmac.New(sha256.New, key) is silent: it runs once per call of New
per-item a.go:40 sum-alloc: MISSED: no check looked at this line
a.go:10:0 concat-hash reported (true): 
a.go:20:0 hasher-alloc silent: sha256.New() is silent: it stays on the stack
a.go:30:0 hmac-rekey silent: hmac.New(sha256.New, key) is silent: it runs once per call of New
`
	if buf.String() != want {
		t.Errorf("WriteAudit:\n%s\nwant:\n%s", buf.String(), want)
	}
}
