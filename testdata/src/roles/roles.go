// Package roles holds the methods and functions that the standard library
// calls in a loop, hot by their role though nothing in their package calls
// them, and look-alikes that have no role. Every exported func CaseX() is
// measured by the oracle test: each hasher here always allocates (a
// crypto.Hash's New is not devirtualized), reported or not.
package roles

import (
	"bytes"
	"crypto"
	_ "crypto/sha256"
	"io"
	"net/http"
	"net/http/httptest"
)

var (
	data = []byte("the quick brown fox")
	buf  [64]byte
	sum  [64]byte
	req  = httptest.NewRequest("GET", "/objects/1", nil)
	rec  = httptest.NewRecorder()
)

// chunkSigner signs every chunk it reads, as a streaming upload signer
// does: io.Copy calls Read once per chunk.
type chunkSigner struct {
	r    io.Reader
	last []byte
}

func (s *chunkSigner) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher once per call of Read \(it is Read of an io.Reader that reads another, which io.Copy and io.ReadAll call once per chunk\)`
	h.Write(s.last)
	h.Write(p[:n])
	s.last = h.Sum(s.last[:0])
	return n, err
}

var signer = &chunkSigner{r: bytes.NewReader(data), last: make([]byte, 0, 64)}

func CaseRead() { signer.Read(buf[:8]) }

// sumWriter hashes what passes through it to w, once per Write.
type sumWriter struct {
	w   io.Writer
	sum []byte
}

func (w *sumWriter) Write(p []byte) (int, error) {
	h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher once per call of Write \(it is Write of an io.Writer that writes another, which io.Copy calls once per chunk\)`
	h.Write(p)
	w.sum = h.Sum(w.sum[:0])
	return w.w.Write(p)
}

// WriteTo has no role: io.Copy calls it once per copy.
func (w *sumWriter) WriteTo(dst io.Writer) (int64, error) { // want WriteTo:"params: stays"
	h := crypto.SHA256.New()
	h.Write(w.sum)
	h.Sum(sum[:0])
	return 0, nil
}

var writer = &sumWriter{w: io.Discard, sum: make([]byte, 0, 64)}

func CaseWrite()   { writer.Write(data) }
func CaseWriteTo() { writer.WriteTo(nil) }

// The handlers and the transport below run once per request (their role),
// but each request costs far more around them (net/http reads and parses it
// and writes the response; a transport's round trip crosses the network):
// beside that one hasher is noise, and nothing is reported.

// etag computes an entity tag per request.
type etag struct{}

func (etag) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := crypto.SHA256.New()
	h.Write([]byte(r.URL.Path))
	h.Sum(sum[:0])
}

func CaseServeHTTP() { etag{}.ServeHTTP(rec, req) }

// handleSum has the http.HandlerFunc signature: a handler.
func handleSum(w http.ResponseWriter, r *http.Request) {
	h := crypto.SHA256.New()
	h.Write([]byte(r.URL.Path))
	h.Sum(sum[:0])
}

func CaseHandlerFunc() { handleSum(rec, req) }

type api struct{}

// handleSum as a method: a method value handed to a mux is a handler too.
func (a *api) handleSum(w http.ResponseWriter, r *http.Request) {
	h := crypto.SHA256.New()
	h.Write([]byte(r.URL.Path))
	h.Sum(sum[:0])
}

func CaseHandlerMethod() { (&api{}).handleSum(rec, req) }

// signing signs every request the client sends.
type signing struct{}

func (signing) RoundTrip(r *http.Request) (*http.Response, error) {
	h := crypto.SHA256.New()
	h.Write([]byte(r.URL.Path))
	h.Sum(sum[:0])
	return nil, nil
}

func CaseRoundTrip() { signing{}.RoundTrip(req) }

// byDigest sorts items by their digest, hashing both sides of every
// comparison: sort.Sort calls Less O(n log n) times.
type byDigest struct {
	items [][]byte
	moves int
}

func (b *byDigest) Len() int { return len(b.items) }

func (b *byDigest) Less(i, j int) bool {
	return digestOf(b.items[i]) < digestOf(b.items[j])
}

// digestOf is hot through Less.
func digestOf(item []byte) byte {
	h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher once per call of digestOf, which Less calls \(Less is Less of a sort.Interface, which sort.Sort calls O\(n log n\) times\)`
	h.Write(item)
	return h.Sum(sum[:0])[0]
}

// Swap keeps a checksum of the moves.
func (b *byDigest) Swap(i, j int) {
	b.items[i], b.items[j] = b.items[j], b.items[i]
	h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher once per call of Swap \(it is Swap of a sort.Interface, which sort.Sort calls O\(n log n\) times\)`
	h.Write(b.items[i])
	h.Sum(sum[:0])
	b.moves++
}

var sorted = &byDigest{items: [][]byte{[]byte("b"), []byte("a")}}

func CaseLess() { sorted.Less(0, 1) }
func CaseSwap() { sorted.Swap(0, 1) }

// No role below.

type cache struct{}

// Read is not io.Reader's Read: it takes a key. It returns a hash of it,
// though, which is what runs per item.
func (c *cache) Read(key string) []byte {
	h := crypto.SHA256.New() // want `hasher-alloc: crypto.SHA256.New\(\) always allocates its hasher once per call of Read \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	h.Write([]byte(key))
	return h.Sum(sum[:0])
}

func CaseNotReader() { (&cache{}).Read("k") }

// kdf generates its output: it holds no reader, and is read once for a key
// of a fixed size (io.ReadFull(kdf, key)), not once per chunk of a stream.
type kdf struct {
	secret []byte
	out    []byte
}

func (k *kdf) Read(p []byte) (int, error) {
	h := crypto.SHA256.New()
	h.Write(k.secret)
	k.out = h.Sum(k.out[:0])
	return copy(p, k.out), nil
}

var deriver = &kdf{secret: data, out: make([]byte, 0, 64)}

func CaseGenerator() { deriver.Read(buf[:32]) }

// counter counts what is written to it: it writes nowhere else.
type counter struct{ n int }

func (c *counter) Write(p []byte) (int, error) {
	h := crypto.SHA256.New()
	h.Write(p)
	h.Sum(sum[:0])
	c.n += len(p)
	return len(p), nil
}

func CaseSink() { (&counter{}).Write(data) }

// ordered has Less but neither Len nor Swap: not a sort.Interface.
type ordered [][]byte

func (o ordered) Less(i, j int) bool {
	h := crypto.SHA256.New()
	h.Write(o[i])
	return h.Sum(sum[:0])[0] < o[j][0]
}

func CaseNotSort() { ordered{data, data}.Less(0, 1) }

// withLimit's ServeHTTP takes one more parameter: not an http.Handler.
type withLimit struct{}

func (withLimit) ServeHTTP(w http.ResponseWriter, r *http.Request, limit int) {
	h := crypto.SHA256.New()
	h.Write([]byte(r.URL.Path))
	h.Sum(sum[:0])
}

func CaseNotHandler() { withLimit{}.ServeHTTP(rec, req, 1) }

// handleErr returns an error: not an http.HandlerFunc.
func handleErr(w http.ResponseWriter, r *http.Request) error {
	h := crypto.SHA256.New()
	h.Write([]byte(r.URL.Path))
	h.Sum(sum[:0])
	return nil
}

func CaseHandlerErr() { handleErr(rec, req) }
