package analyzer

// What the rewrites share: the definition a fix replaces, hoisting out of a
// loop, where a pooled value is given back, the file a fix edits.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// definition returns the h := ctor(...) statement that defines the hasher
// of s, and h, or why there is none that a fix can rewrite. With branches it
// also returns h = ctor(), or h := ctor(), of a variable of the function's
// body that other statements assign: a case of a switch on the algorithm
// (var h hash.Hash; switch n { case 224: h = sha256.New224() ... }), or
// h := sha1.New() that a branch replaces. A pool serves each branch when it
// gives the hasher back with defer right after the Get: the deferred Put
// reads h there, so it gives back that branch's hasher whatever h holds
// later (the caller has proved that the hasher does not outlive the call).
func (p *pass) definition(s *Site, branches bool) (*ast.AssignStmt, *types.Var, string) {
	if s.cur.ParentEdgeKind() != edge.AssignStmt_Rhs {
		return nil, nil, "the hasher is not assigned to a variable"
	}
	assign := s.cur.Parent().Node().(*ast.AssignStmt)
	// Accept h, _ := blake2b.New256(nil) and h, err := ...: the hasher is
	// defined beside the constructor's error (which a fix either proves nil
	// or leaves alone). Reject v, h := x, ctor(): moving or rewriting one
	// half of the assignment would change the other.
	lhs := len(assign.Lhs)
	if _, ok := assign.Lhs[lhs-1].(*ast.Ident); ok && lhs == 2 && values.IsError(p.TypesInfo.TypeOf(assign.Lhs[1])) && assign.Tok == token.DEFINE {
		lhs = 1
	}
	id, ok := assign.Lhs[0].(*ast.Ident)
	fn, inFunc := values.EnclosingFunc(s.cur)
	v, _ := p.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || !inFunc || v == nil || lhs != 1 || len(assign.Rhs) != 1 {
		return nil, nil, "the hasher is not defined alone by h := ..."
	}
	// Reject a variable assigned again (h = sha512.New() in a branch): hoisted,
	// or pooled until its last use, it would hold the other branch's hasher.
	why := ""
	if assign.Tok == token.ASSIGN || p.vals.Written(fn, v) {
		if why = id.Name + " is assigned in more than one place: which hasher it holds depends on the branch taken"; !branches {
			return nil, nil, why
		}
	}
	// Reject "if h := ctor(); ...": only a statement list can take the
	// statements a fix adds.
	if !isListEdge(s.cur.Parent().ParentEdgeKind()) {
		return nil, nil, "the definition is not a statement of its own"
	}
	if why == "" {
		return assign, v, ""
	}
	// Reject a parameter, a result or a variable of an outer function, a
	// loop around the assignment (a deferred Put per iteration would keep
	// every iteration's hasher until the function returns), and a use in a
	// function literal (which may run after the deferred Put, when the
	// pooled hasher is another caller's).
	if _, ok := frequency.EnclosingLoop(s.cur, false); ok {
		return nil, nil, why + ", and a deferred Put of each branch's hasher would run only when the function returns, after every iteration of the loop around it"
	}
	if d, ok := p.vals.Def(fn, v); !ok || d.ParentEdgeKind() == edge.Field_Names {
		return nil, nil, why + ", and " + id.Name + " is not a variable of the function's body, which a deferred Put of each branch's hasher would need"
	}
	for use := range p.vals.Uses(fn, v) {
		if insideFuncLit(use, fn) {
			return nil, nil, why + ", and a function literal uses " + id.Name + ", which may run after a deferred Put gives the pooled hasher back"
		}
	}
	return assign, v, ""
}

