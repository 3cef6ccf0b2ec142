package concathash

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"hashutil"
)

// formatLeaf builds a leaf's preimage only for its callers to hash it
// (sigsum's formatLeafNode): the buffer is made per leaf hashed. Its callers
// all compute one sum: it returns that sum of its parts instead.
func formatLeaf(b []byte) []byte {
	prefix := []byte{0}
	return bytes.Join([][]byte{prefix, b}, nil) // want `concat-hash: bytes.Join builds a buffer that formatLeaf returns only to be hashed, with sha256.Sum256 once per call of formatLeaf, which hashLeafReturned calls \(hashLeafReturned is marked //hashalloc:hot\); automatic fix: hash the parts where formatLeaf builds them: formatLeafSum returns their sum, which its callers computed`
}

//hashalloc:hot
func hashLeafReturned(b []byte) [32]byte { return sha256.Sum256(formatLeaf(b)) }

func CaseReturned() { out32 = hashLeafReturned(left) }

func ResultReturned() string {
	sum := hashLeafReturned(left)
	return hex.EncodeToString(sum[:])
}

// Its negative twin: callers that hash what it returns with two sums.
func formatTwoSums(b []byte) []byte {
	prefix := []byte{1}
	return bytes.Join([][]byte{prefix, b}, nil) // want `concat-hash: bytes.Join builds a buffer that formatTwoSums returns only to be hashed, with sha256.Sum256 once per call of formatTwoSums, which hashTwoSums calls \(hashTwoSums is marked //hashalloc:hot\); hash the parts one after another where formatTwoSums is called \(no automatic fix: formatTwoSums's callers hash what it returns with different sums\)`
}

//hashalloc:hot
func hashTwoSums(b []byte) ([32]byte, [20]byte) {
	return sha256.Sum256(formatTwoSums(b)), sha1.Sum(formatTwoSums(b))
}

func CaseReturnedTwoSums() { out32, out20 = hashTwoSums(left) }

var (
	out20    [20]byte
	nodeHash hashutil.Hash
)

// Hashed by a helper of another package whose result is a named type
// (sigsum's formatInternalNode and crypto.HashBytes): the builder returns
// that type.
func formatNode(l, r *hashutil.Hash) []byte {
	prefix := []byte{1}
	return bytes.Join([][]byte{prefix, l[:], r[:]}, nil) // want `concat-hash: bytes.Join builds a buffer that formatNode returns only to be hashed, with hashutil.HashBytes once per call of formatNode, which hashNode calls \(hashNode is marked //hashalloc:hot\); automatic fix: hash the parts where formatNode builds them: formatNodeSum returns their sum, which its callers computed`
}

//hashalloc:hot
func hashNode(l, r *hashutil.Hash) hashutil.Hash { return hashutil.HashBytes(formatNode(l, r)) }

func CaseReturnedNamed() { nodeHash = hashNode(&hashutil.Hash{1}, &hashutil.Hash{2}) }

func ResultReturnedNamed() string {
	sum := hashNode(&hashutil.Hash{1}, &hashutil.Hash{2})
	return hex.EncodeToString(sum[:])
}

// pairPreimage returns a followed by b.
// Its callers only hash it: the fix renames it, and its doc says that it
// returns their sum.
func pairPreimage(a, b []byte) []byte {
	return bytes.Join([][]byte{a, b}, nil) // want `concat-hash: bytes.Join builds a buffer that pairPreimage returns only to be hashed, with sha256.Sum256 once per call of pairPreimage, which hashPair calls \(hashPair is marked //hashalloc:hot\); automatic fix: hash the parts where pairPreimage builds them: pairPreimageSum returns their sum, which its callers computed`
}

//hashalloc:hot
func hashPair(a, b []byte) [32]byte { return sha256.Sum256(pairPreimage(a, b)) }

func CasePairReturned() { out32 = hashPair(left, right) }

func ResultPairReturned() string {
	sum := hashPair(left, right)
	return hex.EncodeToString(sum[:])
}

// The negative cases allocate without a finding: the oracle does not run
// them (it runs only funcs CaseX, which allocate exactly when they reach a
// finding).

// formatKept's buffer is also kept: it is made anyway.
func formatKept(b []byte) []byte { return bytes.Join([][]byte{innerPrefix, b}, nil) }

var kept []byte

//hashalloc:hot
func hashKept(b []byte) [32]byte {
	kept = formatKept(b)
	return sha256.Sum256(formatKept(b))
}

// FormatExported may be called by other packages for anything.
func FormatExported(b []byte) []byte { return bytes.Join([][]byte{leafPrefix, b}, nil) }

//hashalloc:hot
func hashExported(b []byte) [32]byte { return sha256.Sum256(FormatExported(b)) }

// formatEither returns the concatenation or nothing: not all it returns.
func formatEither(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return bytes.Join([][]byte{leafPrefix, b}, nil)
}

//hashalloc:hot
func hashEither(b []byte) [32]byte { return sha256.Sum256(formatEither(b)) }
