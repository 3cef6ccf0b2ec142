// Package audited holds sites that no check reports, each with the reason
// the audit gives: a key built in a strings.Builder only to be hashed, and
// the conversion of a string that no buffer builds beside it; a
// bytes.Buffer hashed where it is filled; a digester made per chunk by
// another package; a closure that a package-level initializer registers,
// which runs per call, beside a literal that the initializer calls once.
package audited

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha256"
	"errors"
	"hash"
	"strings"

	"example.com/digestlib"
	"example.com/escapelib"
)

// UniqueKey hashes the key that keyString builds, once per job.
func UniqueKey(kind string, args []string) [32]byte {
	s, err := keyString(kind, args)
	if err != nil {
		return [32]byte{}
	}
	return sha256.Sum256([]byte(s))
}

func keyString(kind string, args []string) (string, error) {
	if kind == "" {
		return "", errors.New("no kind")
	}
	var sb strings.Builder
	sb.WriteString("&kind=" + kind)
	for _, a := range args {
		sb.WriteString("&" + a)
	}
	return sb.String(), nil
}

// PlainKey hashes a string that no buffer builds: only its conversion.
func PlainKey(kind string) [16]byte {
	return md5.Sum([]byte(kind))
}

// Framed hashes a bytes.Buffer it fills itself.
func Framed(h hash.Hash, parts [][]byte) []byte {
	var buf bytes.Buffer
	for _, p := range parts {
		buf.Write(p)
	}
	h.Write(buf.Bytes())
	return h.Sum(nil)
}

// Chunks makes a digester, and its hasher, per chunk.
func Chunks(chunks [][]byte) (sums []string) {
	for _, c := range chunks {
		d := digestlib.Canonical.Digester()
		d.Hash().Write(c)
		sums = append(sums, d.Digest())
	}
	return sums
}

func register(ctor func(key []byte) func([]byte) []byte) func(key []byte) func([]byte) []byte {
	return ctor
}

// signer is registered when the package is initialized; the closure it
// returns runs once per message it signs.
var signer = register(func(key []byte) func([]byte) []byte {
	return func(b []byte) []byte {
		m := hmac.New(sha256.New, key)
		m.Write(b)
		return m.Sum(nil)
	}
})

// fixedMAC is computed once, by a literal the initializer calls in place.
var fixedMAC = func() []byte {
	m := hmac.New(sha256.New, []byte("k"))
	return m.Sum(nil)
}()

// ObjectKey grows a slice by appends to an empty one only to hash it, once
// per object.
func ObjectKey(key []byte, n byte) [16]byte {
	var b []byte
	b = append(b, key...)
	b = append(b, n, 0, 0)
	return md5.Sum(b)
}

// AuthTag likewise, through a helper of another package that only hashes
// its parameter.
func AuthTag(h hash.Hash, iv, ct []byte) []byte {
	input := make([]byte, 0)
	input = append(input, 1)
	input = append(input, iv...)
	input = append(input, ct...)
	return escapelib.Digest(h, input)
}

// PrefixedKey's slice starts with a value: it is not built only by appends.
func PrefixedKey(key []byte, n byte) [16]byte {
	b := []byte{n}
	b = append(b, key...)
	return md5.Sum(b)
}
