package hmacrekey

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// A signer declared on one line: the keyed pool's field spreads it over lines.
type LineSigner struct{ name, key string }

func (s *LineSigner) Sign(msg []byte) string {
	mac := hmac.New(sha256.New, []byte(s.key)) // want `hmac-rekey: hmac.New\(sha256.New, \[\]byte\(s.key\)\) re-keys an HMAC \(5 allocations\) once per call of .*, with a key fixed for each \*LineSigner \(field key\), converted from a string each time; automatic fix: take mac from a pool of HMACs keyed with \[\]byte\(s\.key\), held next to it`
	mac.Write(msg)
	return s.name + hex.EncodeToString(mac.Sum(out[:0]))
}

var lineSigner = &LineSigner{name: "line:", key: "a line key"}

func CaseLineSigner() { lineSigner.Sign(items[0]) }

func ResultLineSigner() string {
	s := &LineSigner{name: "other:", key: "another key"}
	return lineSigner.Sign(items[0]) + s.Sign(items[1]) + lineSigner.Sign(items[1])
}
