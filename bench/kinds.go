package bench

import (
	"bytes"
	"crypto"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"testing"

	"github.com/hashalloc/hashalloc/bench/fixed"
	"github.com/hashalloc/hashalloc/bench/fixedinline"
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
	// Inline is set when the after code is the before code after
	// hashalloc -pool=inline -fix (package fixedinline): the pools and the
	// one-shot HMAC declared in the fixed file, where other kinds take the
	// runtime module's. Its before code is another kind's.
	Inline bool `json:"inline,omitempty"`
	// AlsoCheck is the check of another finding of the before code, which
	// its after code fixes too: a sum goes into a pooled buffer only where
	// the hasher-alloc fix pools the hasher.
	AlsoCheck string `json:"also_check,omitempty"`

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
		Name:   "std-constructor",
		Title:  "standard constructor for a constant crypto.Hash",
		Check:  "hasher-alloc",
		Before: "crypto.SHA256.New() per call of a hot function (not devirtualized: it always allocates)",
		After:  "sha256.New(), which the compiler keeps on the stack",
		Floor:  "one hasher that the caller keeps and Resets",
		Op:     "one call: write a message into the hasher, Sum into a buffer",
		bench:  stdConstructorBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{naive.LeafSum(msg, nil), fixed.LeafSum(msg, nil), leafWith(sha256.New(), msg, nil)}
		},
	},
	{
		Name:   "int-write",
		Title:  "integers through the hasher's Write",
		Check:  "hasher-alloc",
		Before: "binary.Write(h, binary.BigEndian, id) into sha256.New() per call of a hot function (h escapes through binary.Write's io.Writer)",
		After:  "h.Write(binary.BigEndian.AppendUint64(make([]byte, 0, 8), id)): the hasher and the integer's bytes stay on the stack",
		Floor:  "one hasher that the caller keeps and Resets, the ID's bytes encoded once",
		Op:     "one call: write an 8-byte ID and a message into the hasher, Sum into a buffer",
		bench:  intWriteBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			id := binary.BigEndian.AppendUint64(nil, entryID)
			return [3][]byte{
				naive.EntrySum(entryID, msg, nil),
				fixed.EntrySum(entryID, msg, nil),
				entryWith(sha256.New(), id, msg, nil),
			}
		},
	},
	{
		Name:   "blake2b-sum",
		Title:  "one-shot BLAKE2b sum",
		Check:  "hasher-alloc",
		Before: "blake2b.New256(nil) per call of a hot function, written once and summed once (x/crypto's BLAKE2b hashers always allocate)",
		After:  "sum := blake2b.Sum256(msg); append(out[:0], sum[:]...): no hasher",
		Floor:  "one hasher that the caller keeps and Resets",
		Op:     "one call: the BLAKE2b-256 of a message, appended to a buffer",
		bench:  blake2bSumBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{naive.Blake2bSum(msg, nil), fixed.Blake2bSum(msg, nil), leafWith(newBlake2b256(), msg, nil)}
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
		Name:   "inline-pooled-hasher",
		Title:  "pooled hasher (-pool=inline)",
		Check:  "hasher-alloc",
		Inline: true,
		Before: "sha256.New() per call of a hot function, fed through io.Copy (it escapes)",
		After:  "-pool=inline: sha256Pool.Get, deferred Put, a sync.Pool declared in the file",
		Floor:  "one hasher that the caller keeps and Resets",
		Op:     "one call: read a message through io.Copy into the hasher, Sum into a buffer",
		bench:  inlinePooledHasherBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{
				naive.Digest(bytes.NewReader(msg), nil),
				fixedinline.Digest(bytes.NewReader(msg), nil),
				digestWith(sha256.New(), bytes.NewReader(msg), nil),
			}
		},
	},
	{
		Name:   "passed-on",
		Title:  "pooled hasher passed on",
		Check:  "hasher-alloc",
		Before: "sumName(sha256.New(), ns, name, out) per call of a hot function, the hasher passed on without a variable to a function that calls its methods through hash.Hash (it escapes)",
		After:  "h := hashpool.SHA256.Get() before the statement, deferred Put, sumName(h, ns, name, out)",
		Floor:  "one hasher that the caller keeps and Resets",
		Op:     "one call: write two halves of a message into the hasher, Sum into a buffer",
		bench:  passedOnBench,
		outputs: func(size int) [3][]byte {
			_, a, b := halves(size)
			return [3][]byte{naive.NameSum(a, b, nil), fixed.NameSum(a, b, nil), nodeWith(sha256.New(), a, b, nil)}
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
		Name:   "inline-crypto-pool",
		Title:  "pool per crypto.Hash (-pool=inline)",
		Check:  "hasher-alloc",
		Inline: true,
		Before: "t.New() per call of a hot function, t a crypto.Hash field (not devirtualized: it always allocates)",
		After:  "-pool=inline: pooledHash(t.Hash), deferred Put to pooledHashes[t.Hash], an array of sync.Pools declared in the file",
		Floor:  "one hasher that the caller keeps and Resets",
		Op:     "one call: write a message into the hasher, Sum into a buffer",
		bench:  inlineCryptoHashPoolBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{
				(&naive.TreeHasher{Hash: crypto.SHA256}).HashLeaf(msg, nil),
				(&fixedinline.TreeHasher{Hash: crypto.SHA256}).HashLeaf(msg, nil),
				leafWith(sha256.New(), msg, nil),
			}
		},
	},
	{
		Name:   "file-pool",
		Title:  "pool of the file for a constructor",
		Check:  "hasher-alloc",
		Before: "blake2b.New256(nil) per call of a hot function, fed through io.Copy (no runtime pool serves it)",
		After:  "blake2bNew256Pool.Get, deferred Put: a pool declared in the file (hashpool.New of the constructor)",
		Floor:  "one hasher that the caller keeps and Resets",
		Op:     "one call: read a message through io.Copy into a BLAKE2b-256 hasher, Sum into a buffer",
		bench:  blake2bPoolBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{
				naive.Blake2bDigest(bytes.NewReader(msg), nil),
				fixed.Blake2bDigest(bytes.NewReader(msg), nil),
				digestWith(newBlake2b256(), bytes.NewReader(msg), nil),
			}
		},
	},
	{
		Name:   "wrapper-pool",
		Title:  "pool of a constructor wrapper",
		Check:  "hasher-alloc",
		Before: "newBranchHasher() per call of a hot function, a wrapper that returns blake2b.New256(nil)'s hasher (kaspad's NewMerkleBranchHashWriter)",
		After:  "newBranchHasherPool.Get, deferred Put: a pool declared in the file whose New calls the wrapper",
		Floor:  "one hasher that the caller keeps and Resets",
		Op:     "one node: write two children's hashes (the message twice) into a BLAKE2b-256 hasher, Sum into a buffer",
		bench:  wrapperPoolBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{naive.BranchSum(msg, msg, nil), fixed.BranchSum(msg, msg, nil), nodeWith(newBlake2b256(), msg, msg, nil)}
		},
	},
	{
		Name:   "struct-wrapper-pool",
		Title:  "pool of a wrapper's struct",
		Check:  "hasher-alloc",
		Before: "newHashWriter() per call of a hot function, a wrapper that returns blake2b.New256(nil)'s hasher in a struct of one field that embeds it (kaspad's HashWriter)",
		After:  "w := HashWriter{Hash: newHashWriterPool.Get()}, deferred Put of w.Hash: the pool of the file holds the field's hashers, not the struct (a Put would box it)",
		Floor:  "one hasher that the caller keeps and Resets",
		Op:     "one node: write two children's hashes (the message twice) into a BLAKE2b-256 hasher, Sum into a buffer",
		bench:  structWrapperPoolBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{naive.WriterSum(msg, msg, nil), fixed.WriterSum(msg, msg, nil), nodeWith(newBlake2b256(), msg, msg, nil)}
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
		Name:   "hmac-hoist",
		Title:  "hoisted MAC + Reset",
		Check:  "hmac-rekey",
		Before: "hmac.New(sha256.New, key) per iteration of a loop, the key the same in every iteration",
		After:  "the HMAC made before the loop and Reset per iteration",
		Floor:  "the same as after: one HMAC made once and Reset per message",
		Op:     "one iteration: one HMAC-SHA256 of a message, Sum into a buffer",
		bench:  hmacHoistBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[0][:]
			return [3][]byte{
				naive.SignAll(once(), key, msg, nil),
				fixed.SignAll(once(), key, msg, nil),
				fixed.SignAll(once(), key, msg, nil),
			}
		},
	},
	{
		Name:   "hmac-helper-loop",
		Title:  "MAC kept across a loop through a helper",
		Check:  "hmac-rekey",
		Before: "a helper that makes hmac.New(sha256.New, key), writes and sums it, called per iteration of a loop, the key the same in every iteration",
		After:  "the helper takes a pointer to a MAC of the loop: made on the first iteration, Reset on the next ones",
		Floor:  "one HMAC made once and Reset per message",
		Op:     "one iteration: one HMAC-SHA256 of a message through the helper, Sum into a buffer",
		bench:  hmacHelperLoopBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[0][:]
			return [3][]byte{
				naive.SignEach(once(), key, msg, nil),
				fixed.SignEach(once(), key, msg, nil),
				fixed.SignAll(once(), key, msg, nil),
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
		Name:   "package-key-pool",
		Title:  "keyed MAC pool beside a package key",
		Check:  "hmac-rekey",
		Before: "hmac.New(sha256.New, apiKey) per call, apiKey a package variable",
		After:  "apiKeyMACs.Get, deferred Put: a hashpool.HMAC package variable beside the key",
		Floor:  "one HMAC made once and Reset per message",
		Op:     "one HMAC-SHA256 of a message, Sum into a buffer",
		bench:  packageKeyPoolBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{naive.SignAPI(msg, nil), fixed.SignAPI(msg, nil), signWith(hmac.New(sha256.New, apiKey), msg, nil)}
		},
	},
	{
		Name:   "inline-hmac-pool",
		Title:  "keyed MAC pool (-pool=inline)",
		Check:  "hmac-rekey",
		Inline: true,
		Before: "hmac.New(sha256.New, s.key) per call, the key a field",
		After:  "-pool=inline: an hmacPool field beside the key, hmacPool a type declared in the file: get (which checks the key), deferred put",
		Floor:  "one HMAC made once and Reset per message",
		Op:     "one HMAC-SHA256 of a message, Sum into a buffer",
		bench:  inlineHMACPoolBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[0][:]
			return [3][]byte{
				naive.NewSigner(key).Sign(msg, nil),
				fixedinline.NewSigner(key).Sign(msg, nil),
				signWith(hmac.New(sha256.New, key), msg, nil),
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
		Name:   "inline-hmac-verify",
		Title:  "pooled MAC verify (-pool=inline)",
		Check:  "hmac-rekey",
		Inline: true,
		Before: "hmac.New(sha256.New, s.key) per call, hmac.Equal(mac.Sum(nil), sig)",
		After:  "-pool=inline: an hmacPool field beside the key, hmacPoolEqual(mac, sig), both declared in the file",
		Floor:  "one HMAC made once and Reset per message, summed into a reused buffer, hmac.Equal",
		Op:     "one check of a message's HMAC-SHA256",
		bench:  inlineHMACVerifyBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[0][:]
			floor := hmac.New(sha256.New, key)
			sig := signWith(floor, msg, nil)
			verdict := func(ok bool) []byte { return []byte(fmt.Sprint(ok)) }
			return [3][]byte{
				verdict(naive.NewSigner(key).Verify(msg, sig)),
				verdict(fixedinline.NewSigner(key).Verify(msg, sig)),
				verdict(verifyWith(floor, msg, sig, nil)),
			}
		},
	},
	{
		Name:   "sign-equal",
		Title:  "pooled MAC compared beside a signing helper",
		Check:  "hmac-rekey",
		Before: "hmac.Equal(c.sign(msg), sig), sign a helper that returns hmac.New(sha256.New, c.key)'s Sum(nil)",
		After:  "c.signEqual(msg, sig), declared beside sign: a MAC from a hashpool.HMAC field beside the key, mac.Equal(sig)",
		Floor:  "one HMAC made once and Reset per message, summed into a reused buffer, hmac.Equal",
		Op:     "one check of a message's HMAC-SHA256",
		bench:  signEqualBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[0][:]
			floor := hmac.New(sha256.New, key)
			sig := signWith(floor, msg, nil)
			verdict := func(ok bool) []byte { return []byte(fmt.Sprint(ok)) }
			return [3][]byte{
				verdict(naive.NewChecker(key).Check(msg, sig)),
				verdict(fixed.NewChecker(key).Check(msg, sig)),
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
		Name:   "inline-hmac-oneshot",
		Title:  "one-shot HMAC (-pool=inline)",
		Check:  "hmac-rekey",
		Inline: true,
		Before: "hmac.New(sha256.New, key) per call of a hot function, the key changing per call",
		After:  "-pool=inline: appendHMACSHA256(out[:0], key, msg), a copy of hashsum.AppendHMACSHA256 declared in the file",
		Floor:  "one HMAC for a fixed key, Reset per message (what no changing key can beat)",
		Op:     "one HMAC-SHA256 of a message under one of four keys in turn",
		bench:  inlineHMACOneShotBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[1][:]
			return [3][]byte{
				naive.MAC(key, msg, nil),
				fixedinline.MAC(key, msg, nil),
				signWith(hmac.New(sha256.New, key), msg, nil),
			}
		},
	},
	{
		Name:   "hoisted-part",
		Title:  "one-shot HMAC of a part that runs code",
		Check:  "hmac-rekey",
		Before: "hmac.New(sha256.New, key), mac.Write(bytes.TrimSpace(msg)), per call of a hot function, the key changing per call",
		After:  "part := bytes.TrimSpace(msg) where it was written, then hashsum.AppendHMACSHA256(out[:0], key, part)",
		Floor:  "one HMAC for a fixed key, Reset per message (what no changing key can beat)",
		Op:     "one HMAC-SHA256 of a message under one of four keys in turn",
		bench:  hoistedPartBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[1][:]
			return [3][]byte{
				naive.MACTrimmed(key, msg, nil),
				fixed.MACTrimmed(key, msg, nil),
				signWith(hmac.New(sha256.New, key), msg, nil),
			}
		},
	},
	{
		Name:   "printed-part",
		Title:  "one-shot HMAC of a printed part",
		Check:  "hmac-rekey",
		Before: "hmac.New(sha256.New, key), fmt.Fprintf(mac, \"%s:%d:\", id, n), mac.Write(msg), per call of a hot function, the key changing per call (x/net's xsrftoken prints its parts into the MAC)",
		After:  "part := fmt.Appendf(make([]byte, 0, 64), \"%s:%d:\", id, n), then hashsum.AppendHMACSHA256(out[:0], key, part, msg)",
		Floor:  "one HMAC for a fixed key, Reset per message, of the text printed once",
		Op:     "one HMAC-SHA256 of a 9-byte ID and a number printed, then a message, under one of four keys in turn",
		// The id boxed for fmt.Appendf, as for fmt.Fprintf: a string
		// passed as an interface goes to the heap.
		AfterAllocs: 1,
		bench:       printedPartBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[0][:]
			return [3][]byte{
				naive.MACPrinted(key, printedID, printedN, msg, nil),
				fixed.MACPrinted(key, printedID, printedN, msg, nil),
				signWith(hmac.New(sha256.New, key), printedText(msg), nil),
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
	}, {
		Name:   "hmac-size",
		Title:  "one-shot HMAC of a MAC whose size is read first",
		Check:  "hmac-rekey",
		Before: "hmac.New(newHash, key), then mac.Size() checked against the output length before the Write, then mac.Sum(nil)[:n], per call of a hot function",
		After:  "mac := hashsum.AppendHMACFunc(newHash, nil, key, msg) where hmac.New was, len(mac) for each mac.Size(), mac[:n] for the Sum",
		Floor:  "one HMAC for a fixed key, Reset per message (what no changing key can beat)",
		Op:     "the first 32 bytes of one HMAC-SHA256 of a message under one of four keys in turn",
		// The hasher that newHash returns (a call through a function
		// value is not inlined) and the sum, which the caller keeps.
		AfterAllocs: 2,
		bench:       hmacSizeBench,
		outputs: func(size int) [3][]byte {
			msg, key := message(size), benchKeys[1][:]
			floor := hmac.New(sha256.New, key)
			before, _ := naive.MACPrefix(sha256.New, key, msg, sha256.Size)
			after, _ := fixed.MACPrefix(sha256.New, key, msg, sha256.Size)
			return [3][]byte{before, after, signWith(floor, msg, nil)}
		},
	},

	{
		Name:   "write-parts",
		Title:  "one Write per part",
		Check:  "concat-hash",
		Before: "h.Write(append(a, b...)) into sha256.New(), a without spare capacity",
		After:  "h.Write(a); h.Write(b)",
		Floor:  "one hasher that the caller keeps and Resets, the concatenation built once",
		Op:     "one digest of two halves of a message, Sum into a buffer",
		bench:  writePartsBench,
		outputs: func(size int) [3][]byte {
			whole, a, b := halves(size)
			return [3][]byte{naive.WritePair(a, b, nil), fixed.WritePair(a, b, nil), leafWith(sha256.New(), whole, nil)}
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
		Name:   "literal-part",
		Title:  "literal small part",
		Check:  "concat-hash",
		Before: "h.Write(append(append(append(make([]byte, 0, 1+len(l)+len(r)), nodePrefix), l...), r...)) into sha256.New() (transparency-dev's HashChildren)",
		After:  "h.Write([]byte{nodePrefix}); h.Write(l); h.Write(r): the literal stays on the stack",
		Floor:  "one hasher that the caller keeps and Resets, the prefix in a package variable",
		Op:     "one node: write a prefix byte and two children's hashes (the message twice) into the hasher, Sum into a buffer",
		bench:  literalPartBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{
				naive.NodeSum(msg, msg, nil),
				fixed.NodeSum(msg, msg, nil),
				prefixedNodeWith(sha256.New(), msg, msg, nil),
			}
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
		Name:   "built-sum",
		Title:  "sum where the parts are built",
		Check:  "concat-hash",
		Before: "sha256.Sum256(pairBytes(a, b)), pairBytes an unexported function that returns append(a, b...), a without spare capacity",
		After:  "pairBytesSum(a, b), which returns hashsum.SHA256(a, b) where pairBytes built the parts",
		Floor:  "sha256.Sum256 of the concatenation built once",
		Op:     "one digest of two halves of a message",
		bench:  builtSumBench,
		outputs: func(size int) [3][]byte {
			whole, a, b := halves(size)
			s0, s1, s2 := naive.BuiltPairSum(a, b), fixed.BuiltPairSum(a, b), sha256.Sum256(whole)
			return [3][]byte{s0[:], s1[:], s2[:]}
		},
	},
	{
		Name:   "helper-parts",
		Title:  "parts-wise form of a helper",
		Check:  "concat-hash",
		Before: "digestOf(append(a, b...)), digestOf a helper of the file that only writes its argument into sha256.New(), a without spare capacity",
		After:  "digestOfParts(a, b), declared next to digestOf: one Write per part",
		Floor:  "digestOf of the concatenation built once",
		Op:     "one digest of two halves of a message",
		bench:  helperPartsBench,
		outputs: func(size int) [3][]byte {
			whole, a, b := halves(size)
			s0, s1, s2 := naive.PairDigest(a, b), fixed.PairDigest(a, b), fixed.Digest256(whole)
			return [3][]byte{s0[:], s1[:], s2[:]}
		},
	},
	{
		Name:   "buffer-sum",
		Title:  "buffer filled only to be hashed",
		Check:  "concat-hash",
		Before: "var buf bytes.Buffer; buf.Write(a); buf.Write(b); sha256.Sum256(buf.Bytes())",
		After:  "hashsum.SHA256(a, b): the buffer and its writes removed",
		Floor:  "sha256.Sum256 of the concatenation built once",
		Op:     "one digest of two halves of a message",
		bench:  bufferSumBench,
		outputs: func(size int) [3][]byte {
			whole, a, b := halves(size)
			s0, s1, s2 := naive.BufferPairSum(a, b), fixed.BufferPairSum(a, b), sha256.Sum256(whole)
			return [3][]byte{s0[:], s1[:], s2[:]}
		},
	},
	{
		Name:   "formatted-write",
		Title:  "string formatted into the hasher",
		Check:  "concat-hash",
		Before: "h.Write([]byte(fmt.Sprintf(\"%s.%d.%s\", id, ts, payload))) per call of a hot function, h a hash.Hash parameter (a webhook signer's)",
		After:  "fmt.Fprintf(h, \"%s.%d.%s\", id, ts, payload): neither the string nor its copy",
		Floor:  "the formatted message built once, written into the hasher",
		Op:     "one call: the HMAC-SHA256 of an ID, a timestamp and a message formatted together, Sum into a buffer",
		// fmt boxes the ID, the time and the message in interfaces,
		// before the fix and after it.
		AfterAllocs: 3,
		bench:       formattedWriteBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			mac := hmac.New(sha256.New, benchKeys[0][:])
			return [3][]byte{
				naive.SignFormatted(mac, webhookID, webhookTime, msg, nil),
				fixed.SignFormatted(mac, webhookID, webhookTime, msg, nil),
				signWith(mac, formatted(msg), nil),
			}
		},
	},
	{
		Name:   "stack-buffer",
		Title:  "buffer backed by a stack array",
		Check:  "hot-buffer",
		Before: "make([]byte, len(key)+1) per call of a hot function, 49 bytes (a size known only at run time: on the heap above 32 bytes)",
		After:  "a 128-byte array on the stack backs the buffer, made only when larger",
		Floor:  "a scratch buffer that the caller provides",
		Op:     "one call: a 48-byte key and a byte built in a buffer, written with a message into a hasher, Sum into a buffer",
		bench:  stackBufferBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{
				naive.KeySum(trieKey, trieDepth, msg, nil),
				fixed.KeySum(trieKey, trieDepth, msg, nil),
				keySumScratch(make([]byte, 128), trieKey, trieDepth, msg, nil),
			}
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
		Name:   "inline-pooled-buffer",
		Title:  "pooled buffer (-pool=inline)",
		Check:  "hot-buffer",
		Inline: true,
		Before: "make([]byte, size) per call of a recursive function, written to a hash.Hash (it escapes)",
		After:  "-pool=inline: buf, bufPtr := pooledBytes(size), deferred Put, a sync.Pool of buffers declared in the file",
		Floor:  "a scratch buffer that the caller provides",
		Op:     "one call: a node header of the given size written to a hasher",
		bench:  inlinePooledBufferBench,
		outputs: func(size int) [3][]byte {
			var out [3][]byte
			for i, write := range [3]func(hash.Hash){
				func(h hash.Hash) { naive.WriteTree(h, &naive.Node{ID: 7}, size) },
				func(h hash.Hash) { fixedinline.WriteTree(h, &fixedinline.Node{ID: 7}, size) },
				func(h hash.Hash) { writeTreeScratch(h, &naive.Node{ID: 7}, make([]byte, size)) },
			} {
				h := sha256.New()
				write(h)
				out[i] = h.Sum(nil)
			}
			return out
		},
	},
	{
		Name:   "sum-append",
		Title:  "Sum appended in place",
		Check:  "sum-alloc",
		Before: "append(dst[:0], h.Sum(nil)...) per iteration of a loop",
		After:  "h.Sum(dst[:0])",
		Floor:  "sha256.Sum256(msg) appended to dst[:0]",
		Op:     "one iteration: hash a message and append the digest to a buffer",
		bench:  sumAppendBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{
				naive.AppendDigests(once(), msg, nil),
				fixed.AppendDigests(once(), msg, nil),
				appendDigestsFloor(once(), msg, nil),
			}
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
	{
		Name:      "pooled-sum",
		Title:     "sum into a pooled buffer",
		Check:     "sum-alloc",
		AlsoCheck: "hasher-alloc",
		Before:    "bytes.Equal(h.Sum(nil), want) per call of a hot function, h := sha256.New() fed through io.Copy (it escapes)",
		After:     "h from hashpool.SHA256 (the hasher-alloc fix), its sum into hashpool.Buffers.Get(0), deferred Put: a stack array would escape through the pooled interface",
		Floor:     "one hasher that the caller keeps and Resets, summed into a reused buffer",
		Op:        "one call: read a message through io.Copy into the hasher, compare its digest with the expected one",
		bench:     pooledSumBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			want := sha256.Sum256(msg)
			verdict := func(ok bool) []byte { return []byte(fmt.Sprint(ok)) }
			return [3][]byte{
				verdict(naive.DigestMatches(bytes.NewReader(msg), want[:])),
				verdict(fixed.DigestMatches(bytes.NewReader(msg), want[:])),
				verdict(digestMatchesFloor(sha256.New(), bytes.NewReader(msg), want[:], nil)),
			}
		},
	},
	{
		Name:   "field-sum",
		Title:  "sum into the struct's array",
		Check:  "sum-alloc",
		Before: "sum := f.h.Sum(nil), f.h a hash.Hash field, then binary.BigEndian.Uint64(sum), per call of a hot method (a Bloom filter's)",
		After:  "f.h.Sum(f.hSum[:0]), hSum [32]byte a new field beside the hasher",
		Floor:  "sha256.Sum256(key), then binary.BigEndian.Uint64",
		Op:     "one location: hash a key, read the digest's first eight bytes",
		bench:  fieldSumBench,
		outputs: func(size int) [3][]byte {
			msg := message(size)
			return [3][]byte{
				binary.BigEndian.AppendUint64(nil, naive.NewFilter().Location(msg)),
				binary.BigEndian.AppendUint64(nil, fixed.NewFilter().Location(msg)),
				binary.BigEndian.AppendUint64(nil, locationFloor(msg)),
			}
		},
	},
	{
		Name:   "sum-value",
		Title:  "digest returned by value",
		Check:  "sum-alloc",
		Before: "digest := h.Sum(nil); return truncate((*Truncated)(digest)), in a function whose every caller copies what it returns (go-data-segment's computeNode)",
		After:  "the function wraps a worker that sums into its result and returns it by value; inlined into each caller, it leaves the result on the caller's stack",
		Floor:  "sha256.Sum256(msg), its top two bits cleared",
		Op:     "one call: the truncated SHA-256 of two halves of a message, copied to the caller",
		bench:  sumValueBench,
		outputs: func(size int) [3][]byte {
			_, x, y := halves(size)
			before, after, floor := naive.TruncatedPairSum(x, y), fixed.TruncatedPairSum(x, y), truncatedFloor(message(size))
			return [3][]byte{before[:], after[:], floor[:]}
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
