package hashsum

// The Append forms return what a helper such as
//
//	func Sum(b []byte) []byte { h := sha256.Sum256(b); return h[:] }
//
// returns, for the concatenation of parts, without building it: they append
// the digest to dst (nil: a new slice, as the helper allocates).

// AppendSHA256 appends the SHA-256 digest of the concatenation of parts to dst
// and returns the result.
func AppendSHA256(dst []byte, parts ...[]byte) []byte {
	sum := SHA256(parts...)
	return append(dst, sum[:]...)
}

// AppendSHA224 appends the SHA-224 digest of the concatenation of parts to dst
// and returns the result.
func AppendSHA224(dst []byte, parts ...[]byte) []byte {
	sum := SHA224(parts...)
	return append(dst, sum[:]...)
}

// AppendSHA512 appends the SHA-512 digest of the concatenation of parts to dst
// and returns the result.
func AppendSHA512(dst []byte, parts ...[]byte) []byte {
	sum := SHA512(parts...)
	return append(dst, sum[:]...)
}

// AppendSHA384 appends the SHA-384 digest of the concatenation of parts to dst
// and returns the result.
func AppendSHA384(dst []byte, parts ...[]byte) []byte {
	sum := SHA384(parts...)
	return append(dst, sum[:]...)
}

// AppendSHA512_224 appends the SHA-512/224 digest of the concatenation of parts to dst
// and returns the result.
func AppendSHA512_224(dst []byte, parts ...[]byte) []byte {
	sum := SHA512_224(parts...)
	return append(dst, sum[:]...)
}

// AppendSHA512_256 appends the SHA-512/256 digest of the concatenation of parts to dst
// and returns the result.
func AppendSHA512_256(dst []byte, parts ...[]byte) []byte {
	sum := SHA512_256(parts...)
	return append(dst, sum[:]...)
}

// AppendSHA1 appends the SHA-1 digest of the concatenation of parts to dst
// and returns the result.
func AppendSHA1(dst []byte, parts ...[]byte) []byte {
	sum := SHA1(parts...)
	return append(dst, sum[:]...)
}

// AppendMD5 appends the MD5 digest of the concatenation of parts to dst
// and returns the result.
func AppendMD5(dst []byte, parts ...[]byte) []byte {
	sum := MD5(parts...)
	return append(dst, sum[:]...)
}
