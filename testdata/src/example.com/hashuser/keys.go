package hashuser

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"

	"example.com/hashlib"
)

// Verified checks a signature per message: the hasher that hashlib.Verify
// allocates on every call is noise beside the RSA verification each call
// does (circl's blind RSA verifier). The digests of the second loop are
// hashlib.Lookup's alone: reported.
func Verified(pub *rsa.PublicKey, msgs [][]byte, keys []string) (n int) { // want Verified:`costs: heavy \(hashlib.Verify \(rsa.VerifyPKCS1v15 \(an RSA operation\)\)\)`
	for _, m := range msgs {
		if hashlib.Verify(pub, m, m) == nil {
			n++
		}
	}
	for _, k := range keys {
		n += len(hashlib.Lookup(k).Sum) // want `hasher-alloc: hashlib.Lookup allocates on every call, .* called once per element of keys`
	}
	return n
}

var tag [32]byte

// Open derives a key per peer with a private key and MACs the message
// under it: the derivation is a public-key operation, whatever arithmetic
// does it, beside which the HMAC is noise (a wallet's comment decrypted
// with an X25519 shared key). The second loop keys its HMACs with a mix of
// public bytes: reported.
func Open(priv ed25519.PrivateKey, peers []ed25519.PublicKey, pubs [][]byte, msg []byte) (n int) { // want Open:`costs: heavy \(hashlib.Agree \(a public-key operation: it is given priv, a private key\)\)`
	for _, p := range peers {
		k := hashlib.Agree(priv, p)
		mac := hmac.New(sha256.New, k)
		mac.Write(msg)
		n += int(mac.Sum(tag[:0])[0])
	}
	for _, p := range pubs {
		k := hashlib.Mix(p, msg)
		mac := hmac.New(sha256.New, k) // want `hmac-rekey: hmac.New\(sha256.New, k\) re-keys an HMAC \(5 allocations\) once per element of pubs`
		mac.Write(msg)
		n += int(mac.Sum(tag[:0])[0])
	}
	return n
}
