// Package fieldapi holds the structs that a keyed HMAC pool fix may or may
// not add a field to: the field it adds is unexported, and a struct that a
// positional literal builds (or that code outside the package could build
// with one) gets none: its MAC is computed with a one-shot HMAC, which keeps
// no key.
package fieldapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

var out [32]byte

// Client's fields are not all exported: no code outside the package can
// build it with a positional literal. The pool it gains is unexported,
// whatever the key's field is called.
type Client struct {
	SecretKey []byte
	region    string
}

// NewClient returns a client that signs with key.
func NewClient(key []byte) *Client { return &Client{SecretKey: key, region: "eu"} }

// Sign re-keys an HMAC on every call.
func (c *Client) Sign(msg []byte) []byte {
	mac := hmac.New(sha256.New, c.SecretKey) // want `hmac-rekey: hmac.New\(sha256.New, c.SecretKey\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*Client \(field SecretKey\); automatic fix: take mac from a pool of HMACs keyed with c\.SecretKey, held next to it`
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// Credentials is exported and so are its fields: another package may write
// fieldapi.Credentials{ak, sk}, which a new field would break.
type Credentials struct {
	AccessKey string
	SecretKey []byte
}

// Sign re-keys an HMAC on every call.
func (c *Credentials) Sign(msg []byte) []byte {
	mac := hmac.New(sha256.New, c.SecretKey) // want `hmac-rekey: hmac.New\(sha256.New, c.SecretKey\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*Credentials \(field SecretKey\); a keyed pool cannot be kept beside it \(Credentials is exported and so are all its fields: code outside the package may build it with a positional literal, which a new field would break\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// token is built with a positional literal in this package.
type token struct {
	id  string
	key []byte
}

func newToken(id string, key []byte) *token { return &token{id, key} }

// sign re-keys an HMAC on every call.
//
//hashalloc:hot
func (t *token) sign(msg []byte) []byte {
	mac := hmac.New(sha256.New, t.key) // want `hmac-rekey: hmac.New\(sha256.New, t.key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*token \(field key\); a keyed pool cannot be kept beside it \(token is built with a positional literal at fieldapi.go:\d+, which a new field would break\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// stamp is built with a positional literal by the package's tests only
// (fieldapi_test.go): the package alone gives the same verdict as with them.
type stamp struct {
	key []byte
	n   int
}

// sign re-keys an HMAC on every call.
//
//hashalloc:hot
func (s *stamp) sign(msg []byte) []byte {
	mac := hmac.New(sha256.New, s.key) // want `hmac-rekey: hmac.New\(sha256.New, s.key\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*stamp \(field key\); a keyed pool cannot be kept beside it \(stamp is built with a positional literal at fieldapi_test.go:\d+, which a new field would break\); automatic fix: compute the MAC with hashsum\.AppendHMACSHA256, which allocates nothing`
	mac.Write(msg)
	return mac.Sum(out[:0])
}

var client = NewClient([]byte("k"))

// CaseClient signs with a client that lives across calls, as signers do.
func CaseClient() { client.Sign([]byte("m")) }

// CaseCredentials signs with credentials.
func CaseCredentials() { (&Credentials{SecretKey: []byte("k")}).Sign([]byte("m")) }

// CaseToken signs with a token.
func CaseToken() { newToken("t", []byte("k")).sign([]byte("m")) }

// CaseStamp signs with a stamp.
func CaseStamp() { (&stamp{key: []byte("k")}).sign([]byte("m")) }

// ResultClient returns a MAC, which the fix must not change.
func ResultClient() string { return hex.EncodeToString(NewClient([]byte("k")).Sign([]byte("m"))) }
