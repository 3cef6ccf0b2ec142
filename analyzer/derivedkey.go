package analyzer

// A key derivation repeated with values that do not change: the shape of
// minio-go's streaming signer, which derives the same AWS signing key for
// every 64 KiB chunk it signs.
//
//	func getSigningKey(secret, loc string, t time.Time, service string) []byte {
//		date := sumHMAC([]byte("AWS4"+secret), []byte(t.Format(yyyymmdd)))
//		location := sumHMAC(date, []byte(loc))          a key derivation:
//		service := sumHMAC(location, []byte(service))   4 chained HMACs of its
//		return sumHMAC(service, []byte("aws4_request"))  parameters and constants
//	}
//
//	func buildChunkSignature(sum string, reqTime time.Time, region, prev, secret, service string) string {
//		key := getSigningKey(secret, region, reqTime, service)   <- every chunk
//		return getSignature(key, prev+sum)
//	}
//
// where every caller of buildChunkSignature passes fields of its
// *StreamingReader that only the constructor's composite literal sets: the
// derived key is the same for every chunk. The one-shot HMAC of the
// changing-key check makes each HMAC cheaper; only keeping the key removes
// the derivation.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// maxCallerDepth bounds how many levels of callers a parameter is followed
// through to decide that the value it is given is fixed.
const maxCallerDepth = 2

// checkDerivedKeys reports the calls of a key derivation of the package that
// run per item with arguments that are all fixed: the derived key does not change.
func (p *pass) checkDerivedKeys() {
	derivs := p.derivations()
	if len(derivs) == 0 {
		return
	}
	allocs := stdConstructors["crypto/hmac.New"].allocs
	for ic := range p.calls.Within(p.root) {
		cur, call := ic.Cursor, ic.Node
		fn := ic.Callee
		hmacs := derivs[fn]
		if hmacs == 0 || !p.suppress.analyzed(cur) {
			continue
		}
		caller, _, ok := p.funcOf(cur)
		// Reject a call in a function literal: how often it runs is unknown,
		// and so is the value of what it captures.
		if !ok {
			continue
		}
		decl, _ := values.EnclosingFunc(cur)
		// Reject a derivation inside another: the outer call is the one to
		// report.
		if derivs[caller] > 0 {
			continue
		}
		// Reject a derived key that is kept or handed back: the caller may
		// be the cache that derives it once.
		if !p.keyUsedInCalls(cur) {
			continue
		}
		// A fixed value is also invariant in a loop around the call: no
		// statement assigns it in a loop that its declaration is not in.
		often, loop, ok := p.often(cur, hmacRekey, hmacs*allocs)
		if !ok {
			continue // not per item, or a small part of what repeats it
		}
		fx := p.vals.Fixed(p.prod, p.Pkg, maxCallerDepth)
		fixed := true
		for _, arg := range call.Args {
			if fixed = fx.Value(arg, decl); !fixed {
				break
			}
		}
		if !fixed || call.Ellipsis.IsValid() {
			continue
		}
		// Reject fields of a value that what repeats the call does not
		// hold: the loop's function, or the root of the chain of hot
		// callers (Read of the *StreamingReader whose fields they are). A
		// value made anew per call would give a new key per call.
		repeater := caller
		if !loop.Valid() {
			repeater = p.freq.Root(caller)
		}
		if !fx.HeldBy(repeater) {
			continue
		}
		var holders []string
		for _, t := range fx.Holders {
			if name := typeName(t); !slices.Contains(holders, name) {
				holders = append(holders, name)
			}
		}
		from := "constants"
		switch {
		case len(holders) > 0:
			from = fmt.Sprintf("values fixed for each %s (%s)", strings.Join(holders, " and "), strings.Join(fx.Names, ", "))
		case len(fx.Names) > 0:
			from = fmt.Sprintf("values fixed for the package (%s)", strings.Join(fx.Names, ", "))
		}
		msg := fmt.Sprintf("%s derives a key with %d HMACs (at least %d allocations) %s, from %s: the derived key does not change",
			fn.Name(), hmacs, hmacs*allocs, often, from)
		p.report(call, hmacRekey, msg, nil, "derive it once and keep it",
			"keeping the key needs a field or a cache beside the values it is derived from")
	}
}

// keyUsedInCalls reports whether the key that the derivation call at cur
// returns is only passed to functions of the package or of the standard
// library (getSignature(key, s), hmac.New(sha256.New, key)): directly, or
// through a local variable that is used for nothing else. A key stored in a
// field, returned or handed to a method may be a cache's.
func (p *pass) keyUsedInCalls(cur inspector.Cursor) bool {
	if cur.ParentEdgeKind() == edge.CallExpr_Args {
		return p.plainFuncCall(cur.Parent().Node().(*ast.CallExpr))
	}
	v, id, fn, ok := p.model.assignedLocal(cur)
	if !ok {
		return false
	}
	for use := range p.vals.Uses(fn, v) {
		if use.Node() == id {
			continue
		}
		if use.ParentEdgeKind() != edge.CallExpr_Args || !p.plainFuncCall(use.Parent().Node().(*ast.CallExpr)) {
			return false
		}
	}
	return true
}

// plainFuncCall reports whether call calls a function, not a method or a
// function value: one of the package or of another package, named.
func (p *pass) plainFuncCall(call *ast.CallExpr) bool {
	fn := typeutil.StaticCallee(p.TypesInfo, call)
	return fn != nil && fn.Signature().Recv() == nil
}

