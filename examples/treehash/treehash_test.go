package treehash

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"testing"
	"testing/iotest"
)

// The leaves and roots of the Certificate Transparency test vectors (RFC 6962
// Merkle tree hashes, as in certificate-transparency and transparency-dev/merkle):
// roots[n] is the root of the tree over the first n leaves.
var (
	ctLeaves = []string{
		"",
		"00",
		"10",
		"2021",
		"3031",
		"40414243",
		"5051525354555657",
		"606162636465666768696a6b6c6d6e6f",
	}
	ctRoots = []string{
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

func decodeLeaves(t testing.TB, hexLeaves []string) [][]byte {
	t.Helper()
	leaves := make([][]byte, len(hexLeaves))
	for i, h := range hexLeaves {
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		leaves[i] = b
	}
	return leaves
}

// refRoot is RFC 6962's MTH, computed independently of the package: with
// sha256.Sum256 over explicitly concatenated buffers, and the split point
// found with math/bits.
func refRoot(leaves [][]byte) [sha256.Size]byte {
	switch n := len(leaves); n {
	case 0:
		return sha256.Sum256(nil)
	case 1:
		return sha256.Sum256(append([]byte{0x00}, leaves[0]...))
	default:
		k := 1 << (bits.Len(uint(n-1)) - 1)
		l, r := refRoot(leaves[:k]), refRoot(leaves[k:])
		return sha256.Sum256(append(append([]byte{0x01}, l[:]...), r[:]...))
	}
}

func readers(leaves [][]byte, wrap func(io.Reader) io.Reader) []io.Reader {
	rs := make([]io.Reader, len(leaves))
	for i, l := range leaves {
		rs[i] = wrap(bytes.NewReader(l))
	}
	return rs
}

func plain(r io.Reader) io.Reader { return r }

func TestRootKnownAnswers(t *testing.T) {
	leaves := decodeLeaves(t, ctLeaves)
	for n, want := range ctRoots {
		t.Run(fmt.Sprint(n, "leaves"), func(t *testing.T) {
			if got := hex.EncodeToString(Root(leaves[:n])); got != want {
				t.Errorf("Root = %s, want %s", got, want)
			}
			ref := refRoot(leaves[:n])
			if got := hex.EncodeToString(ref[:]); got != want {
				t.Fatalf("the reference computation is wrong: %s, want %s", got, want)
			}
			for _, wrap := range []func(io.Reader) io.Reader{plain, iotest.OneByteReader, iotest.HalfReader} {
				got, err := RootOfReaders(readers(leaves[:n], wrap))
				if err != nil {
					t.Fatal(err)
				}
				if hex.EncodeToString(got) != want {
					t.Errorf("RootOfReaders = %x, want %s", got, want)
				}
			}
		})
	}
}

// Every tree shape up to 70 leaves, against the reference computation.
func TestRootMatchesReference(t *testing.T) {
	var leaves [][]byte
	for i := range 70 {
		leaves = append(leaves, bytes.Repeat([]byte{byte(i)}, i*37%101))
	}
	for n := 0; n <= len(leaves); n++ {
		want := refRoot(leaves[:n])
		if got := Root(leaves[:n]); !bytes.Equal(got, want[:]) {
			t.Errorf("Root over %d leaves = %x, want %x", n, got, want)
		}
		got, err := RootOfReaders(readers(leaves[:n], plain))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want[:]) {
			t.Errorf("RootOfReaders over %d leaves = %x, want %x", n, got, want)
		}
		// Repeated calls see fresh hashers.
		if again := Root(leaves[:n]); !bytes.Equal(again, want[:]) {
			t.Errorf("second Root over %d leaves = %x, want %x", n, again, want)
		}
	}
}

func TestLeafHashes(t *testing.T) {
	leaves := decodeLeaves(t, ctLeaves)
	leaves = append(leaves, bytes.Repeat([]byte("large leaf "), 10000))
	got, err := LeafHashes(readers(leaves, iotest.HalfReader))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(leaves) {
		t.Fatalf("LeafHashes returned %d hashes for %d leaves", len(got), len(leaves))
	}
	for i, l := range leaves {
		want := sha256.Sum256(append([]byte{0x00}, l...))
		if !bytes.Equal(got[i], want[:]) {
			t.Errorf("leaf %d: %x, want %x", i, got[i], want)
		}
	}
	// A one-leaf tree's root is its leaf hash (first CT vector).
	if hex.EncodeToString(got[0]) != ctRoots[1] {
		t.Errorf("leaf 0: %x, want %s", got[0], ctRoots[1])
	}
	if hs, err := LeafHashes(nil); err != nil || len(hs) != 0 {
		t.Errorf("LeafHashes(nil) = %x, %v; want nothing", hs, err)
	}
}

func TestReadErrors(t *testing.T) {
	boom := errors.New("boom")
	leaves := readers([][]byte{[]byte("a"), []byte("b"), []byte("c")}, plain)
	leaves[2] = iotest.ErrReader(boom)
	if _, err := LeafHashes(leaves); !errors.Is(err, boom) {
		t.Errorf("LeafHashes error = %v, want %v", err, boom)
	}
	for i := range 3 {
		leaves := readers([][]byte{[]byte("a"), []byte("b"), []byte("c")}, plain)
		leaves[i] = io.MultiReader(bytes.NewReader([]byte("partial")), iotest.ErrReader(boom))
		if _, err := RootOfReaders(leaves); !errors.Is(err, boom) {
			t.Errorf("RootOfReaders with leaf %d failing: error = %v, want %v", i, err, boom)
		}
	}
	// Hashers that saw a failed read are not reused dirty.
	got, err := RootOfReaders(readers(decodeLeaves(t, ctLeaves), plain))
	if err != nil || hex.EncodeToString(got) != ctRoots[8] {
		t.Errorf("RootOfReaders after errors = %x, %v; want %s", got, err, ctRoots[8])
	}
}

func BenchmarkRootOfReaders(b *testing.B) {
	leaves := make([][]byte, 64)
	for i := range leaves {
		leaves[i] = bytes.Repeat([]byte{byte(i)}, 256)
	}
	rs := make([]io.Reader, len(leaves))
	brs := make([]*bytes.Reader, len(leaves))
	for i := range leaves {
		brs[i] = bytes.NewReader(leaves[i])
		rs[i] = brs[i]
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, r := range brs {
			r.Reset(leaves[i])
		}
		if _, err := RootOfReaders(rs); err != nil {
			b.Fatal(err)
		}
	}
}
