package fixes

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// RuntimeSum is the package of multi-part sums that rewritten code imports.
const RuntimeSum = RuntimeModule + "/hashsum"

// Concat is a concatenation built only to be hashed, and what a fix removes
// with it: the statements that built it into a variable, if any.
type Concat struct {
	// Parts are the concatenated byte slices, in order.
	Parts []ast.Expr
	// Remove are the statements that defined and filled a variable holding
	// the concatenation; nil when it was built in the sink's argument.
	Remove []ast.Stmt
	// Spread: Parts is one list of byte slices ([][]byte) whose elements
	// are the parts, passed as parts... to a variadic function.
	Spread bool
	// Literals, when not nil, has an entry per part: the parts made per call
	// only to hold a few bytes, written as literals instead.
	Literals []Literal
}

// Literal is a part, append(make([]byte, 0, n), v1, ..., vk), written as
// []byte{v1, ..., vk}; or, with Var, as a package variable declared in the
// file with that value (a literal written into a hasher on the heap would
// escape, and allocate).
type Literal struct {
	Values []ast.Expr
	Var    bool
	// Want is the name the variable wants ("" for one that spells the bytes
	// in hex); name is the one it is given.
	Want string
	name string
}

// partText spells the part i.
func (f *File) partText(c Concat, i int) string {
	if i < len(c.Literals) && c.Literals[i].Values != nil {
		if lit := c.Literals[i]; lit.Var {
			return lit.name
		}
		return "[]byte{" + f.valuesText(c.Literals[i].Values) + "}"
	}
	return f.Text(c.Parts[i])
}

// valuesText spells values as a list.
func (f *File) valuesText(values []ast.Expr) string {
	texts := make([]string, len(values))
	for i, v := range values {
		texts[i] = f.Text(v)
	}
	return strings.Join(texts, ", ")
}

// literalVars declares the package variables of the literal parts that need
// one, before the file's first declaration, each under a name that says what
// it holds, and names them in c.
//
//	var rfc6962NodeHashPrefixBytes = []byte{RFC6962NodeHashPrefix}
func (f *File) literalVars(c Concat) []analysis.TextEdit {
	var edits []analysis.TextEdit
	for i := range c.Literals {
		lit := &c.Literals[i]
		if !lit.Var {
			continue
		}
		// The name says the value: a constant's name, or the bytes in hex.
		want := lit.Want
		if want == "" {
			want = "bytes"
			for _, v := range lit.Values {
				if tv, ok := f.Info.Types[v]; ok && tv.Value != nil {
					if b, exact := constant.Int64Val(constant.ToInt(tv.Value)); exact {
						want += fmt.Sprintf("%02x", b)
					}
				}
			}
		}
		name, declare := f.Names.Declare(f, want, func(types.Object) bool { return false })
		lit.name = name
		if declare {
			decl := docComment(name+" holds bytes that a hashed concatenation was made of per call, written into a hasher as they are (a hasher's Write only reads them).") + fmt.Sprintf(`var %[1]s = []byte{%[2]s}

`, name, f.valuesText(lit.Values))
			at := f.firstDecl()
			edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(decl)})
		}
	}
	return edits
}

// partsText spells the parts as arguments.
func (f *File) partsText(c Concat) string {
	if c.Spread {
		return f.Text(c.Parts[0]) + "..."
	}
	texts := make([]string, len(c.Parts))
	for i := range c.Parts {
		texts[i] = f.partText(c, i)
	}
	return strings.Join(texts, ", ")
}

// removeEdits deletes the statements that built the concatenation.
func (f *File) removeEdits(c Concat) []analysis.TextEdit {
	var edits []analysis.TextEdit
	for _, s := range c.Remove {
		edits = append(edits, f.DeleteLine(s.Pos(), s.End()))
	}
	return edits
}

