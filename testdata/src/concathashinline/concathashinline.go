// Package concathashinline holds the concat-hash cases whose fixes differ
// with -pool=inline: the multi-part sums are declared in the fixed file.
// Every exported func CaseX() is measured by the oracle test.
package concathashinline

import (
	"bytes"
	"encoding/hex"
)

var (
	prefix = []byte{1}
	right  = bytes.Repeat([]byte{3}, 32)
	sink   []byte
)

// A helper of the package declared in another file (fastssz's hashFn): the
// same sum of the parts, computed at the call by a multi-part sum declared
// in this file.
//
//hashalloc:hot
func CaseOtherFileHelper() {
	sink = hashFn(append(prefix, right...)) // want `concat-hash: append\(prefix, right...\) builds a buffer only to hash it with hashFn once per call of CaseOtherFileHelper \(it is marked //hashalloc:hot\); automatic fix: hash the parts with a multi-part hashFn declared in this file`
}

func ResultOtherFileHelper() string {
	return hex.EncodeToString(hashFn(append(prefix, right...)))
}

// A helper in another file that hashes more than its argument.
//
//hashalloc:hot
func CaseOtherFileSalted() {
	sink = salted(append(prefix, right...)) // want `concat-hash: append\(prefix, right...\) builds a buffer only to hash it with salted once per call of CaseOtherFileSalted \(it is marked //hashalloc:hot\); hash the parts one after another \(no automatic fix: salted is declared in another file, and returns more than a standard sum of its argument\)`
}
