package hmaconce

import (
	"crypto/hmac"
	"crypto/md5"
	"encoding/hex"
)

// An NTLMv2 responder's HMAC-MD5 of parts (go-ntlmssp's hmacMd5): a loop
// writes each part of its variadic parameter, then one Sum. The one-shot
// HMAC is given them all.
func hmacMD5(key []byte, data ...[]byte) []byte {
	mac := hmac.New(md5.New, key) // want `hmac-rekey: hmac.New\(md5.New, key\) re-keys an HMAC \(5 allocations\) once per call of hmacMD5, .*; automatic fix: compute the MAC with hashsum.AppendHMACMD5, which allocates nothing`
	for _, d := range data {
		mac.Write(d)
	}
	return mac.Sum(nil)
}

// The twin: a loop of Writes beside another Write, which one call cannot
// pass with the slice.
func hmacMD5Tagged(key, tag []byte, data ...[]byte) []byte {
	mac := hmac.New(md5.New, key) // want `hmac-rekey: hmac.New\(md5.New, key\) re-keys an HMAC \(5 allocations\) once per call of hmacMD5Tagged, .*\(no automatic fix: the loop at parts.go:\d+ writes each part of a slice, beside other Writes, and one call cannot pass that slice with other parts\)`
	mac.Write(tag)
	for _, d := range data {
		mac.Write(d)
	}
	return mac.Sum(nil)
}

// The twin: a loop that writes something else than each part.
func hmacMD5Lengths(key []byte, data ...[]byte) []byte {
	mac := hmac.New(md5.New, key) // want `hmac-rekey: hmac.New\(md5.New, key\) re-keys an HMAC \(5 allocations\) once per call of hmacMD5Lengths, .*\(no automatic fix: the MAC is used for more than Write and one Sum, by for _, d := range data .*\)`
	for _, d := range data {
		mac.Write(d[:1])
	}
	return mac.Sum(nil)
}

var responses [][]byte

// Each response MACs its parts with a key of its own.
func CaseHMACParts() {
	for i, k := range keys {
		responses = append(responses[:0], hmacMD5(k, keys[i], []byte("challenge")))
		responses = append(responses, hmacMD5Tagged(k, []byte("tag"), keys[i]))
		responses = append(responses, hmacMD5Lengths(k, keys[i], []byte("challenge")))
	}
}

func ResultHMACParts() string {
	return hex.EncodeToString(hmacMD5(keys[0], keys[1], keys[2])) + hex.EncodeToString(hmacMD5(keys[0])) +
		hex.EncodeToString(hmacMD5Tagged(keys[0], keys[1], keys[2])) + hex.EncodeToString(hmacMD5Lengths(keys[0], keys[1]))
}
