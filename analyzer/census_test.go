package analyzer_test

import (
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/analyzer"
	"github.com/hashalloc/hashalloc/internal/census"
	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis/analysistest"
)

// quiet is an analysistest.Testing that keeps nothing: the census compares
// the diagnostics itself, and the // want comments are not about the audit.
type quiet struct{}

func (quiet) Errorf(string, ...any) {}

// TestAuditCensus checks that -audit accounts for every site of the census
// (package census, which shares nothing with the checks) in the checks'
// testdata packages: each has a finding or an audit line at its position.
func TestAuditCensus(t *testing.T) {
	t.Parallel()
	pkgs := []string{"hasheralloc", "hmacrekey", "concathash", "sumalloc", "hotbuffer", "hotbuffervar", "hotbufferhelper",
		"escape", "roles", "atomickey", "hmaconce", "makecopy", "digestvalues", "ringhash", "funcvars", "fieldsum",
		"wrappers", "writers", "dyntargets", "derivedkey", "derivedkey/loops", "hotness", "valuerecv", "dynsinks", "joins", "helperloop", "funcctors", "hasherlike"}
	results := analysistest.Run(quiet{}, testdata, newAnalyzer(t, analyzer.Options{Audit: true}), pkgs...)
	var missing []string
	total := 0
	for _, r := range results {
		covered := map[token.Pos]bool{}
		for _, d := range r.Diagnostics {
			covered[d.Pos] = true
		}
		for _, s := range census.Sites(r.Pass.Fset, r.Pass.Files, r.Pass.TypesInfo) {
			total++
			if !covered[s.Pos] {
				posn := r.Pass.Fset.Position(s.Pos)
				missing = append(missing, fmt.Sprintf("%s:%d:%d: %s %s", posn.Filename[strings.LastIndex(posn.Filename, "testdata/"):], posn.Line, posn.Column, s.Kind, s.Text))
			}
		}
	}
	sort.Strings(missing)
	missing = slices.Compact(missing)
	assert.Empty(t, missing, "%d of %d census sites have no line in -audit", len(missing), total)
}
