package frequency

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/hashalloc/hashalloc/internal/callindex"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Class is how much a call costs beside an allocation: an allocation and
// its share of the garbage collector's work cost tens of nanoseconds (an
// HMAC's five, a few hundred).
type Class uint8

const (
	// Cheap is everything not known to cost more.
	Cheap Class = iota
	// Moderate costs a microsecond or more, or allocates more than once
	// itself: encoding, parsing, templates, formatting a string. Beside it
	// a single allocation is under a tenth of the work.
	Moderate
	// Decoding fills a value of any type by reflection: several
	// microseconds, beside which a MAC keyed anew (five allocations) is noise.
	Decoding
	// Heavy costs ten microseconds or more: key stretching, public-key
	// operations, big-number modular arithmetic, I/O. Beside it any
	// allocation of hashing code is noise.
	Heavy
)

// work is the costliest thing a repetition does beside a site, and how
// many calls it makes that allocate what they return.
type work struct {
	class Class
	what  string    // "pbkdf2.Key (key stretching)"
	pos   token.Pos // where, in this package (the call)

	allocs    int       // calls that allocate their results (see allocsOf)
	allocWhat string    // the first of them
	allocPos  token.Pos // where
}

// more is the costlier of w and o, with the allocations of both.
func (w work) more(o work) work {
	r := w
	if o.class > w.class {
		r = o
	}
	r.allocs = w.allocs + o.allocs
	r.allocWhat, r.allocPos = w.allocWhat, w.allocPos
	if r.allocWhat == "" {
		r.allocWhat, r.allocPos = o.allocWhat, o.allocPos
	}
	return r
}

// manyAllocs is the number of calls that allocate their results from which
// a repetition does moderate work, whatever each costs: beside six or more
// allocations and the work that makes them, one more is under a tenth.
const manyAllocs = 6

// settled is w with its allocations counted in its class: moderate work
// when they are many (a thumbprint that formats and encodes each of a key's
// fields into the hasher).
func (w work) settled() work {
	if w.class > Cheap || w.allocs < manyAllocs {
		return w
	}
	w.class = Moderate
	w.what = fmt.Sprintf("%s and %d more calls that allocate their results", w.allocWhat, w.allocs-1)
	w.pos = w.allocPos
	return w
}

// costlyPkgs are the packages every exported function of which costs that
// much, and what they do.
var costlyPkgs = map[string]struct {
	class Class
	what  string
}{
	"crypto/rsa":                     {Heavy, "an RSA operation"},
	"crypto/ecdsa":                   {Heavy, "an ECDSA operation"},
	"crypto/ed25519":                 {Heavy, "an Ed25519 operation"},
	"crypto/ecdh":                    {Heavy, "an ECDH key agreement"},
	"crypto/elliptic":                {Heavy, "a curve operation"},
	"crypto/dsa":                     {Heavy, "a DSA operation"},
	"crypto/mlkem":                   {Heavy, "an ML-KEM operation"},
	"golang.org/x/crypto/ed25519":    {Heavy, "an Ed25519 operation"},
	"golang.org/x/crypto/curve25519": {Heavy, "a curve operation"},
	"crypto/pbkdf2":                  {Heavy, "key stretching"},
	"golang.org/x/crypto/pbkdf2":     {Heavy, "key stretching"},
	"golang.org/x/crypto/scrypt":     {Heavy, "key stretching"},
	"golang.org/x/crypto/argon2":     {Heavy, "key stretching"},
	"golang.org/x/crypto/bcrypt":     {Heavy, "key stretching"},
	"os/exec":                        {Heavy, "running a process"},
	"database/sql":                   {Heavy, "a database query"},
	"encoding/json":                  {Moderate, "encoding"},
	"encoding/xml":                   {Moderate, "encoding"},
	"encoding/gob":                   {Moderate, "encoding"},
	"encoding/asn1":                  {Moderate, "encoding"},
	"encoding/pem":                   {Moderate, "encoding"},
	"text/template":                  {Moderate, "a template"},
	"html/template":                  {Moderate, "a template"},
}

