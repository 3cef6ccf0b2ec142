// Package loops: the loops that repeat a site per item, and those that do not.
package loops

import (
	"crypto"
	"crypto/sha256"
	"errors"
	"hash"
	"io"
	"strings"
)

func site(allocs int) {}

var errExhausted = errors.New("exhausted")

func overSlice(leaves [][]byte) {
	for _, leaf := range leaves {
		site(1) // want `per item: once per leaf of leaves \(the loop at loops.go:\d+\)`
		_ = leaf
	}
}

func overMap(m map[string]int) {
	for k := range m {
		site(1) // want `per item: once per entry of m \(the loop at loops.go:\d+\)`
		_ = k
	}
}

func overChannel(ch chan []byte) {
	for msg := range ch {
		site(1) // want `per item: once per msg received from ch \(the loop at loops.go:\d+\)`
		_ = msg
	}
}

func byLength(nodes [][]byte) {
	for i := 0; i < len(nodes); i++ {
		site(1) // want `per item: once per element of nodes \(the loop at loops.go:\d+\)`
	}
}

// A loop bounded by a small constant does not repeat per item.
func small(point [3][]byte) {
	for _, c := range point {
		site(1) // want `silent: it runs once per call of small, and nothing shows small to run per item`
		_ = c
	}
	for i := 0; i < 4; i++ {
		site(1) // want `silent: it runs once per call of small`
	}
	for _, part := range [][]byte{point[0], point[1]} {
		site(1) // want `silent: it runs once per call of small`
		_ = part
		_ = part
	}
}

// A site the loop leaves right after it runs does not repeat either.
func leaves(items [][]byte) []byte {
	for _, it := range items {
		if len(it) > 3 {
			site(1) // want `silent: it runs once per call of leaves`
			return it
		}
	}
	return nil
}

// A function literal called in place runs where it is written.
func inPlace(items [][]byte) {
	for range items {
		func() {
			site(1) // want `per item: once per element of items \(the loop at loops.go:\d+\)`
		}()
	}
}

// One that runs an unknown number of times says so.
func callback(items [][]byte) func() {
	return func() {
		site(1) // want `silent: it is in a function literal that runs an unknown number of times`
	}
}

// A search that tries until it finds, up to a constant number of tries
// (rejection sampling): its first try is the usual one.
func derive(secret []byte, inRange func([]byte) bool) ([]byte, error) {
	counter := 1
	for {
		site(5) // want `per item: once per call of derive, which deriveAll calls once per element of secrets \(the loop at loops.go:\d+\)`
		key := sha256.Sum256(append(secret, byte(counter)))
		if inRange(key[:]) {
			return key[:], nil
		}
		counter++
		if counter > 0xFF {
			return nil, errExhausted
		}
	}
}

// A loop that stops on an error, or has no bound on its tries, may repeat
// per item.
func drain(next func() ([]byte, error)) {
	tries := 0
	for {
		b, err := next()
		if err != nil {
			return
		}
		site(1) // want `per item: once per iteration \(the loop at loops.go:\d+\)`
		sha256.Sum256(b)
		tries++
		if tries > 1000 {
			return
		}
	}
}

func deriveAll(secrets [][]byte) {
	for _, s := range secrets {
		derive(s, func([]byte) bool { return true })
	}
}

// A loop over the parts of one string split by a separator handles a
// handful of parts of one value (the steps of a derivation path), not a
// collection: what repeats it is what repeats the call.
func derivePath(path string, seed []byte) {
	for _, step := range strings.Split(path, "/")[1:] {
		site(5) // want `silent: it runs once per call of derivePath, and nothing shows derivePath to run per item`
		_ = step
	}
	steps := strings.SplitSeq(path, "/")
	for step := range steps {
		site(5) // want `silent: it runs once per call of derivePath`
		_ = step
	}
}

func deriveAccounts(paths []string, seed []byte) {
	for _, p := range paths {
		derivePathOnce(p, seed)
	}
}

func derivePathOnce(path string, seed []byte) {
	for _, step := range strings.Split(path, "/") {
		site(5) // want `per item: once per call of derivePathOnce, which deriveAccounts calls once per element of paths \(the loop at loops.go:\d+\)`
		_ = step
	}
}

// Lines are the records of a document, and a separator the caller
// chooses may be a line break: such loops repeat per item. So does one
// over a variable assigned again.
func perLine(doc, sep string) {
	for _, line := range strings.Split(doc, "\n") {
		site(1) // want `per item: once per line of strings.Split\(doc, "\\n"\) \(the loop at loops.go:\d+\)`
		_ = line
	}
	for _, rec := range strings.Split(doc, sep) {
		site(1) // want `per item: once per rec of strings.Split\(doc, sep\) \(the loop at loops.go:\d+\)`
		_ = rec
	}
	parts := strings.Split(doc, ",")
	parts = append(parts, doc)
	for _, part := range parts {
		site(1) // want `per item: once per part of parts \(the loop at loops.go:\d+\)`
		_ = part
	}
}

