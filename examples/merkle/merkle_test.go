package merkle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// The Certificate Transparency test vectors (RFC 6962 Merkle tree hashes):
// ctRoots[n] is the root of the tree over the first n of ctLeaves.
var (
	ctLeaves = []string{"", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"}
	ctRoots  = []string{
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
		"fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
		"aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
		"d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
		"4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
		"76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
		"ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
		"5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
	}
)

func leaves(t testing.TB) [][]byte {
	t.Helper()
	out := make([][]byte, len(ctLeaves))
	for i, h := range ctLeaves {
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out
}

// reference computes the RFC 6962 root with its own hashing, independently
// of the package.
func reference(items [][]byte) []byte {
	h := sha256.New()
	switch len(items) {
	case 0:
	case 1:
		h.Write([]byte{0})
		h.Write(items[0])
	default:
		k := 1
		for k*2 < len(items) {
			k *= 2
		}
		h.Write([]byte{1})
		h.Write(reference(items[:k]))
		h.Write(reference(items[k:]))
	}
	return h.Sum(nil)
}

func TestRFC6962Vectors(t *testing.T) {
	all := leaves(t)
	for n, want := range ctRoots {
		for name, root := range map[string]func([][]byte) []byte{
			"recursive": HashFromByteSlices, "iterative": HashFromByteSlicesIterative,
		} {
			if got := hex.EncodeToString(root(all[:n])); got != want {
				t.Errorf("%s root of %d leaves = %s, want %s", name, n, got, want)
			}
		}
	}
}

func TestRootsAgainstReference(t *testing.T) {
	items := make([][]byte, 70)
	for i := range items {
		items[i] = bytes.Repeat([]byte{byte(i)}, i%40)
	}
	for n := 0; n <= len(items); n++ {
		want := reference(items[:n])
		if got := HashFromByteSlices(items[:n]); !bytes.Equal(got, want) {
			t.Errorf("recursive root of %d leaves = %x, want %x", n, got, want)
		}
		if got := HashFromByteSlicesIterative(items[:n]); !bytes.Equal(got, want) {
			t.Errorf("iterative root of %d leaves = %x, want %x", n, got, want)
		}
	}
}

// The leaves' own slices are not changed by hashing, even with spare capacity.
func TestLeavesUnchanged(t *testing.T) {
	buf := make([]byte, 4, 64)
	copy(buf, "abcd")
	tail := buf[:64]
	items := [][]byte{buf, []byte("x"), []byte("y")}
	root := HashFromByteSlices(items)
	if !bytes.Equal(root, reference(items)) {
		t.Fatalf("root %x, want %x", root, reference(items))
	}
	if string(buf) != "abcd" || !bytes.Equal(tail[4:], make([]byte, 60)) {
		t.Fatalf("the leaf's array was written: %q", tail)
	}
}

func TestProofs(t *testing.T) {
	items := make([][]byte, 13)
	for i := range items {
		items[i] = []byte(fmt.Sprintf("item %d", i))
	}
	root := HashFromByteSlices(items)
	for i, item := range items {
		got, proof := ProveInclusion(items, i)
		if !bytes.Equal(got, root) {
			t.Fatalf("ProveInclusion root %x, want %x", got, root)
		}
		if !proof.Verify(root, item) {
			t.Errorf("proof of item %d does not verify", i)
		}
		if proof.Verify(root, []byte("forged")) {
			t.Errorf("proof of item %d verifies a forged leaf", i)
		}
		other := proof
		other.Index = (i + 1) % len(items)
		if proof.Total > 1 && other.Verify(root, item) {
			t.Errorf("proof of item %d verifies at index %d", i, other.Index)
		}
	}
}

// BenchmarkHashAlternatives is the benchmark of the go-square seed: the
// root of 100 leaves of 64 bytes, recursively and iteratively.
func BenchmarkHashAlternatives(b *testing.B) {
	items := make([][]byte, 100)
	for i := range items {
		items[i] = bytes.Repeat([]byte{byte(i)}, 64)
	}
	b.Run("recursive", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			HashFromByteSlices(items)
		}
	})
	b.Run("iterative", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			HashFromByteSlicesIterative(items)
		}
	})
}
