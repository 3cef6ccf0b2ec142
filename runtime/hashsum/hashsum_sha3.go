//go:build go1.24

package hashsum

import "crypto/sha3"

// The SHA-3 sums, built only by Go 1.24 and later, which brought crypto/sha3,
// so that the module keeps working with older toolchains. See hashsum.go for
// why each function spells out its loop.

// SHA3_224 returns the SHA3-224 digest of the concatenation of parts.
func SHA3_224(parts ...[]byte) (sum [28]byte) {
	h := sha3.New224()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}

// SHA3_256 returns the SHA3-256 digest of the concatenation of parts.
func SHA3_256(parts ...[]byte) (sum [32]byte) {
	h := sha3.New256()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}

// SHA3_384 returns the SHA3-384 digest of the concatenation of parts.
func SHA3_384(parts ...[]byte) (sum [48]byte) {
	h := sha3.New384()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}

// SHA3_512 returns the SHA3-512 digest of the concatenation of parts.
func SHA3_512(parts ...[]byte) (sum [64]byte) {
	h := sha3.New512()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}
