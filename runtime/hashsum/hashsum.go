package hashsum

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
)

// Every function below spells out the same loop on purpose: the hasher must be
// created by a direct call in the function body so that the compiler inlines
// the constructor, devirtualizes Write and Sum and keeps the hasher on the
// stack. Passing it to a shared helper as a hash.Hash would defeat all three.
//
// The SHA-3 functions, whose package came with Go 1.24, are in hashsum_sha3.go.

// SHA256 returns the SHA-256 digest of the concatenation of parts.
func SHA256(parts ...[]byte) (sum [32]byte) {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}

// SHA224 returns the SHA-224 digest of the concatenation of parts.
func SHA224(parts ...[]byte) (sum [28]byte) {
	h := sha256.New224()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}

// SHA512 returns the SHA-512 digest of the concatenation of parts.
func SHA512(parts ...[]byte) (sum [64]byte) {
	h := sha512.New()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}

// SHA384 returns the SHA-384 digest of the concatenation of parts.
func SHA384(parts ...[]byte) (sum [48]byte) {
	h := sha512.New384()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}

// SHA512_224 returns the SHA-512/224 digest of the concatenation of parts.
func SHA512_224(parts ...[]byte) (sum [28]byte) {
	h := sha512.New512_224()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}

// SHA512_256 returns the SHA-512/256 digest of the concatenation of parts.
func SHA512_256(parts ...[]byte) (sum [32]byte) {
	h := sha512.New512_256()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}

// SHA1 returns the SHA-1 digest of the concatenation of parts.
func SHA1(parts ...[]byte) (sum [20]byte) {
	h := sha1.New()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}

// MD5 returns the MD5 digest of the concatenation of parts.
func MD5(parts ...[]byte) (sum [16]byte) {
	h := md5.New()
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	return sum
}
