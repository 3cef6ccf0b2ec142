package bench

import (
	"bytes"
	"crypto"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"io"
	"testing"

	"github.com/hashalloc/hashalloc/bench/fixed"
	"github.com/hashalloc/hashalloc/bench/fixedinline"
	"github.com/hashalloc/hashalloc/bench/naive"
	"golang.org/x/crypto/blake2b"
)

// Sinks keep every result alive, so that the compiler cannot drop the work.
var (
	sink    []byte
	sinkSum [sha256.Size]byte
	// sinkDouble holds the double sums, apart from the multi-part sums'.
	sinkDouble [sha256.Size]byte
	sinkInt    int
	// sinkTruncated holds the truncated sums.
	sinkTruncated [sha256.Size]byte
	// sinkUint holds a Bloom filter's location.
	sinkUint uint64
)

// benchKeys are the keys of the HMAC benchmarks; the one-shot HMAC takes
// them in turn, as a key that changes from call to call.
var benchKeys = [4][32]byte{{0: 'a'}, {0: 'b'}, {0: 'c'}, {0: 'd'}}

// message returns a message of size bytes.
func message(size int) []byte {
	msg := make([]byte, size)
	for i := range msg {
		msg[i] = byte(i*7 + 1)
	}
	return msg
}

// halves returns a message of size bytes and its two halves, the first
// without spare capacity, so that append(a, b...) must copy.
func halves(size int) (whole, a, b []byte) {
	whole = message(size)
	return whole, whole[: size/2 : size/2], whole[size/2:]
}

// once returns a loop condition that holds once.
func once() func() bool {
	done := false
	return func() bool {
		more := !done
		done = true
		return more
	}
}

func hoistBench(size int) [3]func(b *testing.B) {
	msg := message(size)
	run := func(hoist func(func() bool, *bytes.Reader, []byte, []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			r, out := bytes.NewReader(nil), make([]byte, 0, sha256.Size)
			sink = hoist(b.Loop, r, msg, out)
		}
	}
	return [3]func(b *testing.B){run(naive.HoistReset), run(fixed.HoistReset), run(fixed.HoistReset)}
}

// digestWith is Digest with a hasher that the caller keeps: the floor of the
// pooled hasher.
func digestWith(h hash.Hash, r io.Reader, out []byte) []byte {
	h.Reset()
	if _, err := io.Copy(h, r); err != nil {
		panic(err)
	}
	return h.Sum(out[:0])
}

func pooledHasherBench(size int) [3]func(b *testing.B) {
	return pooledHasherTrio(size, fixed.Digest)
}

// inlinePooledHasherBench is pooledHasherBench with the pool declared in the
// file.
func inlinePooledHasherBench(size int) [3]func(b *testing.B) {
	return pooledHasherTrio(size, fixedinline.Digest)
}

// pooledHasherTrio measures naive.Digest and after against the floor.
func pooledHasherTrio(size int, after func(io.Reader, []byte) []byte) [3]func(b *testing.B) {
	msg := message(size)
	run := func(digest func(io.Reader, []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			r, out := bytes.NewReader(nil), make([]byte, 0, sha256.Size)
			for b.Loop() {
				r.Reset(msg)
				out = digest(r, out)
			}
			sink = out
		}
	}
	floor := func(b *testing.B) {
		h := sha256.New()
		run(func(r io.Reader, out []byte) []byte { return digestWith(h, r, out) })(b)
	}
	return [3]func(b *testing.B){run(naive.Digest), run(after), floor}
}

// leafWith is HashLeaf with a hasher that the caller keeps: the floor of
// the pool per crypto.Hash.
func leafWith(h hash.Hash, leaf, out []byte) []byte {
	h.Reset()
	h.Write(leaf)
	return h.Sum(out[:0])
}

func cryptoHashPoolBench(size int) [3]func(b *testing.B) {
	return cryptoHashPoolTrio(size, (&fixed.TreeHasher{Hash: crypto.SHA256}).HashLeaf)
}