// accessor reports whether the function or method of a costly package
// does no arithmetic: a key's Public, Seed, Equal and Size methods, which
// return or compare what the key holds, a curve's Params, and the curves'
// constructors, which return values made once.
func accessor(path, recv, name string) bool {
	if recv != "" {
		return name == "Public" || name == "Seed" || name == "Equal" || name == "Size" || name == "Params"
	}
	return path == "crypto/elliptic" && (name == "P224" || name == "P256" || name == "P384" || name == "P521")
}

// cheapOS are the functions of package os that do no I/O.
var cheapOS = map[string]bool{
	"Getenv": true, "LookupEnv": true, "Getpid": true, "Getuid": true, "Getgid": true,
	"IsExist": true, "IsNotExist": true, "IsPermission": true, "IsTimeout": true,
	"NewSyscallError": true, "Expand": true, "ExpandEnv": true, "Environ": true,
}

// knownCost says what a call of fn, a function or method of another
// package, costs by what it is: the packages above; file and network I/O
// (package os but for cheapOS, net, net/http requests, crypto/tls
// connections, filepath's walks, time.Sleep); io.CopyN's buffer; big.Int's modular
// exponentiation, inversion, square roots and primality tests; a
// certificate's signature checks and its parsing.
func knownCost(fn *types.Func) (Class, string) {
	if fn.Pkg() == nil {
		return Cheap, ""
	}
	path, name := fn.Pkg().Path(), fn.Name()
	recv := ""
	if r := fn.Signature().Recv(); r != nil {
		_, recv = named(r.Type())
	}
	if c, ok := costlyPkgs[path]; ok && fn.Exported() && !accessor(path, recv, name) {
		return c.class, c.what
	}
	switch {
	case (path == "os" || path == "io/ioutil") && !cheapOS[name]:
		return Heavy, "file I/O"
	case path == "net" && fn.Exported():
		return Heavy, "network I/O"
	case path == "net/http" && (recv == "Client" && name == "Do" || (recv == "Client" || recv == "") &&
		(name == "Get" || name == "Post" || name == "Head" || name == "PostForm")):
		return Heavy, "an HTTP request"
	case path == "crypto/tls" && (name == "Dial" || name == "DialWithDialer" || name == "Handshake" || name == "HandshakeContext"):
		return Heavy, "a TLS handshake"
	case (path == "path/filepath" || path == "io/fs") && (name == "Walk" || name == "WalkDir" || name == "Glob" || name == "ReadDir" || name == "ReadFile"):
		return Heavy, "file I/O"
	case path == "io" && name == "CopyN":
		// io.CopyN wraps its source in a LimitedReader, which has no
		// WriteTo: unless the destination has ReadFrom (a hasher has not),
		// every call allocates the reader and a 32 KiB buffer.
		return Moderate, "a copy through a 32 KiB buffer of its own"
	case path == "time" && name == "Sleep":
		return Heavy, "sleeping"
	case path == "math/big" && recv == "Int" && (name == "Exp" || name == "ModInverse" || name == "ModSqrt" || name == "ProbablyPrime"):
		return Heavy, "big-number modular arithmetic"
	case path == "crypto/x509" && recv == "Certificate" && (name == "CheckSignature" || name == "CheckSignatureFrom" || name == "Verify"):
		return Heavy, "a certificate's signature check"
	case path == "crypto/x509" && recv == "" && (len(name) > 5 && name[:5] == "Parse" || len(name) > 7 && name[:7] == "Marshal"):
		return Moderate, "a certificate's encoding"
	case path == "regexp" && recv == "" && (name == "Compile" || name == "MustCompile" || name == "MatchString" || name == "Match"):
		return Moderate, "a regular expression"
	}
	return Cheap, ""
}