// SumSpec says how to compute a one-shot sum of several parts.
type SumSpec struct {
	// Runtime is the hashsum function, e.g. "SHA256".
	Runtime string
	// Ctor is the constructor of the same hash ("crypto/sha256.New"), for the
	// file-local variant; Size is the sum's size in bytes.
	Ctor string
	Size int64
	// Inline declares a file-local variadic sum instead of importing hashsum.
	Inline bool
	// Append computes a slice, as hashsum's Append forms do with a nil dst,
	// instead of an array (with Inline, a file-local append form).
	Append bool
}

// SumParts hashes the parts one after another instead of concatenating them
// first, with a multi-part sum built on a local hasher (0 allocations):
//
//	sha256.Sum256(append(prefix, leaf...))   =>   hashsum.SHA256(prefix, leaf)
//
// or, with Inline, a variadic sum declared once in the file:
//
//	sha256.Sum256(append(prefix, leaf...))   =>   sha256Parts(prefix, leaf)
//	                                              ...
//	                                              func sha256Parts(parts ...[]byte) (sum [32]byte) { ... }
func SumParts(f *File, call *ast.CallExpr, c Concat, spec SumSpec) analysis.SuggestedFix {
	im := f.Imports(call.Pos())
	edits, fn := f.sumFunc(call, spec, im, true)
	edits = append(edits, im.Edits()...)
	edits = append(edits, f.removeEdits(c)...)
	args := f.partsText(c)
	if spec.Append {
		args = "nil, " + args
	}
	edits = append(edits, analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(fn + "(" + args + ")")})
	msg := "Hash the parts with " + fn
	if spec.Inline {
		msg = "Hash the parts with a multi-part " + f.Text(call.Fun) + " declared in this file"
	}
	return analysis.SuggestedFix{Message: msg, TextEdits: edits}
}

// CallParts calls fn, a variadic form of the hashing function that call
// calls, with the parts instead of their concatenation:
//
//	tmhash.Sum(append(prefix, leaf...))   =>   tmhash.SumMany(prefix, leaf)
func CallParts(f *File, call *ast.CallExpr, c Concat, fn, message string) analysis.SuggestedFix {
	edits := f.removeEdits(c)
	edits = append(edits, analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(fn + "(" + f.partsText(c) + ")")})
	return analysis.SuggestedFix{Message: message, TextEdits: edits}
}

// SpreadParts passes the parts, in place of their concatenation arg, to a
// variadic function that hashes its arguments one after another:
//
//	crypto.Keccak256(append(a, b...))   =>   crypto.Keccak256(a, b)
func SpreadParts(f *File, arg ast.Expr, c Concat, message string) analysis.SuggestedFix {
	edits := f.removeEdits(c)
	edits = append(edits, analysis.TextEdit{Pos: arg.Pos(), End: arg.End(), NewText: []byte(f.partsText(c))})
	return analysis.SuggestedFix{Message: message, TextEdits: edits}
}

