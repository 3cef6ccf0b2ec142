// Package sha256 stands in for a fork of github.com/minio/sha256-simd under
// another module path: its Sum256 hashes with a digest of its own, whose
// algorithm hashalloc cannot prove (the real forks compute it in assembly).
package sha256

import "crypto/sha256"

// digest is the fork's own hasher: here FNV-1a, four lanes of it, a
// stand-in for the fork's assembly.
type digest struct{ h [4]uint64 }

func (d *digest) Reset() {
	for i := range d.h {
		d.h[i] = 14695981039346656037 + uint64(i)
	}
}

func (d *digest) Write(p []byte) (int, error) {
	for i, b := range p {
		l := &d.h[i%4]
		*l = (*l ^ uint64(b)) * 1099511628211
	}
	return len(p), nil
}

func (d *digest) Sum(b []byte) []byte {
	s := d.checkSum()
	return append(b, s[:]...)
}

func (d *digest) Size() int      { return sha256.Size }
func (d *digest) BlockSize() int { return sha256.BlockSize }

func (d *digest) checkSum() (sum [32]byte) {
	for i, l := range d.h {
		for j := range 8 {
			sum[i*8+j] = byte(l >> (8 * j))
		}
	}
	return sum
}

// Sum256 returns the fork's SHA-256 of data, with its own digest.
func Sum256(data []byte) (result [32]byte) { // want Sum256:"hashes parameter 0"
	var d digest
	d.Reset()
	d.Write(data)
	return d.checkSum()
}

// SumMany returns the fork's SHA-256 of the concatenation of data.
func SumMany(data ...[]byte) (result [32]byte) { // want SumMany:"hashes parameter 0"
	var d digest
	d.Reset()
	for _, b := range data {
		d.Write(b)
	}
	return d.checkSum()
}

// Hash returns the SHA-256 of data as a slice, with crypto/sha256's hasher:
// provably crypto/sha256.Sum256.
func Hash(data []byte) []byte { // want Hash:"hashes parameter 0"
	h := sha256.New()
	h.Write(data)
	return h.Sum(nil)
}