// formatting says whether fn formats into a new string (fmt.Sprintf,
// Sprint, Sprintln): its arguments boxed, its buffer and its result
// allocated, a few hundred nanoseconds, so a moderate cost beside the site
// that a repetition calls it next to. It counts only where the repetition
// calls it itself, not in the summary of a function: nearly every function
// formats somewhere, for an error or a panic. Fprint* writes into a writer,
// which may be the hasher itself: no cost of its own.
func formatting(fn *types.Func) bool {
	name := fn.Name() // no FullName: it is asked of every call a repetition makes
	return fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && fn.Signature().Recv() == nil && (name == "Sprintf" || name == "Sprint" || name == "Sprintln")
}

// interfaceCost says what a call of an interface method costs when the
// interface says: crypto.Signer's Sign signs with a private key; net.Conn's
// Read and Write do network I/O.
func interfaceCost(sel *types.Selection) (Class, string) {
	p, n := named(sel.Recv())
	switch m := sel.Obj().Name(); {
	case p == "crypto" && n == "Signer" && m == "Sign", p == "crypto" && n == "Decrypter" && m == "Decrypt":
		return Heavy, "a public-key operation"
	case p == "net" && (n == "Conn" || n == "PacketConn"):
		return Heavy, "network I/O"
	}
	return Cheap, ""
}

// callCost says what the call c costs: what it calls (calleeCost) and, for a
// call of no static callee, what a dynamic call allocates (dynamicAllocs).
func (m *Model) callCost(c callindex.Call, direct bool) work {
	if what := m.noReturn(c.Node, c.Callee, 1); what != "" {
		return work{} // it ends the process or the goroutine: it never repeats
	}
	w := m.calleeCost(c, direct)
	for a := c.Cursor; w.class == Decoding && a.Node() != nil; a = a.Parent() {
		if k := a.ParentEdgeKind(); k == edge.IfStmt_Body || k == edge.IfStmt_Else || k == edge.CaseClause_Body {
			w.class = Moderate // a value decoded in one arm of a branch: not every call's work
		}
	}
	if c.Callee != nil {
		return w
	}
	if n := m.dynamicAllocs(c.Node); n > 0 {
		w = w.more(work{allocs: n, allocWhat: types.ExprString(c.Node.Fun) + " (a dynamic call)", allocPos: c.Node.Pos()})
	}
	return w
}

// dynamicAllocs returns how many allocations a dynamic call (of an interface
// method or a function value) makes that its signature shows: the
// arguments it boxes into its interface parameters (values that are
// neither constants nor of a pointer's shape) and the addresses it is
// given (escapingAddress), since the compiler cannot see where a dynamic
// call keeps them (key.Set(name, value) of a string value allocates it,
// where a static call may keep it on the stack); and the string it
// returns, when it builds one from bytes (buildsString).
func (m *Model) dynamicAllocs(call *ast.CallExpr) int {
	info := m.cfg.Info
	dynamic := false
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodVal && types.IsInterface(s.Recv()) {
			dynamic = true
		}
	}
	if !dynamic {
		switch typeutil.Callee(info, call).(type) {
		case *types.Var:
			dynamic = true
		case nil:
			dynamic = !info.Types[call.Fun].IsType()
		}
	}
	if !dynamic {
		return 0
	}
	sig, ok := info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok {
		return 0
	}
	params := sig.Params()
	n := 0
	if buildsString(sig) {
		n++
	}
	for i, arg := range call.Args {
		var pt types.Type
		switch {
		case sig.Variadic() && i >= params.Len()-1:
			if call.Ellipsis.IsValid() {
				continue // a slice passed as it is
			}
			pt = params.At(params.Len() - 1).Type().(*types.Slice).Elem()
		case i < params.Len():
			pt = params.At(i).Type()
		default:
			continue
		}
		if boxes(info.Types[arg], pt) || m.escapingAddress(arg) {
			n++
		}
	}
	return n
}

