// Package hmaconce holds one-shot HMACs whose statements have others
// between them: the fix moves the key and the parts to the Sum, past those
// statements, when they leave them as they were. Every exported func CaseX()
// is measured by the oracle test, and every func ResultX() string returns
// the same before and after the fixes.
package hmaconce

import (
	"crypto"
	"crypto/hmac"
	"crypto/sha256"
	_ "crypto/sha512" // HS512's hash, linked as a JWT library links it
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
)

type event struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

var (
	keys   = [][]byte{[]byte("k1"), []byte("k2"), []byte("k3")}
	events = []event{{1, "a"}, {2, "b"}, {3, "c"}}
	out    [32]byte
	count  int

	encoded string
)

// The payload is encoded between hmac.New and its Write.
//
//hashalloc:hot
func signEvent(key []byte, e event) ([]byte, error) {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of signEvent \(it is marked //hashalloc:hot\), with key key, which its callers pass; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	payload, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	mac.Write(payload)
	return mac.Sum(nil), nil
}

func CaseSignEvent() { signEvent(keys[0], events[0]) } // want CaseSignEvent:`costs: moderate \(signEvent, which calls json.Marshal \(encoding\)\)`

func ResultSignEvent() string { // want ResultSignEvent:`costs: moderate \(signEvent, which calls json.Marshal \(encoding\)\)`
	sig, err := signEvent(keys[1], events[1])
	return hex.EncodeToString(sig) + fmt.Sprint(err)
}

// Unrelated statements between the Writes, in a loop.
func CaseBetweenWrites() {
	for i, k := range keys {
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) re-keys an HMAC \(5 allocations\) once per .* \(the loop at hmaconce.go:\d+\), with a key that changes from iteration to iteration \(k\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
		count++
		name := []byte(events[i].Name)
		mac.Write(name)
		id := []byte{byte(events[i].ID)}
		mac.Write(id)
		mac.Sum(out[:0])
	}
}

func ResultBetweenWrites() string {
	CaseBetweenWrites()
	return hex.EncodeToString(out[:])
}

// The sum is only encoded: the one-shot HMAC takes the place of this very
// Sum, so sum-alloc has nothing to add (with a key held across calls it
// does: hmacrekey's CaseCheckLoop).
func CaseEncodedSum() {
	for _, k := range keys {
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) re-keys an HMAC \(5 allocations\) once per .* \(the loop at hmaconce.go:\d+\), with a key that changes from iteration to iteration \(k\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
		mac.Write(k)
		encoded = hex.EncodeToString(mac.Sum(nil))
	}
}

func ResultEncodedSum() string {
	CaseEncodedSum()
	return encoded
}

// ---- Reported without a fix: what blocks it, precisely. ----

// The key changes between hmac.New and the Sum.
func CaseKeyChanged() {
	for _, k := range keys {
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) .* with a key that changes from iteration to iteration \(k\); compute it with a one-shot HMAC \(no automatic fix: the key is read from k, which k = k\[1:\] at hmaconce.go:\d+ uses before the Sum\)`
		k = k[1:]
		mac.Write(k)
		mac.Sum(out[:0])
	}
}

// A part changes after its Write.
func CasePartChanged() {
	for _, k := range keys {
		buf := []byte("part")
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) .* with a key that changes from iteration to iteration \(k\); compute it with a one-shot HMAC \(no automatic fix: buf \(written into the MAC at hmaconce.go:\d+\) is read from buf, which buf\[0\] = 'P' at hmaconce.go:\d+ uses before the Sum\)`
		mac.Write(buf)
		buf[0] = 'P'
		mac.Sum(out[:0])
	}
}

type config struct{ key []byte }

var current = &config{key: []byte("current")}

func refresh() { current.key = []byte("refreshed") }

// A key read through a field: a call could change it without naming it.
func CaseCallBetween() {
	for range keys {
		cfg := current
		mac := hmac.New(sha256.New, cfg.key) // want `hmac-rekey: hmac.New\(sha256.New, cfg.key\) .* with a key that changes from iteration to iteration \(cfg\.key\); compute it with a one-shot HMAC \(no automatic fix: the key is read through cfg.key, which refresh, called by refresh\(\) at hmaconce.go:\d+, could change before the Sum\)`
		refresh()
		mac.Write(keys[0])
		mac.Sum(out[:0])
	}
}

// The MAC itself is used between.
func CaseMACUsed() {
	for _, k := range keys {
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) .* with a key that changes from iteration to iteration \(k\); compute it with a one-shot HMAC \(no automatic fix: the MAC is used for more than Write and one Sum, by count \+= mac.Size\(\) at hmaconce.go:\d+\)`
		mac.Write(k)
		count += mac.Size()
		mac.Sum(out[:0])
	}
}

// The MAC is used after its Sum.
func CaseUsedAfter() {
	for _, k := range keys {
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) .* with a key that changes from iteration to iteration \(k\); compute it with a one-shot HMAC \(no automatic fix: the MAC is used for more than Write and one Sum, after the Sum at hmaconce.go:\d+\)`
		mac.Write(k)
		mac.Sum(out[:0])
		mac.Reset()
	}
}

var arrayKeys = [][32]byte{{1}, {2}, {3}}

// A key sliced from an array: evaluated at the Sum, it reads the same bytes.
func CaseArrayKey() {
	for _, k := range arrayKeys {
		mac := hmac.New(sha256.New, k[:]) // want `hmac-rekey: hmac.New\(sha256.New, k\[:\]\) re-keys an HMAC \(5 allocations\) once per element of arrayKeys \(the loop at hmaconce.go:\d+\), with a key read or computed per call \(k\[:\]\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
		mac.Write(keys[0])
		mac.Sum(out[:0])
	}
}

