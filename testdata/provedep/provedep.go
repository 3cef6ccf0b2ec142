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

// Message is a message and its digest.
type Message struct{ Body, Sum []byte }

// Digester sets a message's digest.
type Digester interface{ Digest(m *Message) }

// NewMessages returns n messages of size bytes, each different, without
// their digests.
func NewMessages(n, size int) []Message {
	msgs := make([]Message, n)
	for i, body := range Messages(n, size) {
		msgs[i].Body = body
	}
	return msgs
}
