// Package app hashes with the helpers of package hashing.
package app

import "example.com/incremental/hashing"

// Key is the digest of a prefix and an ID.
func Key(prefix, id []byte) [32]byte {
	return hashing.Digest(append(prefix, id...))
}

// SignAll signs every message with key.
func SignAll(key []byte, msgs [][]byte) [][]byte {
	var sigs [][]byte
	for _, m := range msgs {
		hashing.Sign(&sigs, key, m)
	}
	return sigs
}