// escapingAddress reports whether arg, given to a dynamic call, is the
// address of a local variable or of a composite literal: the call may keep
// it, so the variable or literal is allocated on the heap
// (option.Value(&hash) moves hash there).
func (m *Model) escapingAddress(arg ast.Expr) bool {
	u, ok := ast.Unparen(arg).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	switch x := ast.Unparen(u.X).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.Ident:
		v, ok := m.cfg.Info.Uses[x].(*types.Var)
		return ok && v.Parent() != nil && v.Parent() != m.cfg.Pkg.Scope()
	}
	return false
}

// buildsString reports whether a function of signature sig returns a
// string built from bytes it is given (an encoder's EncodeToString): a
// string cannot share a byte slice's memory, so it is allocated.
func buildsString(sig *types.Signature) bool {
	if sig.Results().Len() != 1 || !isBasic(sig.Results().At(0).Type(), types.IsString) {
		return false
	}
	for v := range sig.Params().Variables() {
		if s, ok := v.Type().Underlying().(*types.Slice); ok && values.IsByte(s.Elem()) {
			return true
		}
	}
	return false
}

// boxes reports whether an argument of type and value tv, passed for a
// parameter of type pt, is boxed into an allocation of its own: pt is an
// interface and the value is neither a constant nor already an interface
// nor of a pointer's shape.
func boxes(tv types.TypeAndValue, pt types.Type) bool {
	if !types.IsInterface(pt) || tv.Value != nil || tv.Type == nil || tv.IsNil() {
		return false
	}
	switch tv.Type.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return false
	}
	return true
}

// calleeCost says what the call at cur costs, by what it calls: a function of
// another package (known, or by its fact), an interface method, or a
// function of this package (its summary); with direct, the call is made by
// the repetition itself, and formatting counts too.
func (m *Model) calleeCost(c callindex.Call, direct bool) work {
	call := c.Node
	info := m.cfg.Info
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && c.Callee == nil {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodVal && types.IsInterface(s.Recv()) {
			if c, what := interfaceCost(s); c > Cheap {
				return work{class: c, what: types.ExprString(call.Fun) + " (" + what + ")", pos: call.Pos()}
			}
			if w := m.implCost(s.Recv(), s.Obj().Name()); w.class > Cheap {
				w.what = types.ExprString(call.Fun) + " (" + w.what + ")"
				w.pos = call.Pos()
				return w
			} else if w.allocs > 0 {
				return w
			}
			// Else what the interface's package says of its method
			// (elliptic.Curve's ScalarMult), below.
		}
	}
	var callee types.Object = c.Callee
	if c.Callee == nil {
		callee = typeutil.Callee(info, call)
	}
	fn, ok := callee.(*types.Func)
	if !ok {
		// A function value that gives a stream to close (open func(string)
		// (io.ReadCloser, error)) opens a file or a connection, as far as
		// the package can tell.
		if _, isVar := callee.(*types.Var); isVar && opensStream(info.TypeOf(call.Fun)) {
			return work{class: Moderate, what: types.ExprString(call.Fun) + " (opening a stream)", pos: call.Pos()}
		}
		return work{}
	}
	fn = fn.Origin()
	if fn.Pkg() == m.cfg.Pkg {
		w := m.funcCost(fn)
		if w.class > Cheap {
			w.what = fn.Name() + ", which calls " + w.what
			w.pos = call.Pos()
		}
		return w
	}
	if decodesAny(fn) {
		return work{class: Decoding, what: ShortName(fn) + " (decoding a value of any type)", pos: call.Pos()}
	}
	if c, what := knownCost(fn); c > Cheap {
		return work{class: c, what: ShortName(fn) + " (" + what + ")", pos: call.Pos()}
	}
	if encodesAny(fn) {
		return work{class: Moderate, what: ShortName(fn) + " (encoding a value of any type)", pos: call.Pos()}
	}
	if key := m.privateKeyArg(call); key != nil {
		return work{class: Heavy, what: ShortName(fn) + " (a public-key operation: it is given " + types.ExprString(key) + ", a private key)", pos: call.Pos()}
	}
	if m.readsHTTPBody(fn, call) {
		return work{class: Heavy, what: ShortName(fn) + " (an HTTP body, read from or sent to the network)", pos: call.Pos()}
	}
	if m.copyBuffer(fn, call) {
		return work{class: Moderate, what: ShortName(fn) + " (a copy through a 32 KiB buffer of its own)", pos: call.Pos()}
	}
	if direct && formatting(fn) {
		return work{class: Moderate, what: ShortName(fn) + " (formatting)", pos: call.Pos()}
	}
	if m.cfg.ImportCost != nil {
		if f, ok := m.cfg.ImportCost(fn); ok {
			if f.Class > Cheap {
				return work{class: f.Class, what: ShortName(fn) + " (" + f.What + ")", pos: call.Pos()}
			}
			return work{allocs: f.Allocs, allocWhat: ShortName(fn), allocPos: call.Pos()}
		}
	}
	if n := m.allocsOf(fn, call); n > 0 {
		return work{allocs: n, allocWhat: ShortName(fn), allocPos: call.Pos()}
	}
	return work{}
}