// inlineCryptoHashPoolBench is cryptoHashPoolBench with the pools declared
// in the file.
func inlineCryptoHashPoolBench(size int) [3]func(b *testing.B) {
	return cryptoHashPoolTrio(size, (&fixedinline.TreeHasher{Hash: crypto.SHA256}).HashLeaf)
}

// cryptoHashPoolTrio measures naive.TreeHasher's HashLeaf and after against
// the floor.
func cryptoHashPoolTrio(size int, after func(leaf, out []byte) []byte) [3]func(b *testing.B) {
	msg := message(size)
	run := func(hashLeaf func(leaf, out []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			out := make([]byte, 0, sha256.Size)
			for b.Loop() {
				out = hashLeaf(msg, out)
			}
			sink = out
		}
	}
	floor := func(b *testing.B) {
		h := sha256.New()
		run(func(leaf, out []byte) []byte { return leafWith(h, leaf, out) })(b)
	}
	return [3]func(b *testing.B){
		run((&naive.TreeHasher{Hash: crypto.SHA256}).HashLeaf),
		run(after),
		floor,
	}
}

// nodeWith is FuncTree.Node with a hasher that the caller keeps: the floor
// of the pool beside a function value.
func nodeWith(h hash.Hash, l, r, out []byte) []byte {
	h.Reset()
	h.Write(l)
	h.Write(r)
	return h.Sum(out[:0])
}

func funcPoolBench(size int) [3]func(b *testing.B) {
	msg := message(size)
	run := func(node func(l, r, out []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			out := make([]byte, 0, sha256.Size)
			for b.Loop() {
				out = node(msg, msg, out)
			}
			sink = out
		}
	}
	floor := func(b *testing.B) {
		h := sha256.New()
		run(func(l, r, out []byte) []byte { return nodeWith(h, l, r, out) })(b)
	}
	return [3]func(b *testing.B){
		run(naive.NewFuncTree(false).Node),
		run(fixed.NewFuncTree(false).Node),
		floor,
	}
}

// signWith returns the MAC of msg with a MAC that the caller keeps: the floor
// of the keyed MAC pool and of the one-shot HMAC.
func signWith(mac hash.Hash, msg, out []byte) []byte {
	mac.Reset()
	mac.Write(msg)
	return mac.Sum(out[:0])
}

func hmacPoolBench(size int) [3]func(b *testing.B) {
	return hmacPoolTrio(size, func(key []byte) func(msg, out []byte) []byte { return fixed.NewSigner(key).Sign })
}

// inlineHMACPoolBench is hmacPoolBench with the keyed pool declared in the
// file.
func inlineHMACPoolBench(size int) [3]func(b *testing.B) {
	return hmacPoolTrio(size, func(key []byte) func(msg, out []byte) []byte { return fixedinline.NewSigner(key).Sign })
}

// hmacPoolTrio measures naive.Signer's Sign and the signing function that
// after returns for a key against the floor.
func hmacPoolTrio(size int, after func(key []byte) func(msg, out []byte) []byte) [3]func(b *testing.B) {
	msg, key := message(size), benchKeys[0][:]
	run := func(sign func(msg, out []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			out := make([]byte, 0, sha256.Size)
			for b.Loop() {
				out = sign(msg, out)
			}
			sink = out
		}
	}
	before := func(b *testing.B) { run(naive.NewSigner(key).Sign)(b) }
	afterSign := func(b *testing.B) { run(after(key))(b) }
	floor := func(b *testing.B) {
		mac := hmac.New(sha256.New, key)
		run(func(msg, out []byte) []byte { return signWith(mac, msg, out) })(b)
	}
	return [3]func(b *testing.B){before, afterSign, floor}
}

// verifyWith reports whether sig is the MAC of msg, by a MAC that the caller
// keeps and a buffer it reuses: the floor of verifying with a pooled MAC.
func verifyWith(mac hash.Hash, msg, sig, buf []byte) bool {
	return hmac.Equal(signWith(mac, msg, buf), sig)
}

