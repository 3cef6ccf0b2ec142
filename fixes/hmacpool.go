package fixes

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// HMACSpec says where a keyed HMAC pool goes and how a call site takes its
// MAC from it.
type HMACSpec struct {
	// Name is the pool's field or variable name; Pool is the pool as the
	// call site refers to it, e.g. "s.keyMACs".
	Name, Pool string
	// Struct is the struct that gets the pool as a field, next to the key.
	// Otherwise DeclAt is where the pool's declaration goes (empty Decl: it
	// exists), with %s where the pool's type goes, e.g. "var keyMACs %s\n".
	Struct *ast.StructType
	DeclAt token.Pos
	Decl   string
	// Hash and Key are hmac.New's arguments as written. CryptoHash is set
	// when Hash is the New method of a crypto.Hash: the crypto.Hash as
	// written. HashID identifies a hash function given by name for the
	// inline pool: the quoted "importpath.Func"; empty otherwise.
	Hash, Key, CryptoHash, HashID string
	// FuncValue is set when Hash is a func value (a field or variable):
	// the inline pool identifies it by the func value's pointer.
	FuncValue bool
	// Inline declares a keyed pool type in the file instead of importing
	// hashpool.
	Inline bool
	// Last is the statement after which the MAC is given back; nil gives it
	// back with defer.
	Last ast.Stmt
	// Equals are the comparisons of the MAC's Sum(nil) with a MAC received,
	// which the pooled MAC makes without allocating the sum.
	Equals []MACEqual
	// EqualForm, when not nil, declares the compare form of the function
	// that returns the MAC's sum, for its callers that only compare it.
	EqualForm *EqualForm
	// More are edits that go with the fix (pointer receivers for the
	// methods of the struct that holds the pool), in the file.
	More []analysis.TextEdit
}

// MACEqual is a constant-time comparison of a MAC's sum with a MAC received:
// hmac.Equal(mac.Sum(nil), sig) (either argument order), or
// subtle.ConstantTimeCompare(mac.Sum(nil), sig) == 1, or != 1 (Not).
type MACEqual struct {
	Sum  *ast.CallExpr // mac.Sum(nil)
	Expr ast.Expr      // the whole comparison, which the fix replaces
	Sig  ast.Expr      // the MAC received, evaluated once as before
	Not  bool          // the comparison is true when the MACs differ
}

// HMACPool takes a MAC keyed with a fixed key from a pool held next to the
// key, instead of re-keying a new HMAC on every call. The pool's zero value is
// ready, and it checks the key and the hash function on every Get, re-keying
// when they changed: so the fix does not depend on where or how the key's
// holder is built, or whether the key is rotated later.
//
//	type Signer struct {                 type Signer struct {
//	    key []byte                           key     []byte
//	}                                        keyMACs hashpool.HMAC
//	                                     }
//
//	mac := hmac.New(sha256.New, s.key)   mac := s.keyMACs.Get(sha256.New, s.key)
//	                                     defer s.keyMACs.Put(mac)
//	mac.Write(msg)                       mac.Write(msg)
//	return hmac.Equal(mac.Sum(nil), sig) return mac.Equal(sig)
//
// The comparisons in spec.Equals become mac.Equal(sig), which sums into space
// the pooled MAC keeps: Sum(nil) would allocate its result on every call, and
// a stack array passed to the MAC's Sum would escape through the hash.Hash
// interface.
//
// With Inline, the pool is a small type declared once in the package with the
// same semantics (hmacPool), and the MAC's hash function must be identified
// by name or by crypto.Hash; a comparison becomes hmacPoolEqual(mac, sig), a
// function declared in the package when a fix first needs it.
//
// def is the mac := hmac.New(...) statement; the caller has proved that mac
// does not outlive the call and is not assigned again.
func HMACPool(f *File, def *ast.AssignStmt, spec HMACSpec) analysis.SuggestedFix {
	name := def.Lhs[0].(*ast.Ident).Name
	call := def.Rhs[0].(*ast.CallExpr)
	im := f.Imports(call.Pos())
	var edits []analysis.TextEdit
	var typ, get, put string
	equal := name + ".Equal(%s)"
	if spec.Inline {
		var decl string
		typ, decl = f.inlineHMACPool(im)
		if decl != "" {
			edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
		}
		id := spec.HashID
		switch {
		case spec.CryptoHash != "":
			id = spec.CryptoHash
		case spec.FuncValue:
			var decl string
			id, decl = f.inlineFuncID(im)
			id += "(" + spec.Hash + ")"
			if decl != "" {
				edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
			}
		}
		// Declared after the pool and hmacFuncID, in the same order by every
		// fix of the file: merged fixes then coalesce the declarations that
		// they share.
		if len(spec.Equals) > 0 || spec.EqualForm != nil {
			var decl string
			equal, decl = f.inlineHMACEqual(im, typ)
			equal += "(" + name + ", %s)"
			if decl != "" {
				edits = append(edits, analysis.TextEdit{Pos: f.AST.FileEnd, End: f.AST.FileEnd, NewText: []byte(decl)})
			}
		}
		get = spec.Pool + ".get(" + id + ", " + spec.Hash + ", " + spec.Key + ")"
		put = spec.Pool + ".put(" + name + ")"
	} else {
		typ = im.Name(RuntimePool, "hashpool") + ".HMAC"
		get = spec.Pool + ".Get(" + spec.Hash + ", " + spec.Key + ")"
		if spec.CryptoHash != "" {
			get = spec.Pool + ".GetHash(" + spec.CryptoHash + ", " + spec.Key + ")"
		}
		put = spec.Pool + ".Put(" + name + ")"
	}
	removed := []ast.Node{call}
	for _, eq := range spec.Equals {
		removed = append(removed, eq.Expr)
	}
	if spec.EqualForm != nil {
		for _, c := range spec.EqualForm.Calls {
			removed = append(removed, c.Compare)
		}
	}
	im.Drop("crypto/hmac", removed...)
	im.Drop("crypto/subtle", removed[1:]...)
	edits = append(edits, im.Edits()...)
	switch {
	case spec.Struct != nil:
		edits = append(edits, f.AddField(spec.Struct, spec.Name+" "+typ))
	case spec.Decl != "":
		edits = append(edits, analysis.TextEdit{Pos: spec.DeclAt, End: spec.DeclAt, NewText: fmt.Appendf(nil, spec.Decl, typ)})
	}
	edits = append(edits, analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(get)})
	edits = append(edits, f.Release(def, spec.Last, put, "")...)
	msg := "Take " + name + " from a pool of HMACs keyed with " + spec.Key + ", held next to it"
	for _, eq := range spec.Equals {
		text := strings.Replace(equal, "%s", f.Text(eq.Sig), 1)
		if eq.Not {
			text = "!" + text
		}
		edits = append(edits, analysis.TextEdit{Pos: eq.Expr.Pos(), End: eq.Expr.End(), NewText: []byte(text)})
	}
	if len(spec.Equals) > 0 {
		msg += ", and compare its sum without allocating"
	}
	edits = append(edits, spec.More...)
	if ef := spec.EqualForm; ef != nil {
		edits = append(edits, f.equalForm(ef, edits, equal)...)
		msg += ", and compare the sum that " + ef.Callers + " checks without allocating"
	}
	return analysis.SuggestedFix{Message: msg, TextEdits: edits}
}

