//go:build !go1.24

package hashsum

import "crypto"

// appendHMACSHA3 reports false before Go 1.24, which has no crypto/sha3:
// AppendHMAC then computes a SHA-3 HMAC with crypto/hmac.
func appendHMACSHA3(h crypto.Hash, dst, key []byte, parts ...[]byte) ([]byte, bool) {
	return nil, false
}
