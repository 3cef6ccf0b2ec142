// Package ringhash routes keys on a ring through a hash function its user
// chooses (groupcache's consistenthash): the []byte conversion of each key
// passed to the function value escapes. Every exported func CaseX() is
// measured by the oracle test.
package ringhash

import (
	"fmt"
	"hash/crc32"
	"sort"
	"strconv"
)

// Hash maps bytes to a point of the ring.
type Hash func(data []byte) uint32

// Map is a ring of keys.
type Map struct {
	hash    Hash
	keys    []int
	hashMap map[int]string
}

// New makes a ring that hashes with fn, crc32 by default.
func New(fn Hash) *Map {
	m := &Map{hash: fn, hashMap: map[int]string{}}
	if m.hash == nil {
		m.hash = crc32.ChecksumIEEE
	}
	return m
}

// Add adds keys to the ring, replicas times each.
func (m *Map) Add(replicas int, keys ...string) {
	for _, key := range keys {
		for i := 0; i < replicas; i++ {
			// []byte(a + b) is the concatenation's one allocation: the
			// compiler builds the bytes directly (measured: 1 per call, as
			// for the concatenation alone).
			h := int(m.hash([]byte(strconv.Itoa(i) + key)))
			m.keys = append(m.keys, h)
			m.hashMap[h] = key
		}
	}
	sort.Ints(m.keys)
}

// Get returns the node of the ring closest to key.
func (m *Map) Get(key string) string {
	if len(m.keys) == 0 {
		return ""
	}
	h := int(m.hash([]byte(key))) // want `hot-buffer: \[\]byte\(key\) copies key to the heap \(passed to m.hash, a function value of a hash's shape\) once per call of Get \(it returns a hash of what it is given: its callers call it once per item they hash\)`
	i := sort.Search(len(m.keys), func(i int) bool { return m.keys[i] >= h })
	if i == len(m.keys) {
		i = 0
	}
	return m.hashMap[m.keys[i]]
}

var ring = New(nil)

func init() { ring.Add(3, "a", "b", "c") }

var node string

func CaseGet() { node = ring.Get("some key of the cache") }

// Keys converted per element of a batch.
func (m *Map) GetAll(keys []string) (nodes []int) {
	for _, key := range keys {
		nodes = append(nodes, int(m.hash([]byte(key)))) // want `hot-buffer: \[\]byte\(key\) copies key to the heap \(passed to m.hash, a function value of a hash's shape\) once per key of keys \(the loop at ringhash.go:\d+\); hash the string's bytes without the copy \(a hash function that takes a string\) \(no automatic fix: the only form without the copy, unsafe.Slice\(unsafe.StringData\(key\), len\(key\)\), is safe only if m.hash never keeps or modifies its argument, and its target is not known here\)`
	}
	return nodes
}

var points []int

func CaseGetAll() { points = ring.GetAll([]string{"a key", "another key", "a third key of the cache"}) }

// Nodes is a ring whose nodes are any values (go-zero's ConsistentHash):
// Get returns the node the hash of a key selects, one the ring holds, so it
// runs once per key its callers route, whatever the node's type.
type Nodes struct {
	hash   Hash
	points []uint32
	ring   map[uint32]any
	hits   map[uint32]int
	owners map[string]any
}

func (n *Nodes) Get(key string) (any, bool) {
	if len(n.points) == 0 {
		return nil, false
	}
	h := n.hash([]byte(key)) // want `hot-buffer: \[\]byte\(key\) copies key to the heap \(passed to n.hash, a function value of a hash's shape\) once per call of Get \(it returns what a hash of what it is given selects: its callers call it once per item they hash\)`
	i := sort.Search(len(n.points), func(i int) bool { return n.points[i] >= h }) % len(n.points)
	node, ok := n.ring[n.points[i]]
	return node, ok
}

var nodes = &Nodes{hash: crc32.ChecksumIEEE, points: []uint32{1 << 30, 1 << 31}, ring: map[uint32]any{1 << 30: "east", 1 << 31: 2}, hits: map[uint32]int{}, owners: map[string]any{"a key": "west"}}

var routed any

func CaseNodesGet() { routed, _ = nodes.Get("a key of the cache") }

func ResultNodesGet() string {
	a, _ := nodes.Get("a key of the cache")
	b, ok := nodes.Get("another key")
	return fmt.Sprint(a, b, ok)
}

// ---- Silent. ----

// The owner of a key is looked up at the key itself; its hash only counts
// the key's hits: nothing shows Owner to run per key (its copy allocates,
// so no case measures it).
func (n *Nodes) Owner(key string) (any, bool) {
	n.hits[n.hash([]byte(key))]++
	owner, ok := n.owners[key]
	return owner, ok
}

func init() { routed, _ = nodes.Owner("a key") }

// A constant converted is no copy per call; a function that is not of a
// hash's shape may keep what it is given.
func (m *Map) constant(keep func([]byte) []byte, key string) (uint32, []byte) {
	return m.hash([]byte("fixed")), keep([]byte(key))
}

// Once, when a ring is warmed up: nothing repeats it.
func (m *Map) warm(key string) {
	m.hashMap[int(m.hash([]byte(key)))] = key
}

func init() {
	ring.constant(func(b []byte) []byte { return b }, "")
	ring.warm("")
}
