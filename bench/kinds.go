package bench

import (
	"bytes"
	"crypto"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"hash"
	"testing"

	"github.com/hashalloc/hashalloc/bench/fixed"
	"github.com/hashalloc/hashalloc/bench/naive"
)

// Code says which of a kind's three versions a benchmark runs.
type Code string

const (
	Before Code = "before" // the code hashalloc reports (package naive)
	After  Code = "after"  // the same code after the rewrite (package fixed, or by hand)
	Floor  Code = "floor"  // the cheapest code that does the same work
)

// Codes are the three versions of every kind, in the order they are run.
var Codes = []Code{Before, After, Floor}

// Sizes are the message sizes, in bytes, that the table covers by default.
var Sizes = []int{32, 64, 1024}

// A Kind is one rewrite that hashalloc suggests, with its three versions.
type Kind struct {
	// Name is the kind's short name, as -run matches it.
	Name string `json:"name"`
	// Title names the rewrite in the table.
	Title string `json:"title"`
	// Check is the category of the finding that suggests the rewrite, ""
	// when hashalloc does not report the before code yet.
	Check string `json:"check"`
	// ByHand is set when hashalloc reports the before code without a fix (or
	// does not report it): the after code is then written by hand, the way
	// the runtime module documents, rather than made by hashalloc -fix.
	ByHand bool `json:"by_hand"`
	// Before, After and Floor say what each version does.
	Before string `json:"before"`
	After  string `json:"after"`
	Floor  string `json:"floor"`
	// Op says what one operation does.
	Op string `json:"op"`
	// AfterAllocs is what the after code still allocates per operation:
	// the hasher that a hash function known only at run time returns,
	// which no rewrite can keep.
	AfterAllocs int64 `json:"after_allocs,omitempty"`
	// Sites is how many findings the before code has, when more than one:
	// a MAC chosen in branches is reported at each hmac.New, and one fix
	// serves them all.
	Sites int `json:"sites,omitempty"`

	// bench returns the benchmark of each version at a message size.
	bench func(size int) [3]func(b *testing.B)
	// outputs returns the result of one operation of each version, which
	// must be equal: the three versions compute the same thing.
	outputs func(size int) [3][]byte
}

