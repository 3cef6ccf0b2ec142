// Package share: sites that are a small share of what each repetition does.
package share

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"

	"codec"
)

func site(allocs int) {}

// Key stretching dominates each try.
func tries(passwords []string) {
	for _, p := range passwords {
		site(5) // want `silent: each iteration also calls pbkdf2.Key \(key stretching\) at share.go:\d+, beside which the allocation is noise`
		pbkdf2.Key(sha256.New, p, nil, 100000, 32)
	}
}

// So does an RSA signature, through a helper of the package.
func signAll(k *rsa.PrivateKey, msgs [][]byte) {
	for _, m := range msgs {
		site(5) // want `silent: each iteration also calls sign, which calls rsa.SignPKCS1v15 \(an RSA operation\) at share.go:\d+`
		sign(k, m)
	}
}

func sign(k *rsa.PrivateKey, m []byte) {
	d := sha256.Sum256(m)
	rsa.SignPKCS1v15(rand.Reader, k, crypto.SHA256, d[:])
}

// And file I/O, for a site in the function the loop calls.
func hashFiles(names []string) {
	for _, n := range names {
		hashFile(n)
	}
}

func hashFile(name string) {
	site(1) // want `silent: each call also does os.ReadFile \(file I/O\) at share.go:\d+, beside which the allocation is noise`
	b, _ := os.ReadFile(name)
	_ = sha256.Sum256(b)
}

// Formatting a string allocates more than a single site does: a sum's one
// allocation beside it is noise, an HMAC's five are not. Formatting into a
// writer (the hasher itself, here) costs nothing of its own.
func keys(ids []int, h hash.Hash) {
	for _, id := range ids {
		site(1) // want `silent: each iteration also calls fmt.Sprintf \(formatting\) at share.go:\d+`
		site(5) // want `per item: once per element of ids \(the loop at share\.go:\d+\)`
		_ = []byte(fmt.Sprintf("%d:%d", id, id))
	}
	for _, id := range ids {
		site(1) // want `per item: once per element of ids \(the loop at share\.go:\d+\)`
		fmt.Fprintf(h, "%d", id)
	}
}

// A curve's constructor and its parameters do no arithmetic: no cost.
func curves(keys []*ecdsa.PublicKey) {
	for _, k := range keys {
		site(1) // want `per item: once per element of keys \(the loop at share\.go:\d+\)`
		_ = k.Curve == elliptic.P256() && k.Curve.Params().BitSize == 256
	}
}

// So do a key's accessors.
func publicKeys(keys []ed25519.PrivateKey, pub ed25519.PublicKey) (n int) {
	for _, k := range keys {
		site(1) // want `per item: once per element of keys \(the loop at share\.go:\d+\)`
		if pub.Equal(k.Public()) {
			n++
		}
	}
	return n
}

// Encoding costs more than one allocation, less than an HMAC's five.
func encodeAll(vs []any) {
	for _, v := range vs {
		site(1) // want `silent: each iteration also calls json.Marshal \(encoding\) at share.go:\d+`
		site(5) // want `per item: once per element of vs \(the loop at share\.go:\d+\)`
		json.Marshal(v)
	}
}

// Decoding a value of any type, from bytes or from a reader, costs more
// than an HMAC's five allocations, not more than a buffer's zeroing;
// writing a value into a writer encodes it, which costs less, and a value
// decoded in one arm of a branch is not every repetition's work.
func decodeAll(msgs [][]byte, r io.Reader, vs []any, w io.Writer) {
	for _, m := range msgs {
		var v map[string]any
		site(5)    // want `silent: each iteration also calls json.Unmarshal \(decoding a value of any type\) at share.go:\d+, beside which the allocation is noise`
		site(4096) // want `per item: once per element of msgs \(the loop at share\.go:\d+\)`
		json.Unmarshal(m, &v)
	}
	d := json.NewDecoder(r)
	for d.More() {
		var v map[string]any
		site(5) // want `silent: each iteration also calls \(\*json.Decoder\).Decode \(decoding a value of any type\) at share.go:\d+, beside which the allocation is noise`
		d.Decode(&v)
	}
	for _, v := range vs {
		site(5) // want `per item: once per element of vs \(the loop at share\.go:\d+\)`
		binary.Write(w, binary.BigEndian, v)
	}
	for d.More() {
		var n uint64
		site(5) // want `per item: once per iteration \(the loop at share\.go:\d+\)`
		binary.Read(r, binary.BigEndian, &n)
	}
	for _, m := range msgs {
		var v map[string]any
		site(5) // want `per item: once per element of msgs \(the loop at share\.go:\d+\)`
		if len(m) > 1 && m[0] == '{' {
			json.Unmarshal(m, &v) // on one path only: not every iteration's work
		}
	}
}

