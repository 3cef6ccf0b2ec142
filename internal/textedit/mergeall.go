package textedit

import (
	"cmp"
	"slices"
)

// MergeAll merges lists of edits, each sorted and without overlaps, as
// merging them one after another with Merge, in order, would (lists[0] with
// lists[1], the result with lists[2], ...), in O(E log E) for E edits in
// all rather than Merge's O(E) per list. It returns the index of the first
// list that the ones before it conflict with, or -1: a caller that leaves
// that list out and merges again gets what Merge would have kept.
//
// Merge decides the order of two edits by their positions alone unless
// they touch: an edit that ends before another starts comes first, however
// the lists are merged. So the edits are sorted once, cut into clusters of
// edits that touch one another, and only within a cluster are the lists
// merged one after another.
func MergeAll(lists [][]Edit) ([]Edit, int) {
	type tagged struct {
		Edit
		list, at int // at: the edit's place among all, as the lists give them
	}
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	all := make([]tagged, 0, n)
	for i, l := range lists {
		for _, e := range l {
			all = append(all, tagged{e, i, len(all)})
		}
	}
	// Sorted as a stable sort would sort them (at breaks the ties), without
	// the stable sort's cost on many edits.
	slices.SortFunc(all, func(a, b tagged) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.list, b.list), cmp.Compare(a.at, b.at))
	})
	merged := make([]Edit, 0, len(all))
	first := -1
	for i := 0; i < len(all); {
		// The cluster all[i:j]: edits each of which starts at or before
		// the end of one before it.
		end, j := all[i].End, i+1
		for j < len(all) && all[j].Start <= end {
			end = max(end, all[j].End)
			j++
		}
		cluster := all[i:j]
		i = j
		same := true // one edit, made by several lists
		for k := 1; k < len(cluster) && same; k++ {
			same = cluster[k].Edit == cluster[0].Edit && cluster[k].list != cluster[k-1].list
		}
		if same {
			merged = append(merged, cluster[0].Edit)
			continue
		}
		// By list, in order: each list's edits in this cluster, merged
		// with what the lists before it made of the cluster.
		slices.SortFunc(cluster, func(a, b tagged) int { return cmp.Or(cmp.Compare(a.list, b.list), cmp.Compare(a.at, b.at)) })
		var acc []Edit
		seen := map[Edit]bool{} // acc's edits, when all are insertions at one point
		for k := 0; k < len(cluster); {
			l := k + 1
			for l < len(cluster) && cluster[l].list == cluster[k].list {
				l++
			}
			if seen != nil && l == k+1 && onePointInsertions(acc, cluster[k].Edit) {
				// The common cluster: declarations or imports inserted at
				// one point. Merge keeps an insertion that acc has once, and
				// puts a new one after acc's.
				if e := cluster[k].Edit; !seen[e] {
					seen[e] = true
					acc = append(acc, e)
				}
				k = l
				continue
			}
			seen = nil
			var y []Edit // sorted: the list's own order
			for _, t := range cluster[k:l] {
				y = append(y, t.Edit)
			}
			m, ok := Merge(acc, y)
			if !ok {
				if first < 0 || cluster[k].list < first {
					first = cluster[k].list
				}
				break
			}
			acc = m
			k = l
		}
		merged = append(merged, acc...)
	}
	if first >= 0 {
		return nil, first
	}
	return merged, -1
}

// onePointInsertions reports whether e and every edit of acc insert text at
// one offset, deleting nothing.
func onePointInsertions(acc []Edit, e Edit) bool {
	if e.Start != e.End {
		return false
	}
	return len(acc) == 0 || acc[0].Start == e.Start && acc[len(acc)-1].End == e.Start
}
