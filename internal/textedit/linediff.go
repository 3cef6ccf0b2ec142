package textedit

import (
	"slices"
	"sort"

	"github.com/pmezard/go-difflib/difflib"
)

// lineOpCodes compares two lists of lines as difflib's opcodes do (tags 'e'
// equal, 'r' replace, 'd' delete, 'i' insert; ranges that cover both lists
// in order), in about O(n log n) on source code: a patience diff, which
// anchors on the lines that occur once in each list (a function's
// signature, most lines of code) and compares only what lies between two
// anchors with difflib. difflib alone takes time quadratic in the length of
// a file whose changes are spread over it, as the fixes of a file with
// thousands of findings are.
func lineOpCodes(a, b []string) []difflib.OpCode {
	var blocks []difflib.Match // equal runs, in order
	var match func(alo, ahi, blo, bhi int)
	match = func(alo, ahi, blo, bhi int) {
		// The common prefix and suffix.
		start := 0
		for alo+start < ahi && blo+start < bhi && a[alo+start] == b[blo+start] {
			start++
		}
		end := 0
		for ahi-end > alo+start && bhi-end > blo+start && a[ahi-end-1] == b[bhi-end-1] {
			end++
		}
		if start > 0 {
			blocks = append(blocks, difflib.Match{A: alo, B: blo, Size: start})
		}
		suffix := difflib.Match{A: ahi - end, B: bhi - end, Size: end}
		defer func() {
			if suffix.Size > 0 {
				blocks = append(blocks, suffix)
			}
		}()
		alo, blo, ahi, bhi = alo+start, blo+start, ahi-end, bhi-end
		if alo == ahi || blo == bhi {
			return
		}
		anchors := uniqueCommon(a[alo:ahi], b[blo:bhi])
		if len(anchors) == 0 {
			for _, m := range matcher(a[alo:ahi], b[blo:bhi]).GetMatchingBlocks() {
				if m.Size > 0 {
					blocks = append(blocks, difflib.Match{A: alo + m.A, B: blo + m.B, Size: m.Size})
				}
			}
			return
		}
		i, j := alo, blo
		for _, p := range anchors {
			match(i, alo+p[0], j, blo+p[1])
			blocks = append(blocks, difflib.Match{A: alo + p[0], B: blo + p[1], Size: 1})
			i, j = alo+p[0]+1, blo+p[1]+1
		}
		match(i, ahi, j, bhi)
	}
	match(0, len(a), 0, len(b))

	var ops []difflib.OpCode
	i, j := 0, 0
	add := func(tag byte, i1, i2, j1, j2 int) {
		if n := len(ops); n > 0 && ops[n-1].Tag == tag && ops[n-1].I2 == i1 && ops[n-1].J2 == j1 {
			ops[n-1].I2, ops[n-1].J2 = i2, j2
			return
		}
		ops = append(ops, difflib.OpCode{Tag: tag, I1: i1, I2: i2, J1: j1, J2: j2})
	}
	for _, m := range append(blocks, difflib.Match{A: len(a), B: len(b)}) {
		switch {
		case i < m.A && j < m.B:
			add('r', i, m.A, j, m.B)
		case i < m.A:
			add('d', i, m.A, j, j)
		case j < m.B:
			add('i', i, i, j, m.B)
		}
		if m.Size > 0 {
			add('e', m.A, m.A+m.Size, m.B, m.B+m.Size)
		}
		i, j = m.A+m.Size, m.B+m.Size
	}
	return ops
}

// uniqueCommon returns the pairs of indexes (in a, in b) of the lines that
// occur once in a and once in b, the longest list of them that is in order
// in both (patience sorting's longest increasing subsequence).
func uniqueCommon(a, b []string) [][2]int {
	count := map[string][2]int{} // occurrences in a and in b, as -1 beyond one
	at := map[string]int{}       // index in a of a line that occurs once there
	for i, l := range a {
		c := count[l]
		c[0]++
		count[l] = c
		at[l] = i
	}
	var pairs [][2]int
	for _, l := range b {
		c := count[l]
		c[1]++
		count[l] = c
	}
	for j, l := range b {
		if c := count[l]; c[0] == 1 && c[1] == 1 {
			pairs = append(pairs, [2]int{at[l], j})
		}
	}
	// pairs are in order of b; keep the longest run increasing in a.
	var tails []int // tails[k]: index into pairs ending an increasing run of k+1
	prev := make([]int, len(pairs))
	for n, p := range pairs {
		k := sort.Search(len(tails), func(k int) bool { return pairs[tails[k]][0] >= p[0] })
		if k > 0 {
			prev[n] = tails[k-1]
		} else {
			prev[n] = -1
		}
		if k == len(tails) {
			tails = append(tails, n)
		} else {
			tails[k] = n
		}
	}
	if len(tails) == 0 {
		return nil
	}
	var lis [][2]int
	for n := tails[len(tails)-1]; n >= 0; n = prev[n] {
		lis = append(lis, pairs[n])
	}
	slices.Reverse(lis)
	return lis
}
