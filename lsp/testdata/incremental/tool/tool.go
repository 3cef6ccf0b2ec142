// Package tool uses package app, which uses package hashing.
package tool

import (
	"example.com/incremental/app"
	"example.com/incremental/hashing"
)

// Keys returns the key of every ID.
func Keys(prefix []byte, ids [][]byte) [][32]byte {
	var keys [][32]byte
	for _, id := range ids {
		keys = append(keys, app.Key(prefix, id), hashing.Digest(append(prefix, id...)))
	}
	return keys
}
