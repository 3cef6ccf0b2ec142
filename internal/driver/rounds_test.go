package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashalloc/hashalloc/fixes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
)

// roundsModule has two findings with fixes in one file.
var roundsModule = map[string]string{
	"go.mod": "module example.com/rounds\n\ngo 1.26.0\n",
	"rounds.go": `package rounds

import (
	"crypto/sha256"
	"io"
)

func Sums(rs []io.Reader) [][]byte {
	var sums [][]byte
	for _, r := range rs {
		h := sha256.New()
		io.Copy(h, r)
		sums = append(sums, h.Sum(nil))
	}
	return sums
}

func Leaves(leaves [][]byte) [][32]byte {
	out := make([][32]byte, 0, len(leaves))
	for _, l := range leaves {
		out = append(out, sha256.Sum256(append([]byte{0}, l...)))
	}
	return out
}
`,
}

// TestFixRounds checks that when -fix leaves out a fix that overlaps
// another, it analyzes the fixed file again and applies what that analysis
// finds, so that it reports what a fresh run would: here nothing.
func TestFixRounds(t *testing.T) {
	dir := writeModule(t, roundsModule)
	t.Chdir(dir)
	o := options{fix: true, patterns: []string{"./..."}}
	a, ok := analyzeAll(o, nil, os.Stderr)
	require.True(t, ok)
	require.Len(t, a.res.findings, 2)

	// The second finding's fix, made to overlap the first's: it is left
	// out of the first round.
	first, second := a.res.findings[0], a.res.findings[1]
	var replaced *analysis.TextEdit // an edit of the first fix that replaces text
	for i, e := range first.diag.SuggestedFixes[0].TextEdits {
		if e.End > e.Pos {
			replaced = &first.diag.SuggestedFixes[0].TextEdits[i]
		}
	}
	require.NotNil(t, replaced)
	second.diag.SuggestedFixes = []analysis.SuggestedFix{{Message: "overlap", TextEdits: []analysis.TextEdit{
		{Pos: replaced.Pos, End: replaced.End, NewText: append([]byte("x"), replaced.NewText...)},
	}}}
	plan := planFixes(a.res.findings)
	require.Len(t, plan.notFixed, 1)
	require.True(t, plan.stale())

	var stderr strings.Builder
	code := fixRounds(o, plan, a.res.findings, len(a.roots), false, jsonTree{}, os.Stdout, &stderr)
	assert.Equal(t, exitClean, code, "%s", &stderr)
	assert.Equal(t, "fixed "+shortPath(filepath.Join(dir, "rounds.go"))+" (2 findings)\n", stderr.String())

	a, ok = analyzeAll(options{patterns: []string{"./..."}}, nil, os.Stderr)
	require.True(t, ok)
	assert.Empty(t, a.res.findings, "a fresh run finds nothing")

	// A plan that changes files is stale even when it leaves nothing: its
	// fixes change the work beside the package's other sites. One that
	// changes nothing is not.
	dir = writeModule(t, roundsModule)
	t.Chdir(dir)
	a, ok = analyzeAll(o, nil, os.Stderr)
	require.True(t, ok)
	plan = planFixes(a.res.findings)
	require.Empty(t, plan.notFixed)
	assert.True(t, plan.stale())
	assert.False(t, planFixes(nil).stale())

	// Nor is one whose fixes import the runtime module where the module
	// does not require it yet: no analysis could load the fixed files.
	name := filepath.Join(dir, "rounds.go")
	old := []byte("package rounds\n")
	imports := []byte("package rounds\n\nimport \"" + fixes.RuntimePool + "\"\n")
	assert.False(t, (&fixPlan{files: []*fixedFile{{name: name, old: old, new: imports}}}).stale())
	assert.True(t, (&fixPlan{files: []*fixedFile{{name: name, old: imports, new: imports}}}).stale(), "the import was there before")
}