// sumFunc returns the name of the multi-part sum that replaces call, and the
// edits that declare it in the file (Inline) or the imports it needs. With
// replaced, call goes: its package's import too, when call was its last use
// in the file; without, call stays where it is (a helper kept for its other
// callers), and so does every import.
func (f *File) sumFunc(call *ast.CallExpr, spec SumSpec, im *Imports, replaced bool) ([]analysis.TextEdit, string) {
	if !spec.Inline {
		fn := im.Name(RuntimeSum, "hashsum") + "." + spec.Runtime
		if spec.Append {
			fn = im.Name(RuntimeSum, "hashsum") + ".Append" + spec.Runtime
		}
		if path, ok := f.qualifier(call); ok && replaced {
			im.Drop(path, call)
		}
		return nil, fn
	}
	path, ctor := splitFunc(spec.Ctor)
	pkg := im.Name(path, pathName(path))
	if qual, ok := f.qualifier(call); ok && replaced {
		im.Drop(qual, call) // a fork, or a dot import, that the sum replaces
	}
	want := pathName(path)
	if ctor != "New" {
		want += strings.TrimPrefix(ctor, "New")
	}
	if spec.Append {
		want += "Append"
	}
	want += "Parts"
	fn, declare := f.Names.Declare(f, want, func(obj types.Object) bool {
		sig, ok := obj.Type().(*types.Signature)
		if _, isFunc := obj.(*types.Func); !isFunc || !ok || !sig.Variadic() || sig.Results().Len() != 1 {
			return false
		}
		if spec.Append {
			return sig.Params().Len() == 2 && types.Identical(sig.Results().At(0).Type(), types.NewSlice(types.Typ[types.Byte]))
		}
		arr, ok := sig.Results().At(0).Type().(*types.Array)
		return ok && sig.Params().Len() == 1 && arr.Len() == spec.Size
	})
	if !declare {
		return nil, fn
	}
	decl := docComment(fmt.Sprintf("%s returns the %s sum of the concatenation of parts, written one after another into a hasher that stays on the stack.", fn, pkg)) + fmt.Sprintf(`func %[1]s(parts ...[]byte) (sum [%[3]d]byte) {
	h := %[2]s.%[4]s()
	for _, part := range parts {
		h.Write(part)
	}
	h.Sum(sum[:0])
	return sum
}

`, fn, pkg, spec.Size, ctor)
	if spec.Append {
		//	tmhash.Sum(append(prefix, leaf...))   =>   sha256AppendParts(nil, prefix, leaf)
		decl = docComment(fmt.Sprintf("%s appends to dst the %s sum of the concatenation of parts, written one after another into a hasher that stays on the stack.", fn, pkg)) + fmt.Sprintf(`func %[1]s(dst []byte, parts ...[]byte) []byte {
	h := %[2]s.%[3]s()
	for _, part := range parts {
		h.Write(part)
	}
	return h.Sum(dst)
}

`, fn, pkg, ctor)
	}
	// Before the first declaration, where nothing else inserts (pools go
	// at the end of the file), so that fixes merge in any order.
	at := f.firstDecl()
	return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(decl)}}, fn
}

// WriteParts writes each part into the hasher instead of their concatenation:
//
//	h.Write(append(prefix, leaf...))   =>   h.Write(prefix)
//	                                        h.Write(leaf)
//
// stmt is the h.Write statement and hasher the hasher's text.
func WriteParts(f *File, stmt *ast.ExprStmt, hasher string, c Concat) analysis.SuggestedFix {
	indent := f.Indent(stmt.Pos())
	if c.Spread {
		//	h.Write(data)   =>   for _, part := range parts {
		//	                         h.Write(part)
		//	                     }
		part := f.FreeName(stmt.Pos(), "part")
		loop := "for _, " + part + " := range " + f.Text(c.Parts[0]) + " {\n" + indent + "\t" + hasher + ".Write(" + part + ")\n" + indent + "}"
		edits := append(f.removeEdits(c), analysis.TextEdit{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(loop)})
		return analysis.SuggestedFix{Message: "Write the parts one after another", TextEdits: edits}
	}
	c.Literals = slices.Clone(c.Literals)
	edits := f.literalVars(c)
	writes := make([]string, len(c.Parts))
	for i := range c.Parts {
		writes[i] = hasher + ".Write(" + f.partText(c, i) + ")"
	}
	edits = append(edits, f.removeEdits(c)...)
	edits = append(edits, analysis.TextEdit{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(strings.Join(writes, "\n"+indent))})
	return analysis.SuggestedFix{Message: "Write the parts one after another", TextEdits: edits}
}

