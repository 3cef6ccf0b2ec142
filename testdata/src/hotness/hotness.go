// Package hotness holds the cases of what makes a function hot, and of what
// does not: test code, and a call in a loop that the loop leaves right after.
// Every exported func CaseX() is measured by the oracle test. The probe is a
// buffer too large for the stack (hot-buffer), which hot code reports
// whatever makes it hot; hashers (hasher-alloc) need stronger evidence than a
// call in a loop, see CaseCalledInLoop in package hasheralloc.
package hotness

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"io"
	"math/big"
	"testing"

	"example.com/rows"
	"golang.org/x/crypto/blake2b"
)

var (
	items = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	out   [64]byte
)

// digest allocates its hasher on every call; hot only when called in a loop
// that repeats it.
func digest(b []byte) []byte {
	buf := make([]byte, 100<<10) // want `hot-buffer: make\(\[\]byte, 100 << 10\) escapes to the heap \(passed to h.Write through an interface\) once per call of digest, which CaseRepeated calls once per .* \(the loop at hotness.go:\d+\); automatic fix: take buf from a pool of byte buffers`
	copy(buf, b)
	h, _ := blake2b.New256(nil) // want `hasher-alloc: blake2b.New256\(nil\) always allocates its hasher once per call of digest, which CaseRepeated calls once per element of items \(the loop at hotness.go:\d+\); automatic fix: compute the digest with blake2b.Sum256, which makes no hasher`
	h.Write(buf[:len(b)])
	return h.Sum(out[:0])
}

// Called on every iteration: digest is hot.
func CaseRepeated() {
	for _, it := range items {
		digest(it)
	}
}

// drawNonce is called in a loop that inverts a number modulo a prime on
// every try (an ECDSA signer's rejection sampling, as in gnark-crypto):
// beside that work its buffer is noise, and the loop is no evidence.
func drawNonce(b []byte) []byte {
	buf := make([]byte, 100<<10) // silent: the loop around the call signs
	copy(buf, b)
	h, _ := blake2b.New256(nil)
	h.Write(buf[:len(b)])
	return h.Sum(out[:0])
}

func CaseSigningLoop() { // want CaseSigningLoop:`costs: heavy \(\(\*big.Int\).ModInverse \(big-number modular arithmetic\)\)`
	order := big.NewInt(7919)
	for {
		k := new(big.Int).SetBytes(drawNonce(items[0]))
		if new(big.Int).ModInverse(k, order) != nil {
			break
		}
	}
}

// find returns the digest of the first match: the loop ends at the call.
func find(key []byte) []byte {
	for _, it := range items {
		if bytes.Equal(it, key) {
			return once(it)
		}
	}
	return nil
}

func once(b []byte) []byte {
	buf := make([]byte, 100<<10) // silent: find's loop returns with the call
	copy(buf, b)
	h, _ := blake2b.New256(nil)
	h.Write(buf[:len(b)])
	return h.Sum(out[:0])
}

func CaseReturnInLoop() { find(items[1]) }

// firstDigest's call is followed by a return, or by a break out of the loop,
// in the same block or after the if around it.
func firstDigest() []byte {
	var d []byte
	for _, it := range items {
		if len(it) > 4 {
			d = once2(it)
			break
		}
	}
	for _, it := range items {
		if len(it) > 4 {
			d = once2(it)
		}
		d = append(d, 0)
		return d
	}
	for _, it := range items {
		d = once2(it)
		if len(d) > 0 {
			panic("unreachable")
		}
		panic("unreachable")
	}
	return d
}

func once2(b []byte) []byte {
	buf := make([]byte, 100<<10) // silent: every loop of firstDigest leaves right after the call
	copy(buf, b)
	h, _ := blake2b.New256(nil)
	h.Write(buf[:len(b)])
	return h.Sum(out[:0])
}

func CaseBreakAfterCall() { firstDigest() }

