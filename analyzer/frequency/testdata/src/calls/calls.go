// Package calls: functions that run per item because of what calls them,
// or of what they are.
package calls

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"io"
	"sort"
)

func site(allocs int) {}

func leafHash(leaf []byte) {
	site(1) // want `per item: once per call of leafHash, which root calls once per leaf of leaves \(the loop at calls.go:\d+\)`
}

func root(leaves [][]byte) {
	for _, leaf := range leaves {
		leafHash(leaf)
	}
}

// Recursion: once per node of what it walks.
type node struct{ left, right *node }

func hashNode(n *node) {
	site(1) // want `per item: once per call of hashNode \(it recurses: hashNode → hashNode, once per node it walks\)`
	if n.left != nil {
		hashNode(n.left)
		hashNode(n.right)
	}
}

// An exported function that returns only a verdict (a signature checked):
// it checks what it is given against a hash.
func CheckMAC(msg, mac []byte) bool {
	site(1) // want `per item: once per call of CheckMAC \(it checks what it is given against a hash: its callers call it once per item they hash\)`
	return len(msg) == len(mac)
}

// An exported function that returns a hash of what it is given: its callers
// call it once per item they hash.
func HashLeaf(b []byte) [32]byte {
	site(1) // want `per item: once per call of HashLeaf \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	return sha256.Sum256(b)
}

