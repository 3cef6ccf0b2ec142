package hashlib

import (
	"crypto"
	"crypto/ed25519"
	"crypto/rsa"
)

// Verify checks an RSA signature over what it is given: its hasher
// allocates on every call, beside the RSA verification that each call also
// does, so it is noise here and at the callers.
func Verify(pub *rsa.PublicKey, msg, sig []byte) error { // want Verify:`hashes parameter 1` Verify:`allocates 1 time per call: crypto.SHA256.New\(\) always allocates its hasher \(hashlib.Verify at keys.go:13\)$` Verify:`costs: heavy \(rsa.VerifyPKCS1v15 \(an RSA operation\)\)`
	h := crypto.SHA256.New()
	h.Write(msg)
	var sum [32]byte
	return rsa.VerifyPKCS1v15(pub, crypto.SHA256, h.Sum(sum[:0]), sig)
}

// Agree stands for a key agreement whose arithmetic is in another module
// (an X25519 of a curve library): nothing it calls is known to cost much,
// but it is given a private key of the standard library's types.
func Agree(priv ed25519.PrivateKey, peer ed25519.PublicKey) []byte {
	k := make([]byte, len(peer))
	for i := range k {
		k[i] = priv[i] ^ peer[i]
	}
	return k
}

// Mix does the same with a public key's bytes only: no key operation.
func Mix(peer, salt []byte) []byte {
	k := make([]byte, len(peer))
	for i := range k {
		k[i] = salt[i%len(salt)] ^ peer[i]
	}
	return k
}