// Kinds are the rewrites, in the order of the table.
var Kinds = []Kind{
	{
		Name:   "hoist-reset",
		Title:  "hoist + Reset",
		Check:  "hasher-alloc",
		Before: "sha256.New() per iteration of a loop, fed through io.Copy (it escapes)",
		After:  "the hasher made before the loop and Reset per iteration",
		Floor:  "the same as after: nothing cheaper reads the message through io.Copy",
		Op:     "one iteration: read a message through io.Copy into the hasher, Sum into a buffer",
		bench:  hoistBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			r := bytes.NewReader(nil)
			return [3][]byte{
				naive.HoistReset(once(), r, msg, nil),
				fixed.HoistReset(once(), r, msg, nil),
				fixed.HoistReset(once(), r, msg, nil),
			}
		},
	},
	{
		Name:   "pooled-hasher",
		Title:  "pooled hasher",
		Check:  "hasher-alloc",
		Before: "sha256.New() per call of a hot function, fed through io.Copy (it escapes)",
		After:  "hashpool.SHA256.Get, deferred Put",
		Floor:  "one hasher that the caller keeps and Resets",
		Op:     "one call: read a message through io.Copy into the hasher, Sum into a buffer",
		bench:  pooledHasherBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{
				naive.Digest(bytes.NewReader(msg), nil),
				fixed.Digest(bytes.NewReader(msg), nil),
				digestWith(sha256.New(), bytes.NewReader(msg), nil),
			}
		},
	},
	{
		Name:   "crypto-pool",
		Title:  "pool per crypto.Hash",
		Check:  "hasher-alloc",
		Before: "t.New() per call of a hot function, t a crypto.Hash field (not devirtualized: it always allocates)",
		After:  "hashpool.ForHash(t.Hash).Get, deferred Put",
		Floor:  "one hasher that the caller keeps and Resets",
		Op:     "one call: write a message into the hasher, Sum into a buffer",
		bench:  cryptoHashPoolBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{
				(&naive.TreeHasher{Hash: crypto.SHA256}).HashLeaf(msg, nil),
				(&fixed.TreeHasher{Hash: crypto.SHA256}).HashLeaf(msg, nil),
				leafWith(sha256.New(), msg, nil),
			}
		},
	},
	{
		Name:   "func-pool",
		Title:  "pool beside a function value",
		Check:  "hasher-alloc",
		Before: "t.newHash() per call of a hot method, newHash a func() hash.Hash field that only the package sets, to standard constructors (sha256.New here: a call of a function value always allocates)",
		After:  "pooledHasher(&t.newHashPool, t.newHash), deferred Put: a sync.Pool in a new field beside the function value",
		Floor:  "one hasher that the caller keeps and Resets",
		Op:     "one node: write two children's hashes (the message twice) into the hasher, Sum into a buffer",
		bench:  funcPoolBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{
				naive.NewFuncTree(false).Node(msg, msg, nil),
				fixed.NewFuncTree(false).Node(msg, msg, nil),
				nodeWith(sha256.New(), msg, msg, nil),
			}
		},
	},
	{
		Name:   "hmac-pool",
		Title:  "keyed MAC pool",
		Check:  "hmac-rekey",
		Before: "hmac.New(sha256.New, s.key) per call, the key a field",
		After:  "a hashpool.HMAC field beside the key: Get (which checks the key), deferred Put",
		Floor:  "one HMAC made once and Reset per message",
		Op:     "one HMAC-SHA256 of a message, Sum into a buffer",
		bench:  hmacPoolBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[0][:]
			floor := hmac.New(sha256.New, key)
			return [3][]byte{
				naive.NewSigner(key).Sign(msg, nil),
				fixed.NewSigner(key).Sign(msg, nil),
				signWith(floor, msg, nil),
			}
		},
	},
	{
		Name:   "hmac-verify",
		Title:  "pooled MAC verify",
		Check:  "hmac-rekey",
		Before: "hmac.New(sha256.New, s.key) per call, hmac.Equal(mac.Sum(nil), sig)",
		After:  "a hashpool.HMAC field beside the key, mac.Equal(sig): the sum goes into the MAC's own space",
		Floor:  "one HMAC made once and Reset per message, summed into a reused buffer, hmac.Equal",
		Op:     "one check of a message's HMAC-SHA256",
		bench:  hmacVerifyBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[0][:]
			floor := hmac.New(sha256.New, key)
			sig := signWith(floor, msg, nil)
			verdict := func(ok bool) []byte { return []byte(fmt.Sprint(ok)) }
			return [3][]byte{
				verdict(naive.NewSigner(key).Verify(msg, sig)),
				verdict(fixed.NewSigner(key).Verify(msg, sig)),
				verdict(verifyWith(floor, msg, sig, nil)),
			}
		},
	},
	{
		Name:   "hmac-oneshot",
		Title:  "one-shot HMAC",
		Check:  "hmac-rekey",
		Before: "hmac.New(sha256.New, key) per call of a hot function, the key changing per call",
		After:  "hashsum.AppendHMACSHA256(out[:0], key, msg): the padded key and the hasher on the stack",
		Floor:  "one HMAC for a fixed key, Reset per message (what no changing key can beat)",
		Op:     "one HMAC-SHA256 of a message under one of four keys in turn",
		bench:  hmacOneShotBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[1][:]
			floor := hmac.New(sha256.New, key)
			return [3][]byte{
				naive.MAC(key, msg, nil),
				fixed.MAC(key, msg, nil),
				signWith(floor, msg, nil),
			}
		},
	},
	{
		Name:   "hmac-hash",
		Title:  "one-shot HMAC of a crypto.Hash",
		Check:  "hmac-rekey",
		Before: "hmac.New(h.New, key) per call of a hot function, h a crypto.Hash its caller chooses, the key changing per call",
		After:  "hashsum.AppendHMAC(h, out[:0], key, msg): a switch on h to the one-shot HMAC of that hash",
		Floor:  "one HMAC for a fixed key, Reset per message (what no changing key can beat)",
		Op:     "one HMAC-SHA256 of a message under one of four keys in turn",
		bench:  hmacHashBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[1][:]
			floor := hmac.New(sha256.New, key)
			return [3][]byte{
				naive.MACWith(crypto.SHA256, key, msg, nil),
				fixed.MACWith(crypto.SHA256, key, msg, nil),
				signWith(floor, msg, nil),
			}
		},
	},
	{
		Name:   "hmac-chosen",
		Title:  "one-shot HMAC of a hash chosen in branches",
		Check:  "hmac-rekey",
		Before: "var mac hash.Hash assigned hmac.New(sha256.New, key) or hmac.New(sha1.New, key) in the branches of an if, then written and summed, per call of a hot function, the key changing per call",
		After:  "mac keeps crypto.SHA256 or crypto.SHA1, and hashsum.AppendHMAC(mac, out[:0], key, msg) dispatches on it",
		Floor:  "one HMAC for a fixed key, Reset per message (what no changing key can beat)",
		Op:     "one HMAC-SHA256 of a message under one of four keys in turn",
		Sites:  2,
		bench:  hmacChosenBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[1][:]
			floor := hmac.New(sha256.New, key)
			return [3][]byte{
				naive.MACChosen(true, key, msg, nil),
				fixed.MACChosen(true, key, msg, nil),
				signWith(floor, msg, nil),
			}
		},
	},
	{
		Name:   "hmac-func",
		Title:  "one-shot HMAC of a hash function",
		Check:  "hmac-rekey",
		Before: "hmac.New(newHash, key) per call of a hot function, newHash a func() hash.Hash its caller chooses, the key changing per call",
		After:  "hashsum.AppendHMACFunc(newHash, out[:0], key, msg): one call of newHash, its hasher Reset between the inner and outer hash, the padded key in a pooled scratch buffer",
		Floor:  "one HMAC for a fixed key, Reset per message (what no changing key can beat)",
		Op:     "one HMAC-SHA256 of a message under one of four keys in turn",
		// The hasher that newHash returns: a call through a function
		// value is not inlined, so it goes to the heap.
		AfterAllocs: 1,
		bench:       hmacFuncBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[1][:]
			floor := hmac.New(sha256.New, key)
			return [3][]byte{
				naive.MACFunc(sha256.New, key, msg, nil),
				fixed.MACFunc(sha256.New, key, msg, nil),
				signWith(floor, msg, nil),
			}
		},
	},
	{
		Name:   "multipart-sum",
		Title:  "multi-part sum",
		Check:  "concat-hash",
		Before: "sha256.Sum256(append(a, b...)), a without spare capacity",
		After:  "hashsum.SHA256(a, b)",
		Floor:  "sha256.Sum256 of the concatenation built once",
		Op:     "one digest of two halves of a message",
		bench:  multipartBench,
		outputs: func(size int) [3][]byte {
			whole, a, b := halves(size)
			s0, s1, s2 := naive.SumPair(a, b), fixed.SumPair(a, b), sha256.Sum256(whole)
			return [3][]byte{s0[:], s1[:], s2[:]}
		},
	},
	{
		Name:   "double-sum",
		Title:  "double sum of parts",
		Check:  "concat-hash",
		Before: "a helper's sha256.Sum256 of sha256.Sum256(b) (btcd's chainhash.DoubleHashH) of append(a, b...), a without spare capacity",
		After:  "doubleSumParts(a, b), declared in the file: hashsum.SHA256 of hashsum.SHA256(a, b)",
		Floor:  "sha256.Sum256 of sha256.Sum256 of the concatenation built once",
		Op:     "one double digest of two halves of a message",
		bench:  doubleSumBench,
		outputs: func(size int) [3][]byte {
			whole, a, b := halves(size)
			first := sha256.Sum256(whole)
			s0, s1, s2 := naive.DoubleSumPair(a, b), fixed.DoubleSumPair(a, b), sha256.Sum256(first[:])
			return [3][]byte{s0[:], s1[:], s2[:]}
		},
	},
	{
		Name:   "pooled-buffer",
		Title:  "pooled buffer",
		Check:  "hot-buffer",
		Before: "make([]byte, size) per call of a recursive function, written to a hash.Hash (it escapes)",
		After:  "hashpool.Buffers.Get(size), deferred Put",
		Floor:  "a scratch buffer that the caller provides",
		Op:     "one call: a node header of the given size written to a hasher",
		bench:  pooledBufferBench,
		outputs: func(size int) [3][]byte {
			var out [3][]byte
			for i, write := range [3]func(hash.Hash, *naive.Node, *fixed.Node){
				func(h hash.Hash, n *naive.Node, _ *fixed.Node) { naive.WriteTree(h, n, size) },
				func(h hash.Hash, _ *naive.Node, n *fixed.Node) { fixed.WriteTree(h, n, size) },
				func(h hash.Hash, n *naive.Node, _ *fixed.Node) { writeTreeScratch(h, n, make([]byte, size)) },
			} {
				h := sha256.New()
				write(h, &naive.Node{ID: 7}, &fixed.Node{ID: 7})
				out[i] = h.Sum(nil)
			}
			return out
		},
	},
	{
		Name:   "stack-sum",
		Title:  "stack sum array",
		Check:  "sum-alloc",
		Before: "bytes.Equal(h.Sum(nil), want) per iteration of a loop",
		After:  "var sum [32]byte; bytes.Equal(h.Sum(sum[:0]), want)",
		Floor:  "sha256.Sum256(msg) compared with want",
		Op:     "one iteration: hash a message and compare the digest with the expected one",
		bench:  stackSumBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			want := sha256.Sum256(msg)
			return [3][]byte{
				{byte(naive.CountMatches(once(), msg, want[:]))},
				{byte(fixed.CountMatches(once(), msg, want[:]))},
				{byte(countMatchesFloor(once(), msg, want[:]))},
			}
		},
	},
}

// CheckName is k.Check, or says that there is no check yet.
func (k Kind) CheckName() string {
	if k.Check == "" {
		return "no check yet"
	}
	return k.Check
}

// Name is the name of a kind's benchmark at a size, in one version: the
// name that -run matches and that go test -bench prints under
// BenchmarkRewrites.
func Name(kind string, size int, code Code) string {
	return fmt.Sprintf("%s/size=%d/code=%s", kind, size, code)
}

// Benchmarks returns the benchmark of each version of k at size, in the order
// of Codes.
func (k Kind) Benchmarks(size int) [3]func(b *testing.B) { return k.bench(size) }

// Outputs returns the result of one operation of each version of k at size,
// in the order of Codes; they are equal when the three versions compute the
// same thing.
func (k Kind) Outputs(size int) [3][]byte { return k.outputs(size) }