// Given a region of a file to read through an io.ReaderAt, it hashes a
// stream per call: a collection, not an item.
func Checksum(r io.ReaderAt, off, n int64) [32]byte {
	site(1) // want `silent: it runs once per call of Checksum, and nothing shows Checksum to run per item`
	h := sha256.New()
	io.Copy(h, io.NewSectionReader(r, off, n))
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// A decoding method checks a digest once per value decoded (a filter read
// from a file), not per item hashed.
type filter struct{ sum [32]byte }

func (f *filter) UnmarshalBinary(data []byte) error {
	site(1) // want `silent: it runs once per call of UnmarshalBinary, and nothing shows UnmarshalBinary to run per item`
	if sha256.Sum256(data) != f.sum {
		return io.ErrUnexpectedEOF
	}
	return nil
}

// A verifier of the same shape is an entry.
func (f *filter) Verify(data []byte) error {
	site(1) // want `per item: once per call of Verify \(it hashes what it is given and returns only an error: its callers call it once per item they hash\)`
	if sha256.Sum256(data) != f.sum {
		return io.ErrUnexpectedEOF
	}
	return nil
}

// A hash that is a number is a digest too, and so is the bucket it picks.
func Fingerprint(s string) uint64 {
	site(1) // want `per item: once per call of Fingerprint \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	sum := sha256.Sum256([]byte(s))
	return uint64(sum[0])
}

func Bucket(key string, n int) int {
	site(1) // want `per item: once per call of Bucket \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	sum := sha256.Sum256([]byte(key))
	return int(sum[0]) % n
}

// A function given a stream hashes the whole stream per call: once per
// file, not per item. A hasher given to be written is no stream.
func HashFile(r io.Reader) ([]byte, error) {
	site(1) // want `silent: it runs once per call of HashFile, and nothing shows HashFile to run per item`
	h := sha256.New()
	_, err := io.Copy(h, r)
	return h.Sum(nil), err
}

func SumInto(h hash.Hash, b []byte) []byte {
	site(1) // want `per item: once per call of SumInto \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	h.Write(b)
	return h.Sum(nil)
}

// A function that returns a count runs once per chunk of what its caller
// streams (a role decides how often), not once per item.
func Consume(p []byte) (int, error) {
	site(1) // want `silent: it runs once per call of Consume, and nothing shows Consume to run per item`
	sha256.Sum256(p)
	return len(p), nil
}

// A function that hands a hasher to a recursive helper that walks a tree
// hashes the whole tree per call: once per root, not per item; the helper
// runs per node.
func HashFromByteSlices(items [][]byte) []byte {
	site(1) // want `silent: it runs once per call of HashFromByteSlices, and nothing shows HashFromByteSlices to run per item`
	h := sha256.New()
	return hashFromByteSlices(h, items)
}

func hashFromByteSlices(h hash.Hash, items [][]byte) []byte {
	if len(items) <= 1 {
		h.Reset()
		h.Write(items[0])
		return h.Sum(nil)
	}
	site(1) // want `per item: once per call of hashFromByteSlices \(it recurses: hashFromByteSlices → hashFromByteSlices, once per node it walks\)`
	l := hashFromByteSlices(h, items[:len(items)/2])
	r := hashFromByteSlices(h, items[len(items)/2:])
	h.Reset()
	h.Write(l)
	h.Write(r)
	return h.Sum(nil)
}

// A function given only numbers hashes nothing it is given.
func Seed(i, j int) bool {
	site(1) // want `silent: it runs once per call of Seed, and nothing shows Seed to run per item`
	sum := sha256.Sum256(nil)
	return int(sum[0]) < i+j
}

// A constructor hashes once per value it makes.
type Verifier struct{ keyHash [32]byte }

func NewVerifier(key []byte) *Verifier {
	site(1) // want `silent: it runs once per call of NewVerifier, and nothing shows NewVerifier to run per item`
	return &Verifier{keyHash: sha256.Sum256(key)}
}

// Through an interface the package implements.
type hasher interface{ hashChildren(l, r []byte) []byte }

type treeHasher struct{}

func (treeHasher) hashChildren(l, r []byte) []byte {
	site(1) // want `per item: once per call of hashChildren, which build calls through the interface hasher once per pair of pairs \(the loop at calls.go:\d+\)`
	return nil
}

func build(h hasher, pairs [][2][]byte) {
	for _, pair := range pairs {
		h.hashChildren(pair[0], pair[1])
	}
}

// Through a function value the package holds.
type tree struct{ hash func(l, r []byte) []byte }

func hashPair(l, r []byte) []byte {
	site(1) // want `per item: once per call of hashPair \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	return nil
}

func newTree() *tree { return &tree{hash: hashPair} }

func (t *tree) grow(levels [][]byte) {
	for _, level := range levels {
		t.hash(level, level)
	}
}

// A role: the standard library calls it in a loop, and does little else
// per call.
type byKey [][]byte

func (b byKey) Less(i, j int) bool {
	site(1) // want `per item: once per call of Less \(it is Less of a sort\.Interface, which sort\.Sort calls O\(n log n\) times\)`
	return len(b[i]) < len(b[j])
}

// A role whose caller does far more per call: net/http serves a request
// around each call of a handler.
type handler struct{}

func (handler) ServeHTTP() {
	site(5) // want `silent: each call also does net/http's work to serve a request at calls.go:\d+, beside which the allocation is noise`
}

// hot: a directive.
func marked() {
	site(1) // want `per item: once per call of marked \(it is marked //hashalloc:hot\)`
}

// A function literal that returns a hash of what it is given, handed to
// code that calls it per item.
func newSigner(key []byte) func(msg []byte) [32]byte {
	return func(msg []byte) [32]byte {
		site(1) // want `per item: once per call of the function literal at calls.go:\d+ \(it returns a hash of what it is given: its holder calls it once per item it hashes\)`
		return sha256.Sum256(append(key, msg...))
	}
}

// What such a literal calls runs as often as it does (a processor's masking
// function, which hashes each match with the configured hash function,
// handed to a regexp's ReplaceAllStringFunc).
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
	site(5) // want `per item: once per call of maskMAC, which the function literal at calls.go:\d+ calls \(it returns a hash of what it is given: its holder calls it once per item it hashes\)`
	sum := sha256.Sum256(append(key, match...))
	return string(sum[:])
}

// Its twin: the same helper, called by code that runs once.
func keyLabel(match string, key []byte) string {
	site(5) // want `silent: it runs once per call of keyLabel, and nothing shows keyLabel to run per item`
	sum := sha256.Sum256(append(key, match...))
	return string(sum[:])
}

func describeKey(key []byte) string { return "key " + keyLabel("label", key) }