// A break in a switch leaves the switch, not the loop; a continue on the way
// to the return starts the loop again: both repeat the call.
func scan() {
	for _, it := range items {
		switch len(it) {
		case 4:
			again(it)
			break
		}
	}
	for _, it := range items {
		d := again(it)
		if len(d) == 0 {
			continue
		}
		return
	}
}

func again(b []byte) []byte {
	buf := make([]byte, 100<<10) // want `hot-buffer: make\(\[\]byte, 100 << 10\) escapes to the heap \(passed to h.Write through an interface\) once per call of again, which scan calls once per .* \(the loop at hotness.go:\d+\); automatic fix: take buf from a pool of byte buffers`
	copy(buf, b)
	h, _ := blake2b.New256(nil) // want `hasher-alloc: blake2b.New256\(nil\) always allocates its hasher once per call of again, which scan calls once per element of items \(the loop at hotness.go:\d+\); automatic fix: compute the digest with blake2b.Sum256, which makes no hasher`
	h.Write(buf[:len(b)])
	return h.Sum(out[:0])
}

func CaseSwitchBreak() { scan() }

// A break out of an inner loop still runs once per iteration of the outer one.
func nested() {
	for range items {
		for _, it := range items {
			inner(it)
			break
		}
	}
}

func inner(b []byte) []byte {
	buf := make([]byte, 100<<10) // want `hot-buffer: make\(\[\]byte, 100 << 10\) escapes to the heap \(passed to h.Write through an interface\) once per call of inner, which nested calls once per .* \(the loop at hotness.go:\d+\); automatic fix: take buf from a pool of byte buffers`
	copy(buf, b)
	h, _ := blake2b.New256(nil) // want `hasher-alloc: blake2b.New256\(nil\) always allocates its hasher once per call of inner, which nested calls once per element of items \(the loop at hotness.go:\d+\); automatic fix: compute the digest with blake2b.Sum256, which makes no hasher`
	h.Write(buf[:len(b)])
	return h.Sum(out[:0])
}

func CaseNestedBreak() { nested() }

// A function that takes a *testing.T, *testing.B or testing.TB is test code,
// even in a file that is not a test: not reported, and its loops make nothing
// hot.
func checkAll(t testing.TB) {
	for _, it := range items {
		h, _ := blake2b.New256(nil) // silent: test code
		h.Write(it)
		h.Sum(out[:0])
		fromTest(it)
	}
}

func fromTest(b []byte) []byte {
	buf := make([]byte, 100<<10) // silent: only test code calls it in a loop
	copy(buf, b)
	h, _ := blake2b.New256(nil)
	h.Write(buf[:len(b)])
	return h.Sum(out[:0])
}

func benchAll(b *testing.B) {
	for _, it := range items {
		fromBench(it)
	}
}

func fromBench(b []byte) []byte {
	buf := make([]byte, 100<<10) // silent: only a benchmark helper calls it in a loop, and -tests is off
	copy(buf, b)
	h, _ := blake2b.New256(nil)
	h.Write(buf[:len(b)])
	return h.Sum(out[:0])
}

// A method of a test harness that keeps its *testing.T is test code too.
type harness struct {
	t *testing.T
}

func (h *harness) registerAll() {
	for _, it := range items {
		d, _ := blake2b.New256(nil) // silent: test code
		d.Write(it)
		d.Sum(out[:0])
	}
}

func CaseTestCode() {
	checkAll(nil)
	benchAll(nil)
	new(harness).registerAll()
}

// A method that calls itself only as what it returns hands its work on to
// another value (delegation, as a JWK thumbprint through an opaque signer's
// public key): the rest of its body runs once per outside call, so it is not
// hot.
type key struct {
	inner *key
	data  []byte
}

func (k *key) thumbprint() []byte {
	if k.inner != nil {
		return k.inner.thumbprint()
	}
	buf := make([]byte, 100<<10) // silent: delegation is not recursion
	copy(buf, k.data)
	h, _ := blake2b.New256(nil)
	h.Write(buf[:len(k.data)])
	return h.Sum(out[:0])
}

