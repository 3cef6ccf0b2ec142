package concathashinline

import (
	"bytes"
	"encoding/hex"
)

var leafDigest []byte

// A builder whose callers only hash what it returns, with a helper that
// returns the sum as a slice (sigsum's formatLeafNode): it returns that sum
// of its parts, by a multi-part sum declared in this file.
func formatLeafNode(b []byte) []byte {
	prefix := []byte{0}
	return bytes.Join([][]byte{prefix, b}, nil) // want `concat-hash: bytes.Join builds a buffer that formatLeafNode returns only to be hashed, with hashFn once per call of formatLeafNode, which hashLeafNode calls \(hashLeafNode is marked //hashalloc:hot\); automatic fix: hash the parts where formatLeafNode builds them: formatLeafNodeSum returns their sum, which its callers computed`
}

//hashalloc:hot
func hashLeafNode(b []byte) []byte { return hashFn(formatLeafNode(b)) }

func CaseReturnedLeaf() { leafDigest = hashLeafNode(right) }

func ResultReturnedLeaf() string { return hex.EncodeToString(hashLeafNode(right)) }