// One that returns nothing is a callback of unknown frequency; so are the
// functions it calls.
func newLogger(key []byte) func(msg []byte) {
	return func(msg []byte) {
		site(1) // want `silent: it is in a function literal that runs an unknown number of times`
		sha256.Sum256(append(key, msg...))
		logMAC(key, msg)
	}
}

func logMAC(key, msg []byte) {
	site(5) // want `silent: it runs once per call of logMAC, and nothing shows logMAC to run per item`
	sha256.Sum256(append(key, msg...))
}

// A function that hashes in a loop of its own hashes a collection per call:
// what it allocates outside the loop, it allocates once per collection.
func Root(leaves [][]byte) []byte {
	site(1) // want `silent: it runs once per call of Root, and nothing shows Root to run per item`
	var sum [32]byte
	for _, leaf := range leaves {
		sum = sha256.Sum256(append(sum[:], leaf...))
	}
	return sum[:]
}

// A function literal held in a local variable and only called runs where
// it is called: per element here, once per call there.
func checkAll(key []byte, msgs [][]byte) (ok bool) {
	mac := func(msg []byte) [32]byte {
		site(1) // want `per item: once per element of msgs \(the loop at calls.go:\d+\)`
		return sha256.Sum256(append(key, msg...))
	}
	for _, m := range msgs {
		ok = ok || mac(m)[0] == 0
	}
	return ok
}

func checkTwice(key, msg []byte) bool {
	mac := func(method string) [32]byte {
		site(1) // want `silent: it runs once per call of checkTwice, and nothing shows checkTwice to run per item`
		return sha256.Sum256(append(key, method...))
	}
	return mac("GET") == mac("HEAD")
}

// Passed on, it runs as often as its holder calls it: not known.
func checkWith(key []byte, each func(func([]byte))) {
	mac := func(msg []byte) {
		site(1) // want `silent: it is in a function literal that runs an unknown number of times`
		sha256.Sum256(append(key, msg...))
	}
	mac(key)
	each(mac)
}

// A verifier may return what it checked with its verdict; a constructor
// that returns a value and an error compares nothing.
type User struct{ Name string }

func ValidateUser(values map[string]string, token string) (*User, bool) {
	site(1) // want `per item: once per call of ValidateUser \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	sum := sha256.Sum256([]byte(values["user"] + token))
	if string(sum[:8]) != values["hash"] {
		return nil, false
	}
	return &User{values["user"]}, true
}

type Signer struct{ key [32]byte }

func NewSigner(secret string) (*Signer, error) {
	site(1) // want `silent: it runs once per call of NewSigner, and nothing shows NewSigner to run per item`
	return &Signer{key: sha256.Sum256([]byte(secret))}, nil
}

// A method that derives a child of its receiver by index runs once per
// child: its callers enumerate the indexes (a wallet's addresses).
type extendedKey struct{ key, chainCode []byte }

func (k *extendedKey) Derive(i uint32) (*extendedKey, error) {
	site(5) // want `per item: once per call of Derive \(it derives a child of its receiver by index: its callers call it once per child\)`
	sum := sha256.Sum256(append(k.chainCode, byte(i)))
	return &extendedKey{key: sum[:16], chainCode: sum[16:]}, nil
}

// Not a child: the result is not of the receiver's type, ...
func (k *extendedKey) Tag(i uint32) [32]byte {
	site(1) // want `silent: it runs once per call of Tag, and nothing shows Tag to run per item`
	return sha256.Sum256(append(k.key, byte(i)))
}

// ... nor is what a function (no method) makes, ...
func DeriveKey(k *extendedKey, i uint32) *extendedKey {
	site(1) // want `silent: it runs once per call of DeriveKey, and nothing shows DeriveKey to run per item`
	sum := sha256.Sum256(append(k.chainCode, byte(i)))
	return &extendedKey{key: sum[:]}
}

// ... nor a child chosen by more than an index, ...
func (k *extendedKey) DeriveWith(salt []byte, i uint32) *extendedKey {
	site(1) // want `silent: it runs once per call of DeriveWith, and nothing shows DeriveWith to run per item`
	sum := sha256.Sum256(append(salt, byte(i)))
	return &extendedKey{key: sum[:]}
}

