package trie

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// refRoot computes the root of the trie holding entries independently of the
// package: the node at a key has a child per next byte of the keys below it,
// at the longest prefix those keys share.
func refRoot(entries map[string][]byte) [sha256.Size]byte {
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return refNode("", keys, entries)
}

// refNode hashes the node at key, with below the sorted keys longer than key
// that start with it.
func refNode(key string, below []string, entries map[string][]byte) [sha256.Size]byte {
	var enc []byte
	enc = binary.AppendUvarint(enc, uint64(len(key)))
	enc = append(enc, key...)
	if v, ok := entries[key]; ok {
		enc = append(enc, 1)
		enc = binary.AppendUvarint(enc, uint64(len(v)))
		enc = append(enc, v...)
	} else {
		enc = append(enc, 0)
	}
	var groups [][]string
	for _, k := range below {
		if k == key {
			continue
		}
		if n := len(groups); n > 0 && groups[n-1][0][len(key)] == k[len(key)] {
			groups[n-1] = append(groups[n-1], k)
		} else {
			groups = append(groups, []string{k})
		}
	}
	enc = binary.AppendUvarint(enc, uint64(len(groups)))
	for _, g := range groups {
		prefix := g[0]
		for _, k := range g[1:] {
			prefix = prefix[:commonPrefix([]byte(prefix), []byte(k))]
		}
		id := refNode(prefix, g, entries)
		enc = append(enc, prefix[len(key)])
		enc = binary.AppendUvarint(enc, uint64(len(prefix)-len(key)-1))
		enc = append(enc, prefix[len(key)+1:]...)
		enc = append(enc, id[:]...)
	}
	return sha256.Sum256(enc)
}

// randomKeys returns n distinct keys of the given length, with some common
// prefixes, and some keys that are prefixes of others.
func randomKeys(r *rand.Rand, n, length int) [][]byte {
	seen := map[string]bool{}
	var keys [][]byte
	for len(keys) < n {
		k := make([]byte, length)
		for i := range k {
			k[i] = byte(r.IntN(4)) // a small alphabet makes long shared prefixes
		}
		if r.IntN(8) == 0 {
			k = k[:r.IntN(length+1)]
		}
		if !seen[string(k)] {
			seen[string(k)] = true
			keys = append(keys, k)
		}
	}
	return keys
}

func TestEmpty(t *testing.T) {
	tr := New()
	if got, want := tr.Root(), refRoot(nil); got != want {
		t.Fatalf("empty root %x, want %x", got, want)
	}
	if _, ok := tr.Get(nil); ok {
		t.Error("the empty trie has a value for the empty key")
	}
}

// The root matches the reference after every Put, whatever the order and
// the key lengths (below and above 32 bytes, and the empty key).
func TestRootMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, length := range []int{6, 20, 32, 33, 48} {
		t.Run(fmt.Sprint("keys of ", length, " bytes"), func(t *testing.T) {
			tr := New()
			entries := map[string][]byte{}
			keys := randomKeys(r, 120, length)
			for i, k := range keys {
				v := []byte(fmt.Sprint("value ", i))
				tr.Put(k, v)
				entries[string(k)] = v
				if i%7 == 0 || i == len(keys)-1 {
					if got, want := tr.Root(), refRoot(entries); got != want {
						t.Fatalf("after %d puts: root %x, want %x", i+1, got, want)
					}
				}
			}
			// Overwrite some values: only their paths are re-hashed.
			for i, k := range keys[:30] {
				v := []byte(fmt.Sprint("new value ", i))
				tr.Put(k, v)
				entries[string(k)] = v
			}
			if got, want := tr.Root(), refRoot(entries); got != want {
				t.Fatalf("after overwriting: root %x, want %x", got, want)
			}
			for k, v := range entries {
				if got, ok := tr.Get([]byte(k)); !ok || !bytes.Equal(got, v) {
					t.Fatalf("Get(%x) = %q, %v; want %q", k, got, ok, v)
				}
			}
		})
	}
}

func TestOrderDoesNotMatter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	keys := randomKeys(r, 200, 40)
	a, b := New(), New()
	for _, k := range keys {
		a.Put(k, k)
	}
	r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	for i, k := range keys {
		b.Put(k, k)
		if i == len(keys)/2 {
			b.Root()
		}
	}
	if a.Root() != b.Root() {
		t.Fatal("the root depends on the order of the puts")
	}
}

func TestValuesAreCopied(t *testing.T) {
	tr := New()
	key, value := []byte("key"), []byte("value")
	tr.Put(key, value)
	root := tr.Root()
	key[0], value[0] = 'K', 'V'
	if got, ok := tr.Get([]byte("key")); !ok || string(got) != "value" {
		t.Fatalf("Get = %q, %v", got, ok)
	}
	if tr.Root() != root {
		t.Fatal("changing the caller's slices changed the root")
	}
	tr.Put([]byte("key"), nil)
	if got, ok := tr.Get([]byte("key")); !ok || len(got) != 0 {
		t.Fatalf("Get after Put(nil) = %q, %v; want an empty value", got, ok)
	}
	if tr.Root() == root {
		t.Fatal("the root did not change with the value")
	}
}

// BenchmarkHashChangedNodes is the benchmark of the merkledb seed: hash n
// changed keys, with keys of 32 bytes (whose key buffers the compiler keeps
// on the stack) and of 48 bytes (whose buffers it allocates).
func BenchmarkHashChangedNodes(b *testing.B) {
	for _, length := range []int{32, 48} {
		for _, n := range []int{1, 10, 100, 1000} {
			r := rand.New(rand.NewPCG(uint64(n), uint64(length)))
			tr := New()
			for range n {
				k := make([]byte, length)
				for i := range k {
					k[i] = byte(r.Uint32())
				}
				tr.Put(k, k[:8])
			}
			b.Run(fmt.Sprintf("key=%dB/n=%d", length, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					tr.hashChangedNodes()
				}
			})
		}
	}
}
