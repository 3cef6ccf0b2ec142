// Package codec encodes values for the share test: Encode takes any value
// (json.Marshal's shape); the others are not encoders of any type.
package codec

import "fmt"

// Encode encodes v, whatever its type.
func Encode(v any) []byte { return fmt.Appendf(nil, "%v", v) }

// Join formats its arguments: a variadic list, not one value to encode.
func Join(args ...any) []byte { return fmt.Append(nil, args...) }

// Bytes encodes a value whose type its caller's compilation knows.
func Bytes[T ~[]byte | ~string](v T) []byte { return []byte(v) }

// Valid says whether v is valid, without encoding it.
func Valid(v any) bool { return v != nil }
