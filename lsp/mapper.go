package lsp

import (
	"fmt"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// mapper converts between byte offsets into one version of a file and LSP
// positions, whose characters count UTF-16 code units (the protocol's
// default encoding, and the only one every client supports).
type mapper struct {
	content []byte
	lines   []int // byte offset of the start of each line
}

func newMapper(content []byte) *mapper {
	m := &mapper{content: content, lines: []int{0}}
	for i, b := range content {
		if b == '\n' {
			m.lines = append(m.lines, i+1)
		}
	}
	return m
}

// position returns the LSP position of the byte offset off, clamped to the
// content.
func (m *mapper) position(off int) protocol.Position {
	off = max(0, min(off, len(m.content)))
	line := m.line(off)
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Len(m.content[m.lines[line]:off]))}
}

// line returns the 0-based line that holds the byte offset off.
func (m *mapper) line(off int) int {
	// The last line that starts at or before off.
	lo, hi := 0, len(m.lines)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if m.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// offset returns the byte offset of the LSP position p, or an error when p is
// beyond the end of its line or of the content. A position inside a
// character encoded as two UTF-16 units is an error too.
func (m *mapper) offset(p protocol.Position) (int, error) {
	if int(p.Line) >= len(m.lines) {
		return 0, fmt.Errorf("line %d is beyond the last line %d", p.Line, len(m.lines)-1)
	}
	start := m.lines[p.Line]
	end := len(m.content)
	if int(p.Line)+1 < len(m.lines) {
		end = m.lines[p.Line+1] - 1 // the newline
	}
	off, units := start, 0
	for units < int(p.Character) {
		if off >= end {
			return 0, fmt.Errorf("character %d is beyond the end of line %d", p.Character, p.Line)
		}
		r, size := utf8.DecodeRune(m.content[off:end])
		off += size
		units += runeUTF16Len(r, size)
	}
	if units != int(p.Character) {
		return 0, fmt.Errorf("character %d of line %d is inside a character", p.Character, p.Line)
	}
	return off, nil
}

// lineStart returns the byte offset of the start of the line that holds off.
func (m *mapper) lineStart(off int) int {
	return m.lines[m.line(off)]
}

// utf16Len is the number of UTF-16 code units that encode b. An invalid byte
// counts as one unit, as U+FFFD would.
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		n += runeUTF16Len(r, size)
	}
	return n
}

func runeUTF16Len(r rune, size int) int {
	if r >= 0x10000 && size == 4 {
		return 2 // a surrogate pair
	}
	return 1
}
