package branches

import (
	"errors"
	"io"
)

// A state machine over the bytes received: each case moves the state on
// and none moves it back, so each is taken once per run of the loop (a
// handshake's steps), not once per byte. A site before the case's early
// return may run again when more bytes come.
type handshake int

const (
	waitVersion handshake = iota
	waitHello
	waitAck
	handshakeDone
)

type conn struct {
	state handshake
	cache []byte
}

func (c *conn) input(data []byte) error {
	for len(data) > 0 {
		switch c.state {
		case waitVersion:
			data = data[1:]
			c.state = waitHello
		case waitHello:
			site(1) // want `per item: once per element of data \(the loop at once.go:\d+\)`
			if len(data)+len(c.cache) < 64 {
				c.cache = append(c.cache, data...)
				return nil
			}
			data = data[64-len(c.cache):]
			site(5) // want `silent: it runs at most once per run of the loop at once.go:\d+ \(a state machine's step: it moves c.state on to waitAck, and nothing moves it back\)`
			reply(c.cache)
			c.state = waitAck
		case waitAck:
			data = data[len(data):]
			c.state = handshakeDone
		default:
			return errors.New("bad state")
		}
	}
	return nil
}

// A machine that the loop sets back outside its cases may take its first
// state again.
func (c *conn) restarts(data []byte) {
	for range data {
		switch c.state {
		case waitVersion:
			site(1) // want `per item: once per element of data \(the loop at once.go:\d+\)`
			c.state = waitHello
		}
		if len(c.cache) == 0 {
			c.state = waitVersion
		}
	}
}

func reply(hello []byte) {
	site(5) // want `silent: it runs once per call of reply, and nothing shows reply to run per item`
}

// A state kept in a local variable across the loop, which only moves on:
// its first state is taken once. A machine that comes back to a state (a
// word, then the spaces after it) may take each state for every element.
func records(input []byte) {
	const (
		header = iota
		body
	)
	state := header
	for range input {
		switch state {
		case header:
			site(1) // want `silent: it runs at most once per run of the loop at once.go:\d+ \(a state machine's step: it moves state on to body, and nothing moves it back\)`
			state = body
		case body:
			site(1) // want `per item: once per element of input \(the loop at once.go:\d+\)`
		}
	}
}

func words(input []byte) {
	const (
		inWord = iota
		between
	)
	state := inWord
	for _, b := range input {
		switch state {
		case inWord:
			site(1) // want `per item: once per element of input \(the loop at once.go:\d+\)`
			if b == ' ' {
				state = between
			}
		case between:
			site(1) // want `per item: once per element of input \(the loop at once.go:\d+\)`
			state = inWord
		}
	}
}

// A parser's loop over tokens switches on each token's kind: each case may
// be taken for every token. So is the state of each node visited.
type token struct {
	kind  int
	state handshake
}

func parse(toks []*token) {
	for _, t := range toks {
		switch t.kind {
		case 1:
			site(1) // want `per item: once per element of toks \(the loop at once.go:\d+\)`
			t.kind = 2
		case 2:
			site(1) // want `per item: once per element of toks \(the loop at once.go:\d+\)`
		}
		switch t.state {
		case waitVersion:
			site(1) // want `per item: once per element of toks \(the loop at once.go:\d+\)`
			t.state = waitHello
		}
	}
}

type verifier struct {
	sum []byte
}

func drain(v *verifier, chunks [][]byte) {
	for _, c := range chunks {
		_ = v.read(c)
	}
}

// The end of a stream comes once per stream; a read that succeeds, once
// per chunk.
func (v *verifier) read(p []byte) error {
	err := check(p)
	if err == io.EOF {
		site(1) // want `silent: it runs only when err == io.EOF \(the end of the stream: once per stream\)`
	}
	if errors.Is(err, io.EOF) && len(p) > 0 {
		site(1) // want `silent: it runs only when errors.Is\(err, io.EOF\) && len\(p\) > 0 \(the end of the stream: once per stream\)`
	}
	if err == nil {
		site(1) // want `per item: once per call of read, which drain calls once per element of chunks \(the loop at once.go:\d+\)`
	}
	return err
}
