package hashsum

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
)

// One-shot HMACs (RFC 2104, as crypto/hmac computes them) for keys that change
// from call to call, where hmac.New would allocate its two hashers and its
// pads every time. The key, padded to the hash's block size, and the hasher
// live on the stack: a key longer than a block is hashed first, then
//
//	HMAC(key, m) = H((key ^ opad) || H((key ^ ipad) || m))
//
// The same hasher serves for the inner and the outer hash, after a Reset. As
// for the digests in hashsum.go, each function spells out its body and calls
// its constructor directly, so that the compiler inlines the constructor,
// devirtualizes Write and Sum and keeps the hasher on the stack; a shared
// helper taking a hash.Hash would defeat all three.
//
// Unlike hmac.New, these functions do not apply the restrictions of FIPS
// 140-only mode (GODEBUG=fips140=only), which rejects keys shorter than 112
// bits and hashes other than SHA-2 and SHA-3. The SHA-3 HMACs, whose package
// came with Go 1.24, are in hmac_sha3.go.

// The inner and outer pad bytes of RFC 2104.
const (
	ipad = 0x36
	opad = 0x5c
)

// HMACSHA256 returns the HMAC-SHA256 of the concatenation of parts under key, the
// MAC that hmac.New(sha256.New, key) computes, without allocating.
func HMACSHA256(key []byte, parts ...[]byte) (sum [32]byte) {
	var pad [sha256.BlockSize]byte
	if len(key) > len(pad) {
		k := sha256.Sum256(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := sha256.New()
	h.Write(pad[:])
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	for i := range pad {
		pad[i] ^= ipad ^ opad
	}
	h.Reset()
	h.Write(pad[:])
	h.Write(sum[:])
	h.Sum(sum[:0])
	return sum
}

// HMACSHA224 returns the HMAC-SHA224 of the concatenation of parts under key, the
// MAC that hmac.New(sha256.New224, key) computes, without allocating.
func HMACSHA224(key []byte, parts ...[]byte) (sum [28]byte) {
	var pad [sha256.BlockSize]byte
	if len(key) > len(pad) {
		k := sha256.Sum224(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := sha256.New224()
	h.Write(pad[:])
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	for i := range pad {
		pad[i] ^= ipad ^ opad
	}
	h.Reset()
	h.Write(pad[:])
	h.Write(sum[:])
	h.Sum(sum[:0])
	return sum
}

// HMACSHA512 returns the HMAC-SHA512 of the concatenation of parts under key, the
// MAC that hmac.New(sha512.New, key) computes, without allocating.
func HMACSHA512(key []byte, parts ...[]byte) (sum [64]byte) {
	var pad [sha512.BlockSize]byte
	if len(key) > len(pad) {
		k := sha512.Sum512(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := sha512.New()
	h.Write(pad[:])
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	for i := range pad {
		pad[i] ^= ipad ^ opad
	}
	h.Reset()
	h.Write(pad[:])
	h.Write(sum[:])
	h.Sum(sum[:0])
	return sum
}

// HMACSHA384 returns the HMAC-SHA384 of the concatenation of parts under key, the
// MAC that hmac.New(sha512.New384, key) computes, without allocating.
func HMACSHA384(key []byte, parts ...[]byte) (sum [48]byte) {
	var pad [sha512.BlockSize]byte
	if len(key) > len(pad) {
		k := sha512.Sum384(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := sha512.New384()
	h.Write(pad[:])
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	for i := range pad {
		pad[i] ^= ipad ^ opad
	}
	h.Reset()
	h.Write(pad[:])
	h.Write(sum[:])
	h.Sum(sum[:0])
	return sum
}

// HMACSHA512_224 returns the HMAC-SHA512/224 of the concatenation of parts under key, the
// MAC that hmac.New(sha512.New512_224, key) computes, without allocating.
func HMACSHA512_224(key []byte, parts ...[]byte) (sum [28]byte) {
	var pad [sha512.BlockSize]byte
	if len(key) > len(pad) {
		k := sha512.Sum512_224(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := sha512.New512_224()
	h.Write(pad[:])
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	for i := range pad {
		pad[i] ^= ipad ^ opad
	}
	h.Reset()
	h.Write(pad[:])
	h.Write(sum[:])
	h.Sum(sum[:0])
	return sum
}

// HMACSHA512_256 returns the HMAC-SHA512/256 of the concatenation of parts under key, the
// MAC that hmac.New(sha512.New512_256, key) computes, without allocating.
func HMACSHA512_256(key []byte, parts ...[]byte) (sum [32]byte) {
	var pad [sha512.BlockSize]byte
	if len(key) > len(pad) {
		k := sha512.Sum512_256(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := sha512.New512_256()
	h.Write(pad[:])
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	for i := range pad {
		pad[i] ^= ipad ^ opad
	}
	h.Reset()
	h.Write(pad[:])
	h.Write(sum[:])
	h.Sum(sum[:0])
	return sum
}

// HMACSHA1 returns the HMAC-SHA1 of the concatenation of parts under key, the
// MAC that hmac.New(sha1.New, key) computes, without allocating.
func HMACSHA1(key []byte, parts ...[]byte) (sum [20]byte) {
	var pad [sha1.BlockSize]byte
	if len(key) > len(pad) {
		k := sha1.Sum(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := sha1.New()
	h.Write(pad[:])
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	for i := range pad {
		pad[i] ^= ipad ^ opad
	}
	h.Reset()
	h.Write(pad[:])
	h.Write(sum[:])
	h.Sum(sum[:0])
	return sum
}

// HMACMD5 returns the HMAC-MD5 of the concatenation of parts under key, the
// MAC that hmac.New(md5.New, key) computes, without allocating.
func HMACMD5(key []byte, parts ...[]byte) (sum [16]byte) {
	var pad [md5.BlockSize]byte
	if len(key) > len(pad) {
		k := md5.Sum(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := md5.New()
	h.Write(pad[:])
	for _, p := range parts {
		h.Write(p)
	}
	h.Sum(sum[:0])
	for i := range pad {
		pad[i] ^= ipad ^ opad
	}
	h.Reset()
	h.Write(pad[:])
	h.Write(sum[:])
	h.Sum(sum[:0])
	return sum
}
