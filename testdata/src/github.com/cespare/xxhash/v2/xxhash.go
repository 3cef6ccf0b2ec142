// Package xxhash stands in for github.com/cespare/xxhash/v2 in the testdata:
// the same API, computed here by FNV-1a instead of XXH64.
package xxhash

// Digest is a 64-bit hasher. It allocates only when it escapes.
type Digest struct {
	seed, sum uint64
}

// New returns a Digest with seed 0.
func New() *Digest { return NewWithSeed(0) }

// NewWithSeed returns a Digest with the given seed. Reset does not keep it.
func NewWithSeed(seed uint64) *Digest {
	var d Digest
	d.ResetWithSeed(seed)
	return &d
}

// Reset clears the Digest's state with seed 0.
func (d *Digest) Reset() { d.ResetWithSeed(0) }

// ResetWithSeed clears the Digest's state with the given seed.
func (d *Digest) ResetWithSeed(seed uint64) { d.seed, d.sum = seed, 14695981039346656037^seed }

// Write adds b to the hash.
func (d *Digest) Write(b []byte) (int, error) {
	for _, c := range b {
		d.sum = (d.sum ^ uint64(c)) * 1099511628211
	}
	return len(b), nil
}

// WriteString adds s to the hash.
func (d *Digest) WriteString(s string) (int, error) {
	for i := 0; i < len(s); i++ {
		d.sum = (d.sum ^ uint64(s[i])) * 1099511628211
	}
	return len(s), nil
}

// Sum64 returns the hash.
func (d *Digest) Sum64() uint64 { return d.sum }

// Sum appends the hash to b.
func (d *Digest) Sum(b []byte) []byte {
	s := d.sum
	return append(b, byte(s>>56), byte(s>>48), byte(s>>40), byte(s>>32), byte(s>>24), byte(s>>16), byte(s>>8), byte(s))
}

// Size returns the size of a sum.
func (d *Digest) Size() int { return 8 }

// BlockSize returns the hash's block size.
func (d *Digest) BlockSize() int { return 32 }