// inlineHMACEqual returns the name of the package's function that compares
// the sum of a MAC of the inline pool type pool with a MAC received, and its
// declaration when this file must declare it. The MAC type must have the sum
// field that the function sums into, which a pool declared by an older fix
// lacks: the caller checks InlineEqualReady first.
func (f *File) inlineHMACEqual(im *Imports, pool string) (string, string) {
	name, declare := f.Names.Declare(f, sibling("hmacPool", pool, "Equal"), func(obj types.Object) bool {
		fn, ok := obj.(*types.Func)
		mac := f.macType(pool)
		return ok && mac != nil && fn.Signature().Params().Len() == 2 && fn.Signature().Results().Len() == 1 &&
			types.Identical(fn.Signature().Params().At(0).Type(), types.NewPointer(mac))
	})
	if !declare {
		return name, ""
	}
	r := strings.NewReplacer(
		"hmacPoolEqual", name,
		"hmacPoolMAC", sibling("hmacPool", pool, "MAC"),
		"hmac.", im.Name("crypto/hmac", "hmac")+".",
	)
	return name, refill(r.Replace(inlineHMACEqualDecl))
}

// macType returns the MAC type of the inline pool type pool, declared in the
// package, or nil when it is not declared yet.
func (f *File) macType(pool string) types.Type {
	if tn, ok := f.Pkg.Scope().Lookup(sibling("hmacPool", pool, "MAC")).(*types.TypeName); ok {
		return tn.Type()
	}
	return nil
}

// InlineEqualReady reports whether the package's inline HMAC pool, if one is
// declared already, has the sum field that hmacPoolEqual needs: a pool
// declared by an older fix may not.
func (f *File) InlineEqualReady() bool {
	// The pool that inlineHMACPool will take, as Declare finds it.
	name, pool := f.Names.find(f, "hmacPool", f.isInlineHMACPool, hmacPoolSiblings)
	if pool == nil {
		return true // a new pool will be declared, with the field
	}
	st, ok := f.macType(name).(*types.Named)
	if !ok {
		return false
	}
	fields, ok := st.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < fields.NumFields(); i++ {
		if fl := fields.Field(i); fl.Name() == "sum" && types.Identical(fl.Type(), types.NewSlice(types.Typ[types.Byte])) {
			return true
		}
	}
	return false
}

// inlineHMACEqualDecl compares a MAC of the inline pool with a MAC received.
const inlineHMACEqualDecl = `
// hmacPoolEqual reports whether mac is the HMAC of the data written to m, in
// constant time, as hmac.Equal(m.Sum(nil), mac) does, but without allocating:
// it sums into m's own space, which is allocated once per MAC and zeroed when
// m is put back.
func hmacPoolEqual(m *hmacPoolMAC, mac []byte) bool {
	m.sum = m.Sum(m.sum[:0])
	return hmac.Equal(m.sum, mac)
}
`

