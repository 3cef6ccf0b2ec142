package values

import (
	"go/types"
	"strings"
)

// ByteOrderReads reports whether fn is a method of encoding/binary's
// BigEndian or LittleEndian that reads or writes the bytes of the slice it
// is given and keeps nothing: PutUint16, 32 and 64, Uint16, 32 and 64.
func ByteOrderReads(fn *types.Func) bool {
	return byteOrder(fn, "PutUint", "Uint")
}

// ByteOrderAppends reports whether fn appends to the byte slice it is given
// first and returns it, as append does: the AppendUint16, 32 and 64 methods
// of encoding/binary's BigEndian and LittleEndian, and the package's
// AppendUvarint and AppendVarint.
func ByteOrderAppends(fn *types.Func) bool {
	if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "encoding/binary" && fn.Signature().Recv() == nil {
		return fn.Name() == "AppendUvarint" || fn.Name() == "AppendVarint"
	}
	return byteOrder(fn, "AppendUint")
}

// byteOrder reports whether fn is a method of encoding/binary's bigEndian or
// littleEndian named by one of the prefixes and 16, 32 or 64.
func byteOrder(fn *types.Func, prefixes ...string) bool {
	if fn == nil || fn.Signature().Recv() == nil {
		return false
	}
	recv := fn.Signature().Recv().Type()
	if !IsNamed(recv, "encoding/binary", "bigEndian", false) && !IsNamed(recv, "encoding/binary", "littleEndian", false) {
		return false
	}
	for _, prefix := range prefixes {
		if bits, ok := strings.CutPrefix(fn.Name(), prefix); ok && (bits == "16" || bits == "32" || bits == "64") {
			return true
		}
	}
	return false
}