// ... and one that hashes in a loop of its own hashes a collection per
// call (a level of a tree): what it allocates beside the loop is shared.
type level struct{ nodes [][]byte }

func (l *level) Up(i int) *level {
	site(1) // want `silent: it runs once per call of Up, and nothing shows Up to run per item`
	up := &level{}
	for j := i; j+1 < len(l.nodes); j += 2 {
		sum := sha256.Sum256(append(l.nodes[j], l.nodes[j+1]...))
		up.nodes = append(up.nodes, sum[:])
	}
	return up
}

// A function the package takes as a value runs as often as the calls made
// through a function value of its signature: here once per pair of a level.
func pairInto(dst *[32]byte, l, r []byte) {
	site(1) // want `per item: once per call of pairInto, which hashLevel calls through the function value hf once per element of out \(the loop at calls.go:\d+\)`
	h := sha256.New()
	h.Write(l)
	h.Write(r)
	h.Sum(dst[:0])
}

var pairFunc = pairInto

func hashLevel(hf func(*[32]byte, []byte, []byte), nodes [][]byte, out [][32]byte) {
	for i := range out {
		hf(&out[i], nodes[2*i], nodes[2*i+1])
	}
}

// One of the same signature that the package never takes as a value is
// not among the targets.
func pairUnused(dst *[32]byte, l, r []byte) {
	site(1) // want `silent: it runs once per call of pairUnused, and nothing shows pairUnused to run per item`
	h := sha256.New()
	h.Write(l)
	h.Write(r)
	h.Sum(dst[:0])
}

// A key derived in counter mode (a loop over the digest-sized blocks of the
// output: TLS's P_hash, HKDF's Expand) is derived once per session that
// needs it: no entry, however it is shaped.
func PHash(secret, seed []byte, n int) []byte {
	h := sha256.New()
	var out []byte
	for i := 0; i < (n+h.Size()-1)/h.Size(); i++ {
		site(5) // want `silent: it runs once per call of PHash, and nothing shows PHash to run per item`
		h.Write(seed)
		out = h.Sum(out)
	}
	return out
}

// MasterSecret derives through PHash: no entry either.
func MasterSecret(pre, random []byte) []byte {
	site(1) // want `silent: it runs once per call of MasterSecret, and nothing shows MasterSecret to run per item`
	return PHash(pre, random, 48)
}

// A site beside a key derivation, repeated per item, is noise beside it.
func finishedEach(secrets [][]byte, transcript []byte) {
	for _, s := range secrets {
		site(1) // want `silent: each iteration also calls expand, which calls a key derivation \(a hash per block of its output, the loop at calls.go:\d+\) at calls.go:\d+, beside which the allocation is noise`
		expand(s, transcript, 12)
	}
}

func expand(secret, info []byte, n int) []byte {
	h := sha256.New()
	var out []byte
	for i := 1; i <= n/h.Size(); i++ {
		h.Write(info)
		out = h.Sum(out)
	}
	return out
}

// Its twin: an entry with one hash, no loop over output blocks, keeps its
// presumption.
func Expand1(secret, seed []byte) []byte {
	site(5) // want `per item: once per call of Expand1 \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	h := sha256.New()
	h.Write(seed)
	return h.Sum(nil)
}

// A key made to be kept: the type's own method MACs each message with it
// as the key, so the function that makes it runs once per credential, and
// the method per item.
type Integrity []byte

func NewIntegrity(user, password string) Integrity {
	site(1) // want `silent: it runs once per call of NewIntegrity, and nothing shows NewIntegrity to run per item`
	sum := sha256.Sum256([]byte(user + ":" + password))
	return Integrity(sum[:])
}

func (i Integrity) Sign(msg []byte) []byte { return keyedSum(i, msg) }

func keyedSum(key, msg []byte) []byte {
	h := sha256.New()
	h.Write(key)
	h.Write(msg)
	return h.Sum(nil)
}

// The twin: a digest type whose methods only encode it is a hash handed
// back, per item.
type Digest []byte

