//go:build go1.24

package hashsum

import "crypto"

// appendHMACSHA3 is AppendHMAC for the SHA-3 hashes, which crypto/sha3 has
// from Go 1.24.
func appendHMACSHA3(h crypto.Hash, dst, key []byte, parts ...[]byte) ([]byte, bool) {
	switch h {
	case crypto.SHA3_224:
		return AppendHMACSHA3_224(dst, key, parts...), true
	case crypto.SHA3_256:
		return AppendHMACSHA3_256(dst, key, parts...), true
	case crypto.SHA3_384:
		return AppendHMACSHA3_384(dst, key, parts...), true
	case crypto.SHA3_512:
		return AppendHMACSHA3_512(dst, key, parts...), true
	}
	return nil, false
}
