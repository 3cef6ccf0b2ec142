package inlinepool

import (
	"crypto"
	_ "crypto/sha512" // crypto.SHA512.New
	"encoding/hex"
	"io"

	"github.com/cespare/xxhash/v2"
	"github.com/spaolacci/murmur3"
	"golang.org/x/crypto/blake2b"
)

// treeHasher hashes with the crypto.Hash it embeds, as Merkle tree hashers
// do (transparency-dev/merkle's, trillian's): no constant names the hash,
// so a pool per crypto.Hash value serves it.
type treeHasher struct{ crypto.Hash }

var leaves = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}

// hashLeaf is marked hot.
//
//hashalloc:hot
func (t *treeHasher) hashLeaf(leaf []byte) []byte {
	h := t.New() // want `hasher-alloc: t.New\(\) always allocates its hasher once per call of hashLeaf \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of the hashers of t.Hash`
	h.Write([]byte{0})
	h.Write(leaf)
	return h.Sum(nil)
}

// digestWith is marked hot; its crypto.Hash is a parameter that it does not
// assign, so the hasher goes back right after its last use.
//
//hashalloc:hot
func digestWith(alg crypto.Hash, b []byte) int {
	h := alg.New() // want `hasher-alloc: alg.New\(\) always allocates its hasher once per call of digestWith \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of the hashers of alg`
	h.Write(b)
	n := len(h.Sum(nil))
	return n
}

// algorithm returns the crypto.Hash of t.
func (t *treeHasher) algorithm() crypto.Hash { return t.Hash }

// hashCalled is marked hot; its crypto.Hash is the result of a call, which
// the fix would have to make twice (negative twin of hashLeaf).
//
//hashalloc:hot
func (t *treeHasher) hashCalled(leaf []byte) []byte {
	h := t.algorithm().New() // want `hasher-alloc: t.algorithm\(\).New\(\) always allocates its hasher once per call of hashCalled \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: the crypto.Hash is neither a constant nor a variable\)`
	h.Write(leaf)
	return h.Sum(nil)
}

func CaseTreeHasher() {
	t := &treeHasher{crypto.SHA512}
	for _, l := range leaves {
		t.hashLeaf(l)
	}
}

func CaseDigestWith() {
	for _, l := range leaves {
		digestWith(crypto.SHA512, l)
	}
}

func CaseHashCalled() {
	t := &treeHasher{crypto.SHA512}
	for _, l := range leaves {
		t.hashCalled(l)
	}
}

func ResultTreeHasher() string {
	t := &treeHasher{crypto.SHA512}
	return hex.EncodeToString(t.hashLeaf(leaves[0])) + hex.EncodeToString(t.hashLeaf(leaves[1]))
}

// blake256 is marked hot: blake2b.New256 has no runtime pool, but its
// Reset restores the state it makes from a constant key, and its error is
// nil for a key of at most 64 bytes, so a pool of the file serves it. It
// writes two parts, which no one-shot sum takes (negative twin of
// blakeOnce).
//
//hashalloc:hot
func blake256(b []byte) []byte {
	h, _ := blake2b.New256(nil) // want `hasher-alloc: blake2b.New256\(nil\) always allocates its hasher once per call of blake256 \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of blake2b.New256 hashers`
	h.Write(b)
	h.Write(b[:1])
	return h.Sum(nil)
}

// blakeOnce is marked hot: its hasher is written once and summed once, the
// digest of one slice that blake2b.Sum256 computes without a hasher, and
// without making []byte(key) escape as a pooled hasher would (vault's
// Blake2b256Hash).
//
//hashalloc:hot
func blakeOnce(key string) []byte {
	hf, _ := blake2b.New256(nil) // want `hasher-alloc: blake2b.New256\(nil\) always allocates its hasher once per call of blakeOnce \(it is marked //hashalloc:hot\); automatic fix: compute the digest with blake2b.Sum256, which makes no hasher`

	hf.Write([]byte(key))

	return hf.Sum(nil)
}

// blakeAppend is marked hot: the digest is appended to dst, with a
// statement between the Write and the Sum that changes the data written
// after it was hashed.
//
//hashalloc:hot
func blakeAppend(dst, b []byte) []byte {
	h, _ := blake2b.New512(nil) // want `hasher-alloc: blake2b.New512\(nil\) always allocates its hasher once per call of blakeAppend \(it is marked //hashalloc:hot\); automatic fix: compute the digest with blake2b.Sum512, which makes no hasher`
	h.Write(b)
	b[0]++
	return h.Sum(dst)
}

// blakeOnceKeyed is marked hot: a keyed hasher, which no sum function
// computes (negative twin of blakeOnce): a pooled hasher would make
// []byte(key) escape.
//
//hashalloc:hot
func blakeOnceKeyed(key string) []byte {
	h, _ := blake2b.New256([]byte("domain")) // want `hasher-alloc: blake2b.New256\(\[\]byte\("domain"\)\) always allocates its hasher once per call of blakeOnceKeyed \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: a pooled hasher would make \[\]byte\(key\) escape\)`
	h.Write([]byte(key))
	return h.Sum(nil)
}

// blakeSumTwice is marked hot: summed twice, the two digests are two
// slices, which one array would not be (negative twin of blakeOnce).
//
//hashalloc:hot
func blakeSumTwice(b []byte) ([]byte, []byte) {
	h, _ := blake2b.New256(nil) // want `hasher-alloc: blake2b.New256\(nil\) always allocates its hasher once per call of blakeSumTwice \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of blake2b.New256 hashers`
	h.Write(b)
	return h.Sum(nil), h.Sum(nil)
}

func CaseBlakeOnce() {
	for _, l := range leaves {
		blakeOnce(string(l))
	}
}