// inlineHMACPool returns the name of the package's keyed HMAC pool type, and
// its declaration when this file must declare it.
func (f *File) inlineHMACPool(im *Imports) (string, string) {
	name, declare := f.Names.Declare(f, "hmacPool", f.isInlineHMACPool, hmacPoolSiblings...)
	if !declare {
		return name, ""
	}
	r := strings.NewReplacer(
		// The siblings first: the replacer tries the old strings in order.
		"hmacPoolKeyed", sibling("hmacPool", name, "Keyed"),
		"hmacPoolMAC", sibling("hmacPool", name, "MAC"),
		"hmacPool", name,
		"ANY", f.AnyType(),
		"atomic.", im.Name("sync/atomic", "atomic")+".",
		"sync.", im.Name("sync", "sync")+".",
		"subtle.", im.Name("crypto/subtle", "subtle")+".",
		"hmac.", im.Name("crypto/hmac", "hmac")+".",
		"hash.", im.Name("hash", "hash")+".",
	)
	return name, refill(r.Replace(inlineHMACPoolDecl))
}

// hmacPoolSiblings are the suffixes of the types declared with hmacPool:
// hmacPoolKeyed and hmacPoolMAC.
var hmacPoolSiblings = []string{"Keyed", "MAC"}

// isInlineHMACPool reports whether obj is a keyed HMAC pool type that a fix
// declared: a type with get and put methods.
func (f *File) isInlineHMACPool(obj types.Object) bool {
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return false
	}
	for _, m := range []string{"get", "put"} {
		if sel, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), false, f.Pkg, m); sel == nil {
			return false
		}
	}
	return true
}

// inlineFuncID returns the name of the package's function that identifies a
// hash function given as a func value, and its declaration when this file
// must declare it.
func (f *File) inlineFuncID(im *Imports) (string, string) {
	name, declare := f.Names.Declare(f, "hmacFuncID", func(obj types.Object) bool {
		fn, ok := obj.(*types.Func)
		return ok && fn.Signature().Params().Len() == 1 && fn.Signature().Results().Len() == 1
	})
	if !declare {
		return name, ""
	}
	r := strings.NewReplacer(
		"hmacFuncID", name,
		"unsafe.", im.Name("unsafe", "unsafe")+".",
		"hash.", im.Name("hash", "hash")+".",
	)
	return name, refill(r.Replace(inlineFuncIDDecl))
}

// inlineFuncIDDecl identifies a func value for the inline HMAC pool. Func
// values cannot be compared in Go, but the pointer a func value holds can:
// the pool keeps the func value it identifies alive, so no other func value
// can take its address meanwhile; a named function such as sha256.New is one
// static func value, equal to itself wherever it is written.
const inlineFuncIDDecl = `
// hmacFuncID identifies the func value newHash for an hmacPool: the pointer it
// holds, the same for every copy of one func value and, while the pool keeps
// it alive, held by no other.
func hmacFuncID(newHash func() hash.Hash) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&newHash))
}
`

// inlineHMACPoolDecl is the keyed HMAC pool that -pool=inline declares.
const inlineHMACPoolDecl = `
// hmacPool reuses the HMACs of one key and hash function at a time. Its zero
// value is ready to use. get compares the key (in constant time) and the hash
// function with those of the pooled HMACs on every call, and starts afresh
// when either changed: a MAC is never handed out for another key.
type hmacPool struct {
	keyed atomic.Value // *hmacPoolKeyed
}

// hmacPoolKeyed is the pool of the HMACs of one key and hash function.
type hmacPoolKeyed struct {
	id   ANY
	key  []byte
	pool sync.Pool
}

// hmacPoolMAC is an HMAC taken from an hmacPool.
type hmacPoolMAC struct {
	hash.Hash
	keyed *hmacPoolKeyed
	sum   []byte // space to compute a sum in without allocating, zeroed by put
}

// get returns an HMAC of newHash, identified by id, keyed with key.
func (p *hmacPool) get(id ANY, newHash func() hash.Hash, key []byte) *hmacPoolMAC {
	k, _ := p.keyed.Load().(*hmacPoolKeyed)
	if k == nil || k.id != id || subtle.ConstantTimeCompare(k.key, key) != 1 {
		k = &hmacPoolKeyed{id: id, key: append([]byte(nil), key...)}
		p.keyed.Store(k)
	}
	if m, ok := k.pool.Get().(*hmacPoolMAC); ok {
		return m
	}
	return &hmacPoolMAC{Hash: hmac.New(newHash, k.key), keyed: k}
}

// put resets m and gives it back, unless its key is no longer the pool's.
func (p *hmacPool) put(m *hmacPoolMAC) {
	for i := range m.sum {
		m.sum[i] = 0
	}
	if k, _ := p.keyed.Load().(*hmacPoolKeyed); k == m.keyed {
		m.Reset()
		k.pool.Put(m)
	}
}
`