// hoistFix moves the hasher's definition in front of the outermost loop
// around it (up to the function) in which the constructor's arguments do not
// change, and resets it per iteration.
func (p *pass) hoistFix(s *Site, loop inspector.Cursor) (*analysis.SuggestedFix, string) {
	def, _, why := p.definition(s, false)
	if def == nil {
		return nil, why
	}
	// Reject a wrapper that may panic: hoisted, it would run, and could
	// panic, before a loop that does not run.
	if s.ctor.panics {
		return nil, s.ctor.name + " may panic, and hoisted it would run even when the loop does not"
	}
	// Reject a wrapper that chooses its constructor at run time: hoisted,
	// it would choose once, from values that may change in the loop.
	if s.ctor.choice != "" {
		return nil, s.ctor.name + " chooses at run time which of " + s.ctor.choice + " to call, and hoisted it would choose once instead of once per iteration"
	}
	// Reject a wrapper keyed with the bytes its argument points to: they
	// may change in the loop while the pointer does not.
	if s.ctor.pointee {
		return nil, s.ctor.name + " reads the bytes its argument points to, which may change in the loop while the pointer does not"
	}
	// Reject a function value that may be anything but a known
	// constructor: hoisted, a call that may do more than make a hasher
	// would run once instead of once per iteration.
	if s.ctor.funcValue && !p.constructorsOnly(s.Call.Fun, false) {
		return nil, "what " + types.ExprString(s.Call.Fun) + " calls is not known, and hoisted it would run once instead of once per iteration"
	}
	name := def.Lhs[0].(*ast.Ident).Name
	// Reject h, err := ctor(): hoisted, err would be defined outside the
	// loop, and the statements that read it would read it there.
	if len(def.Lhs) == 2 && def.Lhs[1].(*ast.Ident).Name != "_" {
		return nil, def.Lhs[1].(*ast.Ident).Name + " is defined beside the hasher, and hoisted it would be defined outside the loop"
	}
	// Reject a name that is already in scope where the hasher is defined:
	// after the move, the Reset would act on the new hasher, and the other
	// variable would be shadowed.
	if scope := p.Pkg.Scope().Innermost(def.Pos()); scope != nil {
		if _, obj := scope.LookupParent(name, def.Pos()); obj != nil {
			return nil, name + " is already declared outside the definition"
		}
	}
	var target inspector.Cursor
	for l, ok := loop, true; ok; l, ok = frequency.EnclosingLoop(l, false) {
		if invariant, why := p.argsInvariant(s, l); !invariant {
			if !target.Valid() {
				return nil, why
			}
			break
		}
		// Reject a loop whose block declares the name elsewhere: the hoisted
		// definition would collide with it.
		_, block, inList := listStatement(l)
		if scope := p.TypesInfo.Scopes[block]; !inList || scope == nil || scope.Lookup(name) != nil {
			break
		}
		target = l
	}
	if !target.Valid() {
		return nil, name + " is declared again in the block of the loop"
	}
	before := target.Node().(ast.Stmt)
	if target.ParentEdgeKind() == edge.LabeledStmt_Stmt {
		before = target.Parent().Node().(ast.Stmt)
	}
	f := p.file(s.Call.Pos())
	if f == nil {
		return nil, "the source file cannot be read"
	}
	fix := fixes.Hoist(f, before, def)
	return &fix, ""
}

// argsInvariant reports whether every argument of the constructor (and its
// receiver, for crypto.Hash.New) keeps its value across loop's iterations.
func (p *pass) argsInvariant(s *Site, loop inspector.Cursor) (bool, string) {
	exprs := append([]ast.Expr(nil), s.Call.Args...)
	if s.ctor.funcValue {
		exprs = append(exprs, s.Call.Fun) // the function value, e.g. algos[alg]
	} else if sel, ok := ast.Unparen(s.Call.Fun).(*ast.SelectorExpr); ok {
		if _, isPkg := p.TypesInfo.Uses[values.IdentOf(sel.X)].(*types.PkgName); !isPkg {
			exprs = append(exprs, sel.X) // a method receiver, e.g. alg in alg.New()
		}
	}
	for _, e := range exprs {
		if ok, why := p.invariant(e, loop, s.Call); !ok {
			return false, why
		}
	}
	return true, ""
}

// fixFiles are the files of the package that fixes edit, each read once,
// and the package-level names that the fixes declare in them.
type fixFiles struct {
	byFile map[*token.File]*fixes.File
	names  *fixes.PackageNames
}

// file returns the fixes.File that holds pos.
func (p *pass) file(pos token.Pos) *fixes.File {
	tf := p.Fset.File(pos)
	if f, ok := p.files.byFile[tf]; ok {
		return f
	}
	if p.files.byFile == nil {
		p.files.byFile = map[*token.File]*fixes.File{}
	}
	for _, f := range p.Files {
		if p.Fset.File(f.FileStart) != tf {
			continue
		}
		src, err := p.ReadFile(tf.Name())
		if err != nil {
			return nil
		}
		if p.files.names == nil {
			p.files.names = &fixes.PackageNames{Pkg: p.Pkg, Reserved: p.reservedNames()}
			for _, f := range p.Files {
				p.files.names.FileScopes = append(p.files.names.FileScopes, p.TypesInfo.Scopes[f])
			}
		}
		file := &fixes.File{Fset: p.Fset, AST: f, Src: src, Info: p.TypesInfo, Pkg: p.Pkg,
			Version: p.TypesInfo.FileVersions[f], Names: p.files.names}
		p.files.byFile[tf] = file
		return file
	}
	return nil
}

// releasePoint returns the statement after which a pooled value v, defined
// by the statement at def, can be given back: the last statement of def's
// list that uses v, when the code from def to it is straight-line (no return
// or branch, no use of v in a function literal, which could run later). It
// returns nil when the value must be given back with defer.
//
// With inLoop (def is in a loop's body), a return, break or continue on the
// way is allowed, a goto in the rest of the list is not: a Put right after
// the last use runs at most once per iteration, after every use, and a path
// that leaves the list before it (on an error) drops the value, which a pool
// tolerates: the garbage collector takes it, as without the pool.
func (p *pass) releasePoint(def inspector.Cursor, v *types.Var, inLoop bool) ast.Stmt {
	if p.heldByWriter(def, v) || !isListEdge(def.ParentEdgeKind()) {
		return nil
	}
	var last ast.Stmt
list:
	for stmt, ok := def.NextSibling(); ok; stmt, ok = stmt.NextSibling() {
		uses, straight := p.usesIn(stmt, v, inLoop)
		switch {
		case uses && !straight, !straight && inLoop:
			return nil
		case uses:
			last = stmt.Node().(ast.Stmt)
		case !straight && last != nil:
			// A branch after the last use so far: fine only if no use follows.
			for rest := stmt; rest.Valid(); rest, _ = rest.NextSibling() {
				if u, _ := p.usesIn(rest, v, false); u {
					return nil
				}
			}
			break list
		}
	}
	if _, ret := last.(*ast.ReturnStmt); ret {
		return nil
	}
	return last
}

