package analyzer

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/internal/values"
)

// Roles: methods and functions that the standard library calls again and
// again, so that a static call graph of their own package, which never sees
// those calls, cannot tell they are hot. Each was chosen by reading the loop
// that calls it:
//
//   - Read([]byte) (int, error), the io.Reader method, of a reader that
//     reads another (its type has a field that is an io.Reader): io.Copy,
//     io.CopyN, io.ReadAll and bufio.Reader call it in a loop, once per chunk
//     of the stream (a streaming signer signs each chunk there);
//   - Write([]byte) (int, error), the io.Writer method, of a writer that
//     writes another (a field that is an io.Writer, a hasher for instance):
//     io.Copy calls it once per chunk, bufio.Writer once per flush,
//     fmt.Fprint* once per call;
//   - ServeHTTP(http.ResponseWriter, *http.Request), the http.Handler method,
//     and any function or method with the http.HandlerFunc signature:
//     net/http's server calls them once per request, in the loop of each
//     connection;
//   - RoundTrip(*http.Request) (*http.Response, error), the http.RoundTripper
//     method: http.Client calls it once per request, and again per redirect;
//   - Less(i, j int) bool and Swap(i, j int) of a type that implements
//     sort.Interface (with Len() int): sort.Sort, sort.Stable and
//     container/heap call them O(n log n) times per sort.
//
// A method is given its role by its name, its signature and its type:
// whether the program hands a value to io.Copy or sort.Sort is beyond what a
// package's own code shows. A reader that generates its output rather than
// passing a stream through (a key derivation function, a random source) is
// read once for a fixed-size result, as io.ReadFull(kdf, key) does, so Read
// and Write have their role only on types that hold another reader or
// writer: the corpus showed the KDF case (jwx's concatkdf.KDF.Read, once per
// ECDH-ES key agreement). Len, WriteTo and ReadFrom are not roles: they run
// once per sort or per copy.

// roleOf returns the role of fn: a description for messages ("Read of an
// io.Reader, which io.Copy calls once per chunk") and the work around each
// call (net/http serves a request around each call of a handler, and a
// transport's round trip is one over the network); a Role with no text
// when it has none.
func roleOf(fn *types.Func) frequency.Role {
	serve := func(text string) frequency.Role {
		return frequency.Role{Text: text, Around: frequency.Heavy, What: "net/http's work to serve a request"}
	}
	sig := fn.Signature()
	recv := sig.Recv()
	if recv == nil {
		if isHandlerFunc(sig) {
			return serve("an http.HandlerFunc, which net/http calls once per request")
		}
		return frequency.Role{}
	}
	switch fn.Name() {
	case "Read":
		if isReadWrite(sig) && holds(recv.Type(), "Read") {
			return frequency.Role{Text: "Read of an io.Reader that reads another, which io.Copy and io.ReadAll call once per chunk"}
		}
	case "Write":
		if isReadWrite(sig) && holds(recv.Type(), "Write") {
			return frequency.Role{Text: "Write of an io.Writer that writes another, which io.Copy calls once per chunk"}
		}
	case "ServeHTTP":
		if isHandlerFunc(sig) {
			return serve("ServeHTTP of an http.Handler, which net/http calls once per request")
		}
	case "RoundTrip":
		if sig.Params().Len() == 1 && values.IsNamed(sig.Params().At(0).Type(), "net/http", "Request", true) &&
			sig.Results().Len() == 2 && values.IsNamed(sig.Results().At(0).Type(), "net/http", "Response", true) &&
			values.IsError(sig.Results().At(1).Type()) {
			return frequency.Role{Text: "RoundTrip of an http.RoundTripper, which http.Client calls once per request", Around: frequency.Heavy, What: "the request's round trip over the network"}
		}
	case "Less", "Swap":
		if types.Implements(types.NewPointer(unpointer(types.Unalias(recv.Type()))), sortInterface) { // *T's method set, for a receiver of type T or *T
			return frequency.Role{Text: fn.Name() + " of a sort.Interface, which sort.Sort calls O(n log n) times"}
		}
	}
	if isHandlerFunc(sig) {
		return serve("an http.HandlerFunc (" + fn.Name() + "), which net/http calls once per request")
	}
	return frequency.Role{}
}