func NewDigest(b []byte) Digest {
	site(1) // want `per item: once per call of NewDigest \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	sum := sha256.Sum256(b)
	return Digest(sum[:])
}

func (d Digest) String() string { return string(d) }

// A Merkle node whose method hashes it with a sibling into a new node: a
// digest's use, not a key's, so the function that makes one still runs
// per item.
type Node []byte

func NewNode(b []byte) Node {
	site(1) // want `per item: once per call of NewNode \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	sum := sha256.Sum256(b)
	return Node(sum[:])
}

func (n Node) Parent(sibling Node) Node { return Node(keyedSum(n, sibling)) }

// A ring's lookup returns the node a hash of the key selects, whatever the
// node's type: its callers call it once per key they look up.
type Ring struct {
	points []uint64
	nodes  map[uint64]any
}

func (r *Ring) Get(key string) (any, bool) {
	site(1) // want `per item: once per call of Get \(it returns what a hash of what it is given selects: its callers call it once per item they hash\)`
	sum := sha256.Sum256([]byte(key))
	h := binary.BigEndian.Uint64(sum[:])
	i := sort.Search(len(r.points), func(i int) bool { return r.points[i] >= h }) % len(r.points)
	node, ok := r.nodes[r.points[i]]
	return node, ok
}

// Not so a lookup at the key itself, which hashes the key only to check it,
// nor a constructor that hashes what it is given into the value it makes:
// once per value made.
type Peer struct{ id [32]byte }

func (r *Ring) Named(key string, peers map[string]*Peer) (*Peer, bool) {
	site(1) // want `silent: it runs once per call of Named, and nothing shows Named to run per item`
	lastKey = sha256.Sum256([]byte(key))
	p, ok := peers[key]
	return p, ok
}

var lastKey [32]byte

func NewPeer(name string) *Peer {
	site(1) // want `silent: it runs once per call of NewPeer, and nothing shows NewPeer to run per item`
	return &Peer{id: sha256.Sum256([]byte(name))}
}

// An exported hash of what it is given presumes callers that call it once
// per item; the package's own calls can show otherwise. EpochSeed is drawn
// only by functions that then hash a whole collection with it, outside
// their loop: once per collection, its presumption yields to that, and the
// site beside the collection's hashing is noise.
func EpochSeed(epoch uint64, mix []byte) [32]byte {
	site(1) // want `silent: it runs once per call of EpochSeed, which the package calls only beside hashing a collection or deriving a key, once per collection or key: from Shuffle \(calls.go:\d+\), Proposers \(calls.go:\d+\)`
	return sha256.Sum256(append(mix, byte(epoch)))
}

func Shuffle(epoch uint64, mix []byte, indices []uint64) {
	seed := EpochSeed(epoch, mix)
	permuteAll(seed, indices)
}

func permuteAll(seed [32]byte, indices []uint64) {
	for i := range indices {
		s := sha256.Sum256(append(seed[:], byte(i)))
		indices[i] ^= uint64(s[0])
	}
}

func Proposers(epoch uint64, mix []byte, slots int) (out []byte) {
	seed := EpochSeed(epoch, mix)
	for i := 0; i < slots; i++ {
		s := sha256.Sum256(append(seed[:], byte(i)))
		out = append(out, s[0])
	}
	return out
}

// Its twins: SignPayload is called only by a builder that makes a token of it (a
// value: how often is not shown), and MixDigest also by a loop over items.
func SignPayload(payload []byte) []byte {
	site(1) // want `per item: once per call of SignPayload \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	s := sha256.Sum256(payload)
	return s[:]
}

type signedToken struct{ payload, sig []byte }

func BuildToken(payload []byte) *signedToken { return &signedToken{payload, SignPayload(payload)} }

func MixDigest(seed uint64, mix []byte) [32]byte {
	site(1) // want `per item: once per call of MixDigest \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	return sha256.Sum256(append(mix, byte(seed)))
}

func MixDigests(mixes [][]byte, indices []uint64) {
	first := MixDigest(0, mixes[0])
	permuteAll(first, indices)
	for _, mix := range mixes {
		MixDigest(1, mix)
	}
}

