// Package fieldsum holds Sum(nil) on hashers held in struct fields, as a
// Bloom filter keeps one: the sum goes into an array the struct keeps
// beside the hasher (a stack array would escape through the interface).
// Every exported func CaseX() is measured by the oracle test.
package fieldsum

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"hash/fnv"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	text  string
	dst   = make([]byte, 0, 64)
	seen  bool
)

// Filter is a Bloom filter with its hasher in a field.
type Filter struct {
	h    hash.Hash
	bits []uint64
}

func NewFilter() *Filter { return &Filter{h: sha256.New(), bits: make([]uint64, 4)} }

// Add sets the key's two bits.
//
//hashalloc:hot
func (f *Filter) Add(key []byte) {
	f.h.Reset()
	f.h.Write(key)
	sum := f.h.Sum(nil) // want `sum-alloc: f.h.Sum\(nil\) allocates its result once per call of Add \(it is marked //hashalloc:hot\), only to be read by binary.BigEndian.Uint64; automatic fix: sum into a 32-byte array that \*Filter keeps \(field hSum\)`
	a := binary.BigEndian.Uint64(sum)
	b := binary.BigEndian.Uint64(sum[8:16])
	f.bits[a%4] |= 1 << (b % 64)
}

// Test tests them: the same field serves both.
//
//hashalloc:hot
func (f *Filter) Test(key []byte) bool {
	f.h.Reset()
	f.h.Write(key)
	sum := f.h.Sum(nil) // want `sum-alloc: f.h.Sum\(nil\) allocates its result once per call of Test \(it is marked //hashalloc:hot\), only to be read by binary.BigEndian.Uint64; automatic fix: sum into a 32-byte array that \*Filter keeps \(field hSum\)`
	a, b := binary.BigEndian.Uint64(sum), binary.BigEndian.Uint64(sum[8:16])
	return f.bits[a%4]&(1<<(b%64)) != 0
}

var filter = NewFilter()

func CaseNew() { filter = NewFilter() }

func CaseAdd() { filter.Add(items[0]) }

func CaseTest() { seen = filter.Test(items[1]) }

func ResultFilter() string {
	f := NewFilter()
	for _, it := range items[:2] {
		f.Add(it)
	}
	return fmt.Sprint(f.Test(items[0]), f.Test(items[1]), f.Test(items[2]), f.bits)
}

// Checker compares each item's sum with the one it wants, in a loop.
type Checker struct {
	h    hash.Hash
	want []byte
}

func (c *Checker) Count(list [][]byte) int {
	n := 0
	for _, it := range list {
		c.h.Reset()
		c.h.Write(it)
		if bytes.Equal(c.h.Sum(nil), c.want) { // want `sum-alloc: c.h.Sum\(nil\) allocates its result once per .* \(the loop at fieldsum.go:\d+\), only to be compared by bytes.Equal; automatic fix: sum into a 64-byte array that \*Checker keeps \(field hSum\)`
			n++
		}
	}
	return n
}

// NewChecker takes any hasher: its digest size is not known, so the array
// has the largest standard one.
func NewChecker(h hash.Hash, want []byte) *Checker { return &Checker{h: h, want: want} } // want NewChecker:"params: outlives unknown"

var checker = NewChecker(fnv.New128a(), make([]byte, 16))

func CaseCount() { checker.Count(items) }

func ResultCount() string {
	h := sha256.Sum256(items[1])
	c := NewChecker(shaHasher, h[:])
	return fmt.Sprint(c.Count(items))
}

var shaHasher = sha256.New()

// Appended: the destination is the buffer.
//
//hashalloc:hot
func (f *Filter) appendSum(key []byte) {
	f.h.Reset()
	f.h.Write(key)
	dst = append(dst[:0], f.h.Sum(nil)...) // want `sum-alloc: f.h.Sum\(nil\) allocates its result once per call of appendSum \(it is marked //hashalloc:hot\), only to be appended to dst\[:0\]; automatic fix: append the sum to dst\[:0\] with f\.h\.Sum\(dst\[:0\]\)`
}

func CaseAppend() { filter.appendSum(items[2]) }

// ---- Reported without a fix. ----

// Digest does not write the hasher: it may sum the same value at the same
// time as another call.
//
//hashalloc:hot
func (f *Filter) Digest() {
	text = hex.EncodeToString(f.h.Sum(nil)) // want `sum-alloc: f.h.Sum\(nil\) allocates its result once per call of Digest \(it is marked //hashalloc:hot\), only to be encoded by hex.EncodeToString; sum into a reused buffer \(no automatic fix: the function does not write f.h \(Reset or Write\) before the sum, so it may sum the same value at the same time as another call, and an array kept beside the hasher would be shared\)`
}

func CaseDigest() { filter.Digest() }

// A value receiver: the array would be in the copy.
type Value struct{ h hash.Hash }

//hashalloc:hot
func (v Value) Digest(key []byte) {
	v.h.Reset()
	v.h.Write(key)
	text = hex.EncodeToString(v.h.Sum(nil)) // want `sum-alloc: v.h.Sum\(nil\) allocates its result once per call of Digest \(it is marked //hashalloc:hot\), only to be encoded by hex.EncodeToString; sum into a reused buffer \(no automatic fix: v is a copy: an array in it would go to the heap with it\)`
}

func CaseValue() { Value{h: fnvHasher}.Digest(items[0]) }

var fnvHasher = fnv.New64a()

// ---- Negative cases. ----

// The sum is kept: meant to outlive the call.
//
//hashalloc:hot
func (f *Filter) keep(key []byte) []byte {
	f.h.Reset()
	f.h.Write(key)
	sum := f.h.Sum(nil)
	return sum
}

// Something runs between the sum and its last use that could sum again.
//
//hashalloc:hot
func (f *Filter) interleaved(key []byte) uint64 {
	f.h.Reset()
	f.h.Write(key)
	sum := f.h.Sum(nil)
	f.Add(key)
	return binary.BigEndian.Uint64(sum)
}

// Cold: one allocation per call is fine.
func (f *Filter) cold(key []byte) {
	f.h.Reset()
	f.h.Write(key)
	text = hex.EncodeToString(f.h.Sum(nil))
}

func Negatives() {
	filter.keep(items[0])
	filter.interleaved(items[0])
	filter.cold(items[0])
}