func hmacVerifyBench(size int) [3]func(b *testing.B) {
	return hmacVerifyTrio(size, func(key []byte) func(msg, sig []byte) bool { return fixed.NewSigner(key).Verify })
}

// inlineHMACVerifyBench is hmacVerifyBench with the keyed pool and the
// comparison declared in the file.
func inlineHMACVerifyBench(size int) [3]func(b *testing.B) {
	return hmacVerifyTrio(size, func(key []byte) func(msg, sig []byte) bool { return fixedinline.NewSigner(key).Verify })
}

// hmacVerifyTrio measures naive.Signer's Verify and the verifying function
// that after returns for a key against the floor.
func hmacVerifyTrio(size int, after func(key []byte) func(msg, sig []byte) bool) [3]func(b *testing.B) {
	msg, key := message(size), benchKeys[0][:]
	// The signature to verify, made once per benchmark before it runs.
	sig := signWith(hmac.New(sha256.New, key), msg, nil) //hashalloc:ignore hmac-rekey
	run := func(verify func(msg, sig []byte) bool) func(b *testing.B) {
		return func(b *testing.B) {
			n := 0
			for b.Loop() {
				if verify(msg, sig) {
					n++
				}
			}
			sinkInt = n
		}
	}
	before := func(b *testing.B) { run(naive.NewSigner(key).Verify)(b) }
	afterVerify := func(b *testing.B) { run(after(key))(b) }
	floor := func(b *testing.B) {
		mac, buf := hmac.New(sha256.New, key), make([]byte, 0, sha256.Size)
		run(func(msg, sig []byte) bool { return verifyWith(mac, msg, sig, buf) })(b)
	}
	return [3]func(b *testing.B){before, afterVerify, floor}
}

func hmacOneShotBench(size int) [3]func(b *testing.B) {
	return macTrio(size, naive.MAC, fixed.MAC)
}

// inlineHMACOneShotBench is hmacOneShotBench with the one-shot HMAC declared
// in the file.
func inlineHMACOneShotBench(size int) [3]func(b *testing.B) {
	return macTrio(size, naive.MAC, fixedinline.MAC)
}

// hmacHashBench is hmacOneShotBench with the hash chosen at run time.
func hmacHashBench(size int) [3]func(b *testing.B) {
	with := func(mac func(h crypto.Hash, key, msg, out []byte) []byte) func(key, msg, out []byte) []byte {
		return func(key, msg, out []byte) []byte { return mac(crypto.SHA256, key, msg, out) }
	}
	return macTrio(size, with(naive.MACWith), with(fixed.MACWith))
}

// hmacChosenBench is hmacOneShotBench with the hash chosen in branches.
func hmacChosenBench(size int) [3]func(b *testing.B) {
	with := func(mac func(v2 bool, key, msg, out []byte) []byte) func(key, msg, out []byte) []byte {
		return func(key, msg, out []byte) []byte { return mac(true, key, msg, out) }
	}
	return macTrio(size, with(naive.MACChosen), with(fixed.MACChosen))
}

// hmacFuncBench is hmacOneShotBench with a hash function chosen at run
// time.
func hmacFuncBench(size int) [3]func(b *testing.B) {
	with := func(mac func(newHash func() hash.Hash, key, msg, out []byte) []byte) func(key, msg, out []byte) []byte {
		return func(key, msg, out []byte) []byte { return mac(sha256.New, key, msg, out) }
	}
	return macTrio(size, with(naive.MACFunc), with(fixed.MACFunc))
}

// hmacSizeBench is hmacFuncBench for a PRF that checks its output length
// against the MAC's size before the Write.
func hmacSizeBench(size int) [3]func(b *testing.B) {
	with := func(prf func(newHash func() hash.Hash, key, msg []byte, n int) ([]byte, error)) func(key, msg, out []byte) []byte {
		return func(key, msg, _ []byte) []byte {
			sum, _ := prf(sha256.New, key, msg, sha256.Size)
			return sum
		}
	}
	return macTrio(size, with(naive.MACPrefix), with(fixed.MACPrefix))
}

