package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Hashers passed to functions. A hasher handed to a function escapes when
// the function lets it escape, as the compiler's escape analysis tags the
// function's parameters ("leaking param: h"); aws-sdk-go-v2's
//
//	func makeHash(hash hash.Hash, b []byte) []byte {
//		hash.Reset()
//		hash.Write(b)
//		return hash.Sum(nil)
//	}
//
// calls its parameter's methods through an interface, which the compiler
// cannot devirtualize in makeHash's own body, and makeHash is too costly to
// be inlined into its callers (three interface calls, 57 each against a
// budget of 80), so makeHash(sha256.New(), b) puts the hasher on the heap on
// every call. The model summarizes, for every function of the package, what
// it does with each parameter that can hold a hasher, with the same rules
// as for a constructor's hasher (escape.go) and these for a parameter:
//
//   - a method called through an interface escapes it, unless the function
//     may be inlined, where the caller's concrete type may devirtualize the
//     call: undecided (devirt) when the function may be inlined, transient
//     when it cannot be (see noInline);
//   - a method called on a concrete hasher type of the catalog's packages
//     keeps it where it is; any other concrete method is not decided;
//   - returned as the function's only result: what the caller does with the
//     result decides;
//   - passed to a function: that function's summary, of this package or, by
//     a fact, of another.
//
// Summaries depend on each other (calls, recursion), so they are computed
// to a fixed point from "stays", each a maximum of what its uses say.
// Exported functions export theirs as the paramEscapes fact.

// paramFlow is what a function does with each of its parameters (the
// receiver not counted).
type paramFlow struct {
	name   string       // the function, as messages spell it
	kinds  []escapeKind // per parameter
	result []bool       // per parameter: it is also returned as the only result
	reason []string     // per parameter: what lets it escape, for messages
	noInl  bool         // the function is never inlined
}

// paramEscapes is the fact of what an exported function does with each
// parameter that can hold a hasher: Kinds[i] is an escapeKind (unknown for
// a parameter that cannot hold one), Result[i] that the parameter is also
// returned as the function's only result.
type paramEscapes struct {
	Kinds  []uint8
	Result []bool
}

func (*paramEscapes) AFact() {}

func (f *paramEscapes) String() string {
	var b strings.Builder
	for i, k := range f.Kinds {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(escapeKind(k).String())
		if f.Result[i] {
			b.WriteString("+result")
		}
	}
	return "params: " + b.String()
}

// String names an escape kind, for facts and tests.
func (k escapeKind) String() string {
	names := [...]string{stays: "stays", devirt: "devirt", transient: "transient", unknown: "unknown", outlives: "outlives"}
	if k < 0 || int(k) >= len(names) {
		return "unknown"
	}
	return names[k]
}

// maxSummaryRounds bounds the fixed point; past it every summary is unknown.
const maxSummaryRounds = 8

// summarizeParams computes the package's parameter summaries and exports the
// facts of its exported functions.
func (p *pass) summarizeParams() {
	m := p.model
	m.flows = map[*types.Func]*paramFlow{}
	m.imported = p.importedFlow
	funcs := p.vals.Funcs(p.root.Inspector()) // a flow for those with a hasher parameter
	for fn, cur := range funcs {
		decl := cur.Node().(*ast.FuncDecl)
		if decl.Body == nil || !anyHasherParam(fn) {
			continue
		}
		n := fn.Signature().Params().Len()
		m.flows[fn] = &paramFlow{
			name:   shortName(fn),
			kinds:  make([]escapeKind, n),
			result: make([]bool, n),
			reason: make([]string, n),
			noInl:  p.noInline(fn, decl),
		}
	}
	m.summarizing = true
	converged := false
	for round := 0; round < maxSummaryRounds && !converged; round++ {
		converged = true
		for fn, cur := range funcs {
			if m.flows[fn] != nil && p.summarize(fn, cur) {
				converged = false
			}
		}
	}
	m.summarizing = false
	if !converged {
		for _, flow := range m.flows {
			for i := range flow.kinds {
				flow.kinds[i] = unknown
			}
		}
	}
	for fn := range funcs {
		flow := m.flows[fn]
		if flow == nil || !fn.Exported() {
			continue
		}
		fact := &paramEscapes{Kinds: make([]uint8, len(flow.kinds)), Result: flow.result}
		informative := false
		for i, k := range flow.kinds {
			fact.Kinds[i] = uint8(k)
			informative = informative || k != unknown
		}
		if informative {
			p.ExportObjectFact(fn, fact)
		}
	}
}

