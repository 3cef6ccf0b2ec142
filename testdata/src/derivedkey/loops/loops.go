// Package loops holds the cases of a key derivation repeated by a loop of
// the package, with values that do not change and with values that do.
package loops

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

const serviceS3 = "s3"

// sumHMAC runs four times per derivation, with a key that changes each
// time: its own HMAC is told too, with a fix of its own.
func sumHMAC(key, data []byte) []byte {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of sumHMAC, which getSigningKey calls, which SignAll calls once per element of msgs \(the loop at loops.go:\d+\), with key key, which its callers pass; automatic fix: compute the MAC with hashsum.AppendHMACSHA256, which allocates nothing`
	mac.Write(data)
	return mac.Sum(nil)
}

// getSigningKey derives a key with 4 chained HMACs.
func getSigningKey(secret, loc string, t time.Time, service string) []byte {
	date := sumHMAC([]byte("AWS4"+secret), []byte(t.Format("20060102")))
	location := sumHMAC(date, []byte(loc))
	svc := sumHMAC(location, []byte(service))
	return sumHMAC(svc, []byte("aws4_request"))
}

func getSignature(key []byte, stringToSign string) string {
	return hex.EncodeToString(sumHMAC(key, []byte(stringToSign)))
}

// Batch signs several messages with one key, derived in the loop.
type Batch struct {
	secret string
	region string
	date   time.Time
}

// SignAll derives the same key on every iteration.
func (b *Batch) SignAll(msgs []string) []string {
	var sigs []string
	for _, m := range msgs {
		key := getSigningKey(b.secret, b.region, b.date, serviceS3) // want `hmac-rekey: getSigningKey derives a key with 4 HMACs \(at least 20 allocations\) once per .* \(the loop at loops.go:\d+\), from values fixed for each \*Batch \(secret, region, date\): the derived key does not change; derive it once and keep it`
		sigs = append(sigs, getSignature(key, m))
	}
	return sigs
}

// SignOnce returns a signature of what it is given: its callers call it
// once per message, and each call derives the same key again.
func (b *Batch) SignOnce(m string) string {
	key := getSigningKey(b.secret, b.region, b.date, serviceS3) // want `hmac-rekey: getSigningKey derives a key with 4 HMACs \(at least 20 allocations\) once per call of SignOnce \(it returns a hash of what it is given: its callers call it once per item they hash\), from values fixed for each \*Batch \(secret, region, date\): the derived key does not change; derive it once and keep it`
	return getSignature(key, m)
}

// Request is a signed request.
type Request struct{ Msg, Sig string }

// NewRequest derives the key once per request it makes, a value: nothing
// shows that to repeat per item.
func (b *Batch) NewRequest(m string) Request {
	key := getSigningKey(b.secret, b.region, b.date, serviceS3)
	return Request{Msg: m, Sig: getSignature(key, m)}
}

// SignAllSeparately derives a key per message from the message's own date:
// it changes.
func (b *Batch) SignAllSeparately(msgs []string, dates []time.Time) []string {
	var sigs []string
	for i, m := range msgs {
		key := getSigningKey(b.secret, b.region, dates[i], serviceS3)
		sigs = append(sigs, getSignature(key, m))
	}
	return sigs
}

// SignNow derives a key from the time of each message: time.Now() is not
// fixed.
func (b *Batch) SignNow(msgs []string) []string {
	var sigs []string
	for _, m := range msgs {
		key := getSigningKey(b.secret, b.region, time.Now(), serviceS3)
		sigs = append(sigs, getSignature(key, m))
	}
	return sigs
}

// SignServices changes the service in the loop that derives the key.
func (b *Batch) SignServices(msgs []string) []string {
	var sigs []string
	service := serviceS3
	for _, m := range msgs {
		key := getSigningKey(b.secret, b.region, b.date, service)
		sigs = append(sigs, getSignature(key, m))
		service = service + "x"
	}
	return sigs
}

// Signer is what SignThrough signs with; the package's own implementation,
// deriving, derives the key again for every message it is given through
// the interface.
type Signer interface {
	Sign(m string) string
}

type deriving struct {
	secret, region string
	date           time.Time
}

func (d *deriving) Sign(m string) string {
	key := getSigningKey(d.secret, d.region, d.date, serviceS3) // want `hmac-rekey: getSigningKey derives a key with 4 HMACs \(at least 20 allocations\) once per call of Sign \(it returns a hash of what it is given: its callers call it once per item they hash\), from values fixed for each \*deriving \(secret, region, date\): the derived key does not change; derive it once and keep it`
	return getSignature(key, m)
}

// SignThrough signs every message through s.
func SignThrough(s Signer, msgs []string) []string {
	var sigs []string
	for _, m := range msgs {
		sigs = append(sigs, s.Sign(m))
	}
	return sigs
}
