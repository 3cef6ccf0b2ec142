//go:build go1.24

package hashsum

import "crypto/sha3"

// The SHA-3 HMACs, built only by Go 1.24 and later, which brought crypto/sha3.
// See hmac.go for how they are computed and why each spells out its body.
//
// The block size of HMAC-SHA3 is the rate of the sponge: 200 bytes of state
// less twice the digest size (FIPS 202). It is what sha3.SHA3.BlockSize
// returns and crypto/hmac uses; crypto/sha3 exports no constant for it.
const (
	sha3_224Rate = 144
	sha3_256Rate = 136
	sha3_384Rate = 104
	sha3_512Rate = 72
)

// HMACSHA3_224 returns the HMAC-SHA3-224 of the concatenation of parts under
// key, the MAC that hmac.New(func() hash.Hash { return sha3.New224() }, key)
// computes, without allocating.
func HMACSHA3_224(key []byte, parts ...[]byte) (sum [28]byte) {
	var pad [sha3_224Rate]byte
	if len(key) > len(pad) {
		k := sha3.Sum224(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := sha3.New224()
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

// HMACSHA3_256 returns the HMAC-SHA3-256 of the concatenation of parts under
// key, the MAC that hmac.New(func() hash.Hash { return sha3.New256() }, key)
// computes, without allocating.
func HMACSHA3_256(key []byte, parts ...[]byte) (sum [32]byte) {
	var pad [sha3_256Rate]byte
	if len(key) > len(pad) {
		k := sha3.Sum256(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := sha3.New256()
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

// HMACSHA3_384 returns the HMAC-SHA3-384 of the concatenation of parts under
// key, the MAC that hmac.New(func() hash.Hash { return sha3.New384() }, key)
// computes, without allocating.
func HMACSHA3_384(key []byte, parts ...[]byte) (sum [48]byte) {
	var pad [sha3_384Rate]byte
	if len(key) > len(pad) {
		k := sha3.Sum384(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := sha3.New384()
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

// HMACSHA3_512 returns the HMAC-SHA3-512 of the concatenation of parts under
// key, the MAC that hmac.New(func() hash.Hash { return sha3.New512() }, key)
// computes, without allocating.
func HMACSHA3_512(key []byte, parts ...[]byte) (sum [64]byte) {
	var pad [sha3_512Rate]byte
	if len(key) > len(pad) {
		k := sha3.Sum512(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= ipad
	}
	h := sha3.New512()
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