// allocatingFuncs are the functions of the standard library that allocate
// what they return, each call: strings built from their arguments,
// encodings to text and back, joined and split strings, a big number's
// bytes and text, a URL's query parsed (URL.Query) and a query encoded
// (Values.Encode); and the sorts that take a function and swap by
// reflection (sort.Slice, sort.SliceStable: a request signer's sort of its
// headers). url.QueryEscape and PathEscape return their argument when it has
// nothing to escape, and sort.Strings sorts in place: they are not counted.
var allocatingFuncs = map[string]bool{
	"fmt.Sprintf": true, "fmt.Sprint": true, "fmt.Sprintln": true,
	"encoding/hex.EncodeToString": true, "encoding/hex.DecodeString": true,
	"encoding/base64.EncodeToString": true, "encoding/base64.DecodeString": true,
	"encoding/base32.EncodeToString": true, "encoding/base32.DecodeString": true,
	"strconv.Itoa": true, "strconv.FormatInt": true, "strconv.FormatUint": true, "strconv.FormatFloat": true, "strconv.Quote": true,
	"strings.Join": true, "strings.Repeat": true, "strings.ToLower": true, "strings.ToUpper": true,
	"strings.Replace": true, "strings.ReplaceAll": true, "strings.Split": true, "strings.SplitN": true, "strings.Fields": true,
	"bytes.Join": true, "bytes.Repeat": true, "bytes.Clone": true, "bytes.ToLower": true, "bytes.ToUpper": true,
	"math/big.Bytes": true, "math/big.String": true, "math/big.Text": true,
	"net/url.Encode": true, "net/url.Query": true,
	"sort.Slice": true, "sort.SliceStable": true,
}

// allocsOf returns how many allocations a call of fn, a function of
// another package, makes that the model can count: one for the functions
// above and for a hasher's Sum(nil); for fmt's Fprint, Fprintf and
// Fprintln (and Print...), one per argument boxed into an interface (a
// value that is neither a constant nor of a pointer's shape).
func (m *Model) allocsOf(fn *types.Func, call *ast.CallExpr) int {
	if fn.Pkg() == nil {
		return 0
	}
	if sumsIntoNew(fn, call, m.cfg.Info) {
		return 1
	}
	path := fn.Pkg().Path()
	switch path {
	case "fmt", "strings", "bytes", "strconv", "encoding/hex", "encoding/base64", "encoding/base32", "math/big", "net/url", "sort":
	default:
		return 0 // no function of the table: its name is not built
	}
	if allocatingFuncs[path+"."+fn.Name()] {
		return 1
	}
	if path != "fmt" || fn.Signature().Recv() != nil || !fn.Signature().Variadic() {
		return 0
	}
	switch fn.Name() {
	case "Fprint", "Fprintf", "Fprintln", "Print", "Printf", "Println":
	default:
		return 0
	}
	n := 0
	first := fn.Signature().Params().Len() - 1
	for i, arg := range call.Args {
		if i < first || call.Ellipsis.IsValid() {
			continue
		}
		if boxes(m.cfg.Info.Types[arg], types.Universe.Lookup("any").Type()) {
			n++
		}
	}
	return n
}

