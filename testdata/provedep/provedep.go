// Package provedep makes the messages that the benchmarks of
// example.com/prove digest. It is a module of its own, which
// example.com/prove replaces by a relative directory: the copy that
// hashalloc prove makes of example.com/prove must still find it.
package provedep

// Messages returns n messages of size bytes, each different.
func Messages(n, size int) [][]byte {
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = make([]byte, size)
		for j := range msgs[i] {
			msgs[i][j] = byte(i + j)
		}
	}
	return msgs
}