// usesIn reports whether the statement at cur uses v, and whether it is
// straight-line code: no use of v in a function literal, and no return or
// branch (with inLoop, no goto, even in a function literal).
func (p *pass) usesIn(cur inspector.Cursor, v *types.Var, inLoop bool) (uses, straight bool) {
	straight = true
	for n := range cur.Preorder((*ast.Ident)(nil), (*ast.ReturnStmt)(nil), (*ast.BranchStmt)(nil)) {
		switch node := n.Node().(type) {
		case *ast.Ident:
			if p.TypesInfo.Uses[node] == v {
				uses = true
				if insideFuncLit(n, cur) {
					straight = false
				}
			}
		case *ast.BranchStmt:
			if inLoop && node.Tok == token.GOTO || !inLoop && !insideFuncLit(n, cur) {
				straight = false
			}
		default:
			if !inLoop && !insideFuncLit(n, cur) {
				straight = false
			}
		}
	}
	return uses, straight
}

// reservedNames returns the names that the package's files outside the
// pass declare at package level or import: its _test.go files of the same
// package when tests are not analyzed, and its files for other platforms
// or build tags. A file that cannot be read or parsed reserves nothing.
func (p *pass) reservedNames() map[string]bool {
	if len(p.Files) == 0 {
		return nil
	}
	names := map[string]bool{}
	_, files := p.outsideFiles()
	for _, f := range files {
		if f.Name.Name != p.Pkg.Name() {
			continue // an external test package
		}
		for _, imp := range f.Imports {
			if imp.Name != nil {
				names[imp.Name.Name] = true
			} else if path, err := strconv.Unquote(imp.Path.Value); err == nil {
				names[pathpkg.Base(path)] = true // the package's name, as a rule
			}
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.ValueSpec:
						for _, id := range s.Names {
							names[id.Name] = true
						}
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					}
				}
			}
		}
	}
	return names
}

// outsideFiles parses, by their syntax alone, the .go files of the
// package's directory that the pass does not hold (its _test.go files when
// tests are not analyzed, its files for other platforms or build tags), in
// the order of their names; a file that cannot be read or parsed is left
// out.
func (p *pass) outsideFiles() (*token.FileSet, []*ast.File) {
	return p.dirFiles(func(path string) bool {
		return !slices.ContainsFunc(p.Files, func(f *ast.File) bool { return p.Fset.File(f.FileStart).Name() == path })
	})
}

// testFiles returns the test files of the package's directory, parsed by
// their syntax alone (a pass of the package without its tests does not hold
// them), with the file set that positions them (see testPos): what the
// package's tests do is read by syntax, so that a package and its test
// variant give the same verdict.
func (p *pass) testFiles() (*token.FileSet, []*ast.File) {
	return p.dirFiles(func(path string) bool { return strings.HasSuffix(path, "_test.go") })
}

// dirFiles parses the .go files of the package's directory whose paths keep
// accepts, in the order of their names, leaving out a file that cannot be
// read or parsed.
func (p *pass) dirFiles(keep func(path string) bool) (*token.FileSet, []*ast.File) {
	fset := token.NewFileSet()
	if len(p.Files) == 0 {
		return fset, nil
	}
	dir := filepath.Dir(p.Fset.File(p.Files[0].FileStart).Name())
	paths, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var files []*ast.File
	for _, path := range paths {
		if !keep(path) {
			continue
		}
		if f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution); err == nil {
			files = append(files, f)
		}
	}
	return fset, files
}

// heldByWriter reports whether the function around def gives v to a writer
// wrapper (io.MultiWriter, bufio.NewWriter, io.TeeReader, ...; see
// writerWrappers), directly or converted: the value the wrapper returns
// writes to v, possibly after v's last use in the code, so a pooled v must
// not be given back before the end of the call.
func (p *pass) heldByWriter(def inspector.Cursor, v *types.Var) bool {
	fn, ok := values.EnclosingFunc(def)
	if !ok {
		return false
	}
	for use := range p.vals.Uses(fn, v) {
		arg := use
		for {
			arg = outerParens(arg)
			if arg.ParentEdgeKind() != edge.CallExpr_Args {
				break
			}
			call := arg.Parent().Node().(*ast.CallExpr)
			if tv, ok := p.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
				arg = arg.Parent() // io.Writer(h)
				continue
			}
			if callee := typeutil.StaticCallee(p.TypesInfo, call); callee != nil {
				if _, ok := writerWrappers[callee.FullName()]; ok {
					return true
				}
			}
			break
		}
	}
	return false
}
