package analyzer

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// Across packages. A function that allocates a hasher, an HMAC or a
// concatenation on every call cannot know, in its own package, that another
// package calls it in a loop; the caller's package cannot see the
// allocation. So the function's package exports a fact, allocsPerCall, for
// each exported function or method that allocates on every call, directly
// or through the functions it calls (in its package or, through their own
// facts, in others); and a package whose call of one runs per item, by the
// frequency model, is told at that call, without a fix: the fix belongs to the
// callee's package, where the allocation is.
//
// "On every call" means on every path that does not return early: the
// allocation is not under an if, a case, a loop body, a function literal or
// the right side of && and ||, and no statement before it returns, except an
// if that returns an error. A hasher that the function returns or stores is
// meant to be kept, not per-call waste, and a standard hasher that stays on
// the stack costs nothing: neither is a fact.
//
// What facts cannot carry: hotness flows from callers to callees, and facts
// only from a package to the packages that import it. So a package learns
// nothing of the loops of the packages that import it: a function called in
// a loop from another package is not hot in its own package, and its
// per-call findings (hasher-alloc, sum-alloc per call, hot-buffer) stay
// silent there; the finding is at the caller's call instead. A profile
// (-profile) is the way to make such a function hot in its own package.
// Calls through interfaces and function values are not followed, and a
// caller is told only about callees of its own module: a dependency's
// per-call allocation is not the caller's to fix.

// allocsPerCall is the fact that a function or method allocates on every
// call, with the first such allocation.
type allocsPerCall struct {
	Category string // the category of the allocation: hasher-alloc or concat-hash
	What     string // what allocates: "blake2b.New256(nil) always allocates its hasher"
	Func     string // the function where it allocates: "cryptoutil.Blake2b256Hash"
	Pkg      string // that function's package path
	Pos      string // where it allocates: "cryptoutil.go:9"
	Allocs   int    // allocations per call, counting every one known
	Module   string // the module of Pkg, "" when the driver does not say
	// Reported is set when each of those allocations is reported where it
	// is, because the function that makes it runs per item by its own
	// package's evidence: its callers are not told again.
	Reported bool
}

func (*allocsPerCall) AFact() {}

func (f *allocsPerCall) String() string {
	s := fmt.Sprintf("allocates %s per call: %s (%s at %s)", plural(f.Allocs, "time"), f.What, f.Func, f.Pos)
	if f.Reported {
		s += ", reported there"
	}
	return s
}

// perCall is what one function of the package allocates on every call: all
// of it (exported as a fact), and what of it is allocated in other packages
// (told at its callers in this package), with the function of this package
// that calls into the other package.
type perCall struct {
	all, foreign *allocsPerCall
	holder       *types.Func // the function of this package that makes the foreign call
}

// perCallItem is one allocation that a function makes on every call: its own
// (a site or a concatenation) or a callee's.
type perCallItem struct {
	pos    token.Pos
	own    *allocsPerCall // an allocation in the function itself
	callee *types.Func    // a call of a function of this package
	fact   *allocsPerCall // a call of a function of another package, with its fact
}

// checkCallFacts exports the per-call facts of the package's functions and
// reports the calls that run per item of functions that allocate on every
// call in another package.
func (p *pass) checkCallFacts() {
	module, std := p.module()
	if std {
		return // the standard library's allocations are not its users' to fix
	}
	items := p.perCallItems(module)
	memo := map[*types.Func]*perCall{}
	var resolve func(fn *types.Func) *perCall
	resolve = func(fn *types.Func) *perCall {
		if pc, ok := memo[fn]; ok {
			return pc // a cycle gives nothing more than its first pass
		}
		memo[fn] = nil
		pc := &perCall{}
		for _, it := range items[fn] {
			// Its own allocation, a foreign one, or a callee's of each.
			all, foreign, holder := it.own, it.fact, fn
			if it.fact != nil {
				all = it.fact
			}
			if it.callee != nil {
				sub := resolve(it.callee)
				if sub == nil {
					continue
				}
				all, foreign, holder = sub.all, sub.foreign, sub.holder
			}
			pc.all = addAllocs(pc.all, all)
			if foreign != nil {
				if pc.foreign == nil {
					pc.holder = holder
				}
				pc.foreign = addAllocs(pc.foreign, foreign)
			}
		}
		if pc.all == nil {
			pc = nil
		}
		memo[fn] = pc
		return pc
	}
	for fn := range items {
		pc := resolve(fn)
		// A function that hashes a whole collection per call (a Merkle
		// root) shares what it allocates per call among the collection's
		// items: its callers have nothing worth telling.
		if pc != nil && fn.Exported() && !p.freq.HashesCollection(fn) {
			p.ExportObjectFact(fn, pc.all)
		}
	}
	p.reportCallFacts(module, resolve)
}