// macTrio measures before and after, HMACs of a message under one of four
// keys in turn, against the floor of one HMAC for a fixed key.
func macTrio(size int, before, after func(key, msg, out []byte) []byte) [3]func(b *testing.B) {
	msg := message(size)
	run := func(mac func(key, msg, out []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			out := make([]byte, 0, sha256.Size)
			for i := 0; b.Loop(); i++ {
				out = mac(benchKeys[i%len(benchKeys)][:], msg, out)
			}
			sink = out
		}
	}
	floor := func(b *testing.B) {
		mac := hmac.New(sha256.New, benchKeys[0][:])
		run(func(_, msg, out []byte) []byte { return signWith(mac, msg, out) })(b)
	}
	return [3]func(b *testing.B){run(before), run(after), floor}
}

func multipartBench(size int) [3]func(b *testing.B) {
	whole, x, y := halves(size)
	run := func(sum func(a, b []byte) [sha256.Size]byte) func(b *testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				sinkSum = sum(x, y)
			}
		}
	}
	floor := func(b *testing.B) {
		for b.Loop() {
			sinkSum = sha256.Sum256(whole)
		}
	}
	return [3]func(b *testing.B){run(naive.SumPair), run(fixed.SumPair), floor}
}

// doubleSumBench measures the sum of the sum of two halves of a message.
func doubleSumBench(size int) [3]func(b *testing.B) {
	whole, x, y := halves(size)
	run := func(sum func(a, b []byte) [sha256.Size]byte) func(b *testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				sinkDouble = sum(x, y)
			}
		}
	}
	floor := func(b *testing.B) {
		for b.Loop() {
			sinkDouble = naive.DoubleSum(whole)
		}
	}
	return [3]func(b *testing.B){run(naive.DoubleSumPair), run(fixed.DoubleSumPair), floor}
}

// writeTreeScratch is WriteTree with a scratch buffer that the caller
// provides, zero past its first eight bytes: the floor of the pooled buffer.
func writeTreeScratch(h hash.Hash, n *naive.Node, buf []byte) {
	binary.BigEndian.PutUint64(buf, n.ID)
	h.Write(buf)
	for _, c := range n.Children {
		writeTreeScratch(h, c, buf)
	}
}

func pooledBufferBench(size int) [3]func(b *testing.B) {
	return pooledBufferTrio(size, func(b *testing.B) {
		var h hash.Hash = sha256.New()
		n := &fixed.Node{}
		for b.Loop() {
			n.ID++
			fixed.WriteTree(h, n, size)
		}
		sink = h.Sum(sink[:0])
	})
}

// inlinePooledBufferBench is pooledBufferBench with the pool declared in the
// file.
func inlinePooledBufferBench(size int) [3]func(b *testing.B) {
	return pooledBufferTrio(size, func(b *testing.B) {
		var h hash.Hash = sha256.New()
		n := &fixedinline.Node{}
		for b.Loop() {
			n.ID++
			fixedinline.WriteTree(h, n, size)
		}
		sink = h.Sum(sink[:0])
	})
}

// pooledBufferTrio measures naive.WriteTree and after against the floor.
func pooledBufferTrio(size int, after func(b *testing.B)) [3]func(b *testing.B) {
	before := func(b *testing.B) {
		var h hash.Hash = sha256.New()
		n := &naive.Node{}
		for b.Loop() {
			n.ID++
			naive.WriteTree(h, n, size)
		}
		sink = h.Sum(sink[:0])
	}
	floor := func(b *testing.B) {
		var h hash.Hash = sha256.New()
		n, scratch := &naive.Node{}, make([]byte, size)
		for b.Loop() {
			n.ID++
			writeTreeScratch(h, n, scratch)
		}
		sink = h.Sum(sink[:0])
	}
	return [3]func(b *testing.B){before, after, floor}
}

// countMatchesFloor is CountMatches with a one-shot sum: the floor of the
// stack sum array.
func countMatchesFloor(more func() bool, msg, want []byte) int {
	n := 0
	for more() {
		sum := sha256.Sum256(msg)
		if bytes.Equal(sum[:], want) {
			n++
		}
	}
	return n
}