// WritePartsChecked writes every part but the last into the hasher before
// stmt, the statement that checks the error of the Write of arg, and writes
// the last in arg's place: a hasher's Write never returns an error, so the
// check of the last one stands for all.
//
//	if _, err := h.Write(append(a, b...)); err != nil {   =>   h.Write(a)
//	                                                           if _, err := h.Write(b); err != nil {
func WritePartsChecked(f *File, stmt ast.Stmt, arg ast.Expr, hasher string, c Concat) analysis.SuggestedFix {
	indent := f.Indent(stmt.Pos())
	c.Literals = slices.Clone(c.Literals)
	edits := f.literalVars(c)
	var writes strings.Builder
	for i := range c.Parts[:len(c.Parts)-1] {
		writes.WriteString(hasher + ".Write(" + f.partText(c, i) + ")\n" + indent)
	}
	edits = append(edits, f.removeEdits(c)...)
	edits = append(edits,
		analysis.TextEdit{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(writes.String())},
		analysis.TextEdit{Pos: arg.Pos(), End: arg.End(), NewText: []byte(f.partText(c, len(c.Parts)-1))})
	return analysis.SuggestedFix{Message: "Write the parts one after another (a hasher's Write never returns an error: the last one's check stands for all)", TextEdits: edits}
}

// HelperSpec describes a package's own function that only hashes its one
// []byte parameter, declared in the fixed file.
type HelperSpec struct {
	// Decl is the helper's declaration, Param its parameter, Sink the call
	// that hashes it (a sum function or a hasher's Write statement).
	Decl  *ast.FuncDecl
	Param *types.Var
	Sink  *ast.CallExpr
	// Sum computes a sum of several parts when the sink is a sum function;
	// nil when it is a Write statement.
	Sum *SumSpec
	// Name is the variadic form's name; Exists when it is already declared.
	Name   string
	Exists bool
}

// HelperParts calls a variadic form of a hashing helper, declared next to it,
// so that the call site hashes the parts without concatenating them, and what
// the helper returns to its other callers does not change:
//
//	func leafHash(b []byte) []byte {           func leafHash(b []byte) []byte { ... }  // unchanged
//	    s := sha256.Sum256(b)                  func leafHashParts(b ...[]byte) []byte {
//	    return s[:]                                s := hashsum.SHA256(b...)
//	}                                              return s[:]
//	                                           }
//	leafHash(append(prefix, leaf...))   =>     leafHashParts(prefix, leaf)
func HelperParts(f *File, call *ast.CallExpr, c Concat, h HelperSpec) analysis.SuggestedFix {
	var edits []analysis.TextEdit
	if !h.Exists {
		text, e := f.variadicForm(h)
		edits = append(edits, e...)
		edits = append(edits, analysis.TextEdit{Pos: h.Decl.End(), End: h.Decl.End(), NewText: []byte(text)})
	}
	edits = append(edits, f.removeEdits(c)...)
	edits = append(edits, analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(h.Name + "(" + f.partsText(c) + ")")})
	msg := "Hash the parts with " + h.Name + ", the variadic form of " + h.Decl.Name.Name
	if !h.Exists {
		msg = "Hash the parts with a variadic form of " + h.Decl.Name.Name + ", declared next to it"
	}
	return analysis.SuggestedFix{Message: msg, TextEdits: edits}
}

// variadicForm writes the helper again under its new name, with its []byte
// parameter made variadic and its sink hashing every part. Every caller of
// one helper gets the same text: it is written once per file.
func (f *File) variadicForm(h HelperSpec) (string, []analysis.TextEdit) {
	key := variadicKey{h.Decl, h.Param, h.Sink, h.Sum != nil, SumSpec{}, h.Name}
	if h.Sum != nil {
		key.sum = *h.Sum
	}
	if v, ok := f.variadicForms[key]; ok {
		return v.text, slices.Clone(v.imports)
	}
	text, imports := f.writeVariadicForm(h)
	if f.variadicForms == nil {
		f.variadicForms = map[variadicKey]variadicText{}
	}
	f.variadicForms[key] = variadicText{text, imports}
	return text, slices.Clone(imports)
}

