// Package derivedkey holds the cases of a key derivation (a chain of HMACs
// of its parameters, like AWS Signature V4's signing key) called again and
// again with values that do not change: the shape of minio-go's streaming
// signer, which derives the same signing key for every 64 KiB chunk. The
// derivations repeated by a loop are in derivedkey/loops: a loop that calls
// sumHMAC would be weaker evidence of its hotness than the Read role.
package derivedkey

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"time"
)

const (
	yyyymmdd     = "20060102"
	serviceS3    = "s3"
	terminatorV4 = "aws4_request"
)

// sumHMAC MACs data with key: the helper the derivations are made of.
func sumHMAC(key, data []byte) []byte {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of sumHMAC, which getSignature calls, which Read calls \(Read is Read of an io.Reader that reads another, which io.Copy and io.ReadAll call once per chunk\), with key key, which its callers pass`
	mac.Write(data)
	return mac.Sum(nil)
}

// getSigningKey derives the signing key with 4 chained HMACs of its
// parameters and constants: a key derivation.
func getSigningKey(secret, loc string, t time.Time, service string) []byte {
	date := sumHMAC([]byte("AWS4"+secret), []byte(t.Format(yyyymmdd)))
	location := sumHMAC(date, []byte(loc))
	svc := sumHMAC(location, []byte(service))
	return sumHMAC(svc, []byte(terminatorV4))
}

// getSignature signs with a derived key: one HMAC, not a derivation.
func getSignature(key []byte, stringToSign string) string {
	return hex.EncodeToString(sumHMAC(key, []byte(stringToSign)))
}

// StreamingReader signs each chunk it reads, chaining the signatures: the
// minio shape.
type StreamingReader struct {
	secretAccessKey string
	region          string
	serviceType     string
	reqTime         time.Time
	prevSignature   string
	r               io.Reader
	chunk           []byte
	out             []byte
}

// NewStreamingReader sets the fields that the signing key is derived from,
// in a composite literal: no statement assigns them afterwards.
func NewStreamingReader(r io.Reader, secret, region string, t time.Time) *StreamingReader {
	return &StreamingReader{secretAccessKey: secret, region: region, reqTime: t, r: r, chunk: make([]byte, 64)}
}

// Read signs every chunk it reads: io.Copy calls it once per chunk.
func (s *StreamingReader) Read(p []byte) (int, error) {
	for len(s.out) == 0 {
		n, err := s.r.Read(s.chunk)
		if n > 0 {
			s.signChunk(n)
			break
		}
		if err != nil {
			return 0, err
		}
	}
	n := copy(p, s.out)
	s.out = s.out[n:]
	return n, nil
}

func (s *StreamingReader) signChunk(n int) {
	sum := sha256.Sum256(s.chunk[:n])
	serviceType := s.serviceType
	if serviceType == "" {
		serviceType = serviceS3
	}
	sig := buildChunkSignature(hex.EncodeToString(sum[:]), s.reqTime, s.region, s.prevSignature, s.secretAccessKey, serviceType)
	s.prevSignature = sig
	s.out = append(s.out, sig...)
	s.out = append(s.out, s.chunk[:n]...)
}

func buildChunkSignature(checksum string, reqTime time.Time, region, prevSignature, secretAccessKey, serviceType string) string {
	if serviceType == "" {
		serviceType = serviceS3
	}
	signingKey := getSigningKey(secretAccessKey, region, reqTime, serviceType) // want `hmac-rekey: getSigningKey derives a key with 4 HMACs \(at least 20 allocations\) once per call of buildChunkSignature, which signChunk calls, which Read calls \(Read is Read of an io.Reader .*\), from values fixed for each \*StreamingReader \(secretAccessKey, region, reqTime, serviceType\): the derived key does not change; derive it once and keep it \(no automatic fix: keeping the key needs a field or a cache beside the values it is derived from\)`
	return getSignature(signingKey, prevSignature+checksum)
}

// CachedReader keeps the key it derives: the derivation runs once.
type CachedReader struct {
	secret string
	region string
	date   time.Time
	key    []byte
	r      io.Reader
}

// Read derives the key only when it has none.
func (c *CachedReader) Read(p []byte) (int, error) {
	if c.key == nil {
		c.key = getSigningKey(c.secret, c.region, c.date, serviceS3)
	}
	n, err := c.r.Read(p)
	_ = getSignature(c.key, string(p[:n]))
	return n, err
}

// RotatingReader's secret is assigned by Rotate: it changes.
type RotatingReader struct {
	secret string
	region string
	date   time.Time
	r      io.Reader
}

// Rotate sets a new secret.
func (r *RotatingReader) Rotate(secret string) { r.secret = secret }

// Read derives a key per chunk from a secret that may have been rotated.
func (r *RotatingReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	key := getSigningKey(r.secret, r.region, r.date, serviceS3)
	_ = getSignature(key, string(p[:n]))
	return n, err
}

// AddrReader's region is written through its address.
type AddrReader struct {
	secret string
	region string
	date   time.Time
	r      io.Reader
}

func setRegion(region *string) { *region = "eu-west-1" }

// NewAddrReader writes the region through a pointer.
func NewAddrReader(r io.Reader) *AddrReader {
	a := &AddrReader{r: r}
	setRegion(&a.region)
	return a
}

// Read derives a key per chunk.
func (a *AddrReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	key := getSigningKey(a.secret, a.region, a.date, serviceS3)
	_ = getSignature(key, string(p[:n]))
	return n, err
}

// ResetReader is assigned as a whole by Reset.
type ResetReader struct {
	secret string
	region string
	date   time.Time
	r      io.Reader
}

// Reset replaces every field.
func (z *ResetReader) Reset(r io.Reader, secret string) { *z = ResetReader{secret: secret, r: r} }

// Read derives a key per chunk.
func (z *ResetReader) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	key := getSigningKey(z.secret, z.region, z.date, serviceS3)
	_ = getSignature(key, string(p[:n]))
	return n, err
}

// ExportedReader's Secret can be set by any package.
type ExportedReader struct {
	Secret string
	region string
	date   time.Time
	r      io.Reader
}

// Read derives a key per chunk.
func (e *ExportedReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	key := getSigningKey(e.Secret, e.region, e.date, serviceS3)
	_ = getSignature(key, string(p[:n]))
	return n, err
}

// RegionReader signs with a region that its callers choose: one passes a
// field, the other an element that changes.
type RegionReader struct {
	secret  string
	region  string
	regions []string
	date    time.Time
	i       int
	r       io.Reader
}

// Read signs each chunk twice.
func (g *RegionReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	_ = g.signFor(g.region, p[:n])
	_ = g.signFor(g.regions[g.i], p[:n])
	return n, err
}

func (g *RegionReader) signFor(region string, chunk []byte) string {
	key := getSigningKey(g.secret, region, g.date, serviceS3)
	return getSignature(key, string(chunk))
}

// scope is written by SetScope: a derivation that reads it depends on more
// than its parameters.
var scope = terminatorV4

// SetScope changes the scope.
func SetScope(s string) { scope = s }

func getScopedKey(secret, loc string) []byte {
	date := sumHMAC([]byte("AWS4"+secret), []byte(loc))
	return sumHMAC(date, []byte(scope))
}

// ScopedReader derives a key from a package variable that changes.
type ScopedReader struct {
	secret string
	region string
	r      io.Reader
}

// Read derives a key per chunk.
func (c *ScopedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	key := getScopedKey(c.secret, c.region)
	_ = getSignature(key, string(p[:n]))
	return n, err
}

// chunkSigner is made anew for every chunk: its fields are fixed for the
// signer, but each chunk has a signer of its own.
type chunkSigner struct {
	secret string
	region string
	date   time.Time
}

func (c *chunkSigner) sign(chunk []byte) string {
	key := getSigningKey(c.secret, c.region, c.date, serviceS3)
	return getSignature(key, string(chunk))
}

// FreshReader signs each chunk with the next of its secrets.
type FreshReader struct {
	secrets []string
	i       int
	date    time.Time
	r       io.Reader
}

// Read makes a signer per chunk.
func (f *FreshReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.i++
	s := &chunkSigner{secret: f.secrets[f.i%len(f.secrets)], region: "us-east-1", date: f.date}
	_ = s.sign(p[:n])
	return n, err
}

// DatedReader's date is changed in place by a pointer method.
type DatedReader struct {
	secret string
	date   time.Time
	r      io.Reader
}

// SetDate parses a new date into the field.
func (d *DatedReader) SetDate(b []byte) error { return d.date.UnmarshalText(b) }

// Read derives a key per chunk.
func (d *DatedReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	key := getSigningKey(d.secret, "us-east-1", d.date, serviceS3)
	_ = getSignature(key, string(p[:n]))
	return n, err
}