func stackSumBench(size int) [3]func(b *testing.B) {
	msg := message(size)
	want := sha256.Sum256(msg)
	run := func(count func(func() bool, []byte, []byte) int) func(b *testing.B) {
		return func(b *testing.B) { sinkInt = count(b.Loop, msg, want[:]) }
	}
	return [3]func(b *testing.B){run(naive.CountMatches), run(fixed.CountMatches), run(countMatchesFloor)}
}

// appendTrio measures three versions of one operation that appends a digest
// to out[:0], each a closure over its inputs.
func appendTrio(before, after, floor func(out []byte) []byte) [3]func(b *testing.B) {
	run := func(sum func(out []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			out := make([]byte, 0, sha256.Size)
			for b.Loop() {
				out = sum(out)
			}
			sink = out
		}
	}
	return [3]func(b *testing.B){run(before), run(after), run(floor)}
}

func stdConstructorBench(size int) [3]func(b *testing.B) {
	msg, h := message(size), sha256.New()
	return appendTrio(
		func(out []byte) []byte { return naive.LeafSum(msg, out) },
		func(out []byte) []byte { return fixed.LeafSum(msg, out) },
		func(out []byte) []byte { return leafWith(h, msg, out) },
	)
}

func passedOnBench(size int) [3]func(b *testing.B) {
	_, x, y := halves(size)
	h := sha256.New()
	return appendTrio(
		func(out []byte) []byte { return naive.NameSum(x, y, out) },
		func(out []byte) []byte { return fixed.NameSum(x, y, out) },
		func(out []byte) []byte { return nodeWith(h, x, y, out) },
	)
}

// entryID is the ID of the entries that EntrySum hashes.
const entryID = 0x0102030405060708

// entryWith is EntrySum with a hasher that the caller keeps and the ID's
// bytes that it encoded once: the floor of integers written through the
// hasher's own Write.
func entryWith(h hash.Hash, id, body, out []byte) []byte {
	h.Reset()
	h.Write(id)
	h.Write(body)
	return h.Sum(out[:0])
}

func intWriteBench(size int) [3]func(b *testing.B) {
	msg, h := message(size), sha256.New()
	id := binary.BigEndian.AppendUint64(nil, entryID)
	return appendTrio(
		func(out []byte) []byte { return naive.EntrySum(entryID, msg, out) },
		func(out []byte) []byte { return fixed.EntrySum(entryID, msg, out) },
		func(out []byte) []byte { return entryWith(h, id, msg, out) },
	)
}

func hmacHoistBench(size int) [3]func(b *testing.B) {
	msg, key := message(size), benchKeys[0][:]
	run := func(sign func(func() bool, []byte, []byte, []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			sink = sign(b.Loop, key, msg, make([]byte, 0, sha256.Size))
		}
	}
	return [3]func(b *testing.B){run(naive.SignAll), run(fixed.SignAll), run(fixed.SignAll)}
}

func hmacHelperLoopBench(size int) [3]func(b *testing.B) {
	msg, key := message(size), benchKeys[0][:]
	run := func(sign func(func() bool, []byte, []byte, []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			sink = sign(b.Loop, key, msg, make([]byte, 0, sha256.Size))
		}
	}
	return [3]func(b *testing.B){run(naive.SignEach), run(fixed.SignEach), run(fixed.SignAll)}
}

func hoistedPartBench(size int) [3]func(b *testing.B) {
	return macTrio(size, naive.MACTrimmed, fixed.MACTrimmed)
}

func writePartsBench(size int) [3]func(b *testing.B) {
	whole, x, y := halves(size)
	h := sha256.New()
	return appendTrio(
		func(out []byte) []byte { return naive.WritePair(x, y, out) },
		func(out []byte) []byte { return fixed.WritePair(x, y, out) },
		func(out []byte) []byte { return leafWith(h, whole, out) },
	)
}