// sumsIntoNew reports whether call, of fn, is a hasher's Sum(nil): a method
// Sum(b []byte) []byte given nil appends the sum to nothing, so it
// allocates the slice it returns.
func sumsIntoNew(fn *types.Func, call *ast.CallExpr, info *types.Info) bool {
	sig := fn.Signature()
	if fn.Name() != "Sum" || sig.Recv() == nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 || len(call.Args) != 1 {
		return false
	}
	p, ok := sig.Params().At(0).Type().Underlying().(*types.Slice)
	return ok && values.IsByte(p.Elem()) && types.Identical(sig.Params().At(0).Type(), sig.Results().At(0).Type()) && info.Types[call.Args[0]].IsNil()
}

// funcCost summarizes what a function of the package costs per call: the
// costliest call its body makes outside its rare branches. A call cycle
// counts as cheap while it is summarized (a lower bound).
func (m *Model) funcCost(fn *types.Func) work {
	if w, ok := m.costs[fn]; ok {
		return w
	}
	m.costs[fn] = work{} // in progress
	var w work
	if f := m.funcs[fn]; f != nil {
		w = m.regionCost(f.cur, inspector.Cursor{}, false, true)
		if loop, ok := m.kdfLoop(f); ok {
			// Two MACs or more per block of key material.
			w = w.more(work{class: Moderate, what: "a key derivation (a hash per block of its output, the loop at " + m.position(loop.Node().Pos()) + ")", pos: loop.Node().Pos()})
		}
	}
	m.costs[fn] = w
	return w
}

// regionCost returns the costliest call in the code at region (a loop body,
// a function), but for the code at except (the site; with inside, all it
// contains too: else a call whose arguments the repetition evaluates, and
// count, such as the encodings a caller makes of what the next function of a
// chain hashes) and the branches that rarely run; function literals that
// are not called in place are left out. direct says that the repetition
// runs region itself (see callCost).
func (m *Model) regionCost(region, except inspector.Cursor, direct, inside bool) work {
	var w work
	_, self, _, _ := m.enclosing(region)
	for c := range m.cfg.Calls.Within(region) {
		if self != nil && c.Callee == self {
			continue // a recursive call: the next repetition, not work beside it
		}
		if cur := c.Cursor; except.Valid() && (cur == except || inside && encloses(except, cur)) || m.literalOf(cur, region).Valid() || m.rareBranch(cur, region) != "" {
			continue
		}
		w = w.more(m.callCost(c, direct))
		if w.class == Heavy {
			break
		}
	}
	return w
}

// largeBuffer is the size from which a buffer costs more than a single
// allocation: zeroing 4 KiB and more, and the garbage collector's work on
// it, is moderate work of its own.
const largeBuffer = 4 << 10

// noise says why a site of cost c is noise beside the work w that each of
// its repetitions also does ("each call also calls w at f.go:12, beside
// which the allocation is noise"), or "" when it is a visible share of w.
func (m *Model) noise(c Cost, w work, each string) string {
	w = w.settled()
	few := c.Bytes < largeBuffer && (c.Allocs <= 1 || w.class == Decoding && c.Allocs <= 5)
	if w.class != Heavy && (w.class < Moderate || !few) {
		return ""
	}
	return each + " " + w.what + " at " + m.position(w.pos) + ", beside which the allocation is noise"
}