// scratch holds the data that blakeAppend changes.
var scratch [8]byte

func CaseBlakeAppend() {
	var buf [64]byte
	for _, l := range leaves {
		b := scratch[:copy(scratch[:], l)]
		blakeAppend(buf[:0], b)
	}
}

func CaseBlakeOnceKeyed() {
	for _, l := range leaves {
		blakeOnceKeyed(string(l))
	}
}

func CaseBlakeSumTwice() {
	for _, l := range leaves {
		blakeSumTwice(l)
	}
}

func ResultBlakeOnce() string {
	a, b := blakeSumTwice(leaves[1])
	b[0]++
	return hex.EncodeToString(blakeOnce("vault")) + hex.EncodeToString(blakeAppend([]byte("x"), []byte("yz"))) +
		hex.EncodeToString(blakeOnceKeyed("k")) + hex.EncodeToString(a) + hex.EncodeToString(b)
}

// blakeSized is marked hot: a constant size and no key.
//
//hashalloc:hot
func blakeSized(b []byte) []byte {
	const size = 16
	h, _ := blake2b.New(size, nil) // want `hasher-alloc: blake2b.New\(size, nil\) always allocates its hasher once per call of blakeSized \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of blake2b.New hashers`
	h.Write(b)
	return h.Sum(nil)
}

// blakeKeyed is marked hot: the key is a parameter, and a pool holds the
// hashers of one key (negative twin of blake256).
//
//hashalloc:hot
func blakeKeyed(key, b []byte) []byte {
	h, _ := blake2b.New256(key) // want `hasher-alloc: blake2b.New256\(key\) always allocates its hasher once per call of blakeKeyed \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: no pool serves blake2b.New256 with key, which is not a constant: a pool holds the hashers of one set of arguments\)`
	h.Write(b)
	return h.Sum(nil)
}

// blakeTooLarge is marked hot: blake2b.New fails for a size above 64, so
// that no pool may hold its hashers (negative twin of blakeSized).
//
//hashalloc:hot
func blakeTooLarge(b []byte) []byte {
	h, err := blake2b.New(65, nil) // want `hasher-alloc: blake2b.New\(65, nil\) always allocates its hasher once per call of blakeTooLarge \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: 65 is not a size that blake2b.New accepts\)`
	if err != nil {
		return nil
	}
	h.Write(b)
	return h.Sum(nil)
}

// murmur64 is marked hot: murmur3.New64's Reset restores its seed.
//
//hashalloc:hot
func murmur64(b []byte) []byte {
	h := murmur3.New64() // want `hasher-alloc: murmur3.New64\(\) always allocates its hasher once per call of murmur64 \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of murmur3.New64 hashers`
	h.Write(b)
	return h.Sum(nil)
}

// xxWrite is marked hot: xxhash.New's hasher escapes into the io.Writer,
// and its Reset restores the state New makes.
//
//hashalloc:hot
func xxWrite(s string) uint64 {
	h := xxhash.New() // want `hasher-alloc: xxhash.New\(\) escapes to the heap \(passed to io.WriteString\) once per call of xxWrite \(it is marked //hashalloc:hot\); automatic fix: take h from a pool of xxhash.New hashers`
	io.WriteString(h, s)
	return h.Sum64()
}

// xxSeeded is marked hot, but NewWithSeed's seed is lost by Reset, which
// restarts with seed 0: no pool serves it.
//
//hashalloc:hot
func xxSeeded(s string) uint64 {
	h := xxhash.NewWithSeed(7) // want `hasher-alloc: xxhash.NewWithSeed\(7\) escapes to the heap \(passed to io.WriteString\) once per call of xxSeeded \(it is marked //hashalloc:hot\); reuse a pooled hasher \(no automatic fix: no pool serves xxhash.NewWithSeed\)`
	io.WriteString(h, s)
	return h.Sum64()
}

func CaseXXWrite() {
	for _, l := range leaves {
		xxWrite(string(l))
	}
}

func CaseXXSeeded() {
	for _, l := range leaves {
		xxSeeded(string(l))
	}
}

func CaseBlake256() {
	for _, l := range leaves {
		blake256(l)
	}
}

func CaseBlakeSized() {
	for _, l := range leaves {
		blakeSized(l)
	}
}

func CaseBlakeKeyed() {
	for _, l := range leaves {
		blakeKeyed(l, l)
	}
}

func CaseBlakeTooLarge() {
	for _, l := range leaves {
		blakeTooLarge(l)
	}
}

func CaseMurmur64() {
	for _, l := range leaves {
		murmur64(l)
	}
}

func ResultThirdParty() string {
	return hex.EncodeToString(blake256(leaves[0])) + hex.EncodeToString(blake256(leaves[1])) +
		hex.EncodeToString(blakeSized(leaves[2])) + hex.EncodeToString(murmur64(leaves[0])) + hex.EncodeToString(murmur64(leaves[1]))
}

// blakeLoop makes a checked hasher per iteration: hoisted, err would be
// defined outside the loop, so it is not (negative twin of blakeChecked's
// pool, whose call is not in a loop).
func blakeLoop() int {
	n := 0
	for _, l := range leaves {
		h, err := blake2b.New(16, nil) // want `hasher-alloc: blake2b.New\(16, nil\) always allocates its hasher once per element of leaves \(the loop at cryptohashpool.go:\d+\); reuse one hasher across iterations \(no automatic fix: err is defined beside the hasher, and hoisted it would be defined outside the loop\)`
		if err != nil {
			return 0
		}
		h.Write(l)
		n += len(h.Sum(nil))
	}
	return n
}

func CaseBlakeLoop() { blakeLoop() }