// AddField adds a field, last, to a struct, and formats the struct as gofmt
// would (field types and comments are aligned across the struct's lines). A
// struct declared on one line (struct{ key []byte }) is spread over lines,
// one field a line; it must have no comment (see OneLineComment).
func (f *File) AddField(st *ast.StructType, field string) analysis.TextEdit {
	indent := f.Indent(st.Pos())
	var lines []string
	if f.OneLine(st) {
		lines = append(lines, "struct {")
		for _, fld := range st.Fields.List {
			lines = append(lines, "\t"+f.Text(fld))
		}
		lines = append(lines, "}")
	} else {
		lines = strings.Split(f.Text(st), "\n")
		for i := 1; i < len(lines); i++ {
			lines[i] = strings.TrimPrefix(lines[i], indent)
		}
	}
	last := len(lines) - 1
	lines = append(lines[:last], "\t"+field, lines[last])
	src := "package p\n\ntype _ " + strings.Join(lines, "\n") + "\n"
	formatted, err := format.Source([]byte(src))
	text := strings.Join(lines, "\n")
	if err == nil {
		text = strings.TrimSuffix(strings.TrimPrefix(string(formatted), "package p\n\ntype _ "), "\n")
	}
	lines = strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = indent + lines[i]
		}
	}
	return analysis.TextEdit{Pos: st.Pos(), End: st.End(), NewText: []byte(strings.Join(lines, "\n"))}
}

// OneLine reports whether a struct is declared on one line.
func (f *File) OneLine(st *ast.StructType) bool {
	return f.Fset.Position(st.Fields.Opening).Line == f.Fset.Position(st.Fields.Closing).Line
}

// OneLineComment reports whether a struct declared on one line holds a
// comment, which AddField could not keep in place.
func (f *File) OneLineComment(st *ast.StructType) bool {
	if !f.OneLine(st) {
		return false
	}
	for _, g := range f.AST.Comments {
		if st.Pos() <= g.Pos() && g.End() <= st.End() {
			return true
		}
	}
	return false
}

// OneShotSpec says how to compute a MAC with the runtime's one-shot HMAC.
type OneShotSpec struct {
	// Runtime names the hash in hashsum's functions, e.g. "SHA256".
	Runtime string
	// Hash, instead of Runtime, is the crypto.Hash whose New the MAC was
	// made with (hmac.New(s.hash.New, key)): hashsum.AppendHMAC dispatches
	// on it at run time. With Inline, the file declares a copy of it that
	// dispatches to a one-shot HMAC of each of Cases (each an Inline spec
	// of one hash), and computes any other hash with crypto/hmac.
	Hash  ast.Expr
	Cases []OneShotSpec
	// Choices, when not empty, are the hmac.New calls that the MAC variable
	// (Hash) is assigned in the branches of an if or a switch, each replaced
	// by the crypto.Hash constant of its hash, Consts[i]: the variable holds
	// which hash was chosen, and the definition stays. DeclType, when not
	// nil, is the type of its declaration (var h hash.Hash), which becomes
	// crypto.Hash.
	Choices  []*ast.CallExpr
	Consts   []string
	DeclType ast.Expr
	// Func, instead of Runtime and Hash, is a hash function known only at
	// run time (hmac.New(c.hash, key)): hashsum.AppendHMACFunc calls it
	// once and reuses its hasher. With Inline, the file declares a copy
	// of it.
	Func ast.Expr
	// HashDef, when not nil, defines the variable that held the hash
	// function (newHash := func() hash.Hash { return sha256.New() }),
	// which the MAC was its one use of: it goes with the MAC.
	HashDef ast.Stmt
	// Key and Parts are what hmac.New and the Writes were given; a string
	// part, written by io.WriteString, is converted to []byte.
	Key ast.Expr
	// KeyText, when set, is how the fix writes Key: a key rebuilt from a
	// wrapper's argument (k[:]) has no source text of its own.
	KeyText string
	// DstText, when set, is what the sum appends to in place of the Sum's
	// argument: x[:0] for a helper that sums into the array &x.
	DstText string
	Parts   []ast.Expr
	// HoistKey keeps the key, which runs code, where hmac.New evaluated it,
	// in a variable; Hoisted does the same for each part that runs code,
	// in place of its Write statement, PartStmts[i].
	HoistKey  bool
	Hoisted   []bool
	PartStmts []ast.Stmt
	// HoistTexts, where not "", is what a hoisted part is assigned in
	// place of its text: the fmt.Appendf of a fmt.Fprintf into the MAC.
	HoistTexts []string
	// Spread: the one part, Parts[0], is a slice of parts that a loop
	// wrote one by one (for _, d := range data { mac.Write(d) }), passed
	// as data... .
	Spread bool
	// SizeReads, when not empty, are the calls mac.Size() made before the
	// Writes: the sum is computed where hmac.New was, into the MAC's
	// variable, and each read becomes its length (see OneShotHMAC).
	SizeReads []ast.Expr
	// EqualForm, when not nil, declares the compare form of the function
	// that returns the MAC (see equalForm): it sums into a stack array
	// (make([]byte, 0, Size)) and compares with hmac.Equal.
	EqualForm *EqualForm
	// Inline declares the one-shot HMAC in the file instead of importing
	// hashsum: Ctor is the hash's constructor ("crypto/sha256.New"), KeySum
	// its one-shot sum ("Sum256"), which hashes a key longer than a block,
	// and Size the size of its digest in bytes.
	Inline bool
	Ctor   string
	KeySum string
	Size   int64
}

