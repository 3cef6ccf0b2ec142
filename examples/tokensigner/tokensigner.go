// Package tokensigner signs and verifies tokens with HMAC-SHA256, the way a
// JWT HS256 signer does: a token is header.payload.signature, each part
// base64url encoded without padding, and the signature is the HMAC of
// "header.payload" under a key fixed when the signer is built.
//
// The code is written the naive way on purpose: it re-keys an HMAC on every
// call, which hashalloc reports as hmac-rekey and rewrites (see
// cmd/hashalloc/main_test.go, which fixes a copy of it and runs its tests).
package tokensigner

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"hash"
)

// header is the JOSE header of every token: {"alg":"HS256","typ":"JWT"}.
const header = `{"alg":"HS256","typ":"JWT"}`

// b64 rejects non-canonical encodings, so that a token has one valid spelling.
var b64 = base64.RawURLEncoding.Strict()

// ErrInvalid is returned by Parse for a token that is malformed or whose
// signature does not match.
var ErrInvalid = errors.New("tokensigner: invalid token")

// Signer signs and verifies payloads with HMAC-SHA256 under one key.
type Signer struct {
	hash func() hash.Hash
	key  []byte
}

// ErrNoKey is returned by NewVerifier for an empty key.
var ErrNoKey = errors.New("tokensigner: empty key")

// NewSigner returns a Signer that signs with key. The key is copied.
func NewSigner(key []byte) *Signer {
	key = bytes.Clone(key)
	return &Signer{
		hash: sha256.New,
		key:  key,
	}
}

// NewVerifier returns a Signer for a party that only verifies tokens, such
// as a service behind the one that issues them. It refuses an empty key, with
// which anyone could forge a token. The key is copied.
func NewVerifier(key []byte) (*Signer, error) {
	if len(key) == 0 {
		return nil, ErrNoKey
	}
	return &Signer{hash: sha256.New, key: bytes.Clone(key)}, nil
}

// Sign returns the HMAC-SHA256 of payload.
func (s *Signer) Sign(payload []byte) []byte {
	mac := hmac.New(s.hash, s.key)
	mac.Write(payload)
	return mac.Sum(nil)
}

// Verify reports whether sig is the HMAC-SHA256 of payload, in constant time.
func (s *Signer) Verify(payload, sig []byte) bool {
	mac := hmac.New(s.hash, s.key)
	mac.Write(payload)
	return hmac.Equal(mac.Sum(nil), sig)
}

// Token returns the signed token header.claims.signature for the JSON claims.
func (s *Signer) Token(claims []byte) string {
	signing := b64.EncodeToString([]byte(header)) + "." + b64.EncodeToString(claims)
	return signing + "." + b64.EncodeToString(s.Sign([]byte(signing)))
}

// Parse verifies a token made by Token and returns its claims.
func (s *Signer) Parse(token string) ([]byte, error) {
	dot := bytes.LastIndexByte([]byte(token), '.')
	if dot < 0 {
		return nil, ErrInvalid
	}
	signing, sigText := token[:dot], token[dot+1:]
	head, body, ok := bytes.Cut([]byte(signing), []byte("."))
	if !ok || string(head) != b64.EncodeToString([]byte(header)) {
		return nil, ErrInvalid
	}
	sig, err := b64.DecodeString(sigText)
	if err != nil || !s.Verify([]byte(signing), sig) {
		return nil, ErrInvalid
	}
	claims, err := b64.DecodeString(string(body))
	if err != nil {
		return nil, ErrInvalid
	}
	return claims, nil
}

// SignAll returns the HMAC-SHA256 of each payload under key, in order.
func SignAll(key []byte, payloads [][]byte) [][]byte {
	sigs := make([][]byte, 0, len(payloads))
	for _, p := range payloads {
		mac := hmac.New(sha256.New, key)
		mac.Write(p)
		sigs = append(sigs, mac.Sum(nil))
	}
	return sigs
}