// summarize recomputes the summary of fn and reports whether it changed.
func (p *pass) summarize(fn *types.Func, cur inspector.Cursor) bool {
	m := p.model
	flow := m.flows[fn]
	params := fn.Signature().Params()
	changed := false
	for i := range params.Len() {
		v := params.At(i)
		kind, result, reason := unknown, false, ""
		switch {
		case v.Name() == "" || v.Name() == "_":
			kind = stays // never used
		case !canHoldHasher(v.Type()) || fn.Signature().Variadic() && i == params.Len()-1:
		default:
			m.returned, m.summFunc = false, cur.Node().(*ast.FuncDecl)
			esc := m.classifyVar(cur, v, 1)
			kind, reason = esc.kind, esc.reason
			if kind == devirt && flow.noInl {
				kind = transient // no caller can devirtualize its calls
			}
			if m.returned {
				if fn.Signature().Results().Len() == 1 {
					result = true
				} else {
					kind = unknown
				}
			}
		}
		if kind < flow.kinds[i] {
			kind = flow.kinds[i] // monotone: a summary only grows
		}
		if kind != flow.kinds[i] || result != flow.result[i] {
			changed = true
		}
		if j := strings.LastIndex(reason, ": "); j >= 0 {
			reason = reason[j+2:] // the use that lets it escape, not the calls on the way
		}
		flow.kinds[i], flow.result[i], flow.reason[i] = kind, result || flow.result[i], reason
	}
	return changed
}

// importedFlow returns the summary of fn, a function of another package,
// from its fact, or nil.
func (p *pass) importedFlow(fn *types.Func) *paramFlow {
	var fact paramEscapes
	if fn.Pkg() == nil || fn.Pkg() == p.Pkg || !p.ImportObjectFact(fn, &fact) {
		return nil
	}
	flow := &paramFlow{name: shortName(fn), kinds: make([]escapeKind, len(fact.Kinds)), result: fact.Result, reason: make([]string, len(fact.Kinds))}
	for i, k := range fact.Kinds {
		flow.kinds[i] = escapeKind(k)
	}
	if len(flow.result) != len(flow.kinds) {
		return nil
	}
	return flow
}

// anyHasherParam reports whether a parameter of fn can hold a hasher.
func anyHasherParam(fn *types.Func) bool {
	for v := range fn.Signature().Params().Variables() {
		if canHoldHasher(v.Type()) {
			return true
		}
	}
	return false
}

// canHoldHasher reports whether a parameter of type t can be given a
// hasher: an interface whose methods are all methods of the standard
// hashers (hash.Hash, hash.Hash32, io.Writer, io.StringWriter), or a
// pointer to a type with a hasher's methods. Other
// interfaces (io.Reader for a reader that holds a hasher, any) are not
// followed: the model does not decide what becomes of a hasher passed as one.
func canHoldHasher(t types.Type) bool {
	if iface, ok := t.Underlying().(*types.Interface); ok {
		if iface.NumMethods() == 0 {
			return false
		}
		for m := range iface.Methods() {
			if !hasherMethods[m.Name()] {
				return false
			}
		}
		return true
	}
	ptr, ok := t.Underlying().(*types.Pointer)
	return ok && values.IsHasher(ptr)
}

// hasherMethods are the methods of the standard hashers.
var hasherMethods = map[string]bool{
	"Write": true, "WriteString": true, "Sum": true, "Reset": true, "Size": true, "BlockSize": true,
	"Sum32": true, "Sum64": true, "MarshalBinary": true, "UnmarshalBinary": true, "AppendBinary": true,
}