// OneShotHMAC computes a MAC built, written and summed in consecutive
// statements with the runtime's one-shot HMAC, which keeps its hashers on the
// stack:
//
//	mac := hmac.New(sha256.New, key)
//	mac.Write(a)                        =>   tag = hashsum.AppendHMACSHA256(nil, key, a)
//	tag = mac.Sum(nil)
//
// def is the mac := hmac.New(...) statement, writes the Write statements and
// sum the Sum call; the caller has proved that they are all the MAC's uses.
// A key or a part that runs code keeps its place, assigned to a variable:
//
//	mac := hmac.New(sha1.New, []byte(k()))        key := []byte(k())
//	mac.Write([]byte(p + q))                 =>   part := []byte(p + q)
//	tag = mac.Sum(nil)                            tag = hashsum.AppendHMACSHA1(nil, key, part)
//
// A MAC assigned in branches keeps its variable, which holds the hash chosen
// (see OneShotSpec.Choices), and the one-shot HMAC dispatches on it:
//
//	var mac hash.Hash                              var mac crypto.Hash
//	if v2 {                                        if v2 {
//		mac = hmac.New(sha256.New, key)               mac = crypto.SHA256
//	} else {                                  =>   } else {
//		mac = hmac.New(sha1.New, key)                 mac = crypto.SHA1
//	}                                              }
//	mac.Write(a)                                   tag = hashsum.AppendHMAC(mac, nil, key, a)
//	tag = mac.Sum(nil)
//
// A MAC whose size is read before its Writes (see OneShotSpec.SizeReads) is
// summed where it was made, and its size is the length of the sum:
//
//	mac := hmac.New(h, key)                  mac := hashsum.AppendHMACFunc(h, nil, key, a)
//	if n > mac.Size() {                      if n > len(mac) {
//		return nil, errTooLong          =>      return nil, errTooLong
//	}                                        }
//	mac.Write(a)
//	return mac.Sum(nil)[:n], nil             return mac[:n], nil
func OneShotHMAC(f *File, def ast.Stmt, writes []ast.Stmt, sum *ast.CallExpr, spec OneShotSpec) analysis.SuggestedFix {
	uses := []token.Pos{sum.Pos()}
	for _, c := range spec.Choices {
		uses = append(uses, c.Pos())
	}
	if spec.DeclType != nil {
		uses = append(uses, spec.DeclType.Pos())
	}
	im := f.Imports(uses...)
	var edits []analysis.TextEdit
	var fn string
	switch {
	case spec.Inline && spec.Hash != nil:
		edits, fn = f.dispatchFunc(spec, im)
	case spec.Inline && spec.Func != nil:
		edits, fn = f.hmacFuncFunc(im)
	case spec.Func != nil:
		fn = im.Name(RuntimeSum, "hashsum") + ".AppendHMACFunc"
	case spec.Inline:
		edits, fn = f.oneShotFunc(spec, im)
	default:
		fn = im.Name(RuntimeSum, "hashsum") + ".AppendHMAC" + spec.Runtime
	}
	hmacName := ""
	if spec.EqualForm != nil {
		hmacName = im.Name("crypto/hmac", "hmac") // before Drop, which then keeps it
	}
	if len(spec.Choices) > 0 {
		// Each hmac.New becomes the constant of its hash, and the
		// declared type crypto.Hash: their packages may go with them.
		crypto := im.Name("crypto", "crypto")
		var removed []ast.Node
		for i, c := range spec.Choices {
			edits = append(edits, analysis.TextEdit{Pos: c.Pos(), End: c.End(), NewText: []byte(crypto + "." + spec.Consts[i])})
			removed = append(removed, c)
		}
		if spec.DeclType != nil {
			edits = append(edits, analysis.TextEdit{Pos: spec.DeclType.Pos(), End: spec.DeclType.End(), NewText: []byte(crypto + ".Hash")})
			removed = append(removed, spec.DeclType)
		}
		for _, path := range f.referencedPackages(removed...) {
			im.Drop(path, removed...)
		}
	} else {
		im.Drop("crypto/hmac", def)
	}
	// The hash function goes with the definition: hmac.New(sha256.New, key)
	// may have been the file's last use of its package. A crypto.Hash or a
	// hash function stays, passed to AppendHMAC or AppendHMACFunc.
	if assign, ok := def.(*ast.AssignStmt); ok && len(assign.Rhs) == 1 && spec.Hash == nil && spec.Func == nil {
		if call, ok := ast.Unparen(assign.Rhs[0]).(*ast.CallExpr); ok && len(call.Args) > 0 {
			removed := []ast.Node{call.Args[0]}
			if spec.HashDef != nil {
				removed = append(removed, spec.HashDef)
			}
			for _, path := range f.referencedPackages(removed...) {
				im.Drop(path, removed...)
			}
		}
	}
	// A key or a part that runs code is assigned, where it was evaluated, to
	// a variable of a free name, which the one-shot HMAC reads.
	// It is called key or part, or after the MAC (macKey) when the function
	// already has one.
	taken := map[string]bool{}
	macName := ""
	if assign, ok := def.(*ast.AssignStmt); ok && len(assign.Lhs) == 1 {
		if id, ok := assign.Lhs[0].(*ast.Ident); ok {
			macName = id.Name
		}
	}
	hoist := func(at ast.Stmt, text, want string) (string, analysis.TextEdit) {
		if f.FreeName(sum.Pos(), want) != want && macName != "" {
			want = macName + strings.ToUpper(want[:1]) + want[1:]
		}
		name := f.FreshName(sum.Pos(), want, taken)
		return name, analysis.TextEdit{Pos: at.Pos(), End: at.End(), NewText: []byte(name + " := " + text)}
	}
	key := spec.KeyText
	if key == "" {
		key = f.Text(spec.Key)
	}
	switch {
	case len(spec.Choices) > 0:
		// The definition stays: it declares the variable of the hash.
	case len(spec.SizeReads) > 0:
		// The definition becomes the sum's (below).
	case spec.HoistKey:
		var edit analysis.TextEdit
		key, edit = hoist(def, key, "key")
		edits = append(edits, edit)
	default:
		edits = append(edits, f.DeleteLine(def.Pos(), def.End()))
	}
	dst := spec.DstText
	if dst == "" {
		dst = f.Text(sum.Args[0])
	}
	args := []string{dst, key}
	if spec.Hash != nil {
		args = append([]string{f.Text(spec.Hash)}, args...)
	}
	if spec.Func != nil {
		args = append([]string{f.Text(spec.Func)}, args...)
	}
	kept := map[ast.Stmt]bool{}
	for i, part := range spec.Parts {
		text := f.Text(part)
		if b, ok := f.Info.TypeOf(part).Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			text = "[]byte(" + text + ")" // written by io.WriteString
		}
		if i < len(spec.Hoisted) && spec.Hoisted[i] {
			var edit analysis.TextEdit
			if i < len(spec.HoistTexts) && spec.HoistTexts[i] != "" {
				text = spec.HoistTexts[i]
			}
			text, edit = hoist(spec.PartStmts[i], text, "part")
			edits = append(edits, edit)
			kept[spec.PartStmts[i]] = true
		}
		if spec.Spread {
			text += "..."
		}
		args = append(args, text)
	}
	// io.WriteString(mac, s) may have been the file's last use of io.
	var gone []ast.Node
	for _, w := range writes {
		if !kept[w] {
			gone = append(gone, w)
		}
	}
	im.Drop("io", gone...)
	edits = append(edits, im.Edits()...)
	if spec.HashDef != nil {
		edits = append(edits, f.DeleteLine(spec.HashDef.Pos(), spec.HashDef.End()))
	}
	for _, w := range writes {
		if !kept[w] {
			edits = append(edits, f.DeleteLine(w.Pos(), w.End()))
		}
	}
	oneShot := fn + "(" + strings.Join(args, ", ") + ")"
	if len(spec.SizeReads) > 0 {
		// The MAC's size, read before its Writes, is the length of its
		// sum: the sum is computed where hmac.New was, into the same
		// variable, whose every use changes.
		edits = append(edits, analysis.TextEdit{Pos: def.Pos(), End: def.End(), NewText: []byte(macName + " := " + oneShot)})
		for _, r := range spec.SizeReads {
			edits = append(edits, analysis.TextEdit{Pos: r.Pos(), End: r.End(), NewText: []byte("len(" + macName + ")")})
		}
		oneShot = macName
	}
	edits = append(edits, analysis.TextEdit{Pos: sum.Pos(), End: sum.End(), NewText: []byte(oneShot)})
	msg := "Compute the MAC with " + fn + ", which allocates nothing"
	switch {
	case spec.Inline && spec.Hash != nil:
		msg = "Compute the MAC with " + fn + ", declared in this file (a copy of the runtime module's hashsum.AppendHMAC): it dispatches to an RFC 2104 HMAC, declared in this file too, of each hash that this package names, which allocates nothing, and to crypto/hmac for any other hash"
	case spec.Inline && spec.Func != nil:
		msg = "Compute the MAC with " + fn + ", an RFC 2104 HMAC declared in this file (a copy of the runtime module's hashsum.AppendHMACFunc), which calls the hash function once and allocates nothing but the hasher it returns"
	case spec.Func != nil:
		msg = "Compute the MAC with " + fn + ", which calls the hash function once and allocates nothing but the hasher it returns"
	case spec.Inline:
		msg = "Compute the MAC with " + fn + ", an RFC 2104 HMAC declared in this file (a copy of the runtime module's hashsum.AppendHMAC" + spec.Runtime + "), which allocates nothing"
	}
	if len(spec.Choices) > 0 {
		msg += "; " + f.Text(spec.Hash) + " holds the crypto.Hash that each branch chooses"
	}
	if len(spec.SizeReads) > 0 {
		msg += ", where hmac.New was: the MAC's size is the length of its sum"
	}
	if ef := spec.EqualForm; ef != nil {
		// The compare form sums into an array on the stack: a make of a
		// constant size that nothing keeps.
		//
		//	return mac.Sum(nil)   =>   return hmac.Equal(want, hashsum.AppendHMACSHA256(make([]byte, 0, 32), key, p))
		size := spec.Size
		if size == 0 {
			size = 64 // the largest digest of a crypto.Hash that AppendHMAC computes without allocating
		}
		dst := 0
		if spec.Hash != nil || spec.Func != nil {
			dst = 1
		}
		eqArgs := slices.Clone(args)
		eqArgs[dst] = fmt.Sprintf("make([]byte, 0, %d)", size)
		equal := hmacName + ".Equal(%s, " + fn + "(" + strings.Join(eqArgs, ", ") + "))"
		edits = append(edits, f.equalForm(ef, edits, equal)...)
		msg += ", and compare the sum that " + ef.Callers + " checks without allocating"
	}
	return analysis.SuggestedFix{Message: msg, TextEdits: edits}
}

