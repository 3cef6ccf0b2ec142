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

// AppendHMACSHA3_224 appends the HMAC-SHA3-224 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACSHA3_224(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACSHA3_224(key, parts...)
	return append(dst, sum[:]...)
}

// AppendHMACSHA3_256 appends the HMAC-SHA3-256 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACSHA3_256(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACSHA3_256(key, parts...)
	return append(dst, sum[:]...)
}

// AppendHMACSHA3_384 appends the HMAC-SHA3-384 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACSHA3_384(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACSHA3_384(key, parts...)
	return append(dst, sum[:]...)
}

// AppendHMACSHA3_512 appends the HMAC-SHA3-512 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACSHA3_512(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACSHA3_512(key, parts...)
	return append(dst, sum[:]...)
}