// pairSumTrio measures two versions of the digest of two halves of a
// message, which leave it in sinkSum, against the floor, the digest of the
// message built once.
func pairSumTrio(size int, before, after, floor func(a, b []byte) [sha256.Size]byte) [3]func(b *testing.B) {
	whole, x, y := halves(size)
	run := func(sum func(a, b []byte) [sha256.Size]byte) func(b *testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				sinkSum = sum(x, y)
			}
		}
	}
	return [3]func(b *testing.B){run(before), run(after), func(b *testing.B) {
		for b.Loop() {
			sinkSum = floor(whole, nil)
		}
	}}
}

// sum256 is sha256.Sum256 of a followed by b, which is empty: the floor of
// the pairs' sums.
func sum256(a, _ []byte) [sha256.Size]byte { return sha256.Sum256(a) }

func builtSumBench(size int) [3]func(b *testing.B) {
	return pairSumTrio(size, naive.BuiltPairSum, fixed.BuiltPairSum, sum256)
}

func helperPartsBench(size int) [3]func(b *testing.B) {
	return pairSumTrio(size, naive.PairDigest, fixed.PairDigest,
		func(a, _ []byte) [sha256.Size]byte { return fixed.Digest256(a) })
}

func bufferSumBench(size int) [3]func(b *testing.B) {
	return pairSumTrio(size, naive.BufferPairSum, fixed.BufferPairSum, sum256)
}

// nodePrefixBytes holds the node prefix of RFC 6962 for a hasher's Write.
var nodePrefixBytes = []byte{1}

// prefixedNodeWith is NodeSum with a hasher that the caller keeps: the floor
// of the literal part.
func prefixedNodeWith(h hash.Hash, l, r, out []byte) []byte {
	h.Reset()
	h.Write(nodePrefixBytes)
	h.Write(l)
	h.Write(r)
	return h.Sum(out[:0])
}

func literalPartBench(size int) [3]func(b *testing.B) {
	msg, h := message(size), sha256.New()
	return appendTrio(
		func(out []byte) []byte { return naive.NodeSum(msg, msg, out) },
		func(out []byte) []byte { return fixed.NodeSum(msg, msg, out) },
		func(out []byte) []byte { return prefixedNodeWith(h, msg, msg, out) },
	)
}

// trieKey is the key that KeySum hashes: 48 bytes, on the heap when made
// with a size known only at run time (above 32 bytes).
var trieKey = bytes.Repeat([]byte{'k'}, 48)

// trieDepth is the depth byte that KeySum hashes after the key.
const trieDepth = 3

// keySumScratch is KeySum with a scratch buffer that the caller provides:
// the floor of the array on the stack.
func keySumScratch(scratch, key []byte, depth byte, msg, out []byte) []byte {
	buf := scratch[:len(key)+1]
	n := copy(buf, key)
	buf[n] = depth
	h := sha256.New()
	h.Write(buf)
	h.Write(msg)
	return h.Sum(out[:0])
}

func stackBufferBench(size int) [3]func(b *testing.B) {
	msg, scratch := message(size), make([]byte, 128)
	return appendTrio(
		func(out []byte) []byte { return naive.KeySum(trieKey, trieDepth, msg, out) },
		func(out []byte) []byte { return fixed.KeySum(trieKey, trieDepth, msg, out) },
		func(out []byte) []byte { return keySumScratch(scratch, trieKey, trieDepth, msg, out) },
	)
}

// appendDigestsFloor is AppendDigests with a one-shot sum: the floor of the
// sum appended by Sum.
func appendDigestsFloor(more func() bool, msg, dst []byte) []byte {
	for more() {
		sum := sha256.Sum256(msg)
		dst = append(dst[:0], sum[:]...)
	}
	return dst
}

func sumAppendBench(size int) [3]func(b *testing.B) {
	msg := message(size)
	run := func(digests func(func() bool, []byte, []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) { sink = digests(b.Loop, msg, make([]byte, 0, sha256.Size)) }
	}
	return [3]func(b *testing.B){run(naive.AppendDigests), run(fixed.AppendDigests), run(appendDigestsFloor)}
}

