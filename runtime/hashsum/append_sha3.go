//go:build go1.24

package hashsum

// AppendSHA3_224 appends the SHA3-224 digest of the concatenation of parts to dst
// and returns the result.
func AppendSHA3_224(dst []byte, parts ...[]byte) []byte {
	sum := SHA3_224(parts...)
	return append(dst, sum[:]...)
}

// AppendSHA3_256 appends the SHA3-256 digest of the concatenation of parts to dst
// and returns the result.
func AppendSHA3_256(dst []byte, parts ...[]byte) []byte {
	sum := SHA3_256(parts...)
	return append(dst, sum[:]...)
}

// AppendSHA3_384 appends the SHA3-384 digest of the concatenation of parts to dst
// and returns the result.
func AppendSHA3_384(dst []byte, parts ...[]byte) []byte {
	sum := SHA3_384(parts...)
	return append(dst, sum[:]...)
}

// AppendSHA3_512 appends the SHA3-512 digest of the concatenation of parts to dst
// and returns the result.
func AppendSHA3_512(dst []byte, parts ...[]byte) []byte {
	sum := SHA3_512(parts...)
	return append(dst, sum[:]...)
}