var sharedKey [32]byte

// A key sliced from a package array, with a call between that could change it.
func CaseArrayKeyCallBetween() {
	for range keys {
		mac := hmac.New(sha256.New, sharedKey[:]) // want `hmac-rekey: hmac.New\(sha256.New, sharedKey\[:\]\) .*; compute it with a one-shot HMAC \(no automatic fix: the key is read through sharedKey\[:\], which refresh, called by refresh\(\) at hmaconce.go:\d+, could change before the Sum\)`
		refresh()
		mac.Write(keys[0])
		mac.Sum(out[:0])
	}
}

func ResultArrayKey() string {
	CaseArrayKey()
	return hex.EncodeToString(out[:32])
}

// Writes whose error is checked: hash.Hash's Write never returns one, so the
// checks go with the Writes.
func signChecked(key, msg []byte) ([]byte, error) {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of signChecked, which CaseChecked calls once per element of keys \(the loop at hmaconce.go:\d+\), with key key, which its callers pass; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	if _, err := mac.Write(msg); err != nil {
		return nil, err
	}
	_, err := mac.Write(keys[0])
	if err != nil {
		return nil, fmt.Errorf("mac: %w", err)
	}
	return mac.Sum(out[:0]), nil
}

func CaseChecked() {
	for _, k := range keys {
		signChecked(k, keys[1])
	}
}

func ResultChecked() string {
	sig, err := signChecked(keys[2], keys[1])
	return hex.EncodeToString(sig) + fmt.Sprint(err)
}

// An error that is used after its check is kept, and so is the MAC.
func signErrKept(key, msg []byte) ([]byte, error) {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) .* \(no automatic fix: the error of _, err := mac.Write\(msg\) at hmaconce.go:\d+ is used beyond an if err != nil that follows it\)`
	_, err := mac.Write(msg)
	if err != nil {
		return nil, err
	}
	return mac.Sum(out[:0]), err
}

func CaseErrKept() {
	for _, k := range keys {
		signErrKept(k, keys[1])
	}
}

// A webhook's signature checked into named results (mailgun's
// VerifyWebhookSignature): the errors of the Writes go to err, which holds
// nil before them and after them, so the Writes and their checks go.
func verifyWebhook(signingKey, timestamp, token, signature string) (verified bool, err error) {
	h := hmac.New(sha256.New, []byte(signingKey)) // want `hmac-rekey: hmac.New\(sha256.New, \[\]byte\(signingKey\)\) re-keys an HMAC \(5 allocations\) once per call of verifyWebhook.*; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`

	_, err = io.WriteString(h, timestamp)
	if err != nil {
		return false, err
	}
	_, err = io.WriteString(h, token)
	if err != nil {
		return false, err
	}

	calculated := h.Sum(nil)
	want, err := hex.DecodeString(signature)
	if err != nil {
		return false, err
	}
	return hmac.Equal(calculated, want), err
}

// Its negative twin: err may hold another error before the Write, which
// the Write would set to nil and the fix would keep.
func verifyWebhookLate(signingKey, timestamp, signature string) (verified bool, err error) {
	want, err := hex.DecodeString(signature)
	h := hmac.New(sha256.New, []byte(signingKey)) // want `hmac-rekey: hmac.New\(sha256.New, \[\]byte\(signingKey\)\) .*\(no automatic fix: the error of _, err = io.WriteString\(h, timestamp\) at hmaconce.go:\d+ is assigned to err, which nothing shows to hold nil before it: deleted with the Write, it would keep what it held\)`
	_, err = io.WriteString(h, timestamp)
	if err != nil {
		return false, err
	}
	return hmac.Equal(h.Sum(nil), want), err
}

var signatures = []string{"00", "zz"}

func CaseVerifyWebhook() {
	for _, sig := range signatures {
		verifyWebhook("key", "1700000000", "token", sig)
		verifyWebhookLate("key", "1700000000", sig)
	}
}

func ResultVerifyWebhook() string {
	const good = "2a33c3249900da6874552b261be25faacf0e833bc2d0f0f7bc4339dda5614249" // HMAC-SHA256 of "1700000000token" under "key"
	a, errA := verifyWebhook("key", "1700000000", "token", good)
	b, errB := verifyWebhook("key", "1700000000", "token", "zz")
	c, errC := verifyWebhookLate("key", "1700000000", "zz")
	return fmt.Sprint(a, errA, b, errB, c, errC)
}

// SigningMethod signs with a hash chosen at run time and a key given per
// call, as JWT libraries do: AppendHMAC dispatches on the hash.
type SigningMethod struct {
	Name string
	Hash crypto.Hash
}

func (m *SigningMethod) Sign(signingString string, key []byte) ([]byte, error) {
	if !m.Hash.Available() {
		return nil, fmt.Errorf("%s: hash unavailable", m.Name)
	}
	hasher := hmac.New(m.Hash.New, key) // want `hmac-rekey: hmac.New\(m.Hash.New, key\) re-keys an HMAC \(5 allocations\) once per call of Sign \(it returns a hash of what it is given: its callers call it once per item they hash\), with key key, which its callers pass; automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing`
	hasher.Write([]byte(signingString))
	return hasher.Sum(nil), nil
}

var (
	hs256 = &SigningMethod{Name: "HS256", Hash: crypto.SHA256}
	hs512 = &SigningMethod{Name: "HS512", Hash: crypto.SHA512}
)

func CaseCryptoHash() {
	for _, k := range keys {
		hs256.Sign("header.payload", k)
	}
}

func ResultCryptoHash() string {
	a, _ := hs256.Sign("header.payload", keys[0])
	b, _ := hs512.Sign("header.payload", keys[1])
	return hex.EncodeToString(a) + hex.EncodeToString(b)
}
