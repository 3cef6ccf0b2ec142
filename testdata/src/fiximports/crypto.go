package fiximports

import "crypto"

var (
	data = []byte("data")
	sum  [64]byte
)

// The crypto import goes; crypto/sha256 comes in its place.
//
//hashalloc:hot
func digest() {
	h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher on every call of digest, which is hot \(marked //hashalloc:hot\); automatic fix: call sha256\.New directly`
	h.Write(data)
	h.Sum(sum[:0])
}

func CaseCryptoOnly() { digest() }