// variadicKey is what variadicForm writes a helper's variadic form from.
type variadicKey struct {
	decl   *ast.FuncDecl
	param  *types.Var
	sink   *ast.CallExpr
	hasSum bool
	sum    SumSpec
	name   string
}

// variadicText is a helper's variadic form and the edits it needs.
type variadicText struct {
	text    string
	imports []analysis.TextEdit
}

// writeVariadicForm writes what variadicForm returns.
func (f *File) writeVariadicForm(h HelperSpec) (string, []analysis.TextEdit) {
	type replacement struct {
		start, end int
		text       string
	}
	base := f.offset(h.Decl.Pos())
	var imports []analysis.TextEdit
	reps := []replacement{{f.offset(h.Decl.Name.Pos()), f.offset(h.Decl.Name.End()), h.Name}}
	// The parameter's type: []byte => ...[]byte.
	for _, field := range h.Decl.Type.Params.List {
		for _, name := range field.Names {
			if f.Info.Defs[name] == h.Param {
				reps = append(reps, replacement{f.offset(field.Type.Pos()), f.offset(field.Type.Pos()), "..."})
			}
		}
	}
	name := h.Param.Name()
	if h.Sum != nil {
		im := f.Imports(h.Sink.Pos())
		decls, fn := f.sumFunc(h.Sink, *h.Sum, im, false)
		imports = append(decls, im.Edits()...)
		reps = append(reps, replacement{f.offset(h.Sink.Pos()), f.offset(h.Sink.End()), fn + "(" + name + "...)"})
	} else {
		sel := h.Sink.Fun.(*ast.SelectorExpr)
		text := "for _, part := range " + name + " {\n" + f.Indent(h.Sink.Pos()) + "\t" + f.Text(sel) + "(part)\n" + f.Indent(h.Sink.Pos()) + "}"
		reps = append(reps, replacement{f.offset(h.Sink.Pos()), f.offset(h.Sink.End()), text})
	}
	src := []byte(f.Text(h.Decl))
	for i := len(reps) - 1; i >= 0; i-- {
		r := reps[i]
		src = append(src[:r.start-base], append([]byte(r.text), src[r.end-base:]...)...)
	}
	doc := "\n\n" + docComment(fmt.Sprintf("%s is %s of the concatenation of %s, which it hashes one after another instead of building it.", h.Name, h.Decl.Name.Name, name))
	return doc + string(src), imports
}

// firstDecl returns where the first declaration after the imports starts,
// doc comment included.
func (f *File) firstDecl() token.Pos {
	for _, decl := range f.AST.Decls {
		switch d := decl.(type) {
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			if d.Doc != nil {
				return d.Doc.Pos()
			}
		case *ast.FuncDecl:
			if d.Doc != nil {
				return d.Doc.Pos()
			}
		}
		return decl.Pos()
	}
	return f.AST.FileEnd
}