// addAllocs returns sum with the allocations of f added: a copy of f when
// sum is nil.
func addAllocs(sum, f *allocsPerCall) *allocsPerCall {
	if sum == nil {
		c := *f
		return &c
	}
	sum.Allocs += f.Allocs
	sum.Reported = sum.Reported && f.Reported
	return sum
}

// module returns the path of the package's module ("" when the driver does
// not say) and whether the package is in the standard library.
func (p *pass) module() (string, bool) {
	if p.Module != nil && p.Module.Path != "" {
		return p.Module.Path, false
	}
	return "", isStdPkg(p.Pkg.Path())
}

// perCallItems lists, for every function of the package's production code,
// what it allocates on every call: its hashers and HMACs, its
// concatenations, and its calls of functions that do (those of another
// package with their facts).
func (p *pass) perCallItems(module string) map[*types.Func][]perCallItem {
	items := map[*types.Func][]perCallItem{}
	early := map[ast.Node]int{} // per function body: see firstEarlyReturn
	// onEveryCall returns the function whose every call runs the code at
	// pos (at cur, when valid).
	onEveryCall := func(pos token.Pos, cur inspector.Cursor) (*types.Func, bool) {
		decl, ok := p.declAt(pos)
		if !ok {
			return nil, false
		}
		fd := decl.Node().(*ast.FuncDecl)
		fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func)
		// Only production code: a package and its test variant export
		// the same facts.
		file := p.Fset.File(fd.Pos())
		if !ok || fd.Body == nil || isTest(fn) || p.suppress.skipped[file] || strings.HasSuffix(file.Name(), "_test.go") {
			return nil, false
		}
		if !cur.Valid() {
			if cur, ok = decl.FindByPos(pos, pos); !ok {
				return nil, false
			}
		}
		if _, ok := early[fd.Body]; !ok {
			early[fd.Body] = p.firstEarlyReturn(fd.Body)
		}
		return fn, everyCall(cur, fd.Body, early[fd.Body])
	}
	shown := map[token.Pos]bool{} // the hashers and HMACs reported
	for _, f := range p.out.pending {
		if f.d.Category == hasherAlloc || f.d.Category == hmacRekey {
			shown[f.d.Pos] = true
		}
	}
	own := func(fn *types.Func, pos token.Pos, category, what string, allocs int, reported bool) {
		items[fn] = append(items[fn], perCallItem{pos: pos, own: &allocsPerCall{
			Category: category,
			What:     what,
			Func:     shortName(fn),
			Pkg:      p.Pkg.Path(),
			Pos:      p.position(pos),
			Allocs:   max(allocs, 1),
			Module:   module,
			Reported: reported,
		}})
	}

	// Hashers and HMACs.
	for _, s := range p.sites {
		fn, ok := onEveryCall(s.Call.Pos(), s.cur)
		if !ok || !p.suppress.analyzed(s.cur) || p.suppress.suppressed(s.Call.Pos(), hasherAlloc) {
			continue
		}
		// Not a hasher meant to be kept (not per-call waste), nor one on
		// the stack, or undecided.
		if s.esc.kind == outlives || s.ctor.alloc != always && s.esc.kind != transient {
			continue
		}
		own(fn, s.Call.Pos(), hasherAlloc, p.describe(s), s.ctor.allocs, shown[s.Call.Pos()])
	}
	// Concatenations, as concat-hash found them.
	for _, c := range p.out.concats {
		if fn, ok := onEveryCall(c.pos, inspector.Cursor{}); ok {
			own(fn, c.pos, concatHash, c.what, 1, c.shown)
		}
	}
	// Calls.
	for ic := range p.calls.Within(p.root) {
		cur, callee := ic.Cursor, ic.Callee
		if callee == nil || callee.Pkg() == nil {
			continue
		}
		callee = callee.Origin()
		fn, ok := onEveryCall(cur.Node().Pos(), cur)
		if !ok {
			continue
		}
		if callee.Pkg() == p.Pkg {
			items[fn] = append(items[fn], perCallItem{pos: cur.Node().Pos(), callee: callee})
			continue
		}
		if f := p.callFact(callee, module); f != nil {
			items[fn] = append(items[fn], perCallItem{pos: cur.Node().Pos(), fact: f})
		}
	}
	// The first allocation of each function is the one its messages name.
	for _, list := range items {
		slices.SortStableFunc(list, func(a, b perCallItem) int { return cmp.Compare(a.pos, b.pos) })
	}
	return items
}

// callFact returns the fact of callee, a function of another package of the
// same module, or nil.
func (p *pass) callFact(callee *types.Func, module string) *allocsPerCall {
	f := new(allocsPerCall)
	if !p.ImportObjectFact(callee, f) || f.Module != module {
		return nil
	}
	return f
}