// oneShotFunc declares, once per file, the file-local one-shot HMAC of
// -pool=inline: the runtime's AppendHMAC function of the same hash, written
// out (RFC 2104, the key padded to a block and the hasher on the stack).
//
//	mac := hmac.New(sha256.New, key)
//	mac.Write(a)                        =>   tag = appendHMACSHA256(nil, key, a)
//	tag = mac.Sum(nil)                       ...
//	                                         func appendHMACSHA256(dst, key []byte, parts ...[]byte) []byte { ... }
func (f *File) oneShotFunc(spec OneShotSpec, im *Imports) ([]analysis.TextEdit, string) {
	path, ctor := splitFunc(spec.Ctor)
	pkg := im.Name(path, pathName(path))
	fn, declare := f.Names.Declare(f, "appendHMAC"+spec.Runtime, func(obj types.Object) bool {
		sig, ok := obj.Type().(*types.Signature)
		bytes := types.NewSlice(types.Typ[types.Byte])
		return ok && sig.Variadic() && sig.Params().Len() == 3 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), bytes)
	})
	if !declare {
		return nil, fn
	}
	decl := docComment(fmt.Sprintf("%s appends to dst the HMAC of the concatenation of parts under key, the MAC that hmac.New(%s.%s, key) computes (RFC 2104), with its hasher and its pad on the stack: it allocates nothing but what dst needs. A copy of hashsum.AppendHMAC%s (github.com/hashalloc/hashalloc/runtime), declared by hashalloc -fix.", fn, pkg, ctor, spec.Runtime)) + fmt.Sprintf(`func %[1]s(dst, key []byte, parts ...[]byte) []byte {
	var pad [%[2]s.BlockSize]byte
	if len(key) > len(pad) {
		k := %[2]s.%[4]s(key)
		copy(pad[:], k[:])
	} else {
		copy(pad[:], key)
	}
	for i := range pad {
		pad[i] ^= 0x36 // ipad
	}
	h := %[2]s.%[3]s()
	h.Write(pad[:])
	for _, part := range parts {
		h.Write(part)
	}
	var sum [%[5]d]byte
	h.Sum(sum[:0])
	for i := range pad {
		pad[i] ^= 0x36 ^ 0x5c // ipad, then opad
	}
	h.Reset()
	h.Write(pad[:])
	h.Write(sum[:])
	h.Sum(sum[:0])
	return append(dst, sum[:]...)
}

`, fn, pkg, ctor, spec.KeySum, spec.Size)
	at := f.firstDecl()
	return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(decl)}}, fn
}