// keyAgreement is implemented by the package: a call of DH costs what its
// implementations cost, the costliest of them.
type keyAgreement interface {
	DH(priv, pub []byte) []byte
}

type curveKA struct{ curve elliptic.Curve }

func (k curveKA) DH(priv, pub []byte) []byte {
	x, y := elliptic.Unmarshal(k.curve, pub)
	x, _ = k.curve.ScalarMult(x, y, priv)
	return x.Bytes()
}

type xorKA struct{}

func (xorKA) DH(priv, pub []byte) []byte { return append(priv, pub...) }

// A handshake's tokens: each DH token does a curve operation beside the
// site.
func handshake(ka keyAgreement, tokens [][]byte, priv []byte) {
	for _, pub := range tokens {
		ka.DH(priv, pub)
		site(5) // want `silent: each iteration also calls ka.DH \(the package's curveKA.DH, which calls .*\) at share.go:\d+, beside which the allocation is noise`
	}
}

// cheapOnly's only implementation does no more than the site: per item.
type cheapOnly interface{ Mix(b []byte) []byte }

type plainMix struct{}

func (plainMix) Mix(b []byte) []byte { return b }

func mixAll(c cheapOnly, items [][]byte) {
	for _, it := range items {
		c.Mix(it)
		site(5) // want `per item: once per element of items \(the loop at share.go:\d+\)`
	}
}

// A method of a costly package's interface costs what that package's
// functions cost, whoever implements it.
func scalarAll(c elliptic.Curve, ks [][]byte) {
	for _, k := range ks {
		site(5) // want `silent: each iteration also calls \(elliptic.Curve\).ScalarBaseMult \(a curve operation\) at share.go:\d+, beside which the allocation is noise`
		c.ScalarBaseMult(k)
	}
}

// io.CopyN allocates a LimitedReader and a 32 KiB buffer per call: a
// hasher per piece is a small part of each piece.
func pieces(r io.Reader, n int) {
	for range n {
		h := sha256.New()
		site(1) // want `silent: each iteration also calls io.CopyN \(a copy through a 32 KiB buffer of its own\) at share.go:\d+, beside which the allocation is noise`
		io.CopyN(h, r, 1<<18)
	}
}

// The work of each command spans the loops over the commands: started and
// waited for in two loops, its output's hasher summed in a third.
type command struct {
	cmd *exec.Cmd
	sum []byte
}

func runAll(cmds []*command) {
	for _, c := range cmds {
		c.cmd.Start()
	}
	for _, c := range cmds {
		c.cmd.Wait()
	}
	for _, c := range cmds {
		site(1) // want `silent: each iteration also calls \(\*exec.Cmd\).Start \(running a process\) at share.go:\d+, beside which the allocation is noise`
		c.sum = nil
	}
}

// Other collections' loops are not the items' work.
func sumOthers(cmds, others []*command) {
	for _, c := range others {
		c.cmd.Start()
	}
	for _, c := range cmds {
		site(1) // want `per item: once per element of cmds \(the loop at share.go:\d+\)`
		c.sum = nil
	}
}

// A stream opened and closed per file: the hasher is a small part of each.
func hashOpened(files []string, open func(string) (io.ReadCloser, error)) {
	for _, f := range files {
		r, _ := open(f)
		site(1) // want `silent: each iteration also calls open \(opening a stream\) at share.go:\d+, beside which the allocation is noise`
		r.Close()
	}
}

// io.Copy from a section of a file allocates its 32 KiB buffer per call: a
// hasher per region is a small part of each.
func regions(f io.ReaderAt, offs []int64) {
	for _, off := range offs {
		h := sha256.New()
		site(1) // want `silent: each iteration also calls io.Copy \(a copy through a 32 KiB buffer of its own\) at share.go:\d+, beside which the allocation is noise`
		io.Copy(h, io.NewSectionReader(f, off, 1<<20))
	}
}

