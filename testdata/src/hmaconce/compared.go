package hmaconce

import (
	"crypto/hmac"
	"crypto/sha256"
	"strconv"
)

// ---- A signing function without a receiver whose result its callers
// compare (a webhook's, as stripe-go's ComputeSignature): the compare form
// only where the comparison runs once per signature computed, with a MAC
// received that is in scope at the call. ----

// ComputeSignature signs a timestamp and a payload under a secret that its
// callers pass.
func ComputeSignature(ts int64, payload []byte, secret string) []byte { // want ComputeSignature:"hashes parameter 1"
	mac := hmac.New(sha256.New, []byte(secret)) // want `hmac-rekey: hmac.New\(sha256.New, \[\]byte\(secret\)\) re-keys an HMAC \(5 allocations\) once per call of ComputeSignature .*automatic fix: compute the MAC with hashsum.AppendHMACSHA256`
	mac.Write([]byte(strconv.FormatInt(ts, 10)))
	mac.Write([]byte("."))
	mac.Write(payload)
	return mac.Sum(nil)
}

// ValidatePayload computes the signature once and compares it with each
// one received: moved into the loop, it would be computed once per
// signature received, and the loop's sig is not in scope where it is
// computed.
func ValidatePayload(ts int64, payload []byte, secret string, sigs [][]byte) bool {
	expected := ComputeSignature(ts, payload, secret)
	for _, sig := range sigs {
		if hmac.Equal(expected, sig) {
			return true
		}
	}
	return false
}

// CheckPayload compares once: the signature can be compared where it is
// computed.
func CheckPayload(ts int64, payload []byte, secret string, sig []byte) bool {
	expected := ComputeSignature(ts, payload, secret)
	return hmac.Equal(expected, sig)
}

func CaseComputeSignature() { ComputeSignature(1, keys[0], "secret") }
func CaseValidatePayload()  { ValidatePayload(1, keys[0], "secret", [][]byte{keys[1], keys[0]}) }
func CaseCheckPayload()     { CheckPayload(1, keys[0], "secret", keys[1]) }
