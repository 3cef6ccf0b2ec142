package hmacrekey

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
)

// A record's MAC, with the key of its direction (a field fixed for the
// channel), computed for SealFile, which reads the record from a file
// beside it, and for Open, which reads nothing: the file is SealFile's
// work, not the MAC's, and along Open the MAC is per record.
type channel struct {
	writeKey, readKey []byte
}

var errBadRecord = errors.New("bad record")

func (c *channel) SealFile(name string) ([]byte, error) { // want SealFile:`costs: heavy \(os.ReadFile \(file I/O\)\)`
	rec, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return append(rec, c.recordMAC(rec, c.writeKey)...), nil
}

func (c *channel) Open(rec []byte) ([]byte, error) {
	if len(rec) < 32 || !hmac.Equal(c.recordMAC(rec[:len(rec)-32], c.readKey), rec[len(rec)-32:]) {
		return nil, errBadRecord
	}
	return rec[:len(rec)-32], nil
}

func (c *channel) recordMAC(rec, key []byte) []byte {
	h := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of recordMAC, which Open calls \(Open returns a hash of what it is given: its callers call it once per item they hash\), with key key, which its callers pass; automatic fix: compute the MAC with hashsum.AppendHMACSHA256, which allocates nothing`
	h.Write(rec)
	return h.Sum(nil)
}

var records = &channel{writeKey: []byte("write key"), readKey: []byte("read key")}

func sealed(c *channel, rec []byte) []byte {
	return append(append([]byte(nil), rec...), c.recordMAC(rec, c.readKey)...)
}

func CaseOpenRecord() {
	records.Open(sealed(records, items[0]))
}

func ResultOpenRecord() string {
	rec, err := records.Open(sealed(records, items[1]))
	_, bad := records.Open(items[1])
	return hex.EncodeToString(rec) + fmt.Sprint(err, bad)
}

// ---- Negative case. ----

// The same MAC, when every caller reads its record from a file beside it:
// the MAC is noise on every path.
func (c *channel) SealFileA(name string) ([]byte, error) { // want SealFileA:`costs: heavy \(os.ReadFile \(file I/O\)\)`
	rec, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return append(rec, c.fileMAC(rec, c.writeKey)...), nil
}

func (c *channel) SealFileB(name string) ([]byte, error) { // want SealFileB:`costs: heavy \(os.ReadFile \(file I/O\)\)`
	rec, err := os.ReadFile(name + ".rec")
	if err != nil {
		return nil, err
	}
	return append(rec, c.fileMAC(rec, c.readKey)...), nil
}

func (c *channel) fileMAC(rec, key []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(rec)
	return h.Sum(nil)
}

func CaseSealFiles() { // want CaseSealFiles:`costs: heavy \(SealFileA, which calls os.ReadFile \(file I/O\)\)`
	records.SealFileA("testdata-missing")
	records.SealFileB("testdata-missing")
}
