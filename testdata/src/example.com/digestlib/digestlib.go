// Package digestlib hands out digesters: an algorithm's Digester makes a
// hasher with each one, which its Hash method returns.
package digestlib

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
)

// Algorithm names a hash algorithm.
type Algorithm string

// Canonical is the algorithm of the digests this package makes.
const Canonical Algorithm = "sha256"

// Digester writes what it is given into a hasher of its own.
type Digester interface {
	Hash() hash.Hash
	Digest() string
}

type digester struct{ h hash.Hash }

func (d *digester) Hash() hash.Hash { return d.h }

func (d *digester) Digest() string { return hex.EncodeToString(d.h.Sum(nil)) }

// Digester makes a digester, and its hasher, per call.
func (a Algorithm) Digester() Digester { return &digester{sha256.New()} }