// WriteFormatted formats into the hasher what was formatted into a string
// only to be written into it, so that neither the string nor its []byte
// copy is made:
//
//	s := fmt.Sprintf(format, args...)
//	h.Write([]byte(s))                 =>   fmt.Fprintf(h, format, args...)
//
// sprintf is the fmt.Sprintf call, without a spread argument; c.Remove the
// statement that defined s. The early arguments are evaluated into
// temporaries where s was defined, in order, and formatted from them:
//
//	s := fmt.Sprintf("%d.%s", t.Unix(), id)      unix := t.Unix()
//	h := hmac.New(sha256.New, key)          =>   h := hmac.New(sha256.New, key)
//	h.Write([]byte(s))                           fmt.Fprintf(h, "%d.%s", unix, id)
func WriteFormatted(f *File, stmt *ast.ExprStmt, hasher string, sprintf *ast.CallExpr, c Concat, early []ast.Expr) analysis.SuggestedFix {
	fun := ast.Unparen(sprintf.Fun).(*ast.SelectorExpr)
	args := make([]string, len(sprintf.Args))
	var defs []string
	taken := map[string]bool{}
	for i, a := range sprintf.Args {
		args[i] = f.Text(a)
		if !slices.Contains(early, a) {
			continue
		}
		// A temporary named after the method or function it calls.
		want := "arg"
		if call, ok := ast.Unparen(a).(*ast.CallExpr); ok && len(call.Args) == 0 {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				want = strings.ToLower(sel.Sel.Name[:1]) + sel.Sel.Name[1:]
			} else if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				want = strings.ToLower(id.Name[:1]) + id.Name[1:]
			}
		}
		name := f.FreshName(c.Remove[0].Pos(), want, taken)
		defs = append(defs, name+" := "+args[i])
		args[i] = name
	}
	call := f.Text(fun.X) + ".Fprintf(" + hasher + ", " + strings.Join(args, ", ")
	edits := append(f.removeEdits(c), analysis.TextEdit{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(call + ")")})
	if len(defs) > 0 {
		def := c.Remove[0]
		edits[0] = analysis.TextEdit{Pos: def.Pos(), End: def.End(), NewText: []byte(strings.Join(defs, "\n"+f.Indent(def.Pos())))}
	}
	return analysis.SuggestedFix{Message: "Format into " + hasher + " with fmt.Fprintf", TextEdits: edits}
}

// DoubleSpec describes a function declared in the fixed file that returns
// what a helper returns: the sum of the sum of its argument (btcd's
// chainhash.DoubleHashH), computed from several parts.
type DoubleSpec struct {
	// Name is the name the function wants; Helper how the message names the
	// helper.
	Name, Helper string
	// Result is the helper's result type, ResultText how the file spells it.
	Result     types.Type
	ResultText string
	// Slice: the helper returns the second sum as a slice (DoubleHashB).
	Slice bool
	// KeepImport: ResultText uses the import of the helper's package, which
	// the call no longer needs.
	KeepImport bool
}

// DoubleSumParts computes the sum of the sum of the parts instead of that of
// their concatenation: the first sum with a multi-part sum (the parts hashed
// one after another), the second of the first, on the stack.
//
//	chainhash.DoubleHashH(append(hash[:], prev[:]...))   =>   doubleHashHParts(hash[:], prev[:])
//	                                                          ...
//	                                                          func doubleHashHParts(parts ...[]byte) chainhash.Hash {
//	                                                              first := hashsum.SHA256(parts...)
//	                                                              return hashsum.SHA256(first[:])
//	                                                          }
func DoubleSumParts(f *File, call *ast.CallExpr, c Concat, sum SumSpec, d DoubleSpec) analysis.SuggestedFix {
	sum.Append = false
	im := f.Imports(call.Pos())
	edits, fn := f.sumFunc(call, sum, im, !d.KeepImport)
	name, declare := f.Names.Declare(f, d.Name, func(obj types.Object) bool {
		sig, ok := obj.Type().(*types.Signature)
		_, isFunc := obj.(*types.Func)
		return isFunc && ok && sig.Variadic() && sig.Params().Len() == 1 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), d.Result)
	})
	if declare {
		second := "return " + fn + "(first[:])"
		if d.Slice {
			second = "second := " + fn + "(first[:])\n\treturn second[:]"
		}
		decl := docComment(fmt.Sprintf("%s returns %s of the concatenation of parts, the sum of their sum, without building it: the parts are hashed one after another.", name, d.Helper)) + fmt.Sprintf(`func %[1]s(parts ...[]byte) %[2]s {
	first := %[3]s(parts...)
	%[4]s
}

`, name, d.ResultText, fn, second)
		// Before the first declaration, after the multi-part sum it calls
		// when the file declares one: every fix that declares it inserts
		// the same text at the same place, which merges into one.
		at := f.firstDecl()
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(decl)})
	}
	edits = append(edits, im.Edits()...)
	edits = append(edits, f.removeEdits(c)...)
	edits = append(edits, analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(name + "(" + f.partsText(c) + ")")})
	msg := "Hash the parts with " + name + ", declared in this file: the sum of their sum, as " + d.Helper + " computes it"
	return analysis.SuggestedFix{Message: msg, TextEdits: edits}
}