// stackHasherPkgs are the packages of the catalog's constructors that the
// compiler keeps on the stack: their hashers' methods keep their receiver
// where it is.
var stackHasherPkgs = func() map[string]bool {
	pkgs := map[string]bool{}
	for key, ctor := range stdConstructors {
		if ctor.alloc == onEscape {
			pkgs[key[:strings.LastIndex(key, ".")]] = true
		}
	}
	return pkgs
}()

// Inlining costs of the compiler (cmd/compile/internal/inline, Go 1.26).
const (
	inlineMaxBudget     = 80 // a function costing more is never inlined
	inlineExtraCallCost = 57 // a call that is not inlined, an interface call
)

// noInline reports whether the compiler never inlines fn: it holds go,
// defer or recover, is marked //go:noinline, or a lower bound of its
// inlining cost is above the budget. The bound counts one node per
// statement and 57 more per call that cannot be inlined: a method called
// through an interface, a call of a function value, a recursive call of fn,
// a call of a function of the package that is never inlined. The compiler counts more (every
// expression node), so a function below the bound may still be too costly:
// then the model does not decide.
func (p *pass) noInline(fn *types.Func, decl *ast.FuncDecl) bool {
	if v, ok := p.model.noInl[fn]; ok {
		return v
	}
	p.model.noInl[fn] = false // a cycle is not counted: a lower bound
	if decl.Body == nil {
		return false
	}
	never := hasDirective(decl, "//go:noinline")
	cost := 0
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if never {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.GoStmt, *ast.DeferStmt:
			never = true
		case *ast.BlockStmt, *ast.EmptyStmt, *ast.LabeledStmt:
		case ast.Stmt:
			cost++
		case *ast.CallExpr:
			cost += p.callCost(fn, n)
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "recover" {
				_, builtin := p.TypesInfo.Uses[id].(*types.Builtin)
				never = never || builtin
			}
		}
		return true
	})
	never = never || cost > inlineMaxBudget
	p.model.noInl[fn] = never
	return never
}

// callCost is the lower bound of what the call costs the inlining budget of
// fn beyond its node: 57 for a call that is certainly not inlined.
func (p *pass) callCost(fn *types.Func, call *ast.CallExpr) int {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := p.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodVal && types.IsInterface(s.Recv()) {
			return inlineExtraCallCost
		}
	}
	if _, isVar := typeutil.Callee(p.TypesInfo, call).(*types.Var); isVar {
		return inlineExtraCallCost // a function value: its target is not known to the inliner
	}
	callee := typeutil.StaticCallee(p.TypesInfo, call)
	if callee == nil || callee.Pkg() != p.Pkg {
		return 0
	}
	callee = callee.Origin()
	if callee == fn {
		return inlineExtraCallCost // the compiler never inlines a recursive call
	}
	cur, ok := p.decl(callee)
	if ok && p.noInline(callee, cur.Node().(*ast.FuncDecl)) {
		return inlineExtraCallCost
	}
	return 0
}

// passedTo is the verdict on a hasher passed as argument i of a call of fn,
// from fn's summary; ok is false when there is none.
func (m *flowModel) passedTo(call inspector.Cursor, fn *types.Func, i, depth int) (escape, bool) {
	flow := m.flows[fn]
	if flow == nil && m.imported != nil {
		flow = m.imported(fn)
	}
	n := fn.Signature().Params().Len()
	if flow == nil || i >= len(flow.kinds) || fn.Signature().Variadic() && i >= n-1 {
		return escape{}, false
	}
	pos := call.Node().(*ast.CallExpr).Args[i].Pos()
	esc := escape{flow.kinds[i], "passed to " + flow.name, pos}
	switch flow.kinds[i] {
	case transient:
		esc.reason = fmt.Sprintf("passed to %s, which lets it escape", flow.name)
		if flow.reason[i] != "" {
			esc.reason += ": " + flow.reason[i]
		}
	case devirt:
		esc.reason = fmt.Sprintf("passed to %s, which calls it through an interface and may be inlined", flow.name)
	}
	if flow.result[i] {
		if depth >= maxAliasDepth {
			return escape{unknown, "returned by " + flow.name + " too many times", pos}, true
		}
		esc = worse(esc, m.classify(call, depth+1))
	}
	return esc, true
}

