package fixes

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// LoopHelperSpec describes a helper that makes a MAC, writes it and returns its
// Sum, called in a loop whose iterations give it the same key, for
// HelperReset.
type LoopHelperSpec struct {
	// Decl is the helper's declaration.
	Decl *ast.FuncDecl
	// Def is the statement that makes the MAC (mac := hmac.New(sha256.New,
	// key), mac, err := s.mac(key)); Check, when not nil, the statement
	// that checks its error, right after it.
	Def   *ast.AssignStmt
	Check ast.Stmt
	// Err is the error that Def defines beside the MAC, if any.
	Err *types.Var
	// MAC is the type of the MAC's variable (hash.Hash).
	MAC types.Type
	// Param is the name of the parameter that the fix adds to the helper,
	// and Key the name of its key parameter.
	Param, Key string
	// Loop is the statement that the loop's variable is declared before
	// (the loop, or its label); Call the helper's call in the loop, and
	// Var the name of the loop's variable.
	Loop ast.Stmt
	Call *ast.CallExpr
	Var  string
}

// HelperReset keeps one MAC across the iterations of a loop that calls a
// helper with a key the loop does not change: the helper takes the MAC as
// a pointer to the loop's variable, makes it on the first call and Resets
// it on the next ones.
//
//	func (s F) hmac(key, extra []byte) ([]byte, error) {     func (s F) hmac(keyMAC *hash.Hash, key, extra []byte) ([]byte, error) {
//	    mac, err := s.mac(key)                                    // *keyMAC keeps the MAC of key across its caller's loop:
//	    if err != nil {                                           // made by the first call, Reset by the next ones.
//	        return nil, err                                       mac := *keyMAC
//	    }                                                         if mac == nil {
//	    mac.Write(extra)                                              var err error
//	    return mac.Sum(nil), nil                                      mac, err = s.mac(key)
//	}                                                   =>            if err != nil {
//	                                                                      return nil, err
//	for i := 2; i <= n; i++ {                                         }
//	    ui, err := s.hmac(password, prev)                             *keyMAC = mac
//	                                                              } else {
//	                                                                  mac.Reset()
//	                                                              }
//	                                                              mac.Write(extra)
//	                                                              return mac.Sum(nil), nil
//	                                                          }
//
//	                                                          var passwordMAC hash.Hash
//	                                                          for i := 2; i <= n; i++ {
//	                                                              ui, err := s.hmac(&passwordMAC, password, prev)
//
// The first call makes the MAC where the helper made it, and returns the
// same error if it fails (the next call then tries again, as before); a
// loop that does not run makes none. The caller has proved that the helper
// does nothing with the MAC but write it and return one Sum, that the loop
// is its only call, in the same file, and that the MAC is made of what the
// loop does not change (its key, and the receiver its choice reads).
func HelperReset(f *File, spec LoopHelperSpec) analysis.SuggestedFix {
	im := f.Imports(spec.Decl.Type.Params.Opening, spec.Loop.Pos())
	macType := f.TypeText(spec.MAC, im)
	indent := f.Indent(spec.Def.Pos())
	mac := spec.Def.Lhs[0].(*ast.Ident).Name

	// The statements that made the MAC and checked its error, one level
	// deeper, the definition turned into an assignment.
	last := ast.Stmt(spec.Def)
	if spec.Check != nil {
		last = spec.Check
	}
	made := f.Text(spec.Def.Lhs[0])
	for _, lhs := range spec.Def.Lhs[1:] {
		made += ", " + f.Text(lhs)
	}
	// A comment that ends the last line goes with it.
	end := f.LineEnd(last.End())
	made += " = " + string(f.Src[f.offset(spec.Def.TokPos)+len(token.DEFINE.String()):f.offset(end)])
	lines := strings.Split(made, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			lines[i] = "\t" + lines[i]
		}
	}
	made = strings.Join(lines, "\n")

	var b strings.Builder
	b.WriteString("// *" + spec.Param + " keeps the MAC of " + spec.Key + " across its caller's loop:\n")
	b.WriteString(indent + "// made by the first call, Reset by the next ones.\n")
	b.WriteString(indent + mac + " := *" + spec.Param + "\n")
	b.WriteString(indent + "if " + mac + " == nil {\n")
	if spec.Err != nil {
		b.WriteString(indent + "\tvar " + spec.Err.Name() + " " + f.TypeText(spec.Err.Type(), im) + "\n")
	}
	b.WriteString(indent + "\t" + made + "\n")
	b.WriteString(indent + "\t*" + spec.Param + " = " + mac + "\n")
	b.WriteString(indent + "} else {\n")
	b.WriteString(indent + "\t" + mac + ".Reset()\n")
	b.WriteString(indent + "}")

	before := spec.Loop.Pos()
	edits := []analysis.TextEdit{
		{
			Pos:     spec.Decl.Type.Params.Opening + 1,
			End:     spec.Decl.Type.Params.Opening + 1,
			NewText: []byte(spec.Param + " *" + macType + ", "),
		},
		{Pos: spec.Def.Pos(), End: end, NewText: []byte(b.String())},
		{
			Pos:     before,
			End:     before,
			NewText: []byte("var " + spec.Var + " " + macType + "\n" + f.Indent(before)),
		},
		{Pos: spec.Call.Lparen + 1, End: spec.Call.Lparen + 1, NewText: []byte("&" + spec.Var + ", ")},
	}
	edits = append(edits, im.Edits()...)
	return analysis.SuggestedFix{
		Message: "Keep one MAC across the loop in " + spec.Var + ", which " + spec.Decl.Name.Name +
			" makes on the first call and Resets on the next ones",
		TextEdits: edits,
	}
}
