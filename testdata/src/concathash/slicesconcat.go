package concathash

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// slices.Concat of byte slices makes a new slice per call, as long as its
// parts together, only for the hash to read it.
//
//hashalloc:hot
func concatLeaf(a, b []byte) [32]byte {
	return sha256.Sum256(slices.Concat(leafPrefix, a, b)) // want `concat-hash: slices.Concat\(leafPrefix, a, b\) builds a buffer only to hash it with sha256.Sum256 once per call of concatLeaf \(it is marked //hashalloc:hot\); automatic fix: hash the parts with hashsum\.SHA256`
}

func CaseSlicesConcat() { out32 = concatLeaf(left, right) }

func ResultSlicesConcat() string {
	s := concatLeaf(left, right)
	return hex.EncodeToString(s[:])
}

// Written into a hasher, per pair of items.
func concatPairs(items [][]byte) []byte {
	h := sha256.New()
	for i := 1; i < len(items); i++ {
		h.Write(slices.Concat(items[i-1], items[i])) // want `concat-hash: slices.Concat\(items\[i - 1\], items\[i\]\) builds a buffer only to hash it with h.Write once per element of items \(the loop at slicesconcat.go:\d+\); automatic fix: write the parts one after another`
	}
	return h.Sum(nil)
}

var pairs = [][]byte{left, right, id}

func CaseSlicesConcatWrite() { out32[0] = concatPairs(pairs)[0] }

func ResultSlicesConcatWrite() string { return hex.EncodeToString(concatPairs(pairs)) }

// ---- Negative cases. ----

// A spread list of parts: how many there are is known only at run time.
//
//hashalloc:hot
func concatSpread(parts [][]byte) [32]byte {
	return sha256.Sum256(slices.Concat(parts...))
}

// The concatenation is kept: it is not built only to be hashed.
var joined []byte

//hashalloc:hot
func concatKept(a, b []byte) [32]byte {
	joined = slices.Concat(a, b)
	return sha256.Sum256(joined)
}
