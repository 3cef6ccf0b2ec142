package concathash

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"log"
)

var (
	webhookKey = []byte("a webhook secret")
	msgID      = "msg_2Lw3"
	timestamp  = int64(1700000000)
	payload    = []byte(`{"type":"invoice.paid","amount":4200}`)
	signature  string
)

// newWebhookMAC returns the HMAC a webhook is signed with.
func newWebhookMAC() hash.Hash { return hmac.New(sha256.New, webhookKey) }

// The webhook signers' shape: the id, the timestamp and the payload
// formatted into a string, copied again into a []byte, only to be written
// into the HMAC.
//
//hashalloc:hot
func signWebhook(mac hash.Hash) string {
	toSign := fmt.Sprintf("%s.%d.%s", msgID, timestamp, payload) // want `concat-hash: toSign := fmt.Sprintf\(...\) formats a string, copied again by \[\]byte, only to hash it with mac.Write once per call of signWebhook \(it is marked //hashalloc:hot\); automatic fix: format into mac with fmt.Fprintf`
	mac.Write([]byte(toSign))
	return hex.EncodeToString(mac.Sum(nil))
}

func CaseSprintfVar() { signature = signWebhook(newWebhookMAC()) }

func ResultSprintfVar() string { return signWebhook(newWebhookMAC()) }

// The same, formatted in the Write's argument.
//
//hashalloc:hot
func signInline(mac hash.Hash) string {
	mac.Write([]byte(fmt.Sprintf("%s.%d.%s", msgID, timestamp, payload))) // want `concat-hash: fmt.Sprintf\(...\) formats a string, copied again by \[\]byte, only to hash it with mac.Write once per call of signInline \(it is marked //hashalloc:hot\); automatic fix: format into mac with fmt.Fprintf`
	return hex.EncodeToString(mac.Sum(nil))
}

func CaseSprintfInline() { signature = signInline(newWebhookMAC()) }

func ResultSprintfInline() string { return signInline(newWebhookMAC()) }

// Hashed by a sum function: no multi-part sum formats the parts.
//
//hashalloc:hot
func CaseSprintfSum() {
	out32 = sha256.Sum256([]byte(fmt.Sprintf("%s.%d.%s", msgID, timestamp, payload))) // want `concat-hash: fmt.Sprintf\(...\) formats a string, copied again by \[\]byte, only to hash it with sha256.Sum256 once per call of CaseSprintfSum \(it is marked //hashalloc:hot\); format the parts into a hasher with fmt.Fprintf \(no automatic fix: the string is hashed by sha256.Sum256, not written into a hasher that fmt.Fprintf could write into\)`
}

// A hasher on the stack: fmt.Fprintf would move it to the heap.
//
//hashalloc:hot
func CaseSprintfStackHasher() {
	h := sha256.New()
	h.Write([]byte(fmt.Sprintf("%s.%d.%s", msgID, timestamp, payload))) // want `concat-hash: fmt.Sprintf\(...\) formats a string, copied again by \[\]byte, only to hash it with h.Write once per call of CaseSprintfStackHasher \(it is marked //hashalloc:hot\); format the parts into a hasher with fmt.Fprintf \(no automatic fix: h stays on the stack: fmt.Fprintf would move it to the heap\)`
	h.Sum(out32[:0])
}

// The formatted string is used for more than the hash: it is made anyway.
//
//hashalloc:hot
func signLogged(mac hash.Hash) string {
	toSign := fmt.Sprintf("%s.%d.%s", msgID, timestamp, payload)
	log.New(nopWriter{}, "", 0).Print(toSign)
	mac.Write([]byte(toSign))
	return hex.EncodeToString(mac.Sum(nil))
}

func CaseSprintfUsedTwice() { signature = signLogged(newWebhookMAC()) }

type nopWriter struct{}

func (nopWriter) Write(b []byte) (int, error) { return len(b), nil }

// Formatted and hashed once per call of a function nothing repeats: not per
// item.
func signOnce(mac hash.Hash) string {
	mac.Write([]byte(fmt.Sprintf("%s.%d.%s", msgID, timestamp, payload)))
	return hex.EncodeToString(mac.Sum(nil))
}

func CaseSprintfCold() { signature = signOnce(newWebhookMAC()) }

// The webhook libraries' own shape: the HMAC made between the formatting
// and the Write. Formatting at the Write would evaluate the arguments after
// hmac.New: reported, without a fix.
//
//hashalloc:hot
func signBetween() string {
	toSign := fmt.Sprintf("%s.%d.%s", msgID, timestamp, payload) // want `concat-hash: toSign := fmt.Sprintf\(...\) formats a string, copied again by \[\]byte, only to hash it with h.Write once per call of signBetween \(it is marked //hashalloc:hot\); format the parts into a hasher with fmt.Fprintf \(no automatic fix: statements between the formatting and h.Write would run before the arguments are evaluated\)`

	h := newWebhookMAC()
	h.Write([]byte(toSign))
	return hex.EncodeToString(h.Sum(nil))
}

func CaseSprintfBetween() { signature = signBetween() }

// Numbers and names formatted alone: a few bytes, beside which the hash is
// the work.
//
//hashalloc:hot
func signStamp(mac hash.Hash) string {
	mac.Write([]byte(fmt.Sprintf("%d", timestamp)))
	mac.Write(payload)
	return hex.EncodeToString(mac.Sum(nil))
}