// derivations returns the key derivations of the package, each with the
// number of HMACs it computes per call (at least 2): functions whose result
// is an HMAC computed, in straight-line code, from their parameters and
// constants only (see hmacsOf).
func (p *pass) derivations() map[*types.Func]int {
	derivs := map[*types.Func]int{}
	memo := map[*types.Func]int{}
	for fn, decl := range p.vals.Funcs(p.root.Inspector()) {
		n := p.hmacsOf(fn, memo)
		if n < 2 || fn.Signature().Results().Len() != 1 || !values.IsBytes(fn.Signature().Results().At(0).Type()) {
			continue
		}
		if p.returnsHMAC(decl, memo) {
			derivs[fn] = n
		}
	}
	return derivs
}

// hmacsOf returns how many HMACs the function fn of the package computes
// per call when what it returns depends only on its parameters and on
// constants, or -1 when it may depend on more or its count is unknown. Its
// body must be straight-line code (no loop, branch, function literal, go,
// defer or channel operation) whose calls are conversions, builtins,
// hmac.New and the methods of its hash.Hash, methods of standard-library
// values (t.Format), functions of pureStdPkgs, and functions of the package
// that pass this test themselves; it reads no field and no package
// variable that the package writes. memo holds the answers so far.
func (p *pass) hmacsOf(fn *types.Func, memo map[*types.Func]int) int {
	if n, ok := memo[fn]; ok {
		return n
	}
	memo[fn] = -1 // in a cycle: unknown
	cur, ok := p.decl(fn)
	if !ok || fn.Signature().Recv() != nil || fn.Signature().TypeParams() != nil {
		return -1
	}
	decl := cur.Node().(*ast.FuncDecl)
	if decl.Body == nil {
		return -1
	}
	n, pure := 0, true
	ast.Inspect(decl.Body, func(node ast.Node) bool {
		if !pure {
			return false
		}
		switch node := node.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt, *ast.ForStmt, *ast.RangeStmt, *ast.IfStmt,
			*ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.SendStmt, *ast.LabeledStmt, *ast.BranchStmt:
			pure = false
		case *ast.UnaryExpr:
			pure = node.Op != token.ARROW
		case *ast.SelectorExpr:
			if sel, ok := p.TypesInfo.Selections[node]; ok && sel.Kind() == types.FieldVal {
				pure = false // a field: of a parameter, or of anything else
			}
		case *ast.Ident:
			if v, ok := p.TypesInfo.Uses[node].(*types.Var); ok && v.Parent() == v.Pkg().Scope() {
				pure = v.Pkg() == p.Pkg && p.fixedPackageVar(v)
			}
		case *ast.CallExpr:
			k, ok := p.callHMACs(node, memo)
			n, pure = n+k, ok
		}
		return pure
	})
	if !pure {
		return -1
	}
	memo[fn] = n
	return n
}

// pureStdPkgs are the packages of the standard library whose functions
// compute their result from their arguments alone.
var pureStdPkgs = map[string]bool{
	"bytes":         true,
	"encoding/hex":  true,
	"strconv":       true,
	"strings":       true,
	"unicode/utf8":  true,
	"crypto/sha256": true,
	"crypto/sha512": true,
}

// callHMACs returns how many HMACs the call computes, and false when it may
// read or do more than its arguments say (see hmacsOf).
func (p *pass) callHMACs(call *ast.CallExpr, memo map[*types.Func]int) (int, bool) {
	if tv, ok := p.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
		return 0, true // a conversion
	}
	switch values.Builtin(p.TypesInfo, call) {
	case "":
	case "len", "cap", "append", "copy", "make":
		return 0, true
	default:
		return 0, false
	}
	fn := typeutil.StaticCallee(p.TypesInfo, call)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := p.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodVal {
			// The MAC's own methods, and methods of a standard value such as
			// time.Time.Format (a pointer or an interface could be shared).
			if values.IsNamed(s.Recv(), "hash", "Hash", false) {
				return 0, true
			}
			recv := s.Obj().(*types.Func).Signature().Recv()
			if fn == nil || recv == nil || fn.Pkg() == nil || !isStdPkg(fn.Pkg().Path()) {
				return 0, false
			}
			if _, ptr := recv.Type().(*types.Pointer); ptr || types.IsInterface(recv.Type()) {
				return 0, false
			}
			return 0, true
		}
	}
	switch {
	case fn == nil || fn.Pkg() == nil:
		return 0, false
	case funcKey(fn) == "crypto/hmac.New":
		return 1, true
	case fn.Pkg() == p.Pkg:
		n := p.hmacsOf(fn, memo)
		return n, n >= 0
	}
	return 0, pureStdPkgs[fn.Pkg().Path()]
}

// isStdPkg reports whether path is a package of the standard library.
func isStdPkg(path string) bool {
	return !strings.Contains(strings.SplitN(path, "/", 2)[0], ".")
}

// returnsHMAC reports whether every return statement of the function
// declared at decl returns an HMAC: mac.Sum(...), a call of a function of
// the package that computes HMACs, or a local variable that holds one of
// those only.
func (p *pass) returnsHMAC(decl inspector.Cursor, memo map[*types.Func]int) bool {
	returns := 0
	for ret := range decl.Preorder((*ast.ReturnStmt)(nil)) {
		results := ret.Node().(*ast.ReturnStmt).Results
		if len(results) != 1 {
			return false
		}
		e := ast.Unparen(results[0])
		if v, ok := p.TypesInfo.Uses[values.IdentOf(e)].(*types.Var); ok && values.IdentOf(e) == e {
			if e, _, ok = p.vals.Only(decl, v); !ok {
				return false
			}
		}
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sum" {
			if s, ok := p.TypesInfo.Selections[sel]; !ok || !values.IsNamed(s.Recv(), "hash", "Hash", false) {
				return false
			}
		} else if fn := typeutil.StaticCallee(p.TypesInfo, call); fn == nil || fn.Pkg() != p.Pkg || memo[fn] <= 0 {
			return false
		}
		returns++
	}
	return returns > 0
}