// reportCallFacts reports the calls that repeat another package's per-call
// allocations, where the frequency model says that they run per item.
func (p *pass) reportCallFacts(module string, resolve func(*types.Func) *perCall) {
	for ic := range p.calls.Within(p.root) {
		cur, call := ic.Cursor, ic.Node
		callee := ic.Callee
		if callee == nil || callee.Pkg() == nil {
			continue
		}
		callee = callee.Origin()
		var (
			f       *allocsPerCall
			through string // the function of this package the allocation is reached through
		)
		if callee.Pkg() != p.Pkg {
			f = p.callFact(callee, module)
		} else if pc := resolve(callee); pc != nil && pc.foreign != nil && !p.freq.Repeats(pc.holder) {
			// Unless the function of this package that calls into the
			// other package is hot itself: its own call is reported.
			f, through = pc.foreign, callee.Name()
		}
		if f == nil || f.Reported || !p.suppress.analyzed(cur) {
			continue // none, or reported where it allocates
		}
		often, _, ok := p.often(cur, f.Category, f.Allocs)
		if !ok {
			continue
		}
		name := shortName(callee)
		if through != "" {
			name = through
		}
		via := ""
		if f.Func != name {
			via = "through " + f.Func + ": "
		}
		msg := fmt.Sprintf("%s allocates on every call, %s%s at %s (%s per call), called %s",
			name, via, f.What, f.Pos, plural(f.Allocs, "allocation"), often)
		p.report(call, f.Category, msg, nil,
			"make "+f.Func+" reuse what it allocates, or call it less often",
			"the allocation is in package "+f.Pkg+", where its fix belongs")
	}
}

// everyCall reports whether the code at cur runs on every call of the
// function whose body is body: it is under no if or else branch, case,
// loop body or post statement, function literal or right operand of && or
// ||, and its statement in body comes no later than early (see
// firstEarlyReturn).
func everyCall(cur inspector.Cursor, body *ast.BlockStmt, early int) bool {
	for c := cur; ; {
		parent := c.Parent()
		if !parent.Valid() {
			return false
		}
		switch n := parent.Node().(type) {
		case *ast.FuncLit, *ast.CaseClause, *ast.CommClause:
			return false
		case *ast.IfStmt:
			if c.Node() == n.Body || c.Node() == n.Else {
				return false
			}
		case *ast.ForStmt:
			if c.Node() == n.Body || c.Node() == n.Post {
				return false
			}
		case *ast.RangeStmt:
			if c.Node() == n.Body {
				return false
			}
		case *ast.BinaryExpr:
			if (n.Op == token.LAND || n.Op == token.LOR) && c.Node() == n.Y {
				return false
			}
		case *ast.BlockStmt:
			if n == body {
				for i, stmt := range body.List {
					if stmt == c.Node() {
						return i <= early
					}
				}
				return false
			}
		}
		c = parent
	}
}

// firstEarlyReturn returns the index in body of the first statement after
// which the function may have returned: one that is or holds a return (or a
// panic, or a goto) other than an if that returns an error
// ("if err != nil { return ..., err }"). len(body.List) when there is none.
func (p *pass) firstEarlyReturn(body *ast.BlockStmt) int {
	for i, stmt := range body.List {
		if _, ok := stmt.(*ast.ReturnStmt); ok {
			return i
		}
		if p.errorGuard(stmt) {
			continue
		}
		exits := false
		ast.Inspect(stmt, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				exits = true
			case *ast.BranchStmt:
				exits = exits || n.Tok == token.GOTO
			case *ast.CallExpr:
				exits = exits || frequency.IsPanic(n)
			}
			return !exits
		})
		if exits {
			return i
		}
	}
	return len(body.List)
}

// errorGuard reports whether stmt is "if err != nil { ... }" (or
// "if x, err := f(); err != nil"), with no else, on a value of type error.
func (p *pass) errorGuard(stmt ast.Stmt) bool {
	ifs, ok := stmt.(*ast.IfStmt)
	if !ok || ifs.Else != nil {
		return false
	}
	cond, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	return ok && cond.Op == token.NEQ && slices.ContainsFunc([][2]ast.Expr{{cond.X, cond.Y}, {cond.Y, cond.X}}, func(pair [2]ast.Expr) bool {
		tv, ok := p.TypesInfo.Types[pair[1]]
		return ok && tv.IsNil() && values.IsError(p.TypesInfo.TypeOf(pair[0]))
	})
}

// plural spells n things: "1 allocation", "5 allocations".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

var _ analysis.Fact = (*allocsPerCall)(nil)