func CaseDelegation() { (&key{inner: &key{data: items[0]}}).thumbprint() }

// A table of a protocol: a handshake pattern's pre-message tokens, which
// the package sets only from literals of a few elements. A loop over them
// runs a handful of times per handshake (as flynn/noise's pre-messages),
// not per item.
type pattern struct {
	name string
	pre  [][]byte
	msgs [][]byte
}

var (
	patternK  = pattern{name: "K", pre: [][]byte{items[0]}}
	patternKK = pattern{"KK", [][]byte{items[0], items[1]}, [][]byte{items[2]}}
)

func mixPre(b []byte) []byte {
	buf := make([]byte, 100<<10) // silent: the pattern's pre-messages are a table of one or two tokens
	copy(buf, b)
	h, _ := blake2b.New256(nil)
	h.Write(buf[:len(b)])
	return h.Sum(out[:0])
}

func handshake(p pattern) {
	for _, t := range p.pre {
		mixPre(t)
	}
}

func CaseTable() { handshake(patternKK) }

// Its twin: the messages are also a caller's slice (a transcript replayed),
// a collection of any length.
func mixMsg(b []byte) []byte {
	buf := make([]byte, 100<<10) // want `hot-buffer: make\(\[\]byte, 100 << 10\) escapes to the heap \(passed to h.Write through an interface\) once per call of mixMsg, which replay calls once per element of p.msgs \(the loop at hotness.go:\d+\); automatic fix: take buf from a pool of byte buffers`
	copy(buf, b)
	h, _ := blake2b.New256(nil) // want `hasher-alloc: blake2b.New256\(nil\) always allocates its hasher once per call of mixMsg, which replay calls once per element of p.msgs \(the loop at hotness.go:\d+\); automatic fix: compute the digest with blake2b.Sum256, which makes no hasher`
	h.Write(buf[:len(b)])
	return h.Sum(out[:0])
}

func replay(p pattern) {
	for _, t := range p.msgs {
		mixMsg(t)
	}
}

func CaseTranscript() { replay(pattern{name: "replayed", msgs: items}) }

// An exported hash of what it is given presumes callers that call it once
// per item; but the package draws EpochSeed only before hashing a whole
// collection with it (as zrnt's GetSeed, before the shuffling of every
// validator): once per collection, the presumption yields to that.
func EpochSeed(epoch byte, mix []byte) []byte { // want EpochSeed:`hashes parameter 1`
	h, _ := blake2b.New256(nil) // silent: the package calls EpochSeed only beside hashing a collection
	h.Write(mix)
	h.Write([]byte{epoch})
	return h.Sum(out[:0])
}

func shuffle(epoch byte, mix, indices []byte) {
	var b [33]byte
	copy(b[:], EpochSeed(epoch, mix))
	for i := range indices {
		b[32] = byte(i)
		s := blake2b.Sum256(b[:])
		indices[i] ^= s[0]
	}
}

func CaseEpochSeed() { shuffle(1, items[0], out[:8]) }

// Its twin: SignPayload is called only by a builder that makes a token of
// it, which shows nothing of how often: the presumption stands.
func SignPayload(payload []byte) []byte { // want SignPayload:`hashes parameter 0`
	h, _ := blake2b.New256(nil) // want `hasher-alloc: blake2b.New256\(nil\) always allocates its hasher once per call of SignPayload \(it returns a hash of what it is given: its callers call it once per item they hash\); automatic fix: compute the digest with blake2b.Sum256, which makes no hasher`
	h.Write(payload)
	return h.Sum(out[:0])
}

type signedToken struct{ payload, sig []byte }

func buildToken(payload []byte) *signedToken { return &signedToken{payload, SignPayload(payload)} }

func CaseSignedToken() { buildToken(items[1]) }

// A signing key derived by a chain of HMACs, each keyed with the one before
// (as OpenStack's EC2 credentials are): a key derivation, run once per key
// its callers need; and SignatureV4, which the package calls only beside
// deriving the key it signs with, runs once per key derived.
func SigningKeyV4(secret, date, region string) []byte {
	kDate := macSum([]byte("AWS4"+secret), []byte(date))
	kRegion := macSum(kDate, []byte(region))
	return macSum(kRegion, []byte("aws4_request"))
}

