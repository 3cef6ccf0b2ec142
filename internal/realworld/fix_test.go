package realworld

import (
	"slices"
	"testing"
)

// A vet failure that exists before the fix is the module's: after the fix,
// only a diagnostic that was not there before is the fix's, wherever the
// fix moved the lines.
func TestNewVetDiagnostics(t *testing.T) {
	before := `# github.com/cristalhq/jwt/v2
# [github.com/cristalhq/jwt/v2_test]
./example_build_test.go:10:1: Example_BuildSimple has malformed example suffix: BuildSimple
./example_parse_test.go:9:1: Example_Parse has malformed example suffix: Parse
helper/keysutil/policy_test.go:827:12: range var test copies lock: struct{policy Policy} contains sync.Map
`
	for _, tc := range []struct {
		name, after string
		want        []string
	}{
		{"the same", before, nil},
		{"moved by the fix", `# github.com/cristalhq/jwt/v2
./example_build_test.go:10:1: Example_BuildSimple has malformed example suffix: BuildSimple
./example_parse_test.go:19:1: Example_Parse has malformed example suffix: Parse
helper/keysutil/policy_test.go:840:12: range var test copies lock: struct{policy Policy} contains sync.Map
`, nil},
		{"one fewer", "./example_parse_test.go:9:1: Example_Parse has malformed example suffix: Parse\n", nil},
		{"a new one", before + "./algo_hs.go:40:2: return copies lock value: hashpool.Pool contains sync.Pool\n",
			[]string{"./algo_hs.go:40:2: return copies lock value: hashpool.Pool contains sync.Pool"}},
		{"the same message twice where it was once", before + "./example_parse_test.go:31:1: Example_Parse has malformed example suffix: Parse\n",
			[]string{"./example_parse_test.go:31:1: Example_Parse has malformed example suffix: Parse"}},
		{"the same message in another file", "./other_test.go:9:1: Example_Parse has malformed example suffix: Parse\n",
			[]string{"./other_test.go:9:1: Example_Parse has malformed example suffix: Parse"}},
	} {
		if got := newVetDiagnostics(before, tc.after); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