// locationFloor is Filter.Location with a one-shot sum: the floor of the
// sum into the struct's array.
func locationFloor(key []byte) uint64 {
	sum := sha256.Sum256(key)
	return binary.BigEndian.Uint64(sum[:])
}

func fieldSumBench(size int) [3]func(b *testing.B) {
	msg := message(size)
	run := func(location func([]byte) uint64) func(b *testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				sinkUint = location(msg)
			}
		}
	}
	return [3]func(b *testing.B){run(naive.NewFilter().Location), run(fixed.NewFilter().Location), run(locationFloor)}
}

func signEqualBench(size int) [3]func(b *testing.B) {
	msg, key := message(size), benchKeys[0][:]
	sig := fixed.NewChecker(key).Sign(msg)
	run := func(check func(msg, sig []byte) bool) func(b *testing.B) {
		return func(b *testing.B) {
			n := 0
			for b.Loop() {
				if check(msg, sig) {
					n++
				}
			}
			sinkInt = n
		}
	}
	before := func(b *testing.B) { run(naive.NewChecker(key).Check)(b) }
	after := func(b *testing.B) { run(fixed.NewChecker(key).Check)(b) }
	floor := func(b *testing.B) {
		mac, buf := hmac.New(sha256.New, key), make([]byte, 0, sha256.Size)
		run(func(msg, sig []byte) bool { return verifyWith(mac, msg, sig, buf) })(b)
	}
	return [3]func(b *testing.B){before, after, floor}
}

// newBlake2b256 returns a BLAKE2b-256 hasher, for the floors of the BLAKE2b
// rewrites.
func newBlake2b256() hash.Hash {
	h, err := blake2b.New256(nil)
	if err != nil {
		panic(err)
	}
	return h
}

func blake2bSumBench(size int) [3]func(b *testing.B) {
	msg, h := message(size), newBlake2b256()
	return appendTrio(
		func(out []byte) []byte { return naive.Blake2bSum(msg, out) },
		func(out []byte) []byte { return fixed.Blake2bSum(msg, out) },
		func(out []byte) []byte { return leafWith(h, msg, out) },
	)
}

func blake2bPoolBench(size int) [3]func(b *testing.B) {
	msg, h := message(size), newBlake2b256()
	r := bytes.NewReader(nil)
	read := func(digest func(io.Reader, []byte) []byte) func(out []byte) []byte {
		return func(out []byte) []byte {
			r.Reset(msg)
			return digest(r, out)
		}
	}
	return appendTrio(
		read(naive.Blake2bDigest),
		read(fixed.Blake2bDigest),
		read(func(r io.Reader, out []byte) []byte { return digestWith(h, r, out) }),
	)
}

func wrapperPoolBench(size int) [3]func(b *testing.B) {
	msg, h := message(size), newBlake2b256()
	return appendTrio(
		func(out []byte) []byte { return naive.BranchSum(msg, msg, out) },
		func(out []byte) []byte { return fixed.BranchSum(msg, msg, out) },
		func(out []byte) []byte { return nodeWith(h, msg, msg, out) },
	)
}

// digestMatchesFloor is DigestMatches with a hasher that the caller keeps
// and a buffer it reuses: the floor of the pooled sum.
func digestMatchesFloor(h hash.Hash, r io.Reader, want, buf []byte) bool {
	return bytes.Equal(digestWith(h, r, buf), want)
}

func pooledSumBench(size int) [3]func(b *testing.B) {
	msg := message(size)
	want := sha256.Sum256(msg)
	run := func(matches func(io.Reader, []byte) bool) func(b *testing.B) {
		return func(b *testing.B) {
			r, n := bytes.NewReader(nil), 0
			for b.Loop() {
				r.Reset(msg)
				if matches(r, want[:]) {
					n++
				}
			}
			sinkInt = n
		}
	}
	floor := func(b *testing.B) {
		h, buf := sha256.New(), make([]byte, 0, sha256.Size)
		run(func(r io.Reader, want []byte) bool { return digestMatchesFloor(h, r, want, buf) })(b)
	}
	return [3]func(b *testing.B){run(naive.DigestMatches), run(fixed.DigestMatches), floor}
}