func macSum(key, data []byte) []byte {
	mac := hmac.New(sha256.New, key) // silent: once per key derived
	mac.Write(data)
	return mac.Sum(nil)
}

func SignatureV4(key []byte, msg string) []byte { return macSum(key, []byte(msg)) }

func tokenRequest(secret, date, region, msg string) map[string][]byte {
	return map[string][]byte{"signature": SignatureV4(SigningKeyV4(secret, date, region), msg)}
}

func CaseSigningKeyV4() { tokenRequest("secret", "20261207", "region", "msg") }

// Its twin: two HMACs, one keyed with the other, are no chain of a key's
// derivation: DateKeyMAC returns a hash of what it is given.
func DateKeyMAC(secret, date, msg string) []byte {
	kDate := dateMAC([]byte(secret), []byte(date))
	return dateMAC(kDate, []byte(msg))
}

func dateMAC(key, data []byte) []byte {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of dateMAC, which DateKeyMAC calls \(DateKeyMAC returns a hash of what it is given: its callers call it once per item they hash\), with key key, which its callers pass; automatic fix: compute the MAC with hashsum.AppendHMACSHA256, which allocates nothing`
	mac.Write(data)
	return mac.Sum(nil)
}

func CaseDateKeyMAC() { DateKeyMAC("secret", "20261207", "msg") }

func ResultDateKeyMAC() string { return string(DateKeyMAC("secret", "20261207", "msg")) }

// A function literal that returns a hash of what it is given runs once per
// item it hashes, by presumption (a processor's masking function, handed to
// a regexp's ReplaceAllStringFunc): so does the helper it calls, whose HMAC
// is keyed anew with the same key on each call.
func newMasker(key []byte, keyed bool) func(match string) string {
	return func(match string) string {
		if keyed {
			return maskMAC(match, key)
		}
		sum := sha256.Sum256([]byte(match))
		return string(sum[:])
	}
}

func maskMAC(match string, key []byte) string {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of maskMAC, which the function literal at hotness.go:\d+ calls \(it returns a hash of what it is given: its holder calls it once per item it hashes\), with key key, which its callers pass; automatic fix: compute the MAC with hashsum.AppendHMACSHA256, which allocates nothing`
	mac.Write([]byte(match))
	return string(mac.Sum(nil))
}

func CaseMaskedValue() { newMasker(items[0], true)("value") }

func ResultMaskedValue() string { return newMasker(items[0], true)("value") }

// Its twin: the same helper, called by code that runs once (a key's label,
// computed when a processor starts).
func keyLabel(match string, key []byte) string {
	mac := hmac.New(sha256.New, key) // silent: once per call of keyLabel, which nothing shows to run per item
	mac.Write([]byte(match))
	return string(mac.Sum(nil))
}

func startProcessor(key []byte) string { return "key " + keyLabel("label", key) }

func CaseKeyLabel() { startProcessor(items[0]) }

// An expression of a query language (a SQL engine's MD5(s)) evaluates its
// child on the row it is given and returns the MD5 of the value as any:
// its result's type says nothing, its value is a hash of what it is given,
// through the child's Eval called with the row. An executor in a package
// that depends on this one evaluates it once per row.
type md5Expr struct{ child rows.Expression }

func (e *md5Expr) Eval(row rows.Row) (any, error) {
	v, err := e.child.Eval(row)
	if err != nil || v == nil {
		return nil, err
	}
	h := md5.New() // want `hasher-alloc: md5.New\(\) escapes to the heap \(passed to io.WriteString\) once per call of Eval \(it returns a hash of what it is given: its callers call it once per item they hash\); automatic fix: take h from a pool of md5.New hashers`
	io.WriteString(h, v.(string))
	return hex.EncodeToString(h.Sum(nil)), nil // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of Eval \(it returns a hash of what it is given: its callers call it once per item they hash\), only to be encoded by hex.EncodeToString; automatic fix: sum into a pooled buffer, as the hasher is pooled`
}

