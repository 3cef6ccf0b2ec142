package fixes

import (
	"fmt"
	"go/ast"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// EqualForm is a function that returns a MAC's Sum(nil), as jwt's sign does
// for Sign and Verify, with the calls whose result is only compared with a
// MAC received.
type EqualForm struct {
	// Decl is the function; Name the compare form's name, free in the
	// package, and Param the name of its MAC parameter, free in Decl.
	Decl        *ast.FuncDecl
	Name, Param string
	// Sums are the mac.Sum(nil) calls that Decl returns first, Nils the nil
	// slices it returns in their place.
	Sums, Nils []ast.Expr
	// Calls are the calls that only compare what Decl returns; Callers
	// names their functions, for the message.
	Calls   []EqualCall
	Callers string
}

// EqualCall is a call of the function whose result is only compared:
//
//	signed, err := h.sign(payload)          signed, err := h.signEqual(payload, signature)
//	...                                =>   ...
//	if !hmac.Equal(signature, signed) {     if !signed {
type EqualCall struct {
	Call    *ast.CallExpr
	Sel     *ast.Ident // the function's name in the call
	Sig     ast.Expr   // the MAC received, which the call now takes
	Compare ast.Expr   // the comparison, which the result replaces
	Result  string     // the variable the call's first result is assigned to; "" when the comparison holds the call
}

// equalForm declares the compare form of ef.Decl next to it, made of
// ef.Decl as the fix's edits so far leave it (the MAC from the pool), with
// the MAC's sum compared with the MAC received (equal, a format with the
// received MAC for %s) and false where nil was returned; and makes the calls
// that only compare the sum call it.
//
//	func (h *hsAlg) sign(p []byte) ([]byte, error) {      func (h *hsAlg) signEqual(p []byte, mac []byte) (bool, error) {
//	    mac := h.keyMACs.Get(...)                              mac := h.keyMACs.Get(...)
//	    ...                                         =>         ...
//	    return mac.Sum(nil), nil                               return mac.Equal(mac), nil
//	}                                                      }
func (f *File) equalForm(ef *EqualForm, edits []analysis.TextEdit, equal string) []analysis.TextEdit {
	type rep struct {
		start, end int
		text       string
	}
	d := ef.Decl
	base, stop := f.offset(d.Pos()), f.offset(d.End())
	var reps []rep
	for _, e := range edits {
		start, end := f.offset(e.Pos), f.offset(e.Pos)
		if e.End.IsValid() {
			end = f.offset(e.End)
		}
		// An edit of a returned sum (the one-shot HMAC's) gives way to the
		// comparison that replaces it.
		isSum := slices.ContainsFunc(ef.Sums, func(sum ast.Expr) bool { return sum.Pos() == e.Pos && sum.End() == e.End })
		if start >= base && end <= stop && !(start == stop && end == stop) && !isSum {
			reps = append(reps, rep{start, end, string(e.NewText)})
		}
	}
	reps = append(reps, rep{f.offset(d.Name.Pos()), f.offset(d.Name.End()), ef.Name})
	// A comment at the end of the line that opens the body speaks of
	// d, not of its compare form: it is not copied.
	lbrace := f.offset(d.Body.Lbrace) + 1
	eol := f.offset(f.LineEnd(d.Body.Lbrace))
	if rest := strings.TrimSpace(string(f.Src[lbrace:eol])); strings.HasPrefix(rest, "//") {
		reps = append(reps, rep{lbrace, eol, ""})
	}
	sep := ""
	if d.Type.Params.NumFields() > 0 {
		sep = ", "
	}
	// The received MAC joins the last parameter when that is a []byte
	// too, as gofmt's users write it: (msg, want []byte).
	closing, param := f.offset(d.Type.Params.Closing), sep+ef.Param+" []byte"
	if params := d.Type.Params.List; len(params) > 0 {
		if last := params[len(params)-1]; len(last.Names) > 0 && f.Text(last.Type) == "[]byte" {
			closing, param = f.offset(last.Names[len(last.Names)-1].End()), ", "+ef.Param
		}
	}
	reps = append(reps, rep{closing, closing, param})
	first := d.Type.Results.List[0].Type
	reps = append(reps, rep{f.offset(first.Pos()), f.offset(first.End()), "bool"})
	for _, sum := range ef.Sums {
		reps = append(reps, rep{f.offset(sum.Pos()), f.offset(sum.End()), strings.Replace(equal, "%s", ef.Param, 1)})
	}
	for _, n := range ef.Nils {
		reps = append(reps, rep{f.offset(n.Pos()), f.offset(n.End()), "false"})
	}
	sort.SliceStable(reps, func(i, j int) bool { return reps[i].start < reps[j].start })
	src := f.Src[base:stop]
	var b strings.Builder
	last := 0
	for _, r := range reps {
		if r.start-base < last {
			// Within text that an edit before it replaces (a return of
			// the error check that goes with a checked Write): gone with it.
			continue
		}
		b.Write(src[last : r.start-base])
		b.WriteString(r.text)
		last = r.end - base
	}
	b.Write(src[last:])
	doc := "\n\n" + docComment(fmt.Sprintf("%s reports whether %s is the MAC that %s returns, comparing in constant time without allocating the sum.", ef.Name, ef.Param, d.Name.Name))
	out := []analysis.TextEdit{{Pos: d.End(), End: d.End(), NewText: []byte(doc + b.String())}}
	for _, c := range ef.Calls {
		sep := ""
		if len(c.Call.Args) > 0 {
			sep = ", "
		}
		if c.Result == "" {
			// hmac.Equal(h.sign(p), sig)   =>   h.signEqual(p, sig)
			call := string(f.Src[f.offset(c.Call.Pos()):f.offset(c.Sel.Pos())]) + ef.Name +
				string(f.Src[f.offset(c.Sel.End()):f.offset(c.Call.Rparen)]) + sep + f.Text(c.Sig) + ")"
			out = append(out, analysis.TextEdit{Pos: c.Compare.Pos(), End: c.Compare.End(), NewText: []byte(call)})
			continue
		}
		out = append(out,
			analysis.TextEdit{Pos: c.Sel.Pos(), End: c.Sel.End(), NewText: []byte(ef.Name)},
			analysis.TextEdit{Pos: c.Call.Rparen, End: c.Call.Rparen, NewText: []byte(sep + f.Text(c.Sig))},
			analysis.TextEdit{Pos: c.Compare.Pos(), End: c.Compare.End(), NewText: []byte(c.Result)},
		)
	}
	return out
}