// holds reports whether the receiver type t is a struct (or a pointer to
// one) with a field that has a method named method with the io.Reader (or
// io.Writer) signature: a reader that reads another stream, a writer that
// writes to another (a hasher is one).
func holds(t types.Type, method string) bool {
	st, ok := unpointer(types.Unalias(t)).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		obj, _, _ := types.LookupFieldOrMethod(f.Type(), true, f.Pkg(), method)
		if m, ok := obj.(*types.Func); ok && isReadWrite(m.Signature()) {
			return true
		}
	}
	return false
}

// isReadWrite reports whether sig is func([]byte) (int, error).
func isReadWrite(sig *types.Signature) bool {
	return sig.Params().Len() == 1 && types.Identical(sig.Params().At(0).Type(), byteSlice) &&
		sig.Results().Len() == 2 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int]) &&
		values.IsError(sig.Results().At(1).Type())
}

// isHandlerFunc reports whether sig is func(http.ResponseWriter, *http.Request).
func isHandlerFunc(sig *types.Signature) bool {
	return sig.Params().Len() == 2 && sig.Results().Len() == 0 && !sig.Variadic() &&
		values.IsNamed(sig.Params().At(0).Type(), "net/http", "ResponseWriter", false) &&
		values.IsNamed(sig.Params().At(1).Type(), "net/http", "Request", true)
}

// sortInterface is sort.Interface: Len() int, Less(i, j int) bool and
// Swap(i, j int).
var sortInterface = func() *types.Interface {
	pkg := types.NewPackage("sort", "sort")
	v := func(name string, t types.Type) *types.Var { return types.NewParam(0, pkg, name, t) }
	tuple := func(vars ...*types.Var) *types.Tuple { return types.NewTuple(vars...) }
	sig := func(params, results *types.Tuple) *types.Signature {
		return types.NewSignatureType(nil, nil, nil, params, results, false)
	}
	i, j := v("i", types.Typ[types.Int]), v("j", types.Typ[types.Int])
	return types.NewInterfaceType([]*types.Func{
		types.NewFunc(0, pkg, "Len", sig(tuple(), tuple(v("", types.Typ[types.Int])))),
		types.NewFunc(0, pkg, "Less", sig(tuple(i, j), tuple(v("", types.Typ[types.Bool])))),
		types.NewFunc(0, pkg, "Swap", sig(tuple(i, j), tuple())),
	}, nil).Complete()
}()

// isTest reports whether fn is test code: a function with a parameter of
// type *testing.T, *testing.B, *testing.F or testing.TB, wherever it is
// declared (a test helper in a non-test file is test code too), or a method
// of a struct that holds one (a test harness that keeps its t).
func isTest(fn *types.Func) bool {
	sig := fn.Signature()
	for v := range sig.Params().Variables() {
		if isTesting(v.Type()) {
			return true
		}
	}
	if recv := sig.Recv(); recv != nil {
		if st, ok := unpointer(recv.Type()).Underlying().(*types.Struct); ok {
			for f := range st.Fields() {
				if isTesting(f.Type()) {
					return true
				}
			}
		}
	}
	return false
}

// isTesting reports whether t is *testing.T, *testing.B, *testing.F or
// testing.TB.
func isTesting(t types.Type) bool {
	named, ok := unpointer(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "testing" && slices.Contains([]string{"B", "T", "F", "TB"}, named.Obj().Name())
}

// unpointer returns the type that t points to, or t when it is not a
// pointer.
func unpointer(t types.Type) types.Type {
	if ptr, ok := t.(*types.Pointer); ok {
		return ptr.Elem()
	}
	return t
}

// isTestCode reports whether the function declared by decl is test code.
func (p *pass) isTestCode(decl *ast.FuncDecl) bool {
	fn, ok := p.TypesInfo.Defs[decl.Name].(*types.Func)
	return ok && isTest(fn)
}
