package hasherlike

import (
	"crypto/sha1"
	"hash"
)

// digest is a hasher of its own whose methods have pointer receivers: a
// variable of the type itself, not a pointer, is summed (a storage
// provider's checksum: SHA-1 of a prefix and the data, or the data itself
// when it is short).
type digest struct {
	sha   hash.Hash
	small []byte
}

func (d *digest) Write(p []byte) (int, error) {
	d.small = append(d.small, p...)
	return d.sha.Write(p)
}

func (d *digest) Sum(b []byte) []byte {
	if len(d.small) <= sha1.Size {
		padded := make([]byte, sha1.Size)
		copy(padded, d.small)
		return append(b, padded...)
	}
	return d.sha.Sum(b)
}

func (d *digest) Reset() {
	d.sha = sha1.New()
	d.small = d.small[:0]
}

func (d *digest) Size() int      { return sha1.Size }
func (d *digest) BlockSize() int { return sha1.BlockSize }

// SumOf returns the checksum of data: Sum(nil) on a variable of type
// digest, whose address the call takes.
func SumOf(data []byte) []byte {
	var d digest
	d.Reset()
	d.Write(data)
	return d.Sum(nil)
}

// SumOfPair returns the checksum of a and b, written as one slice.
func SumOfPair(a, b []byte) []byte {
	var d digest
	d.Reset()
	d.Write(append(a, b...))
	return d.Sum(nil)
}