// column is an expression that reads a column of the row.
type column int

func (c column) Eval(row rows.Row) (any, error) { return row[c], nil }

func CaseMD5Expr() { (&md5Expr{column(0)}).Eval(rows.Row{"alpha"}) }

func ResultMD5Expr() string {
	v, _ := (&md5Expr{column(0)}).Eval(rows.Row{"alpha"})
	return v.(string)
}

// Its twin with a switch on the length of the digest (SQL's SHA2(s, n)):
// each branch's hasher, and the Sum of the one chosen, repeat per row. Each
// branch takes its hasher from a pool, given back with defer, and the Sum
// goes into a pooled buffer.
type sha2Expr struct{ child, bits rows.Expression }

func (e *sha2Expr) Eval(row rows.Row) (any, error) {
	v, err := e.child.Eval(row)
	if err != nil {
		return nil, err
	}
	n, err := e.bits.Eval(row)
	if err != nil {
		return nil, err
	}
	var h hash.Hash
	switch n {
	case 256:
		h = sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(passed to io.WriteString\) once per call of Eval \(it returns a hash of what it is given: its callers call it once per item they hash\); h holds sha256.New\(\) or sha512.New\(\), chosen by the switch at hotness.go:\d+: one finding for its 2 constructors; automatic fix: take h from a pool of sha256.New hashers`
	case 512:
		h = sha512.New()
	default:
		return nil, nil
	}
	io.WriteString(h, v.(string))
	return hex.EncodeToString(h.Sum(nil)), nil // want `sum-alloc: h.Sum\(nil\) allocates its result once per call of Eval \(it returns a hash of what it is given: its callers call it once per item they hash\), only to be encoded by hex.EncodeToString; automatic fix: sum into a pooled buffer, as the hasher is pooled`
}

type bits int

func (b bits) Eval(rows.Row) (any, error) { return int(b), nil }

func CaseSHA2Expr() {
	(&sha2Expr{column(0), bits(256)}).Eval(rows.Row{"alpha"})
	(&sha2Expr{column(0), bits(512)}).Eval(rows.Row{"alpha"})
}

// Its twins, silent. A salt's hash, as any: what is hashed derives from
// nothing the method is given, whatever it is given.
type saltExpr struct{ salt string }

func (e *saltExpr) Eval(row rows.Row) (any, error) {
	h := md5.New() // silent: nothing shows Eval to run per item
	io.WriteString(h, e.salt)
	return hex.EncodeToString(h.Sum(nil)), nil
}

func CaseSaltExpr() { (&saltExpr{"salt"}).Eval(nil) }

// A value's hash kept to remember it, while the value itself is returned:
// the result is no hash.
type dedupExpr struct {
	child rows.Expression
	seen  map[string]bool
}

func (e *dedupExpr) Eval(row rows.Row) (any, error) {
	v, err := e.child.Eval(row)
	if err != nil {
		return nil, err
	}
	h := md5.New() // silent: nothing shows Eval to run per item
	io.WriteString(h, v.(string))
	e.seen[hex.EncodeToString(h.Sum(nil))] = true
	return v, nil
}

func CaseDedupExpr() { (&dedupExpr{column(0), map[string]bool{}}).Eval(rows.Row{"alpha"}) }

// A value made of the hash: a constructor, which runs once per value made.
type digestRow struct{ sum []byte }

type digestExpr struct{ child rows.Expression }

func (e *digestExpr) Eval(row rows.Row) (any, error) {
	v, err := e.child.Eval(row)
	if err != nil {
		return nil, err
	}
	h := md5.New() // silent: nothing shows Eval to run per item
	io.WriteString(h, v.(string))
	return &digestRow{h.Sum(nil)}, nil
}

func CaseDigestExpr() { (&digestExpr{column(0)}).Eval(rows.Row{"alpha"}) }
