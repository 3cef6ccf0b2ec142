package textedit

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sequential merges lists one after another with Merge, as MergeAll
// promises to, and returns the index of the first list that does not merge.
func sequential(lists [][]Edit) ([]Edit, int) {
	var acc []Edit
	for i, l := range lists {
		m, ok := Merge(acc, l)
		if !ok {
			return nil, i
		}
		acc = m
	}
	return acc, -1
}

// randomList returns a sorted list of edits without overlaps in a file of
// size bytes, from a few texts, so that lists often touch, share edits and
// insert at one point.
func randomList(r *rand.Rand, size int) []Edit {
	texts := []string{"", "a", "b", "import x\n"}
	var l []Edit
	pos := r.IntN(4)
	for pos < size && r.IntN(4) != 0 {
		end := pos
		if r.IntN(2) == 0 {
			end = min(size, pos+r.IntN(3))
		}
		l = append(l, Edit{pos, end, texts[r.IntN(len(texts))]})
		pos = end + r.IntN(6)
	}
	return l
}

// TestMergeAllAsSequential checks MergeAll against merging one list after
// another, on random lists that touch, overlap, share edits and insert at
// one point, and that the index it returns is the list to leave out: after
// leaving out each list it names, it agrees with the sequential merge of
// the lists that are left, which leaves out the same ones.
func TestMergeAllAsSequential(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	conflicts := 0
	for range 5000 {
		lists := make([][]Edit, 1+r.IntN(6))
		for i := range lists {
			lists[i] = randomList(r, 20)
		}
		for {
			want, wantBad := sequential(lists)
			got, bad := MergeAll(lists)
			require.Equal(t, wantBad, bad, "%v", lists)
			if bad < 0 {
				if len(want) == 0 {
					require.Empty(t, got, "%v", lists)
				} else {
					require.Equal(t, want, got, "%v", lists)
				}
				break
			}
			conflicts++
			lists = append(lists[:bad:bad], lists[bad+1:]...)
		}
	}
	assert.Greater(t, conflicts, 100, "the random lists conflict often enough to test it")
}

// TestMergeAllOnePoint checks the common cluster: many fixes that insert
// the same import and a declaration of their own at one point.
func TestMergeAllOnePoint(t *testing.T) {
	var lists [][]Edit
	for i := range 1000 {
		lists = append(lists, []Edit{{10, 10, "import x\n"}, {10, 10, string(rune('a' + i%26))}, {40 + i, 41 + i, "y"}})
	}
	want, wantBad := sequential(lists)
	got, bad := MergeAll(lists)
	assert.Equal(t, -1, wantBad)
	assert.Equal(t, -1, bad)
	assert.Equal(t, want, got)
}

// TestLineOpCodes checks that the opcodes cover both lists in order and
// that applying them to a gives b, on random edits of random lines.
func TestLineOpCodes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vocab := []string{"}\n", "\treturn\n", "func F() {\n", "x\n", "y\n", "z\n", "w\n"}
	for range 3000 {
		var a []string
		for range r.IntN(30) {
			if r.IntN(3) == 0 {
				a = append(a, vocab[r.IntN(len(vocab))])
			} else {
				a = append(a, string(rune('a'+r.IntN(26)))+string(rune('a'+r.IntN(26)))+"\n")
			}
		}
		b := slices.Clone(a)
		for range r.IntN(6) {
			i := r.IntN(len(b) + 1)
			switch r.IntN(3) {
			case 0:
				b = slices.Insert(b, i, vocab[r.IntN(len(vocab))])
			case 1:
				if i < len(b) {
					b = slices.Delete(b, i, i+1)
				}
			default:
				if i < len(b) {
					b[i] = "changed\n"
				}
			}
		}
		ops := lineOpCodes(a, b)
		var got []string
		i, j := 0, 0
		for _, op := range ops {
			require.Equal(t, i, op.I1, "%q %q %v", a, b, ops)
			require.Equal(t, j, op.J1, "%q %q %v", a, b, ops)
			if op.Tag == 'e' {
				require.Equal(t, a[op.I1:op.I2], b[op.J1:op.J2])
			}
			got = append(got, b[op.J1:op.J2]...)
			i, j = op.I2, op.J2
		}
		require.Equal(t, len(a), i)
		require.Equal(t, len(b), j)
		require.Equal(t, len(b), len(got))
	}
}