// implCost says what a call of the method name of recv, an interface the
// package declares, costs by what the package's own implementations of it
// do: the costliest of their methods. A package that calls a method of its
// own interface mostly calls its own implementations of it (a cipher
// suite's DH, a tree's hasher), so the call costs what they cost; another
// package's implementation is not seen, and another package's interface
// (io.Writer) may be implemented by anything. A method an implementation has from an
// embedded interface costs what that interface's implementations cost.
func (m *Model) implCost(recv types.Type, name string) work {
	iface, ok := recv.Underlying().(*types.Interface)
	if !ok || !m.ownInterface(recv) {
		return work{} // another package's interface: anything may implement it
	}
	key := implKey{recv, name}
	if w, ok := m.implCosts[key]; ok {
		return w
	}
	m.implCosts[key] = work{} // in progress
	var w work
	for _, impl := range Implementations(m.cfg.Pkg, iface, name) {
		fn, tn := impl.Method, impl.Type
		if fn == nil {
			continue
		}
		var c work
		switch r := fn.Signature().Recv(); {
		case r != nil && types.IsInterface(r.Type()):
			c = m.implCost(r.Type(), name) // promoted from an embedded interface
		case fn.Pkg() == m.cfg.Pkg:
			c = m.funcCost(fn)
			if c.class > Cheap {
				c.what = "the package's " + tn.Name() + "." + name + ", which calls " + c.what
			}
		default:
			if class, what := knownCost(fn); class > Cheap {
				c = work{class: class, what: "the package's " + tn.Name() + "." + name + ", " + what}
			}
		}
		allocs := max(w.allocs, c.allocs) // one of them runs
		w = w.more(c)
		w.allocs = allocs
	}
	m.implCosts[key] = w
	return w
}

// implKey identifies an interface method for implCost.
type implKey struct {
	iface types.Type
	name  string
}

// privateKeyArg returns the argument of call that is a private key of the
// standard library (an ed25519.PrivateKey, an *ecdsa.PrivateKey): another
// package's function given one signs, decrypts or agrees on a key with it,
// whatever arithmetic does it (an X25519 of another module). Only a package
// that reaches such a package (m.keys) has values of their types.
func (m *Model) privateKeyArg(call *ast.CallExpr) ast.Expr {
	for i := 0; m.keys && i < len(call.Args); i++ {
		if path, name := named(m.cfg.Info.TypeOf(call.Args[i])); name == "PrivateKey" && costlyPkgs[path].class == Heavy {
			return call.Args[i]
		}
	}
	return nil
}

// encodesAny reports whether fn encodes a value of any type into bytes:
// it is given an empty interface (not a variadic list, which formats) and
// returns a byte slice, as json.Marshal does. It cannot know the value's
// type before it runs, so it walks it by reflection or switches on it: a
// microsecond or more, and allocations of its own, for any struct.
func encodesAny(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Results().Len() == 0 || sig.Variadic() {
		return false
	}
	if s, ok := sig.Results().At(0).Type().Underlying().(*types.Slice); !ok || !values.IsByte(s.Elem()) {
		return false
	}
	for v := range sig.Params().Variables() {
		if _, generic := v.Type().(*types.TypeParam); generic {
			continue // a type argument: the caller's type is known when it is compiled
		}
		if i, ok := v.Type().Underlying().(*types.Interface); ok && i.Empty() {
			return true
		}
	}
	return false
}

// decodesAny reports whether fn, given an empty interface and bytes or a
// reader and nothing else, or a method of a value holding a reader, returns
// only an error: it decodes by reflection (json.Unmarshal, a Decoder's
// Decode), where binary.Write encodes and binary.Read reads numbers.
func decodesAny(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Params().Len() > 2 || sig.Results().Len() != 1 || !values.IsError(sig.Results().At(0).Type()) || sig.Variadic() {
		return false
	}
	var empty, source bool
	if r := sig.Recv(); r != nil {
		if st, ok := types.Unalias(r.Type()).Underlying().(*types.Pointer); ok {
			st, _ := st.Elem().Underlying().(*types.Struct)
			source = st != nil && slices.ContainsFunc(slices.Collect(st.Fields()), func(f *types.Var) bool { return reader(f.Type()) })
		}
	}
	for v := range sig.Params().Variables() {
		s, ok := v.Type().Underlying().(*types.Slice)
		i, iok := v.Type().Underlying().(*types.Interface)
		empty = empty || iok && i.Empty()
		source = source || ok && values.IsByte(s.Elem()) || reader(v.Type())
	}
	return empty && source
}

