package realworld

import (
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/internal/realworld/expect"
)

const replicaTarget = `package merkle

import (
	"crypto/sha256"
	"sync"
)

var pool sync.Pool

// leafHash returns sha256(0x00 || leaf), pooled.
func leafHash(leaf []byte) []byte {
	return pooled(0, leaf)
}

func pooled(p byte, b []byte) []byte { return nil }

// Sum is a method.
func (t *Tree) Sum() []byte { return nil }

func keep() {}
`

func TestApplyReplica(t *testing.T) {
	replica := `// The functions before the pull request.
package merkle

import "crypto/sha256"

// leafHash returns sha256(0x00 || leaf)
func leafHash(leaf []byte) []byte {
	h := sha256.Sum256(append([]byte{0}, leaf...))
	return h[:]
}

func (t *Tree) Sum() []byte {
	return t.root
}
`
	out, err := applyReplica([]byte(replica), []byte(replicaTarget))
	if err != nil {
		t.Fatal(err)
	}
	want := `package merkle

import (
	"crypto/sha256"
	"sync"
)

var pool sync.Pool

// leafHash returns sha256(0x00 || leaf)
func leafHash(leaf []byte) []byte {
	h := sha256.Sum256(append([]byte{0}, leaf...))
	return h[:]
}

func pooled(p byte, b []byte) []byte { return nil }

func (t *Tree) Sum() []byte {
	return t.root
}

func keep() {}
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestApplyReplicaErrors(t *testing.T) {
	for replica, want := range map[string]string{
		"package merkle\nfunc other() {}\n":                                     "no function other to replace",
		"package merkle\nfunc (t Tree) keep() {}\n":                             "no function Tree.keep to replace",
		"package merkle\nimport \"hash\"\nfunc keep() { _ = hash.Hash(nil) }\n": `replica imports "hash", which the file does not`,
		"package other\nfunc keep() {}\n":                                       "replica is package other, the file package merkle",
		"package merkle\nvar x int\n":                                           "replica has no function",
	} {
		if _, err := applyReplica([]byte(replica), []byte(replicaTarget)); err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %s", replica, err, want)
		}
	}
}

func TestParseBenchmarks(t *testing.T) {
	out := `goos: linux
goarch: amd64
pkg: example.com/merkle
BenchmarkHashAlternatives/recursive-2         	     100	     77622 ns/op	   25400 B/op	     497 allocs/op
BenchmarkHashAlternatives/recursive-2         	     100	     77000 ns/op	   25408 B/op	     499 allocs/op
BenchmarkHashAlternatives/recursive-2         	     100	     77100 ns/op	   25400 B/op	     498 allocs/op
BenchmarkHS/Verify-HS256-2                    	     100	      1530 ns/op	     512 B/op	       6 allocs/op
BenchmarkNewTreeSmall-2                       	       1	3600000000 ns/op	1070000000 B/op	25165844 allocs/op
--- BENCH: BenchmarkNewTreeSmall-2
    merkle_test.go:227: 3.6s
PASS
`
	got := parseBenchmarks([]byte(out), 2)
	want := []BenchResult{
		{"HashAlternatives/recursive", 498, 25400},
		{"HS/Verify-HS256", 6, 512},
		{"NewTreeSmall", 25165844, 1070000000},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// With one CPU, go test prints no suffix: a name ending in -N is kept whole.
	if got := parseBenchmarks([]byte("BenchmarkHash/n-1000 \t 100\t 5 ns/op\t 0 B/op\t 0 allocs/op\n"), 1); len(got) != 1 || got[0].Name != "Hash/n-1000" {
		t.Errorf("one CPU: %+v", got)
	}
}

func TestCheckTargets(t *testing.T) {
	m := &expect.Module{Targets: []*expect.Target{
		{Name: "Hash/recursive", Metric: expect.Allocs, Max: 199},
		{Name: "Hash/recursive", Metric: expect.Bytes, Max: 6400},
		{Name: "Hash/iterative", Metric: expect.Allocs, Max: 200},
		{Name: "Gone", Metric: expect.Allocs, Max: 0},
	}}
	before := []BenchResult{{"Hash/recursive", 497, 25400}, {"Hash/iterative", 498, 28100}}
	after := []BenchResult{{"Hash/recursive", 199, 6500}, {"Hash/iterative", 201, 9100}}
	var got []string
	for _, tr := range checkTargets(m, before, after) {
		got = append(got, targetStatus(tr)+" "+value(tr.Before)+"->"+value(tr.After))
	}
	want := "allocs<=199: met 497->199; bytes<=6400: MISSED 25400->6500; allocs<=200: MISSED 498->201; allocs<=0: NOT RUN not run->not run"
	if s := strings.Join(got, "; "); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
	f := &FixResult{Targets: checkTargets(m, before, after)}
	if f.Missed() != 3 || !f.Failed() {
		t.Errorf("missed %d, failed %v", f.Missed(), f.Failed())
	}
}