// dispatchFunc declares, once per file, the file-local copy of
// hashsum.AppendHMAC of -pool=inline, for a crypto.Hash chosen at run time:
// a switch to the one-shot HMAC of each hash of spec.Cases (see
// oneShotFunc), declared too, and crypto/hmac for any other hash.
//
//	mac := hmac.New(m.Hash.New, key)
//	mac.Write(a)                        =>   tag = appendHMAC(m.Hash, nil, key, a)
//	tag = mac.Sum(nil)                       ...
//	                                         func appendHMAC(h crypto.Hash, dst, key []byte, parts ...[]byte) []byte {
//	                                         	switch h {
//	                                         	case crypto.SHA256:
//	                                         		return appendHMACSHA256(dst, key, parts...)
//	                                         	}
//	                                         	m := hmac.New(h.New, key) ...
func (f *File) dispatchFunc(spec OneShotSpec, im *Imports) ([]analysis.TextEdit, string) {
	crypto := im.Name("crypto", "crypto")
	hmac := im.Name("crypto/hmac", "hmac")
	fn, declare := f.Names.Declare(f, "appendHMAC", func(obj types.Object) bool {
		sig, ok := obj.Type().(*types.Signature)
		return ok && sig.Variadic() && sig.Params().Len() == 4 && sig.Results().Len() == 1
	})
	if !declare {
		return nil, fn
	}
	var edits []analysis.TextEdit
	var cases strings.Builder
	for _, c := range spec.Cases {
		e, name := f.oneShotFunc(c, im)
		edits = append(edits, e...)
		fmt.Fprintf(&cases, "\tcase %s.%s:\n\t\treturn %s(dst, key, parts...)\n", crypto, c.Runtime, name)
	}
	decl := docComment(fn+" appends to dst the HMAC of the concatenation of parts under key with the hash h, the MAC that hmac.New(h.New, key) computes: with the one-shot HMACs declared in this file for the hashes this package names, and with crypto/hmac for any other. A copy of hashsum.AppendHMAC (github.com/hashalloc/hashalloc/runtime), declared by hashalloc -fix.") + fmt.Sprintf(`func %[1]s(h %[2]s.Hash, dst, key []byte, parts ...[]byte) []byte {
	switch h {
%[3]s	}
	m := %[4]s.New(h.New, key) //hashalloc:ignore hmac-rekey -- a hash without a one-shot HMAC in this file
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(dst)
}

`, fn, crypto, cases.String(), hmac)
	at := f.firstDecl()
	return append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(decl)}), fn
}

