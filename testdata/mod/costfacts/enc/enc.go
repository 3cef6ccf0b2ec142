// Package enc encodes a key's fields, for the package user: what its
// exported functions allocate goes to their callers in a fact, since the
// package is in a module.
package enc

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// Field encodes a field: three calls that allocate their results.
func Field(name string, b []byte) string { // want Field:`costs: 3 allocating calls \(strings.Join\)`
	return strings.Join([]string{name, hex.EncodeToString(b), strconv.Itoa(len(b))}, "=")
}

// Name returns a field's name as it is: nothing allocated, no fact.
func Name(name string) string {
	return strings.TrimSpace(name)
}
