package fixes

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// KeyedPool describes where an HMAC key is fixed for the values of a struct
// type, and so where the struct's own pool of keyed HMACs goes.
type KeyedPool struct {
	// Struct is the struct type that holds the key.
	Struct *ast.StructType
	// Lit is the one composite literal that sets the key.
	Lit *ast.CompositeLit
	// Field is the name of the new field that holds the pool.
	Field string
	// Hash and Key are the hash constructor and the key as written in Lit's
	// context, e.g. "sha256.New" and "key".
	Hash, Key string
	// Recv is the value whose key the call uses, as written at the call, e.g. "s".
	Recv string
	// Inline holds a *sync.Pool instead of a *hashpool.HMAC.
	Inline bool
}

// HMACField gives a struct whose HMAC key is fixed its own pool of keyed
// HMACs, created where the key is set, and takes the HMAC from it per call:
//
//	type Signer struct {                 type Signer struct {
//	    key []byte                           key  []byte
//	}                                        macs *hashpool.HMAC
//	                                     }
//	return &Signer{key: key}       =>    return &Signer{key: key, macs: hashpool.NewHMAC(sha256.New, key)}
//
//	mac := hmac.New(sha256.New, s.key)   mac := s.macs.Get()
//	                                     defer s.macs.Put(mac)
//
// def is the mac := hmac.New(...) statement. The caller has proved that the
// key field is set only by Lit, that mac does not outlive the call and is not
// assigned again.
func HMACField(f *File, def *ast.AssignStmt, k KeyedPool) analysis.SuggestedFix {
	name := def.Lhs[0].(*ast.Ident).Name
	call := def.Rhs[0]
	var edits []analysis.TextEdit
	fieldType, newPool, get, after := "", "", "", ""
	if k.Inline {
		syncName, e := f.AddImport("sync", "sync")
		edits = append(edits, e...)
		hashName, e := f.AddImport("hash", "hash")
		edits = append(edits, e...)
		hmacName, e := f.AddImport("crypto/hmac", "hmac")
		edits = append(edits, e...)
		fieldType = "*" + syncName + ".Pool"
		newPool = "&" + syncName + ".Pool{New: func() any { return " + hmacName + ".New(" + k.Hash + ", " + k.Key + ") }}"
		get = k.Recv + "." + k.Field + ".Get().(" + hashName + ".Hash)"
		after = "\n" + f.Indent(def.Pos()) + name + ".Reset()"
	} else {
		hp, e := f.AddImport(RuntimePool, "hashpool")
		edits = append(edits, e...)
		fieldType = "*" + hp + ".HMAC"
		newPool = hp + ".NewHMAC(" + k.Hash + ", " + k.Key + ")"
		get = k.Recv + "." + k.Field + ".Get()"
		edits = append(edits, f.RemoveImport("crypto/hmac", call)...)
	}

	// The field, last in the struct.
	fields := k.Struct.Fields
	edits = append(edits, analysis.TextEdit{
		Pos:     f.lineStart(fields.Closing),
		End:     f.lineStart(fields.Closing),
		NewText: []byte(f.Indent(fields.List[0].Pos()) + k.Field + " " + fieldType + "\n"),
	})

	// The pool, created where the key is set.
	elt := k.Field + ": " + newPool
	last := k.Lit.Elts[len(k.Lit.Elts)-1]
	if f.Fset.Position(k.Lit.Rbrace).Line > f.Fset.Position(last.End()).Line {
		edits = append(edits, analysis.TextEdit{
			Pos:     f.lineStart(k.Lit.Rbrace),
			End:     f.lineStart(k.Lit.Rbrace),
			NewText: []byte(f.Indent(last.Pos()) + elt + ",\n"),
		})
	} else {
		edits = append(edits, analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte(", " + elt)})
	}

	// The HMAC, taken from the pool for the duration of the call.
	edits = append(edits,
		analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(get)},
		analysis.TextEdit{Pos: f.LineEnd(def.End()), End: f.LineEnd(def.End()),
			NewText: []byte("\n" + f.Indent(def.Pos()) + "defer " + k.Recv + "." + k.Field + ".Put(" + name + ")" + after)},
	)
	return analysis.SuggestedFix{
		Message:   "Keep a pool of HMACs keyed once per value in field " + k.Field,
		TextEdits: edits,
	}
}
