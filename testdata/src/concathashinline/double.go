package concathashinline

import (
	"encoding/hex"

	"github.com/btcsuite/btcd/chaincfg/chainhash"
)

var (
	header      chainhash.Hash
	headerSlice []byte
	filterHash  = chainhash.Hash{4}
	digest      [32]byte
)

// The slice form, in the same file as a plain multi-part sum: both declared
// functions are added once.
//
//hashalloc:hot
func CaseDoubleHashB() {
	headerSlice = chainhash.DoubleHashB(append(filterHash[:], right...)) // want `concat-hash: append\(filterHash\[:\], right...\) builds a buffer only to hash it with chainhash.DoubleHashB once per call of CaseDoubleHashB \(it is marked //hashalloc:hot\); automatic fix: hash the parts with doubleHashBParts, declared in this file: the sum of their sum, as chainhash.DoubleHashB computes it`
	digest = hashFnArray(append(prefix, right...))                       // want `concat-hash: append\(prefix, right...\) builds a buffer only to hash it with hashFnArray once per call of CaseDoubleHashB \(it is marked //hashalloc:hot\); automatic fix: hash the parts with a multi-part hashFnArray declared in this file`
}

func ResultDoubleHashB() string {
	CaseDoubleHashB()
	return hex.EncodeToString(headerSlice) + hex.EncodeToString(digest[:])
}

// A helper of another package that returns the sum of the sum of its
// argument (btcd's chainhash.DoubleHashH, neutrino's filter headers): the
// first sum of the parts by a multi-part sum declared in this file, then
// the sum of that.
//
//hashalloc:hot
func CaseDoubleHashH() {
	header = chainhash.DoubleHashH(append(filterHash[:], header[:]...)) // want `concat-hash: append\(filterHash\[:\], header\[:\]...\) builds a buffer only to hash it with chainhash.DoubleHashH once per call of CaseDoubleHashH \(it is marked //hashalloc:hot\); automatic fix: hash the parts with doubleHashHParts, declared in this file: the sum of their sum, as chainhash.DoubleHashH computes it`
}

func ResultDoubleHashH() string {
	header = chainhash.Hash{}
	CaseDoubleHashH()
	CaseDoubleHashH()
	return header.String()
}

// Its negative twin: a helper that hashes part of the first sum again
// computes no sum of a sum.
//
//hashalloc:hot
func CaseTruncatedDoubleHash() {
	header = chainhash.TruncatedDoubleHashH(append(filterHash[:], header[:]...)) // want `concat-hash: append\(filterHash\[:\], header\[:\]...\) builds a buffer only to hash it with chainhash.TruncatedDoubleHashH once per call of CaseTruncatedDoubleHash \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: chainhash.TruncatedDoubleHashH does more than return a standard sum of its argument\)`
}
