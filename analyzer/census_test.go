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
		"wrappers", "writers", "dyntargets", "derivedkey", "derivedkey/loops", "hotness", "valuerecv", "dynsinks", "joins", "helperloop", "funcctors", "hasherlike",
		"catalogued", "audited"}
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

// TestAuditCatalogued checks the audit's reasons for the silent sites of
// the calls the catalogue judges: tables the package keeps or made once,
// a key stretched, a KDF run once per call, a constructor given as a value
// to a function of the package, conversions that stay on the stack or are
// made once per call or per hasher; and of the sites package audited
// holds: a buffer's contents hashed, a conversion given to a sum function,
// a digester of another package, a closure that a package-level
// initializer registers and one it runs in place.
func TestAuditCatalogued(t *testing.T) {
	t.Parallel()
	for pkg, want := range map[string]map[int]string{
		"catalogued": {
			54:  "crc32.MakeTable(crc32.IEEE) is silent: the package builds the table of this polynomial once",
			57:  "crc64.MakeTable(crc64.ECMA) is silent: the package builds the table of this polynomial once",
			73:  "crc32.MakeTable(0xD5828281) is silent: a package-level initializer runs once",
			77:  "crc32.MakeTable(0xD5828281) is silent: it runs once per call of Once",
			94:  "pbkdf2.Key(sha256.New, pw, nil, 4096, 32) is silent: Key stretches a key",
			102: "hkdf.Key(sha256.New, secret, nil, \"label\", 32) is silent: it runs once per call of DeriveOnce",
			113: "NewTree(sha256.New) is silent: it is given a hash constructor as a value",
			152: "[]byte(f) is silent: the copy escapes only if h's Write lets it",
			162: "once per call of OncePerCall (it returns a hash of what it is given: its callers call it once per item they hash): one copy per call",
			170: "into a hasher made anew in the same loop, which is judged where it is made",
		},
		"hasherlike": {
			23: "sha1.New() is silent: its hasher outlives the call: returned in a hasherlike.Hasher to the callers of NewHasher, where the analysis does not follow it (NewHasher is no constructor it knows): how often they make one and drop it is not judged",
			39: "sha1.New() is silent: its hasher is meant to outlive the call (stored in a composite literal)",
		},
		"audited": {
			28:  "[]byte(s) is silent: it hashes the contents of sb, a strings.Builder filled in keyString (audited.go:40) only to be hashed: writing the parts into a hasher instead would save the buffer's growth, and the []byte copy of its string",
			45:  "[]byte(kind) is silent: the copy escapes only if md5.Sum lets it; a sum function that does not keep it (the standard ones) has a copy of up to 32 bytes on the stack",
			54:  "buf.Bytes() is silent: it hashes the contents of buf, a bytes.Buffer filled in this function only to be hashed",
			61:  "digestlib.Canonical.Digester() is silent: digestlib.Canonical.Digester returns a digestlib.Digester, whose Hash method hands out a hasher made with it in digestlib, which no fact of this package describes",
			76:  "hmac.New(sha256.New, key) is silent: it is in a function literal that a package-level initializer does not call but passes, stores or returns: it runs each time it is called",
			84:  "hmac.New(sha256.New, []byte(\"k\")) is silent: a package-level initializer runs once, when the package is initialized",
			94:  "b is silent: it hashes b, a slice built only to be hashed by 2 appends to an empty slice",
			104: "input is silent: it hashes input, a slice built only to be hashed by 3 appends to an empty slice",
		},
	} {
		results := analysistest.Run(quiet{}, testdata, newAnalyzer(t, analyzer.Options{Audit: true}), pkg)
		got := map[int][]string{}
		for _, r := range results {
			for _, d := range r.Diagnostics {
				if d.Category == analyzer.AuditCategory {
					line := r.Pass.Fset.Position(d.Pos).Line
					got[line] = append(got[line], d.Message)
				}
			}
		}
		for line, want := range want {
			assert.True(t, slices.ContainsFunc(got[line], func(m string) bool { return strings.Contains(m, want) }), "%s line %d: %q not in %q", pkg, line, want, got[line])
		}
		if pkg == "audited" { // PrefixedKey's slice starts with a value
			assert.False(t, slices.ContainsFunc(got[111], func(m string) bool { return strings.Contains(m, "appends to an empty slice") }), "line 111: %q", got[111])
		}
	}
}
