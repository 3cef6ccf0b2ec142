// Package callers: exported hashes of what they are given, whose presumed
// callers (once per item they hash) yield to what the package's own calls
// show: the work each of those calls is made beside.
package callers

import (
	"bytes"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
)

func site(allocs int) {}

// Every call the package makes of BodyMAC reads an HTTP body to its end
// first (a webhook's delivery): the MAC is noise beside the delivery.
func BodyMAC(body []byte, secret string) []byte {
	site(5) // want `silent: it runs once per call of BodyMAC, which the package calls only beside costlier work: from ParseDelivery \(callers.go:\d+\), which also does io.ReadAll \(an HTTP body, read from or sent to the network\) at callers.go:\d+, beside which the allocation is noise`
	s := sha256.Sum256(append([]byte(secret), body...))
	return s[:]
}

func ParseDelivery(r *http.Request, secret string, sig []byte) ([]byte, bool) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, false
	}
	return body, bytes.Equal(BodyMAC(body, secret), sig)
}

// Its twin: the same MAC, which the package also calls in a loop that does
// nothing else beside it, stays per item.
func ItemMAC(body []byte, secret string) []byte {
	site(5) // want `per item: once per call of ItemMAC \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	s := sha256.Sum256(append([]byte(secret), body...))
	return s[:]
}

func ParseItem(r *http.Request, secret string, sig []byte) bool {
	body, err := io.ReadAll(r.Body)
	return err == nil && bytes.Equal(ItemMAC(body, secret), sig)
}

func MACs(bodies [][]byte, secret string) (out [][]byte) {
	for _, b := range bodies {
		out = append(out, ItemMAC(b, secret))
	}
	return out
}

// A signer whose only caller in the package signs an HTTP request it is
// given: once per request, whose round trip the signature is a small part
// of; and a signer called by a helper that builds the string to sign, which
// only a function that sends the request calls: all of the package's
// calls are made beside a round trip, two callers up.
func SignString(key, toSign string) string {
	site(5) // want `silent: it runs once per call of SignString, which the package calls only beside costlier work: from Authorize \(callers.go:\d+\), which also does the round trip of the HTTP request it is given \(req\) at callers.go:\d+, beside which the allocation is noise`
	s := sha256.Sum256([]byte(key + toSign))
	return string(s[:])
}

func Authorize(req *http.Request, key string) {
	req.Header.Set("Authorization", SignString(key, req.Method+" "+req.URL.Path))
}

func QuerySignature(key string, params []string) string {
	site(5) // want `silent: it runs once per call of QuerySignature, which the package calls only beside costlier work: from signedQuery \(callers.go:\d+\), called from Fetch \(callers.go:\d+\), which also does http.Get \(an HTTP request\) at callers.go:\d+, beside which the allocation is noise`
	s := sha256.Sum256([]byte(key + strings.Join(params, "&")))
	return string(s[:])
}

func signedQuery(key string, params []string) string {
	return strings.Join(params, "&") + "&sig=" + QuerySignature(key, params)
}

func Fetch(base, key string, params []string) (*http.Response, error) {
	return http.Get(base + "?" + signedQuery(key, params))
}

// Its twins: a helper whose callers do not all send what they sign (one of
// them only returns it) keeps the presumption; so does a MAC of five
// allocations beside moderate work only (an event decoded from JSON), which
// a single allocation is not.
func TokenSignature(key string, params []string) string {
	site(5) // want `per item: once per call of TokenSignature \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	s := sha256.Sum256([]byte(key + strings.Join(params, "&")))
	return string(s[:])
}

func tokenQuery(key string, params []string) string {
	return strings.Join(params, "&") + "&sig=" + TokenSignature(key, params)
}

func FetchToken(base, key string, params []string) (*http.Response, error) {
	return http.Get(base + "?" + tokenQuery(key, params))
}

func Token(key string, params []string) string { return tokenQuery(key, params) }

type event struct{ Type string }

func EventMAC(payload []byte, secret string) []byte {
	site(5) // want `silent: it runs once per call of EventMAC, which the package calls only beside costlier work: from ConstructEvent \(callers.go:\d+\), which also does json.Unmarshal \(decoding a value of any type\) at callers.go:\d+, beside which the allocation is noise`
	s := sha256.Sum256(append([]byte(secret), payload...))
	return s[:]
}

func EventDigest(payload []byte, secret string) []byte {
	site(1) // want `silent: it runs once per call of EventDigest, which the package calls only beside costlier work: from ConstructEvent \(callers.go:\d+\), which also does json.Unmarshal \(decoding a value of any type\) at callers.go:\d+, beside which the allocation is noise`
	s := sha256.Sum256(append([]byte(secret), payload...))
	return s[:]
}

func ConstructEvent(payload []byte, secret string, sig []byte) (event, bool) {
	var e event
	if err := json.Unmarshal(payload, &e); err != nil {
		return e, false
	}
	return e, bytes.Equal(EventMAC(payload, secret), sig) && bytes.Equal(EventDigest(payload, secret), sig)
}

// A method of the package's interface, whose calls through that interface
// are the package's calls of it: made only beside a request sent.
type Signer interface {
	Sign(key, msg []byte) []byte
}

type HMACSigner struct{}

