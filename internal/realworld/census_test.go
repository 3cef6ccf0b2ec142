package realworld

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashalloc/hashalloc/internal/realworld/expect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCensusUnaccounted checks that the corpus's census lists every kind of
// site of a module that the audit has no line for, and none that it has:
// a constructor, a KDF given a constructor as a value, a CRC table, and a
// string converted to be written into a hasher.
func TestCensusUnaccounted(t *testing.T) {
	dir := t.TempDir()
	src := `package m

import (
	"crypto/hkdf"
	"crypto/sha256"
	"hash/crc32"
)

func F(key []byte, s string) ([]byte, uint32) {
	h := sha256.New()
	h.Write([]byte(s))
	prk, _ := hkdf.Extract(sha256.New, key, nil)
	sum := h.Sum(nil)
	return append(prk, sum...), crc32.Checksum(key, crc32.MakeTable(0xD5828281))
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.26.0\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "m.go"), []byte(src), 0o644))
	missing, total, err := unaccounted(dir, []string{"."}, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, 5, total)
	assert.Equal(t, []string{
		"m.go:10:7: constructor sha256.New()",
		"m.go:11:10: conversion []byte(s)",
		"m.go:12:12: constructor value hkdf.Extract(sha256.New, key, nil)",
		"m.go:13:9: Sum(nil) h.Sum(nil)",
		"m.go:14:50: table crc32.MakeTable(0xD5828281)",
	}, missing)
	// A line of the audit accounts for the sites of its line.
	var diags []Diagnostic
	for line := 10; line <= 14; line++ {
		diags = append(diags, Diagnostic{Key: expect.Key{File: "m.go", Line: line, Category: "audit"}, Filename: filepath.Join(dir, "m.go")})
	}
	missing, _, err = unaccounted(dir, []string{"."}, nil, diags)
	require.NoError(t, err)
	assert.Empty(t, missing)
}
