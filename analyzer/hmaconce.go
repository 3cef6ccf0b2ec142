package analyzer

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/hashalloc/hashalloc/fixes"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// oneShotHMACs maps the hash constructors that hmac.New is given to the
// runtime's one-shot HMAC of the same hash (hashsum.AppendHMACSHA256, ...).
var oneShotHMACs = map[string]string{
	"crypto/sha256.New":        "SHA256",
	"crypto/sha256.New224":     "SHA224",
	"crypto/sha512.New":        "SHA512",
	"crypto/sha512.New384":     "SHA384",
	"crypto/sha512.New512_224": "SHA512_224",
	"crypto/sha512.New512_256": "SHA512_256",
	"crypto/sha1.New":          "SHA1",
	"crypto/md5.New":           "MD5",
}

// checkChangingKey reports hmac.New(h, key) with a key that changes from
// call to call, on every iteration of a loop or every call of a proven hot
// function: 5 allocations each time, where the runtime's one-shot HMAC
// (inner and outer hashers on the stack) makes none.
func (p *pass) checkChangingKey(s *Site, what string) {
	often, _, ok := p.frequency(s.cur, true)
	if !ok {
		return // cold: one MAC per call is fine
	}
	msg := fmt.Sprintf("%s %s, with a key that changes each time", what, often)
	fix, why := p.oneShotFix(s)
	p.report(s.Call, hmacRekey, msg, fix, "compute it with a one-shot HMAC", why)
}

// oneShotFix computes the MAC with the runtime's one-shot HMAC when it is
// built, written and summed in consecutive statements:
//
//	mac := hmac.New(sha256.New, key)
//	mac.Write(a)
//	mac.Write(b)                       =>
//	tag = mac.Sum(nil)                      tag = hashsum.AppendHMACSHA256(nil, key, a, b)
//
// The key and the parts move to the Sum, so they must be plain expressions
// (nothing between can change them: the statements are consecutive).
func (p *pass) oneShotFix(s *Site) (*analysis.SuggestedFix, string) {
	f := p.file(s.Call.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	def, why := p.definition(s)
	if def == nil {
		return nil, why
	}
	hash := p.TypesInfo.Uses[identOf(s.Call.Args[0])]
	fn, ok := hash.(*types.Func)
	if !ok || fn.Signature().Recv() != nil || fn.Pkg() == nil {
		return nil, "the hash function is not a standard constructor"
	}
	name, ok := oneShotHMACs[p.funcKey(fn)]
	if !ok {
		return nil, "the runtime has no one-shot HMAC of " + shortName(fn)
	}
	if !plainExpr(s.Call.Args[1]) && !p.plainConversion(s.Call.Args[1]) {
		return nil, "the key is not a plain expression"
	}
	mac := p.TypesInfo.Defs[def.Lhs[0].(*ast.Ident)].(*types.Var)
	defCur := s.cur.Parent()
	switch defCur.ParentEdgeKind() {
	case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
	default:
		return nil, "the MAC is not defined in a statement list"
	}
	// The statements after the definition: Writes, then the one with the Sum.
	var parts []ast.Expr
	var writes []ast.Stmt
	var sum *ast.CallExpr
	for next, ok := defCur.NextSibling(); ok && sum == nil; next, ok = next.NextSibling() {
		if w := p.macWrite(next.Node(), mac); w != nil {
			if !plainExpr(w) && !p.plainConversion(w) {
				return nil, types.ExprString(w) + " is not a plain expression"
			}
			parts = append(parts, w)
			writes = append(writes, next.Node().(ast.Stmt))
			continue
		}
		sum = p.macSum(next, mac)
		if sum == nil {
			return nil, "the MAC is used for more than Write and one Sum"
		}
	}
	if sum == nil || len(parts) == 0 {
		return nil, "the MAC is not written and summed in the statements that follow"
	}
	// Every use of the MAC must be one of those.
	fnCur, _ := enclosingFunc(s.cur)
	uses := 0
	for id := range fnCur.Preorder((*ast.Ident)(nil)) {
		if p.TypesInfo.Uses[id.Node().(*ast.Ident)] == mac {
			uses++
		}
	}
	if uses != len(parts)+1 {
		return nil, "the MAC is used for more than Write and one Sum"
	}
	// -pool=inline declares the same one-shot HMAC in the file.
	ctor := p.funcKey(fn)
	_, keySum := splitQualified(ctorSums[ctor])
	fix := fixes.OneShotHMAC(f, def, writes, sum, fixes.OneShotSpec{
		Runtime: name,
		Key:     s.Call.Args[1],
		Parts:   parts,
		Inline:  p.inlinePools(),
		Ctor:    ctor,
		KeySum:  keySum,
		Size:    digestSizes[ctor],
	})
	return &fix, ""
}

// macWrite returns the argument of a statement mac.Write(x), or nil.
func (p *pass) macWrite(n ast.Node, mac *types.Var) ast.Expr {
	es, ok := n.(*ast.ExprStmt)
	if !ok {
		return nil
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Write" || p.TypesInfo.Uses[identOf(sel.X)] != mac {
		return nil
	}
	return call.Args[0]
}

// macSum returns the one call mac.Sum(x) in the statement at cur, not in a
// function literal, or nil.
func (p *pass) macSum(cur inspector.Cursor, mac *types.Var) *ast.CallExpr {
	var found *ast.CallExpr
	for c := range cur.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || p.TypesInfo.Uses[identOf(sel.X)] != mac {
			continue
		}
		if sel.Sel.Name != "Sum" || len(call.Args) != 1 || found != nil || insideFuncLit(c, cur) {
			return nil
		}
		found = call
	}
	return found
}

// plainConversion reports whether e converts a plain expression: []byte(s).
func (p *pass) plainConversion(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	tv, ok := p.TypesInfo.Types[call.Fun]
	return ok && tv.IsType() && plainExpr(call.Args[0])
}

// splitQualified splits "importpath.Func" at its last dot.
func splitQualified(qualified string) (path, name string) {
	dot := strings.LastIndex(qualified, ".")
	return qualified[:dot], qualified[dot+1:]
}
