package concathash

import (
	"bytes"
	"crypto"
	_ "crypto/sha256"
	"hash"
)

// Hasher hashes a tree's nodes with the hash its caller chose.
type Hasher struct{ crypto.Hash }

// HashChildren joins the children in a bytes.Buffer only to write it into
// the hasher once: the buffer is made per node.
func (m *Hasher) HashChildren(l, r []byte) []byte {
	buf := bytes.NewBuffer(make([]byte, 0, 32+len(l)+len(r))) // want `concat-hash: a bytes.Buffer filled with 2 parts builds a buffer only to hash it with h.Write once per call of HashChildren \(it returns a hash of what it is given: its callers call it once per item they hash\); automatic fix: write the parts one after another`
	h := m.New()                                              // want `hasher-alloc: m.New\(\) always allocates its hasher once per call of HashChildren`
	buf.Write(l)
	buf.Write(r)
	h.Write(buf.Bytes())
	return h.Sum(nil)
}

var tree = &Hasher{crypto.SHA256}

var outSlice []byte

func CaseBuffer() { outSlice = tree.HashChildren(left, right) }

// The negative cases allocate without a finding: the oracle does not run
// them.

// The buffer is kept after it is hashed.
func (m *Hasher) hashKeep(h hash.Hash, l, r []byte) *bytes.Buffer {
	var buf bytes.Buffer
	buf.Write(l)
	buf.Write(r)
	h.Write(buf.Bytes())
	return &buf
}

// One part is no concatenation.
func (m *Hasher) hashOne(h hash.Hash, l []byte) {
	var buf bytes.Buffer
	buf.Write(l)
	h.Write(buf.Bytes())
}

// Hashed in a loop, after more writes: the parts change between sums.
func (m *Hasher) hashEach(h hash.Hash, parts [][]byte) {
	buf := new(bytes.Buffer)
	buf.WriteByte(0)
	buf.WriteString("node")
	for _, p := range parts {
		h.Write(buf.Bytes())
		h.Write(p)
	}
}

var _ = []any{tree.hashKeep, tree.hashOne, tree.hashEach}
