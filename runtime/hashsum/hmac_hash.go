package hashsum

import (
	"crypto"
	"crypto/hmac"
)

// AppendHMAC appends to dst the HMAC under key of the concatenation of parts
// with the hash h, and returns the result, as hmac.New(h.New, key), written
// parts and summed with Sum(dst), returns: for a hash chosen at run time (a
// signer's crypto.Hash). The hashes that this package has a one-shot HMAC of
// (SHA-2, SHA-1, MD5, and SHA-3 from Go 1.24) allocate nothing but what dst
// needs; any other hash is computed by crypto/hmac. It panics, as h.New does,
// when h is not available (its package is not linked into the binary).
func AppendHMAC(h crypto.Hash, dst, key []byte, parts ...[]byte) []byte {
	switch h {
	case crypto.SHA256:
		return AppendHMACSHA256(dst, key, parts...)
	case crypto.SHA224:
		return AppendHMACSHA224(dst, key, parts...)
	case crypto.SHA512:
		return AppendHMACSHA512(dst, key, parts...)
	case crypto.SHA384:
		return AppendHMACSHA384(dst, key, parts...)
	case crypto.SHA512_224:
		return AppendHMACSHA512_224(dst, key, parts...)
	case crypto.SHA512_256:
		return AppendHMACSHA512_256(dst, key, parts...)
	case crypto.SHA1:
		return AppendHMACSHA1(dst, key, parts...)
	case crypto.MD5:
		return AppendHMACMD5(dst, key, parts...)
	}
	if out, ok := appendHMACSHA3(h, dst, key, parts...); ok {
		return out
	}
	m := hmac.New(h.New, key)
	for _, p := range parts {
		m.Write(p)
	}
	// Appended rather than summed into dst: dst given to Sum through the
	// interface would escape, and with it a caller's array on the stack.
	return append(dst, m.Sum(nil)...)
}
