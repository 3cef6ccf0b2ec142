package parity

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"io"
)

// PayloadHash copies a payload into a hasher and encodes its sum.
//
//hashalloc:hot
func PayloadHash(b []byte) string {
	h := sha1.New()
	io.Copy(h, bytes.NewReader(b))
	return hex.EncodeToString(h.Sum(nil))
}