// reader reports whether t reads (has Read) and does not write.
func reader(t types.Type) bool {
	r, _, _ := types.LookupFieldOrMethod(t, true, nil, "Read")
	w, _, _ := types.LookupFieldOrMethod(t, true, nil, "Write")
	return r != nil && w == nil
}

// opensStream reports whether t is a function type whose results include a
// stream to close: a value with Close() error and Read or Write (an
// io.ReadCloser, an io.WriteCloser, a file).
func opensStream(t types.Type) bool {
	sig, ok := t.(*types.Signature)
	if !ok {
		return false
	}
	for v := range sig.Results().Variables() {
		closer, _, _ := types.LookupFieldOrMethod(v.Type(), true, nil, "Close")
		if c, ok := closer.(*types.Func); ok && c.Signature().Params().Len() == 0 && isStream(v.Type()) {
			return true
		}
	}
	return false
}

// readsHTTPBody reports whether call, of fn, reads the body of an HTTP
// request or response to its end (io.ReadAll, io.Copy, io.CopyN,
// ioutil.ReadAll of x.Body): a received body comes from the network, and
// a request's body read before it is sent goes to it, so the repetition
// does network I/O.
func (m *Model) readsHTTPBody(fn *types.Func, call *ast.CallExpr) bool {
	if fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return false
	}
	var src ast.Expr
	switch path, name := fn.Pkg().Path(), fn.Name(); {
	case (path == "io" || path == "io/ioutil") && name == "ReadAll" && len(call.Args) == 1:
		src = call.Args[0]
	case path == "io" && (name == "Copy" || name == "CopyN") && len(call.Args) >= 2:
		src = call.Args[1]
	default:
		return false
	}
	sel, ok := ast.Unparen(src).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Body" {
		return false
	}
	path, name := named(m.cfg.Info.TypeOf(sel.X))
	return path == "net/http" && (name == "Request" || name == "Response")
}

// named returns the package path and the name of the named type t, or of
// the one t points to: "", "" for another type.
func named(t types.Type) (path, name string) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path(), n.Obj().Name()
	}
	return "", ""
}

// copyBuffer reports whether call, of fn, is an io.Copy that allocates its
// 32 KiB buffer: its source is of a concrete type without WriteTo (an
// io.SectionReader, a file's region) and its destination a hasher or of a
// concrete type without ReadFrom. A source of an interface type may have
// WriteTo (a bytes.Reader has): it is not counted.
func (m *Model) copyBuffer(fn *types.Func, call *ast.CallExpr) bool {
	if fn.Pkg() == nil || fn.Pkg().Path() != "io" || fn.Name() != "Copy" || len(call.Args) != 2 {
		return false
	}
	has := func(t types.Type, name string) bool {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		return obj != nil
	}
	dst, src := m.cfg.Info.TypeOf(call.Args[0]), m.cfg.Info.TypeOf(call.Args[1])
	return dst != nil && src != nil && !types.IsInterface(src) && !has(src, "WriteTo") && (has(dst, "Sum") || !types.IsInterface(dst) && !has(dst, "ReadFrom"))
}

// Implementation is a named type of a package that implements an interface,
// and its method of a given name (nil when the method is not a function:
// never, for a type that implements the interface).
type Implementation struct {
	Type   *types.TypeName
	Method *types.Func
}

// Implementations returns the named types of pkg (not aliases, not
// interfaces) that implement iface, themselves or through a pointer, with
// their method name, in the order of pkg's scope.
func Implementations(pkg *types.Package, iface *types.Interface, name string) []Implementation {
	var impls []Implementation
	scope := pkg.Scope()
	for _, tname := range scope.Names() {
		tn, ok := scope.Lookup(tname).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if types.Implements(t, iface) {
				obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
				fn, _ := obj.(*types.Func)
				impls = append(impls, Implementation{Type: tn, Method: fn})
				break
			}
		}
	}
	return impls
}
