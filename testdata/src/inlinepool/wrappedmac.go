package inlinepool

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
)

// chainMAC wraps hmac.New keyed with the array its caller points to.
func chainMAC(key *[32]byte) hash.Hash { return hmac.New(sha256.New, key[:]) }

// sumChain sums h into the array dest points to, and checks that the sum
// fills it: a check that cannot fail for a hash of dest's size.
//
// It is never inlined: the hasher it is given escapes.
//
//go:noinline
func sumChain(h hash.Hash, dest *[32]byte) {
	r := h.Sum(dest[:0])
	if len(r) != len(dest) {
		panic("hash size inconsistency")
	}
}

// chainLink MACs text under key through chainMAC, once per link of a chain:
// the one-shot HMAC that the file declares reads chainMAC's hash and key.
func chainLink(key *[32]byte, text []byte) *[32]byte {
	h := chainMAC(key) // want `hmac-rekey: chainMAC\(key\) re-keys an HMAC \(5 allocations: chainMAC returns the HMAC of hmac.New\) once per call of chainLink, which CaseChainLink calls once per element of items \(the loop at wrappedmac.go:\d+\); automatic fix: compute the MAC with appendHMACSHA256Wrappedmac, an RFC 2104 HMAC declared in this file \(a copy of the runtime module's hashsum.AppendHMACSHA256\), which allocates nothing`
	h.Write(text)
	var sum [32]byte
	sumChain(h, &sum)
	return &sum
}

func CaseChainLink() {
	sig := &[32]byte{3}
	for _, it := range items {
		sig = chainLink(sig, it)
	}
	copy(out[:], sig[:])
}

func ResultChainLink() string {
	CaseChainLink()
	return hex.EncodeToString(out[:32])
}

// The twin: the key given to chainMAC is a call's result, which a one-shot
// HMAC would evaluate at the Sum instead: no fix.
var (
	chainKeys = [2][32]byte{{4}, {5}}
	chainTurn int
)

func nextChainKey() *[32]byte { chainTurn++; return &chainKeys[chainTurn%2] }

func chainLinkNext(text []byte) *[32]byte {
	h := chainMAC(nextChainKey()) // want `hmac-rekey: chainMAC\(nextChainKey\(\)\) re-keys an HMAC .* \(no automatic fix: the key is hmac.New's argument inside chainMAC, given nextChainKey\(\), which is not a variable: a one-shot HMAC would evaluate it at the Sum instead\)`
	h.Write(text)
	var sum [32]byte
	sumChain(h, &sum)
	return &sum
}

func CaseChainLinkNext() {
	for _, it := range items {
		copy(out[:], chainLinkNext(it)[:])
	}
}

func ResultChainLinkNext() string {
	CaseChainLinkNext()
	return hex.EncodeToString(out[:32])
}