func (HMACSigner) Sign(key, msg []byte) []byte {
	site(5) // want `silent: it runs once per call of Sign, which the package calls only beside costlier work: from Send \(callers.go:\d+\), which also does http.Post \(an HTTP request\) at callers.go:\d+, beside which the allocation is noise`
	s := sha256.Sum256(append(key, msg...))
	return s[:]
}

func Send(s Signer, url string, key, body []byte) (*http.Response, error) {
	sig := s.Sign(key, body)
	return http.Post(url, string(sig), bytes.NewReader(body))
}

// A request a function builds is sent when it returns it for its caller
// to send (or sends it itself, or writes it): all of the package's calls
// of the signer are made beside a round trip.
func BuiltMAC(key, url string) string {
	site(5) // want `silent: it runs once per call of BuiltMAC, which the package calls only beside costlier work: from NewSigned \(callers.go:\d+\), which also does the round trip of the HTTP request it builds with http.NewRequest at callers.go:\d+, beside which the allocation is noise`
	s := sha256.Sum256([]byte(key + url))
	return string(s[:])
}

func NewSigned(url, key string) (*http.Request, error) {
	return http.NewRequest("GET", url+"?sig="+BuiltMAC(key, url), nil)
}

// A request given beside a ResponseWriter is served.
func ServedMAC(key, path string) string {
	site(5) // want `silent: it runs once per call of ServedMAC, which the package calls only beside costlier work: from Serve \(callers.go:\d+\), which also does the round trip of the HTTP request it is given \(r\) at callers.go:\d+, beside which the allocation is noise`
	s := sha256.Sum256([]byte(key + path))
	return string(s[:])
}

func Serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Sig", ServedMAC("k", r.URL.Path))
}

// Their twins: a request only read, given (a digest of its path, a query
// presigned from it) or built (a URL presigned), shows nothing sent: the
// presumption stands.
func RequestDigest(r *http.Request, secret []byte) []byte {
	site(1) // want `per item: once per call of RequestDigest \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	s := sha256.Sum256(append(secret, r.URL.Path...))
	return s[:]
}

func PresignURL(url string, secret []byte) (string, error) {
	site(1) // want `per item: once per call of PresignURL \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	s := sha256.Sum256(append(secret, url...))
	r, err := http.NewRequest("GET", url+"?sig="+string(s[:]), nil)
	if err != nil {
		return "", err
	}
	return r.URL.String(), nil
}

// Its twin, given the request's path only, and which the package does not
// call: nothing shows the request.
func PathDigest(path string, secret []byte) []byte {
	site(1) // want `per item: once per call of PathDigest \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	s := sha256.Sum256(append(secret, path...))
	return s[:]
}

// Its twins: a signing context that holds the request it signs (a URL
// presigned with it is never sent by the caller), and a request's query or
// form, are not the request: the presumption stands.
type SigningContext struct {
	Request *http.Request
	Key     []byte
}

func ContextSignature(ctx *SigningContext) error {
	site(5) // want `per item: once per call of ContextSignature \(it hashes what it is given and returns only an error: its callers call it once per item they hash\)`
	s := sha256.Sum256(append(ctx.Key, ctx.Request.URL.Path...))
	ctx.Request.Header.Set("Signature", string(s[:]))
	return nil
}

func FormDigest(form url.Values, secret []byte) []byte {
	site(1) // want `per item: once per call of FormDigest \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	s := sha256.Sum256(append(secret, form.Encode()...))
	return s[:]
}

// What a caller does in another arm of a branch is not beside the call (a
// key type's signature, beside another type's MAC), nor what the
// package's own functions do on some path (their summaries take the
// costliest branch): the presumption stands.
func NonceMAC(key, msg []byte) []byte {
	site(5) // want `per item: once per call of NonceMAC \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	s := sha256.Sum256(append(key, msg...))
	return s[:]
}

func Seal(kind int, key, msg []byte, priv ed25519.PrivateKey) []byte {
	switch kind {
	case 1:
		return ed25519.Sign(priv, msg)
	default:
		return NonceMAC(key, msg)
	}
}

func SealIf(ed bool, key, msg []byte, priv ed25519.PrivateKey) []byte {
	if ed {
		return ed25519.Sign(priv, msg)
	} else {
		return append(NonceMAC(key, msg), keyFor(ed, priv)...)
	}
}

func keyFor(ed bool, priv ed25519.PrivateKey) []byte {
	if ed {
		return ed25519.Sign(priv, nil)
	}
	return nil
}

// A check of a key against the MAC that the key's metadata holds, which
// first derives the MAC's key from it with HKDF: a key derivation, run once
// per key a user enters, not per item.
func VerifyKey(key, mac []byte) bool {
	got := keyCheck(key)
	return bytes.Equal(got, mac)
}

func keyCheck(key []byte) []byte {
	macKey, err := hkdf.Key(sha256.New, key, nil, "check", 32)
	if err != nil {
		return nil
	}
	site(5) // want `silent: it runs once per call of keyCheck, and nothing shows keyCheck to run per item`
	s := sha256.Sum256(append(macKey, key...))
	return s[:]
}

// Its twin: the same check with a key used as it is given stays per item.
func VerifyTag(key, mac []byte) bool {
	got := tagCheck(key)
	return bytes.Equal(got, mac)
}

func tagCheck(key []byte) []byte {
	site(5) // want `per item: once per call of tagCheck, which VerifyTag calls \(VerifyTag checks what it is given against a hash: its callers call it once per item they hash\)`
	s := sha256.Sum256(key)
	return s[:]
}
