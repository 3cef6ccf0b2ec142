package concathash

import (
	"bytes"
	"crypto/sha256"
)

// formatLeaf builds a leaf's preimage only for its callers to hash it: the
// buffer is made per leaf hashed.
func formatLeaf(b []byte) []byte {
	prefix := []byte{0}
	return bytes.Join([][]byte{prefix, b}, nil) // want `concat-hash: bytes.Join builds a buffer that formatLeaf returns only to be hashed, with sha256.Sum256 once per call of formatLeaf, which hashLeafReturned calls \(hashLeafReturned is marked //hashalloc:hot\); hash the parts one after another where formatLeaf is called \(no automatic fix: formatLeaf returns the buffer to its callers, which would each hash the parts\)`
}

//hashalloc:hot
func hashLeafReturned(b []byte) [32]byte { return sha256.Sum256(formatLeaf(b)) }

func CaseReturned() { out32 = hashLeafReturned(left) }

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