// From a reader of an interface type, which may write itself (WriteTo):
// not counted.
func streams(rs []io.Reader) {
	for _, r := range rs {
		h := sha256.New()
		site(1) // want `per item: once per element of rs \(the loop at share.go:\d+\)`
		io.Copy(h, r)
	}
}

// A value of any type encoded per item, by reflection or a type switch: a
// single allocation beside it is noise, five are not.
func encodeEach(msgs []any) {
	for _, m := range msgs {
		site(1) // want `silent: each iteration also calls codec.Encode \(encoding a value of any type\) at share.go:\d+, beside which the allocation is noise`
		sha256.Sum256(codec.Encode(m))
	}
	for _, m := range msgs {
		site(5) // want `per item: once per element of msgs \(the loop at share.go:\d+\)`
		sha256.Sum256(codec.Encode(m))
	}
}

// Formatting a list, converting a value of a known type, or testing one is
// not encoding a value of any type.
func notEncoders(msgs []string) {
	for _, m := range msgs {
		site(1) // want `per item: once per element of msgs \(the loop at share.go:\d+\)`
		sha256.Sum256(codec.Join(m, 1))
		sha256.Sum256(codec.Bytes(m))
		_ = codec.Valid(m)
	}
}

// A call that hashes per item in a loop of its own hashes a collection: an
// allocation made once beside that loop is shared by every item; an HMAC's
// five are not.
func permute(seed []byte, rounds int) (b byte) {
	site(1) // want `silent: each call also does a hash per iteration of its loop at share.go:\d+, beside which the allocation is noise`
	for r := 0; r < rounds; r++ {
		s := sha256.Sum256(seed)
		b ^= s[r%32]
	}
	return b
}

func rekeyed(seed []byte, rounds int) (b byte) {
	site(5) // want `per item: once per call of rekeyed, which permuteAll calls once per element of seeds \(the loop at share.go:\d+\)`
	for r := 0; r < rounds; r++ {
		s := sha256.Sum256(seed)
		b ^= s[r%32]
	}
	return b
}

// A buffer of 32 KiB made per call costs its zeroing too: not shared away
// by the items the call hashes (a copy buffer per file hashed in blocks).
func blocks(r io.Reader) (n int) {
	site(32 << 10) // want `per item: once per call of blocks, which blocksAll calls once per element of files \(the loop at share.go:\d+\)`
	for {
		h := sha256.New()
		m, err := io.CopyN(h, r, 128<<10)
		n += int(m)
		if err != nil {
			return n
		}
	}
}

func blocksAll(files [][]byte) (n int) {
	for _, f := range files {
		n += blocks(bytes.NewReader(f))
	}
	return n
}

// A loop that does not hash is not a collection hashed.
func mixed(seed []byte, rounds int) (b byte) {
	site(1) // want `per item: once per call of mixed, which permuteAll calls once per element of seeds \(the loop at share.go:\d+\)`
	for r := 0; r < rounds; r++ {
		b ^= seed[r%len(seed)]
	}
	return b
}

func permuteAll(seeds [][]byte) (b byte) {
	for _, s := range seeds {
		b ^= permute(s, 90) ^ rekeyed(s, 90) ^ mixed(s, 90)
	}
	return b
}

// A request's body read to its end comes from the network (or goes to it):
// even an HMAC's five allocations are noise beside it. Another reader read
// to its end is not I/O.
func signRequests(reqs []*http.Request) {
	for _, r := range reqs {
		site(5) // want `silent: each iteration also calls io.ReadAll \(an HTTP body, read from or sent to the network\) at share.go:\d+, beside which the allocation is noise`
		io.ReadAll(r.Body)
	}
}

func readAll(rs []*bytes.Reader) {
	for _, r := range rs {
		site(5) // want `per item: once per element of rs \(the loop at share.go:\d+\)`
		io.ReadAll(r)
	}
}

// A recursion's loop hands each child to a call of its own: what a call
// allocates beside it is per node.
type tree struct {
	data []byte
	kids []*tree
}

func (t *tree) sum() [32]byte {
	site(1) // want `per item: once per call of sum \(it recurses: sum → sum, once per node it walks\)`
	var acc []byte
	for _, k := range t.kids {
		s := k.sum()
		h := sha256.Sum256(s[:])
		acc = append(acc, h[:]...)
	}
	return sha256.Sum256(append(acc, t.data...))
}

