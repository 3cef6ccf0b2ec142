package concathash

import (
	"encoding/hex"

	"github.com/btcsuite/btcd/chaincfg/chainhash"
)

// Helpers of another package that return the sum of the sum of their
// argument (btcd's chainhash, neutrino's filter headers): the same double
// sum of the parts, by a function declared in the file that returns what
// the helper returns.

var (
	header      chainhash.Hash
	headerSlice []byte
	filterHash  = chainhash.Hash{4}
)

// The slice form.
//
//hashalloc:hot
func CaseDoubleHashB() {
	headerSlice = chainhash.DoubleHashB(append(filterHash[:], id...)) // want `concat-hash: append\(filterHash\[:\], id...\) builds a buffer only to hash it with chainhash.DoubleHashB once per call of CaseDoubleHashB \(it is marked //hashalloc:hot\); automatic fix: hash the parts with doubleHashBParts, declared in this file: the sum of their sum, as chainhash.DoubleHashB computes it`
}

func ResultDoubleHashB() string {
	CaseDoubleHashB()
	return hex.EncodeToString(headerSlice)
}

// header = dsha256(filterHash || prevHeader), once per filter hash.
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

// A second call in the same file (neutrino's second loop of filter headers)
// declares the same function: the fixes merge into one declaration.
//
//hashalloc:hot
func CaseDoubleHashHAgain() {
	header = chainhash.DoubleHashH(append(header[:], filterHash[:]...)) // want `concat-hash: append\(header\[:\], filterHash\[:\]...\) builds a buffer only to hash it with chainhash.DoubleHashH once per call of CaseDoubleHashHAgain \(it is marked //hashalloc:hot\); automatic fix: hash the parts with doubleHashHParts, declared in this file: the sum of their sum, as chainhash.DoubleHashH computes it`
}

func ResultDoubleHashHAgain() string {
	header = chainhash.Hash{1}
	CaseDoubleHashHAgain()
	return header.String()
}

// Its negative twin: a helper that hashes part of the first sum again
// computes no sum of a sum.
//
//hashalloc:hot
func CaseTruncatedDoubleHash() {
	header = chainhash.TruncatedDoubleHashH(append(filterHash[:], header[:]...)) // want `concat-hash: append\(filterHash\[:\], header\[:\]...\) builds a buffer only to hash it with chainhash.TruncatedDoubleHashH once per call of CaseTruncatedDoubleHash \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: chainhash.TruncatedDoubleHashH does more than return a standard sum of its argument\)`
}
