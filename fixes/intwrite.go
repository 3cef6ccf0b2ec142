package fixes

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// IntegerWrite is one binary.Write of a fixed-size integer into a hasher,
// a statement of its own: binary.Write(h, order, x) or _ = binary.Write(...).
type IntegerWrite struct {
	Stmt ast.Stmt
	// Call is the binary.Write call, whose byte order has Append methods
	// (binary.BigEndian, binary.LittleEndian) and whose value is an integer
	// of Bits bits.
	Call *ast.CallExpr
	Bits int
	// Convert is the unsigned type Value is converted to, "" when it has it.
	Convert string
}

// WriteIntegers writes fixed-size integers into the hasher with its own
// Write, appended to a buffer on the stack, instead of through binary.Write,
// whose io.Writer parameter makes the hasher escape:
//
//	_ = binary.Write(h, binary.BigEndian, n.Sum())   =>   h.Write(binary.BigEndian.AppendUint64(make([]byte, 0, 8), n.Sum()))
//	binary.Write(h, binary.BigEndian, b)             =>   h.Write([]byte{b})
//
// A hasher's Write never returns an error, and binary.Write of a fixed-size
// integer writes exactly these bytes; the caller has proved that the error is
// not used and that no other use lets the hasher escape, so that it stays on
// the stack, and with it the buffer its Write takes.
func WriteIntegers(f *File, hasher string, writes []IntegerWrite) analysis.SuggestedFix {
	var edits []analysis.TextEdit
	var removed []ast.Node
	for _, w := range writes {
		order, value := f.Text(w.Call.Args[1]), f.Text(w.Call.Args[2])
		if w.Convert != "" {
			value = w.Convert + "(" + value + ")"
		}
		bytes := "[]byte{" + value + "}"
		if w.Bits > 8 {
			bytes = fmt.Sprintf("%s.AppendUint%d(make([]byte, 0, %d), %s)", order, w.Bits, w.Bits/8, value)
		}
		edits = append(edits, analysis.TextEdit{Pos: w.Stmt.Pos(), End: w.Stmt.End(), NewText: []byte(hasher + ".Write(" + bytes + ")")})
		removed = append(removed, w.Call.Fun)
	}
	im := f.Imports()
	im.Drop("encoding/binary", removed...)
	return analysis.SuggestedFix{
		Message:   "Write the integers with " + hasher + ".Write instead of binary.Write, which makes " + hasher + " escape",
		TextEdits: append(im.Edits(), edits...),
	}
}
