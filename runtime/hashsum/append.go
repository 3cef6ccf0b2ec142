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

// The AppendHMAC forms return what a MAC built by hmac.New(h, key), written
// parts and summed with Sum(dst) returns, without allocating the MAC.

// AppendHMACSHA256 appends the HMAC-SHA256 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACSHA256(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACSHA256(key, parts...)
	return append(dst, sum[:]...)
}

// AppendHMACSHA224 appends the HMAC-SHA224 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACSHA224(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACSHA224(key, parts...)
	return append(dst, sum[:]...)
}

// AppendHMACSHA512 appends the HMAC-SHA512 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACSHA512(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACSHA512(key, parts...)
	return append(dst, sum[:]...)
}

// AppendHMACSHA384 appends the HMAC-SHA384 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACSHA384(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACSHA384(key, parts...)
	return append(dst, sum[:]...)
}

// AppendHMACSHA512_224 appends the HMAC-SHA512/224 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACSHA512_224(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACSHA512_224(key, parts...)
	return append(dst, sum[:]...)
}

// AppendHMACSHA512_256 appends the HMAC-SHA512/256 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACSHA512_256(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACSHA512_256(key, parts...)
	return append(dst, sum[:]...)
}

// AppendHMACSHA1 appends the HMAC-SHA1 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACSHA1(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACSHA1(key, parts...)
	return append(dst, sum[:]...)
}

// AppendHMACMD5 appends the HMAC-MD5 of the concatenation of parts under key
// to dst and returns the result, as hmac.New's Sum(dst) does.
func AppendHMACMD5(dst, key []byte, parts ...[]byte) []byte {
	sum := HMACMD5(key, parts...)
	return append(dst, sum[:]...)
}