// hmacFuncFunc declares, once per file, the file-local copy of
// hashsum.AppendHMACFunc of -pool=inline, for a hash function known only at
// run time, and the pool of scratch buffers it keeps its padded key in.
//
//	mac := hmac.New(c.hash, key)
//	mac.Write(a)                        =>   tag = appendHMACFunc(c.hash, nil, key, a)
//	tag = mac.Sum(nil)                       ...
//	                                         func appendHMACFunc(fn func() hash.Hash, dst, key []byte, parts ...[]byte) []byte { ... }
//	                                         var appendHMACFuncScratch sync.Pool
func (f *File) hmacFuncFunc(im *Imports) ([]analysis.TextEdit, string) {
	fn, declare := f.Names.Declare(f, "appendHMACFunc", func(obj types.Object) bool {
		sig, ok := obj.Type().(*types.Signature)
		return ok && sig.Variadic() && sig.Params().Len() == 4 && sig.Results().Len() == 1
	}, "Scratch")
	if !declare {
		return nil, fn
	}
	decl := docComment(fmt.Sprintf("%[1]s appends to dst the HMAC of the concatenation of parts under key with the hash that fn makes, the MAC that hmac.New(fn, key) computes (RFC 2104). It calls fn once and uses its hasher for the inner and the outer hash: it allocates that hasher and nothing else but what dst needs. The padded key lives in a scratch buffer from %[1]sScratch, cleared after use. A copy of hashsum.AppendHMACFunc (github.com/hashalloc/hashalloc/runtime), declared by hashalloc -fix.", fn)) + fmt.Sprintf(`func %[1]s(fn func() %[2]s.Hash, dst, key []byte, parts ...[]byte) []byte {
	h := fn()
	bs := h.BlockSize()
	need := bs + h.Size()
	sp, _ := %[1]sScratch.Get().(*[]byte)
	if sp == nil || cap(*sp) < need {
		s := make([]byte, need)
		sp = &s
	}
	s := (*sp)[:need]
	pad := s[:bs]
	n := len(key)
	if n > bs {
		h.Write(key)
		n = copy(pad, h.Sum(s[:0])) // a key longer than a block is hashed first
		h.Reset()
	} else {
		copy(pad, key)
	}
	for i := n; i < bs; i++ {
		pad[i] = 0
	}
	for i := range pad {
		pad[i] ^= 0x36 // ipad
	}
	h.Write(pad)
	for _, p := range parts {
		h.Write(p)
	}
	inner := h.Sum(s[bs:bs])
	for i := range pad {
		pad[i] ^= 0x36 ^ 0x5c // ipad, then opad
	}
	h.Reset()
	h.Write(pad)
	h.Write(inner)
	dst = append(dst, h.Sum(s[:0])...)
	for i := range s {
		s[i] = 0
	}
	%[1]sScratch.Put(sp)
	return dst
}

// %[1]sScratch holds the scratch buffers of %[1]s.
var %[1]sScratch %[3]s.Pool

`, fn, im.Name("hash", "hash"), im.Name("sync", "sync"))
	at := f.firstDecl()
	return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(decl)}}, fn
}

// referencedPackages returns the import paths, sorted, of the packages
// that the nodes refer to by a qualified name or a dot import.
func (f *File) referencedPackages(nodes ...ast.Node) []string {
	var paths []string
	for _, n := range nodes {
		for n := range ast.Preorder(n) {
			if id, ok := n.(*ast.Ident); ok {
				if path, ok := f.qualifier(id); ok && !slices.Contains(paths, path) {
					paths = append(paths, path)
				}
			}
		}
	}
	slices.Sort(paths)
	return paths
}
