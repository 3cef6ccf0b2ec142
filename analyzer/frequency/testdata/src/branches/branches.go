// Package branches: sites under conditions that are rarely true.
package branches

import (
	"errors"
	"log"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

func site(allocs int) {}

type cache struct {
	h       []byte
	expires time.Time
	seen    map[string][]byte
}

// A lazy initialization runs once per value.
func (c *cache) lazy(items [][]byte) {
	for range items {
		if c.h == nil {
			site(1) // want `silent: it runs only when c.h == nil \(it sets c.h: an initialization or a refresh\)`
			c.h = []byte{1}
		}
	}
}

// A leaf test is no rare path: half the nodes of a tree are leaves.
type node struct{ left, right *node }

func walk(nodes []*node) {
	for _, n := range nodes {
		if n.left == nil {
			site(1) // want `per item: once per element of nodes \(the loop at branches\.go:\d+\)`
		}
	}
}

// An error path.
func errs(items [][]byte) (failed int) {
	for _, it := range items {
		err := check(it)
		if err != nil {
			site(1) // want `silent: it runs only when err != nil \(an error path\)`
			failed++
		}
	}
	return failed
}

func check(b []byte) error {
	if len(b) == 0 {
		return errors.New("empty")
	}
	return nil
}

// A refresh on the clock.
func (c *cache) refresh(reqs [][]byte) {
	for range reqs {
		if time.Now().After(c.expires) {
			site(5) // want `silent: it runs only when time.Now\(\).After\(c.expires\) \(a test on the clock: an expiry or a refresh\)`
			c.expires = time.Now().Add(time.Hour)
		}
	}
}

// The clock read into a variable first, compared as a number.
func (c *cache) refreshUnix(reqs [][]byte) {
	for range reqs {
		now := time.Now().Unix()
		if c.expires.Unix() <= now+60 {
			site(5) // want `silent: it runs only when c.expires.Unix\(\) <= now \+ 60 \(a test on the clock: an expiry or a refresh\)`
			c.expires = time.Now().Add(time.Hour)
		}
	}
}

// A variable that is not the clock: per item.
func (c *cache) countDown(reqs [][]byte) {
	for i := range reqs {
		left := len(reqs) - i
		if left <= 60 {
			site(5) // want `per item: once per element of reqs \(the loop at branches.go:\d+\)`
		}
	}
}

// A cache miss: once per key.
func (c *cache) lookup(keys []string) {
	for _, k := range keys {
		v, ok := c.seen[k]
		if !ok {
			site(1) // want `silent: it runs only when !ok \(a cache miss: once per key\)`
			c.seen[k] = v
		}
	}
}

// Code after a return on a hit, in a block that fills the cache: a miss.
func (c *cache) memo(keys []string) {
	for _, k := range keys {
		if v, ok := c.seen[k]; ok {
			_ = v
			continue
		}
		c.get(k)
	}
}

func (c *cache) get(k string) []byte {
	if v, ok := c.seen[k]; ok {
		return v
	}
	site(1) // want `silent: it runs only after c.seen\[k\] misses \(a cache miss: once per key\)`
	c.seen[k] = nil
	return nil
}

// A return on a hit of a map the block never fills is no cache.
func (c *cache) known(keys []string) {
	for _, k := range keys {
		c.check(k)
	}
}

func (c *cache) check(k string) bool {
	if _, ok := c.seen[k]; ok {
		return true
	}
	site(1) // want `per item: once per call of check, which known calls once per element of keys \(the loop at branches.go:\d+\)`
	return false
}

// Code after a return on a hit of a value kept in an atomic holder (or a
// sync.Map), in a block that stores into it: once per value kept, however
// often its callers ask.
type memo struct {
	sum  atomic.Value
	sums sync.Map
}

func (c *memo) all(items [][]byte) {
	for _, it := range items {
		c.fingerprint(it)
		c.fingerprintOf(string(it))
		c.peek(it)
	}
}

func (c *memo) fingerprint(b []byte) [32]byte {
	if v := c.sum.Load(); v != nil {
		return v.([32]byte)
	}
	site(1) // want `silent: it runs only after c.sum misses \(a cache miss: once per key\)`
	var s [32]byte
	c.sum.Store(s)
	return s
}

func (c *memo) fingerprintOf(k string) []byte {
	if v, ok := c.sums.Load(k); ok {
		return v.([]byte)
	}
	site(1) // want `silent: it runs only after c.sums misses \(a cache miss: once per key\)`
	c.sums.Store(k, []byte(k))
	return nil
}

// A holder the block only reads is no cache: per item.
func (c *memo) peek(b []byte) [32]byte {
	if v := c.sum.Load(); v != nil {
		return v.([32]byte)
	}
	site(1) // want `per item: once per call of peek, which all calls once per element of items \(the loop at branches.go:\d+\)`
	return [32]byte{}
}

// A branch taken while a flag of the value is unset, which the branch sets
// (itself or through a method of the value): once per value, however often
// the loop visits it.
type key struct {
	sealed, dummy bool
}

func (k *key) seal() { k.sealed = true }

func (k *key) check() bool { return k.sealed }

func sealAll(keys []*key) {
	for _, k := range keys {
		if k != nil && !k.sealed {
			site(1) // want `silent: it runs only when k != nil && !k.sealed \(it sets k.sealed: a change of the value's state, once per value\)`
			k.seal()
		}
	}
	for _, k := range keys {
		if !k.dummy {
			site(1) // want `silent: it runs only when !k.dummy \(it sets k.dummy: a change of the value's state, once per value\)`
			k.dummy = true
		}
	}
}

// A flag the branch only reads is the item's own: per item.
func readAll(keys []*key) {
	for _, k := range keys {
		if !k.sealed {
			site(1) // want `per item: once per element of keys \(the loop at branches.go:\d+\)`
			k.check()
		}
	}
}

// A log level of the whole process: off in the steady state. A test on the
// repetition's own data is not.
type level int

var verbosity level

func (l level) Enabled() bool { return l >= 5 }

func v(n int) level { return verbosity - level(5-n) }

func logged(items [][]byte, debug bool) {
	for range items {
		if v(5).Enabled() {
			site(1) // want `silent: it runs only when v\(5\).Enabled\(\) \(a switch of the whole process, such as a log level\)`
		}
		if debug {
			site(1) // want `per item: once per element of items \(the loop at branches.go:\d+\)`
		}
		if v(5).Enabled() {
			site(1) // want `per item: once per element of items \(the loop at branches.go:\d+\)`
		} else {
			site(1) // want `per item: once per element of items \(the loop at branches.go:\d+\)`
		}
	}
}

// An early return for an empty input is the edge case: a recursion that
// splits what it is given never makes it. A single item is the recursion's
// leaf, and is no edge case; nor is an empty input that does not return.
func root(data [][]byte) []byte {
	if len(data) == 0 {
		site(1) // want `silent: it runs only when len\(data\) == 0 \(an empty input, the edge case it returns early for\)`
		return nil
	}
	if len(data) == 1 {
		site(1) // want `per item: once per call of root \(it recurses: root → root, once per node it walks\)`
		return data[0]
	}
	k := len(data) / 2
	root(data[:k])
	return root(data[k:])
}

func pad(items [][]byte) {
	for _, it := range items {
		if len(it) == 0 {
			site(1) // want `per item: once per element of items \(the loop at branches.go:\d+\)`
		}
	}
}

// A failure path: a branch that ends the program (a fatal log, an exit, a
// panic) is the one not taken (Ball and Larus's return heuristic), and what
// it calls is not work of every repetition: an assertion whose failure logs
// fatally is no file I/O of every entry.
func writeEntries(entries [][]byte) {
	for _, e := range entries {
		site(1) // want `per item: once per element of entries \(the loop at branches\.go:\d+\)`
		mustFit(e)
	}
}

func mustFit(e []byte) {
	if len(e) > 1<<20 {
		log.Fatalf("entry of %d bytes", len(e))
	}
}

func checkAll(entries [][]byte) {
	for _, e := range entries {
		if len(e) == 0 {
			site(1) // want `silent: it runs only when len\(e\) == 0 \(a failure path: it ends in fail \(os.Exit\)\)`
			fail()
		}
	}
}

// fail ends the program, whatever it does before.
func fail() {
	println("empty entry")
	os.Exit(1)
}

// A branch that does not end the program is a branch like any other: the
// file I/O it does is work beside the site, when it runs.
func logEntries(entries [][]byte, f *os.File) {
	for _, e := range entries {
		site(1) // want `silent: each iteration also calls \(\*os.File\).Write \(file I/O\) at branches.go:\d+, beside which the allocation is noise`
		if len(e) > 0 {
			f.Write(e)
		}
	}
}

// A default filled in when the caller gives none (a key fetched over the
// network when the options hold none) is not work of every call.
func signDefault(entries [][]byte, key string, f *os.File) {
	for _, e := range entries {
		k := key
		if k == "" {
			f.Read(e)
			k = string(e)
		}
		site(1) // want `per item: once per element of entries \(the loop at branches\.go:\d+\)`
	}
}

// Work under a zero test that sets nothing counts.
func signZero(entries [][]byte, n int, f *os.File) {
	for _, e := range entries {
		if n == 0 {
			f.Write(e)
		}
		site(1) // want `silent: each iteration also calls \(\*os.File\).Write \(file I/O\) at branches.go:\d+, beside which the allocation is noise`
	}
}

// A method of a boolean value can only test it: a logger of a verbosity
// level of the whole process (vlog(2).Logf) does its file I/O only when
// the level is on, which it is not in the steady state. The same method of
// the repetition's own boolean is work of every call it is true for.
type verbose bool

var logLevel int

func vlog(n int) verbose { return verbose(logLevel >= n) }

func (v verbose) Logf(f *os.File, s string) {
	if v {
		f.WriteString(s)
	}
}

func logLevelled(entries [][]byte, f *os.File) {
	for range entries {
		site(1) // want `per item: once per element of entries \(the loop at branches\.go:\d+\)`
		vlog(2).Logf(f, "entry")
	}
}

func logOwn(entries [][]byte, f *os.File, debug bool) {
	for range entries {
		site(1) // want `silent: each iteration also calls Logf, which calls \(\*os.File\).WriteString \(file I/O\) at branches.go:\d+, beside which the allocation is noise`
		verbose(debug).Logf(f, "entry")
	}
}
