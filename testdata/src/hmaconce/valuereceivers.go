package hmaconce

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
)

// ---- A key held where no keyed pool can be kept: the one-shot HMAC, which
// keeps no key, needs no field. ----

// PRF holds its key in an exported type with value receivers, as tink's
// HMACPRF does: a pool in the receiver would be a copy, and pointer
// receivers would change the API.
type PRF struct {
	key []byte
}

// Compute returns the MAC of msg.
func (p PRF) Compute(msg []byte) []byte {
	mac := hmac.New(sha256.New, p.key) // want `hmac-rekey: hmac.New\(sha256.New, p.key\) re-keys an HMAC \(5 allocations\) once per call of Compute .*, with a key fixed for each PRF \(field key\); a keyed pool cannot be kept beside it \(p is a copy, and a pool in it would not outlive the call; pointer receivers would keep it, but PRF is exported: code outside the package may hold PRF values\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	mac.Write(msg)
	return mac.Sum(nil)
}

// Size uses the MAC for more than Write and Sum: neither rung holds.
func (p PRF) Size(msg []byte) int {
	mac := hmac.New(sha256.New, p.key) // want `hmac-rekey: .* with a key fixed for each PRF \(field key\); keep a keyed HMAC pool next to the key \(no automatic fix: p is a copy, and a pool in it would not outlive the call; pointer receivers would keep it, but PRF is exported: code outside the package may hold PRF values\)`
	mac.Write(msg)
	return mac.Size() + len(mac.Sum(nil))
}

// Credentials is exported and so are its fields, as qiniu's are: code
// outside the package may build it with a positional literal, which a
// pool's field would break.
type Credentials struct {
	AccessKey string
	SecretKey []byte
}

// Sign returns the MAC of data.
func (c *Credentials) Sign(data []byte) string {
	mac := hmac.New(sha1.New, c.SecretKey) // want `hmac-rekey: .* with a key fixed for each \*Credentials \(field SecretKey\); a keyed pool cannot be kept beside it \(Credentials is exported and so are all its fields: code outside the package may build it with a positional literal, which a new field would break\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA1, which allocates nothing`
	mac.Write(data)
	return c.AccessKey + ":" + hex.EncodeToString(mac.Sum(nil))
}

// SignRefreshed refreshes the key between hmac.New and the Write: read at
// the Sum, the key would be the refreshed one.
func (c *Credentials) SignRefreshed(data []byte) string {
	mac := hmac.New(sha1.New, c.SecretKey) // want `hmac-rekey: .* with a key fixed for each \*Credentials \(field SecretKey\); keep a keyed HMAC pool next to the key \(no automatic fix: Credentials is exported and so are all its fields: code outside the package may build it with a positional literal, which a new field would break\)`
	c.refresh()
	mac.Write(data)
	return hex.EncodeToString(mac.Sum(out[:0]))
}

func (c *Credentials) refresh() { c.SecretKey = append(c.SecretKey[:0:0], c.SecretKey...) }

var (
	prf   = PRF{key: []byte("prf key")}
	creds = &Credentials{"ak", []byte("sk")}
)

func CasePRF()           { prf.Compute(keys[0]) }
func CasePRFSize()       { prf.Size(keys[0]) }
func CaseCredentials()   { creds.Sign(keys[0]) }
func CaseRefreshed()     { creds.SignRefreshed(keys[0]) }
func ResultPRF() string  { return hex.EncodeToString(prf.Compute(keys[1])) }
func ResultSign() string { return creds.Sign(keys[1]) + " " + creds.SignRefreshed(keys[2]) }

// ---- A key or a part that runs code: evaluated into a variable where it
// was, so that it runs once, in the same order. ----

// signURL writes the path and query joined, as qiniu's pili signs a
// publish URL.
//
//hashalloc:hot
func signURL(key string, u *url.URL) string {
	mac := hmac.New(sha1.New, []byte(key)) // want `hmac-rekey: hmac.New\(sha1.New, \[\]byte\(key\)\) re-keys an HMAC \(5 allocations\) once per call of signURL .*, with key key, which its callers pass; automatic fix: compute the MAC with hashsum\.AppendHMACSHA1, which allocates nothing`
	mac.Write([]byte(u.Path + "?" + u.RawQuery))
	return hex.EncodeToString(mac.Sum(nil))
}

// hook holds a signing key that a method returns, as mailgun's does.
type hook struct {
	signingKey string
	calls      int
}

func (h *hook) key() string {
	h.calls++
	return h.signingKey
}