// Once per call of a caller that hashes a whole collection beside the call
// (a round's seed, then every index permuted with it): a hash per item of
// that collection is the work of each repetition, beside which the site is
// noise.
func roundSeed(r uint64, mix []byte) [32]byte {
	site(1) // want `silent: each call also does permuteRound's hashing of a whole collection beside the call at calls.go:\d+, beside which the allocation is noise`
	return sha256.Sum256(append(mix, byte(r)))
}

func permuteRound(r uint64, mix []byte, indices []uint64) { permuteAll(roundSeed(r, mix), indices) }

func permuteRounds(mixes [][]byte, indices []uint64) {
	for r, mix := range mixes {
		permuteRound(uint64(r), mix, indices)
	}
}

// Its twin: a caller that hashes nothing beside the call.
func plainSeed(r uint64, mix []byte) [32]byte {
	site(1) // want `per item: once per call of plainSeed, which plainRound calls, which plainRounds calls once per mix of mixes \(the loop at calls.go:\d+\)`
	return sha256.Sum256(append(mix, byte(r)))
}

func plainRound(r uint64, mix []byte) byte { return plainSeed(r, mix)[0] }

func plainRounds(mixes [][]byte) (b byte) {
	for r, mix := range mixes {
		b ^= plainRound(uint64(r), mix)
	}
	return b
}

// A signing key derived by a chain of hashes, each keyed with the one
// before (a secret, then a date, a region, a request type, as AWS's and
// OpenStack's EC2 signers do): a key derivation, run once per key its
// callers need, no hash of an item; and SignWithKey, which the package
// calls only beside deriving the key it signs with, runs once per key
// derived.
func SigningKey(secret, date, region string) []byte {
	site(1) // want `silent: it runs once per call of SigningKey, and nothing shows SigningKey to run per item`
	kDate := chainSum([]byte(secret), []byte(date))
	kRegion := chainSum(kDate, []byte(region))
	return chainSum(kRegion, []byte("request"))
}

func chainSum(key, data []byte) []byte {
	site(5) // want `silent: it runs once per call of chainSum, and nothing shows chainSum to run per item`
	s := sha256.Sum256(append(key, data...))
	return s[:]
}

func SignWithKey(key []byte, msg string) string {
	site(1) // want `silent: it runs once per call of SignWithKey, which the package calls only beside hashing a collection or deriving a key, once per collection or key: from authenticate \(calls.go:\d+\)`
	return string(chainSum(key, []byte(msg)))
}

type credentials struct{ secret, date, region, sig string }

func authenticate(c *credentials, msg string) map[string]string {
	key := SigningKey(c.secret, c.date, c.region)
	return map[string]string{"signature": SignWithKey(key, msg)}
}

// Its twin: two hashes, one of the other, are a digest's own (a double
// hash), not a key's derivation.
func DoubleDigest(b []byte) [32]byte {
	site(1) // want `per item: once per call of DoubleDigest \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	first := sha256.Sum256(b)
	return sha256.Sum256(first[:])
}

// A signer that derives its key by the same chain on every call, then
// hashes what it is given with it, returns a hash of an item, not a key
// (smithy-go's SignString): its callers call it once per request.
func SignString(secret, date, region, toSign string) string {
	site(1) // want `per item: once per call of SignString \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	key := stepSum([]byte(secret), []byte(date))
	key = stepSum(key, []byte(region))
	key = stepSum(key, []byte("request"))
	return string(stepSum(key, []byte(toSign)))
}

func stepSum(key, data []byte) []byte {
	s := sha256.Sum256(append(key, data...))
	return s[:]
}

// Hashers given to a helper are no links of a chain: a hash of a hash,
// each by its own hasher, is a digest's (Hash160).
func Hash160(b []byte) []byte {
	site(1) // want `per item: once per call of Hash160 \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	return sumWith(sumWith(b, sha256.New()), sha256.New())
}

func sumWith(b []byte, h hash.Hash) []byte {
	h.Write(b)
	return h.Sum(nil)
}