// writerWrappers are the functions that return a value that keeps the
// io.Writer they are given and writes to it through the interface, by full
// name, with the index of that argument (-1: any of a variadic list). A
// hasher given to one escapes as soon as the value writes to it, and lives
// as long as the value. Measured with testing.AllocsPerRun on Go 1.26, a
// crc32.NewIEEE() per iteration, the wrapper used (written, copied from,
// flushed or closed) and dropped: the hasher's 1 allocation per iteration on
// top of the wrapper's own, and none once it is hoisted out of the loop and
// Reset (klauspost/compress v1.18.0 for the third-party ones). A wrapper
// whose result is dropped unused may go with it: _ = io.TeeReader(r, h) and
// _ = bufio.NewWriterSize(h, 16) make no allocation, so the model does not
// decide there.
var writerWrappers = map[string]int{
	"io.TeeReader":                     1, // it writes what is read through it
	"io.MultiWriter":                   -1,
	"bufio.NewWriter":                  0,
	"bufio.NewWriterSize":              0,
	"compress/gzip.NewWriter":          0,
	"compress/gzip.NewWriterLevel":     0,
	"compress/zlib.NewWriter":          0,
	"compress/zlib.NewWriterLevel":     0,
	"compress/zlib.NewWriterLevelDict": 0,
	"compress/flate.NewWriter":         0,
	"compress/flate.NewWriterDict":     0,
	"compress/lzw.NewWriter":           0,
	"encoding/base64.NewEncoder":       1,
	"encoding/base32.NewEncoder":       1,
	"encoding/hex.NewEncoder":          0,
	"encoding/hex.Dumper":              0,
	"encoding/json.NewEncoder":         0,
	"encoding/gob.NewEncoder":          0,
	"encoding/xml.NewEncoder":          0,
	"encoding/csv.NewWriter":           0,
	"archive/tar.NewWriter":            0,
	"archive/zip.NewWriter":            0,

	"github.com/klauspost/compress/zstd.NewWriter":           0,
	"github.com/klauspost/compress/gzip.NewWriter":           0,
	"github.com/klauspost/compress/zlib.NewWriter":           0,
	"github.com/klauspost/compress/s2.NewWriter":             0,
	"github.com/klauspost/compress/snappy.NewBufferedWriter": 0,
}

// keptByWriter is the verdict on a hasher given to fn, a writer wrapper, at
// call: the value fn returns writes to the hasher through an interface (the
// wrappers' Write methods are not inlined into their callers, or call
// through a field), so the hasher escapes, and it lives as long as that
// value: transient when the value does not outlive the call (it is used and
// dropped: reusing the hasher then is safe), what the value's own uses say
// otherwise. A pooled hasher held by such a value is given back with defer
// (see heldByWriter): the value may write to it after its last use.
func (m *flowModel) keptByWriter(call inspector.Cursor, fn *types.Func, pos token.Pos, depth int) escape {
	name := shortName(fn)
	// A value dropped unused may be removed with the hasher's escape.
	switch call.ParentEdgeKind() {
	case edge.ExprStmt_X:
		return escape{unknown, "given to " + name + ", whose result is dropped", pos}
	case edge.AssignStmt_Rhs:
		assign := call.Parent().Node().(*ast.AssignStmt)
		if id, ok := assign.Lhs[0].(*ast.Ident); ok && id.Name == "_" {
			return escape{unknown, "given to " + name + ", whose result is dropped", pos}
		}
	}
	// The call is an ancestor of the hasher's expression: following it
	// costs no depth (copies through variables do).
	r := m.classify(call, depth)
	switch r.kind {
	case outlives, unknown:
		what := "written by " + name + "'s result, which is "
		if fn.FullName() == "io.TeeReader" {
			what = "written by an io.TeeReader that is "
		}
		return escape{r.kind, what + r.reason, pos}
	}
	return escape{transient, "written by " + name, pos}
}
