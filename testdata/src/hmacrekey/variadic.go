package hmacrekey

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// A MAC primitive whose message comes in parts (ComputeMAC(data
// ...[]byte)): the loop writes the parts of one message into one MAC, made
// per call with a key fixed for the primitive; VerifyMAC calls it.
type PartsMAC struct {
	key []byte
}

func (m *PartsMAC) ComputeMAC(data ...[]byte) []byte {
	h := hmac.New(sha256.New, m.key) // want `hmac-rekey: hmac.New\(sha256.New, m.key\) re-keys an HMAC \(5 allocations\) once per call of ComputeMAC, .* with a key fixed for each \*PartsMAC \(field key\); automatic fix: take h from a pool of HMACs keyed with m.key, held next to it`
	for _, d := range data {
		h.Write(d)
	}
	return h.Sum(nil)
}

func (m *PartsMAC) VerifyMAC(mac []byte, data ...[]byte) bool {
	return hmac.Equal(mac, m.ComputeMAC(data...))
}

var partsMAC = &PartsMAC{key: []byte("a parts key")}

func CasePartsMAC() {
	for _, it := range items {
		partsMAC.VerifyMAC(out[:32], it, it)
	}
}

func ResultPartsMAC() string {
	return hex.EncodeToString(partsMAC.ComputeMAC(items...)) + fmt.Sprint(partsMAC.VerifyMAC(partsMAC.ComputeMAC(items[0]), items[0]))
}

// ---- Negative cases. ----

// One MAC per batch, Reset and summed per message in the loop: the floor,
// however many batches there are.
func (m *PartsMAC) eachMAC(msgs [][]byte) (macs [][]byte) {
	h := hmac.New(sha256.New, m.key)
	for _, msg := range msgs {
		h.Reset()
		h.Write(msg)
		macs = append(macs, h.Sum(nil))
	}
	return macs
}

var batches = [][][]byte{items, items}

func CaseEachMAC() {
	for _, b := range batches {
		partsMAC.eachMAC(b)
	}
}