func (h *hook) next() []byte {
	h.calls++
	return []byte{byte(h.calls)}
}

// tag calls the key's method at hmac.New and writes parts that count the
// calls too: the fix keeps every call where it was, in that order.
//
//hashalloc:hot
func (h *hook) tag(token []byte) []byte {
	mac := hmac.New(sha256.New, []byte(h.key())) // want `hmac-rekey: hmac.New\(sha256.New, \[\]byte\(h.key\(\)\)\) re-keys an HMAC \(5 allocations\) once per call of tag .*, with a key read or computed per call \(h.key\(\)\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	mac.Write(token)
	mac.Write(h.next())
	mac.Write(h.next())
	return mac.Sum(nil)
}

// verifyKeyed keys with a field of the hook it is given and writes a part
// whose call may change it: read at the Sum, the key would be what the call
// left.
//
//hashalloc:hot
func verifyKeyed(h *hook, token, sig []byte) bool {
	mac := hmac.New(sha256.New, []byte(h.signingKey)) // want `hmac-rekey: .*; compute it with a one-shot HMAC \(no automatic fix: the key is read from h, which h.rotate\(token\) at valuereceivers.go:\d+ uses before the Sum\)`
	mac.Write(h.rotate(token))
	return hmac.Equal(mac.Sum(nil), sig)
}

func (h *hook) rotate(token []byte) []byte {
	h.signingKey += "'"
	return token
}

// verifyStream writes through io.WriteString, with a key computed per call:
// the key is evaluated into a variable where hmac.New took it, and the
// string is written as a part.
//
//hashalloc:hot
func (h *hook) verifyStream(token string, sig []byte) bool {
	mac := hmac.New(sha256.New, []byte(h.key())) // want `hmac-rekey: .*; automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	io.WriteString(mac, token)
	return hmac.Equal(mac.Sum(nil), sig)
}

var (
	publish = &url.URL{Path: "/live/stream", RawQuery: "e=1700000000"}
	hk      = &hook{signingKey: "webhook key"}
)

func CaseSignURL()      { signURL("publish key", publish) }
func CaseTag()          { hk.tag(keys[0]) }
func CaseVerifyKeyed()  { verifyKeyed(hk, keys[0], out[:]) }
func CaseVerifyStream() { hk.verifyStream("token", out[:]) }

// ResultHoisted returns the URL's MAC, the tag, the calls counted, and
// what the keyed and streamed verifiers say.
func ResultHoisted() string {
	h := &hook{signingKey: "k"}
	tag := h.tag(keys[0])
	verdicts := fmt.Sprint(verifyKeyed(h, keys[1], tag), h.verifyStream("t", tag))
	return signURL("publish key", publish) + " " + hex.EncodeToString(tag) + " " + fmt.Sprint(h.calls) + " " + verdicts
}

// ---- A part printed into the MAC: fmt.Appendf prints it into an array on
// the stack, which the one-shot HMAC reads. ----

// xsrfToken prints the user and the time into the MAC, as x/net's xsrftoken
// does.
//
//hashalloc:hot
func xsrfToken(key, userID string, now int64) string {
	h := hmac.New(sha1.New, []byte(key)) // want `hmac-rekey: hmac.New\(sha1.New, \[\]byte\(key\)\) re-keys an HMAC \(5 allocations\) once per call of xsrfToken .*, with key key, which its callers pass; automatic fix: compute the MAC with hashsum\.AppendHMACSHA1, which allocates nothing`
	fmt.Fprintf(h, "%s:%d", userID, now)
	return hex.EncodeToString(h.Sum(nil))
}

// xsrfSized prints what the MAC itself says: it is used before its Sum.
//
//hashalloc:hot
func xsrfSized(key, userID string) string {
	h := hmac.New(sha1.New, []byte(key)) // want `hmac-rekey: .*; compute it with a one-shot HMAC \(no automatic fix: the MAC is used for more than Write and one Sum, by fmt.Fprint\(h, userID, h.Size\(\)\) at valuereceivers.go:\d+\)`
	fmt.Fprint(h, userID, h.Size())
	return hex.EncodeToString(h.Sum(nil))
}

func CaseXSRFToken() { xsrfToken("xsrf key", "user@example.com", 1700000000) }
func CaseXSRFSized() { xsrfSized("xsrf key", "user@example.com") }

// ResultXSRF returns both tokens, one of a text longer than the array.
func ResultXSRF() string {
	long := string(make([]byte, 100))
	return xsrfToken("k", "user", 1) + " " + xsrfToken("k", long, 2) + " " + xsrfSized("k", "user")
}