// A counter loop over the digest-sized blocks of an output derives a key
// in counter mode: a block or two of a key's length, not a collection.
func expand(newHash func() hash.Hash, bits int) (out []byte) {
	n := (bits/8 + newHash().Size() - 1) / newHash().Size()
	for i := 1; i <= n; i++ {
		site(1) // want `silent: it runs once per call of expand, and nothing shows expand to run per item`
	}
	h := newHash()
	for i := 0; i < bits/h.Size(); i++ {
		site(1) // want `silent: it runs once per call of expand`
	}
	// Blocks of an input are its items.
	for i := 0; i < bits/h.BlockSize(); i++ {
		site(1) // want `per item: once per iteration \(the loop at loops.go:\d+\)`
	}
	return out
}

// A table of a protocol: the tokens a handshake's pattern lists, which the
// package sets only from literals of a few elements. A loop over them runs
// a handful of times per handshake, not once per item.
type token int

const (
	tokenE token = iota
	tokenS
)

type pattern struct {
	name string
	pre  []token
	msgs []token
}

var (
	patternNN = pattern{name: "NN", msgs: []token{tokenE}}
	patternKK = pattern{"KK", []token{tokenS}, []token{tokenE, tokenS}}
	steps     = []token{tokenE, tokenS, tokenE}
)

func handshake(p pattern) {
	for _, t := range p.pre {
		site(1) // want `silent: it runs once per call of handshake, and nothing shows handshake to run per item`
		_ = t
	}
	// A package variable declared with a short list stands for any list.
	for range steps {
		site(1) // want `per item: once per element of steps \(the loop at loops.go:\d+\)`
	}
	// Its twin: the messages are also given by a caller's slice, a
	// collection of any length.
	for _, t := range p.msgs {
		site(1) // want `per item: once per element of p.msgs \(the loop at loops.go:\d+\)`
		_ = t
	}
	// A package variable appended to is a collection too.
	for range journal {
		site(1) // want `per item: once per element of journal \(the loop at loops.go:\d+\)`
	}
}

var journal = []token{tokenE}

func record(t token, msgs []token) {
	journal = append(journal, t)
	handshake(pattern{name: "custom", msgs: msgs})
}

// A loop over hash algorithms runs once per algorithm its caller asked
// for, a handful: each iteration hashes with another algorithm.
func digests(algs []crypto.Hash, data []byte) {
	for _, alg := range algs {
		site(5) // want `silent: it runs once per call of digests, and nothing shows digests to run per item`
		_ = alg
	}
	var makers []func() hash.Hash
	for _, mk := range makers {
		site(5) // want `silent: it runs once per call of digests, and nothing shows digests to run per item`
		_ = mk
	}
}

// Its twins: the same loop in a function called per block repeats per
// block, and a loop over items that each name their algorithm, per item.
func blockDigests(algs []crypto.Hash, block []byte) {
	for _, alg := range algs {
		site(5) // want `per item: once per call of blockDigests, which chunked calls once per block of blocks \(the loop at loops.go:\d+\)`
		_ = alg
	}
}

func chunked(algs []crypto.Hash, blocks [][]byte) {
	for _, block := range blocks {
		blockDigests(algs, block)
	}
}

type sealed struct {
	alg  crypto.Hash
	data []byte
}

func perSealed(items []sealed) {
	for _, it := range items {
		site(5) // want `per item: once per element of items \(the loop at loops.go:\d+\)`
		_ = it.alg
	}
}

// A merge of streams: Merge reads each input's header once, then pages
// reads a page from every input until all are at their end. The header is
// read once per stream, the page once per item.
type input struct {
	r    io.Reader
	done bool
}

type merger struct {
	inputs []*input
}

func (in *input) header() {
	site(1) // want `silent: it runs once per call of header, and nothing shows header to run per item`
}

func (in *input) next() bool {
	site(1) // want `per item: once per call of next, which fill calls once per element of m.inputs \(the loop at loops.go:\d+\)`
	return !in.done
}

func (m *merger) fill() bool {
	more := false
	for _, in := range m.inputs {
		if in.next() {
			more = true
		}
	}
	return more
}

func (m *merger) pages() {
	for {
		if !m.fill() {
			return
		}
	}
}

func (m *merger) Merge() {
	for _, in := range m.inputs {
		in.header()
	}
	m.pages()
}

// Its twin: a loop over jobs beside a loop with no condition that never
// visits them again: each job is an item.
type worker struct {
	jobs  []*input
	queue chan int
}

func (in *input) process() {
	site(1) // want `per item: once per call of process, which Run calls once per element of w.jobs \(the loop at loops.go:\d+\)`
}

func (w *worker) Run() {
	for _, in := range w.jobs {
		in.process()
	}
	for {
		if _, ok := <-w.queue; !ok {
			return
		}
	}
}
