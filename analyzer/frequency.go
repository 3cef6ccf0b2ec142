package analyzer

// How often code runs: the shared judgement of the per-iteration and
// per-call checks.

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// frequency says how often the code at cur runs when that is often enough to
// report an allocation there: "on every iteration of the loop at f.go:12"
// (and that loop), or "on every call of f, which is hot (why)". It returns
// false for code that runs once per call of a cold function, or in a function
// literal outside any loop of its own (how often that runs is unknown). With
// proven, a function must be hot by strong evidence (see hotness.proven).
func (p *pass) frequency(cur inspector.Cursor, proven bool) (string, inspector.Cursor, bool) {
	if loop, ok := enclosingLoop(cur, false); ok {
		if p.publicKeyOp(loop.Node()) {
			return "", inspector.Cursor{}, false
		}
		return "on every iteration of the loop at " + p.position(loop.Node().Pos()), loop, true
	}
	fn, decl, ok := p.funcOf(cur)
	if !ok || p.publicKeyOp(decl.Body) {
		return "", inspector.Cursor{}, false
	}
	hot := p.hot.explain(fn)
	if hot == "" || proven && !p.hot.proven(fn) {
		return "", inspector.Cursor{}, false
	}
	return fmt.Sprintf("on every call of %s, which is hot (%s)", fn.Name(), hot), inspector.Cursor{}, true
}

// publicKeyPkgs are the packages of public-key signatures and key agreement.
var publicKeyPkgs = map[string]bool{
	"crypto/rsa":                  true,
	"crypto/ecdsa":                true,
	"crypto/ed25519":              true,
	"crypto/ecdh":                 true,
	"crypto/elliptic":             true,
	"crypto/dsa":                  true,
	"golang.org/x/crypto/ed25519": true,
}

// costlyBigInt are the methods of *big.Int that cost as much as a signature:
// modular exponentiation, inversion and square roots, primality tests, the
// arithmetic of the curves and groups that the standard library does not
// hold.
var costlyBigInt = map[string]bool{
	"Exp":           true,
	"ModInverse":    true,
	"ModSqrt":       true,
	"ProbablyPrime": true,
}

// publicKeyOp reports whether n calls a public-key operation: a function or
// method of publicKeyPkgs, the Sign method of a crypto.Signer, or a method of
// costlyBigInt. A signature
// made or verified costs tens of microseconds or more, beside which the
// hasher or the digest that feeds it is noise (the corpus: x509's
// checkSignature, a hasher per signature checked while building chains).
func (p *pass) publicKeyOp(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		if f, ok := typeutil.Callee(p.TypesInfo, call).(*types.Func); ok && f.Pkg() != nil {
			recv := f.Signature().Recv()
			found = publicKeyPkgs[f.Pkg().Path()] ||
				recv != nil && (f.Name() == "Sign" && isNamed(recv.Type(), "crypto", "Signer", false) ||
					costlyBigInt[f.Name()] && isNamed(recv.Type(), "math/big", "Int", true))
		}
		return !found
	})
	return found
}