// The ID and the number that MACPrinted prints before the message.
const (
	printedID = "user-1234"
	printedN  = 42
)

// printedText returns what MACPrinted hashes: printedID and printedN
// printed, then msg.
func printedText(msg []byte) []byte {
	return append(fmt.Appendf(nil, "%s:%d:", printedID, printedN), msg...)
}

func printedPartBench(size int) [3]func(b *testing.B) {
	msg := message(size)
	text := printedText(msg)
	run := func(mac func(key []byte, id string, n int, msg, out []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			out := make([]byte, 0, sha256.Size)
			for i := 0; b.Loop(); i++ {
				out = mac(benchKeys[i%len(benchKeys)][:], printedID, printedN, msg, out)
			}
			sink = out
		}
	}
	floor := func(b *testing.B) {
		mac := hmac.New(sha256.New, benchKeys[0][:])
		run(func(_ []byte, _ string, _ int, _, out []byte) []byte { return signWith(mac, text, out) })(b)
	}
	return [3]func(b *testing.B){run(naive.MACPrinted), run(fixed.MACPrinted), floor}
}

func structWrapperPoolBench(size int) [3]func(b *testing.B) {
	msg, h := message(size), newBlake2b256()
	return appendTrio(
		func(out []byte) []byte { return naive.WriterSum(msg, msg, out) },
		func(out []byte) []byte { return fixed.WriterSum(msg, msg, out) },
		func(out []byte) []byte { return nodeWith(h, msg, msg, out) },
	)
}

// apiKey is naive's and fixed's apiKey.
var apiKey = []byte("the key of the package's API")

func packageKeyPoolBench(size int) [3]func(b *testing.B) {
	msg, mac := message(size), hmac.New(sha256.New, apiKey)
	return appendTrio(
		func(out []byte) []byte { return naive.SignAPI(msg, out) },
		func(out []byte) []byte { return fixed.SignAPI(msg, out) },
		func(out []byte) []byte { return signWith(mac, msg, out) },
	)
}

// truncatedFloor is the truncated SHA-256 of msg, built once: the floor of
// the digest returned by value.
func truncatedFloor(msg []byte) [sha256.Size]byte {
	sum := sha256.Sum256(msg)
	sum[31] &= 0x3f
	return sum
}

func sumValueBench(size int) [3]func(b *testing.B) {
	whole, x, y := halves(size)
	return [3]func(b *testing.B){
		func(b *testing.B) {
			for b.Loop() {
				sinkTruncated = naive.TruncatedPairSum(x, y)
			}
		},
		func(b *testing.B) {
			for b.Loop() {
				sinkTruncated = fixed.TruncatedPairSum(x, y)
			}
		},
		func(b *testing.B) {
			for b.Loop() {
				sinkTruncated = truncatedFloor(whole)
			}
		},
	}
}

// The ID and the time of the formatted webhook signatures.
const (
	webhookID   = "msg_2f9a6c"
	webhookTime = 1733529600
)

// formatted returns the message that the webhook signatures format, built
// once: the floor's.
func formatted(msg []byte) []byte {
	return fmt.Appendf(nil, "%s.%d.%s", webhookID, int64(webhookTime), msg)
}

func formattedWriteBench(size int) [3]func(b *testing.B) {
	msg := message(size)
	whole := formatted(msg)
	mac := hmac.New(sha256.New, benchKeys[0][:])
	run := func(sign func(out []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			out := make([]byte, 0, sha256.Size)
			for b.Loop() {
				out = sign(out)
			}
			sink = out
		}
	}
	return [3]func(b *testing.B){
		run(func(out []byte) []byte { return naive.SignFormatted(mac, webhookID, webhookTime, msg, out) }),
		run(func(out []byte) []byte { return fixed.SignFormatted(mac, webhookID, webhookTime, msg, out) }),
		run(func(out []byte) []byte { return signWith(mac, whole, out) }),
	}
}