// Many calls that allocate their results are moderate work together, even
// when each is cheap: a thumbprint that encodes a key's fields and formats
// each into the hasher, compared per pair of keys.
func sameKeys(pairs [][2][]byte) (n int) {
	for _, p := range pairs {
		if bytes.Equal(thumbprint(p[0], p[1]), thumbprint(p[1], p[0])) {
			n++
		}
	}
	return n
}

func thumbprint(x, y []byte) []byte {
	site(1) // want `silent: each call also does hex.EncodeToString and 9 more calls that allocate their results at share.go:\d+, beside which the allocation is noise`
	h := sha256.New()
	xs, ys := hex.EncodeToString(x), hex.EncodeToString(y)
	fmt.Fprint(h, `{"x":"`)
	fmt.Fprint(h, xs)
	fmt.Fprint(h, `","y":"`)
	fmt.Fprint(h, ys)
	fmt.Fprint(h, `"}`)
	return h.Sum(nil)
}

// A few are not: one encoding beside the site, or constants formatted
// (nothing boxed), or several allocations of a site of its own (an HMAC's
// five) beside many.
func fewAllocs(pairs [][2][]byte) (n int) {
	for _, p := range pairs {
		site(1) // want `per item: once per element of pairs \(the loop at share.go:\d+\)`
		h := sha256.New()
		fmt.Fprint(h, `{"x":"`, 1, `"}`)
		fmt.Fprint(h, hex.EncodeToString(p[0]), strconv.Itoa(len(p[1])))
		n += len(h.Sum(nil))
	}
	return n
}

func manyAllocs(pairs [][2][]byte) (n int) {
	for _, p := range pairs {
		site(5) // want `per item: once per element of pairs \(the loop at share.go:\d+\)`
		n += len(strings.Join([]string{hex.EncodeToString(p[0]), hex.EncodeToString(p[1]), strconv.Itoa(n), strconv.Itoa(len(p[0])), fmt.Sprint(n), fmt.Sprint(len(p[1]))}, ","))
	}
	return n
}

// A dynamic call allocates what its signature shows: a value boxed into an
// interface parameter (the int given to Set, the string an encoder
// returns), the address of a local variable (Option's), and a string built
// from bytes (EncodeToString's). With the sum, six allocations beside the
// hasher, per key: the hasher is under a tenth of each call.
type keyStore interface {
	Set(name string, value any) error
	Option(dst any) error
}

type encoder interface {
	EncodeToString(b []byte) string
}

func assignIDs(keys []keyStore, enc encoder, xs [][]byte) {
	for i, k := range keys {
		assignID(k, enc, xs[i])
	}
}

func assignID(k keyStore, enc encoder, x []byte) {
	var size, force int
	k.Option(&size)
	k.Option(&force)
	site(1) // want `silent: each call also does k.Option \(a dynamic call\) and 5 more calls that allocate their results at share.go:\d+, beside which the allocation is noise`
	h := sha256.New()
	h.Write(x)
	k.Set("kid", enc.EncodeToString(h.Sum(nil)))
	k.Set("size", size)
}

// Constants and interfaces are not boxed, a sum appended to a buffer
// allocates no slice, and a static call (setSize) keeps its arguments where
// the compiler sees them: two allocations beside the hasher (the slice
// boxed for Set, and size, whose address Set is given), not six.
func assignFewIDs(keys []keyStore, xs [][]byte) {
	for i, k := range keys {
		assignFewID(k, xs[i])
	}
}

func assignFewID(k keyStore, x []byte) {
	var size int
	k.Option(nil)
	setSize(&size)
	site(1) // want `per item: once per call of assignFewID, which assignFewIDs calls once per element of keys \(the loop at share.go:\d+\)`
	h := sha256.New()
	h.Write(x)
	k.Set("kid", "fixed")
	k.Set("key", k)
	k.Set("size", &size)
	k.Set("sum", h.Sum(x[:0]))
}

func setSize(p any) {}

// What a caller computes for the arguments of the call that leads to the
// site runs once per call too: three encodings beside the site's three.
func encodedThumbprints(keys [][2][]byte) (n int) {
	for _, k := range keys {
		n += len(encodedThumbprint(hex.EncodeToString(k[0]), hex.EncodeToString(k[1]), strconv.Itoa(n)))
	}
	return n
}