// ReturnParts makes a function that builds a concatenation only for its
// callers to hash it return the sum of the parts instead, under a new name:
// built is the concatenation it returns, decl its declaration, and sinks the
// calls that hash what it returns, sink(fn(args)), each replaced by
// name(args). The function's result type becomes the sinks' result.
//
//	func formatLeaf(b []byte) []byte {                   func formatLeafSum(b []byte) crypto.Hash {
//		prefix := []byte{0}                                  prefix := []byte{0}
//		return bytes.Join([][]byte{prefix, b}, nil)    =>    return hashsum.SHA256(prefix, b)
//	}                                                    }
//	crypto.HashBytes(formatLeaf(leaf))                   formatLeafSum(leaf)
func ReturnParts(f *File, decl *ast.FuncDecl, built ast.Expr, sinks []*ast.CallExpr, c Concat, sum SumSpec, name string, result types.Type) analysis.SuggestedFix {
	im := f.Imports(built.Pos())
	resultText := f.TypeText(result, im)
	edits, fn := f.sumFunc(sinks[0], sum, im, false)
	args := f.partsText(c)
	if sum.Append {
		args = "nil, " + args
	}
	results := decl.Type.Results.List[0].Type
	edits = append(edits, renamedDoc(decl, name)...)
	edits = append(edits,
		analysis.TextEdit{Pos: decl.Name.Pos(), End: decl.Name.End(), NewText: []byte(name)},
		analysis.TextEdit{Pos: results.Pos(), End: results.End(), NewText: []byte(resultText)},
		analysis.TextEdit{Pos: built.Pos(), End: built.End(), NewText: []byte(fn + "(" + args + ")")})
	// The imports that only the replaced code used: the sinks' packages,
	// the builder's (bytes.Join) and its former result type's.
	removed := []ast.Node{results}
	if call, ok := ast.Unparen(built).(*ast.CallExpr); ok {
		removed = append(removed, call.Fun)
	}
	for _, s := range sinks {
		builder := ast.Unparen(s.Args[0]).(*ast.CallExpr)
		removed = append(removed, s.Fun)
		edits = append(edits, analysis.TextEdit{Pos: s.Pos(), End: s.End(), NewText: []byte(name + f.Text(builder)[builder.Lparen-builder.Pos():])})
	}
	for _, n := range removed {
		for e := range ast.Preorder(n) {
			if id, ok := e.(*ast.Ident); ok {
				if path, ok := f.qualifier(id); ok {
					im.Drop(path, removed...)
				}
			}
		}
	}
	edits = append(edits, im.Edits()...)
	return analysis.SuggestedFix{
		Message:   "Hash the parts where " + decl.Name.Name + " builds them: " + name + " returns their sum, which its callers computed",
		TextEdits: edits,
	}
}

// renamedDoc keeps the doc comment of a builder that ReturnParts renames
// true: a doc that begins "fn returns what it builds" says that the new
// name returns the sum of it.
//
//	// pairBytes returns a followed by b.    =>    // pairBytesSum returns the sum of a followed by b.
//
// Any other doc is left as it is, since what it says of the builder may not
// be said of the sum.
func renamedDoc(decl *ast.FuncDecl, name string) []analysis.TextEdit {
	if decl.Doc == nil || len(decl.Doc.List) == 0 {
		return nil
	}
	first := decl.Doc.List[0]
	prefix := "// " + decl.Name.Name + " returns "
	if !strings.HasPrefix(first.Text, prefix) {
		return nil
	}
	return []analysis.TextEdit{{
		Pos:     first.Pos(),
		End:     first.Pos() + token.Pos(len(prefix)),
		NewText: []byte("// " + name + " returns the sum of "),
	}}
}