func encodedThumbprint(x, y, z string) []byte {
	site(1) // want `silent: each call also does fmt.Fprint and 5 more calls that allocate their results at share.go:\d+, beside which the allocation is noise`
	h := sha256.New()
	fmt.Fprint(h, x, y)
	io.WriteString(h, z)
	return h.Sum(nil)
}

// A canonical query of a signed request: its query parsed and encoded
// again, its keys sorted by a function, each a call that allocates, with
// the string joined and hashed: six beside the site.
func canonicalDigests(us []*url.URL) (n int) {
	for _, u := range us {
		site(1) // want `silent: each iteration also calls \(\*url.URL\).Query and 5 more calls that allocate their results at share.go:\d+, beside which the allocation is noise`
		q := u.Query()
		keys := strings.Split(q.Encode(), "&")
		sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
		s := sha256.Sum256([]byte(strings.Join(keys, "&") + strings.ToLower(u.Path)))
		n += int(s[0])
	}
	return n
}

// Its twin: the same without the query's parsing and encoding, four.
func pathDigests(us []*url.URL) (n int) {
	for _, u := range us {
		site(1) // want `per item: once per element of us \(the loop at share.go:\d+\)`
		keys := strings.Split(u.RawQuery, "&")
		sort.Strings(keys)
		s := sha256.Sum256([]byte(strings.Join(keys, "&") + strings.ToLower(u.Path)))
		n += int(s[0])
	}
	return n
}

// Each caller's path is its own: the file that sealing reads beside each
// record's MAC is no work of the MACs that opening computes, and opening
// repeats the MAC per record on its own.
func sealAll(name string, recs [][]byte) {
	for _, r := range recs {
		seal(name, r)
	}
}

func openAll(recs [][]byte) {
	for _, r := range recs {
		open(r)
	}
}

func seal(name string, r []byte) []byte {
	iv, _ := os.ReadFile(name)
	return append(recordMAC(r), iv...)
}

func open(r []byte) []byte { return recordMAC(r) }

func recordMAC(r []byte) []byte {
	site(5) // want `per item: once per call of recordMAC, which open calls, which openAll calls once per element of recs \(the loop at share.go:\d+\)`
	s := sha256.Sum256(r)
	return s[:]
}

// Its twin: both callers read a file beside the MAC.
func sealFiles(name string, recs [][]byte) {
	for _, r := range recs {
		sealFile(name, r)
	}
}

func openFiles(name string, recs [][]byte) {
	for _, r := range recs {
		openFile(name, r)
	}
}

func sealFile(name string, r []byte) []byte {
	iv, _ := os.ReadFile(name)
	return append(fileMAC(r), iv...)
}

func openFile(name string, r []byte) []byte {
	os.ReadFile(name)
	return fileMAC(r)
}

func fileMAC(r []byte) []byte {
	site(5) // want `silent: each call also does os.ReadFile \(file I/O\) at share.go:\d+, beside which the allocation is noise`
	s := sha256.Sum256(r)
	return s[:]
}

// A log replayed entry by entry until it ends, then truncated: the
// truncation runs once per replay, after the loop, not once per entry.
func replayAll(fs []*os.File) {
	for _, f := range fs {
		replay(f)
	}
}

func replay(f *os.File) error {
	readEntries(f)
	return f.Truncate(0)
}

func readEntries(r io.Reader) {
	for {
		var e [64]byte
		if _, err := io.ReadFull(r, e[:]); err != nil {
			return
		}
		entryDigest(e[:])
	}
}

func entryDigest(e []byte) {
	site(1) // want `per item: once per call of entryDigest, which readEntries calls once per iteration \(the loop at share.go:\d+\)`
	_ = sha256.Sum256(e)
}

// Its twin: each iteration reads the file itself.
func replayFiles(fs []*os.File) {
	for _, f := range fs {
		readFileEntries(f)
	}
}

func readFileEntries(f *os.File) {
	for {
		var e [64]byte
		if _, err := f.Read(e[:]); err != nil {
			return
		}
		fileEntryDigest(e[:])
	}
}

func fileEntryDigest(e []byte) {
	site(1) // want `silent: each call also does \(\*os.File\).Read \(file I/O\) at share.go:\d+, beside which the allocation is noise`
	_ = sha256.Sum256(e)
}
