package analyzer

import (
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/internal/callindex"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer is hashalloc with its options bound to command-line flags.
var Analyzer = newFlagAnalyzer()

// Options configure hashalloc. The zero value is the default configuration.
type Options struct {
	// Tests also analyzes _test.go files.
	Tests bool
	// Pool is PoolAuto (the default when empty), PoolRuntime or PoolInline.
	Pool string
	// Constructors adds hash constructors, as importpath.Func, whose hashers
	// are heap allocated whatever the caller does.
	Constructors []string
	// Sums adds sum functions and constructors, as importpath.Func=ALGORITHM
	// (sha256, sha512, sha1, md5, sha3_256, ...) or importpath.Func, as the
	// -sums flag; each entry may be a comma-separated list.
	Sums []string
	// Profile is a pprof CPU or allocation profile that decides hotness in
	// the packages it covers (see profile.go); "" for none.
	Profile string
	// ProfileThreshold is the share of the profile's samples from which a
	// function is hot: 0 means DefaultProfileThreshold.
	ProfileThreshold float64
	// Audit also reports, as findings of the category audit, every site a
	// check looked at and left silent, with why (-audit): how recall is
	// judged, and how a user sees why a line is not reported.
	Audit bool
	// Checks chooses the checks that report, as -checks does: entries
	// (each may be a comma-separated list) read from left to right, "all",
	// a check's name, or "-" and a name to turn it off. Empty: every check.
	Checks []string
	// Unproved, when set, is called in each pass with the package's
	// findings as soon as they are known, before their fixes are proved
	// (see proveFixes), in the order they are reported: a language server
	// shows them at once and again when the fixes are proved. A finding
	// with a fix carries it unproved, not to be offered, and its message
	// says that the fix is being checked, which the proof may withdraw; the
	// others are as reported.
	Unproved func(pass *analysis.Pass, diags []analysis.Diagnostic)
}

// New returns hashalloc configured by opts, or an error naming the bad option.
func New(opts Options) (*analysis.Analyzer, error) {
	c := &config{pool: poolMode(PoolAuto), constructors: constructorList{}, sums: sumList{}, tests: opts.Tests, audit: opts.Audit, threshold: DefaultProfileThreshold,
		unproved: opts.Unproved}
	if opts.Profile != "" {
		if err := (profileFlag{c}).Set(opts.Profile); err != nil {
			return nil, err
		}
	}
	if opts.ProfileThreshold != 0 {
		if err := (thresholdFlag{c}).Set(strconv.FormatFloat(opts.ProfileThreshold, 'g', -1, 64)); err != nil {
			return nil, err
		}
	}
	if opts.Pool != "" {
		if err := c.pool.Set(opts.Pool); err != nil {
			return nil, err
		}
	}
	for _, ctor := range opts.Constructors {
		if err := c.constructors.Set(ctor); err != nil {
			return nil, err
		}
	}
	for _, sum := range opts.Sums {
		if err := c.sums.Set(sum); err != nil {
			return nil, err
		}
	}
	if len(opts.Checks) > 0 {
		if err := c.checks.Set(strings.Join(opts.Checks, ",")); err != nil {
			return nil, err
		}
	}
	return c.analyzer(), nil
}

func newFlagAnalyzer() *analysis.Analyzer {
	c := &config{pool: poolMode(PoolAuto), constructors: constructorList{}, sums: sumList{}, threshold: DefaultProfileThreshold}
	a := c.analyzer()
	a.Flags.BoolVar(&c.tests, "tests", false, "also analyze _test.go files")
	a.Flags.BoolVar(&c.audit, "audit", false, "also list every site a check looked at and left silent, with why (category audit)")
	a.Flags.Var(&c.pool, "pool", "where fixes take pooled hashers from: runtime (import github.com/hashalloc/hashalloc/runtime/hashpool), inline (declare a sync.Pool in the file)\nor auto: runtime in a module that requires github.com/hashalloc/hashalloc/runtime, inline elsewhere;\nevery mode is inline in a module older than Go 1.21, which cannot require the runtime module")
	a.Flags.Var(c.constructors, "constructors", "comma-separated importpath.Func list of extra hash constructors that always allocate")
	a.Flags.Var(c.sums, "sums", "comma-separated sum functions and constructors that hashalloc does not know, as importpath.Func=ALGORITHM\n(sha256, sha224, sha512, sha384, sha512_224, sha512_256, sha1, md5, sha3_224, sha3_256, sha3_384, sha3_512: it computes that hash)\nor importpath.Func (a sum function of an unknown algorithm: reported, not fixed)")
	a.Flags.Var(profileFlag{c}, "profile", "a pprof CPU profile (such as default.pgo) or allocation profile (-memprofile) that decides which functions are hot")
	a.Flags.Var(thresholdFlag{c}, "profile-threshold", "the share of the profile's samples from which a function is hot (0.01 or 1%)")
	a.Flags.Var(&c.checks, "checks", "comma-separated checks to run: all, CHECK, -CHECK to turn one off (e.g. all,-hot-buffer); see hashalloc help")
	return a
}

// config is one configuration of the analyzer.
type config struct {
	tests        bool
	audit        bool
	pool         poolMode
	constructors constructorList
	sums         sumList
	profile      *profileIndex // nil without -profile
	threshold    float64       // -profile-threshold
	checks       checkSet
	unproved     func(*analysis.Pass, []analysis.Diagnostic) // Options.Unproved
}

func (c *config) analyzer() *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:       "hashalloc",
		Doc:        doc,
		URL:        "https://github.com/hashalloc/hashalloc#checks",
		Requires:   []*analysis.Analyzer{inspect.Analyzer},
		Run:        c.run,
		FactTypes:  []analysis.Fact{new(hashesArg), new(hashesParts), new(allocsPerCall), new(paramEscapes), new(frequency.CostFact), new(returnsHasher)},
		ResultType: resultType,
	}
	configs.Store(a, c)
	return a
}

// configs maps each hashalloc analyzer to its configuration.
var configs sync.Map // *analysis.Analyzer => *config

// Settings returns the options of a, an analyzer that New or Analyzer is,
// that change what it reports, by the name of their flag and spelt as the
// flag prints them, and the path of its profile (whose content counts, not
// its name): what a cache of its results keys on. It reports false for
// another analyzer.
func Settings(a *analysis.Analyzer) (options map[string]string, profile string, ok bool) {
	v, ok := configs.Load(a)
	if !ok {
		return nil, "", false
	}
	c := v.(*config)
	options = map[string]string{
		"tests":             strconv.FormatBool(c.tests),
		"audit":             strconv.FormatBool(c.audit),
		"pool":              c.pool.String(),
		"constructors":      c.constructors.String(),
		"sums":              c.sums.String(),
		"profile-threshold": thresholdFlag{c}.String(),
		"checks":            c.checks.String(),
	}
	return options, profileFlag{c}.String(), true
}

// Result is what hashalloc found in one package: every hash constructor call
// and the allocation model's verdict on it. The oracle test measures them.
type Result struct {
	Sites []*Site
}

var resultType = reflect.TypeOf((*Result)(nil))

// Site is one hash constructor call and the allocation model's verdict on it.
type Site struct {
	// Call is the constructor call.
	Call *ast.CallExpr
	// Constructor names it, e.g. "sha256.New".
	Constructor string
	// Decided is false when the model cannot tell whether the hasher escapes;
	// such a site is never reported.
	Decided bool
	// Heap is the model's prediction that each evaluation allocates.
	Heap bool
	// Why says what makes the hasher escape ("passed to io.Copy"), if it does.
	Why string
	// InWrapper is set for the constructor call that a constructor wrapper
	// returns (see wrappers.go): what it costs is decided at each call of
	// the wrapper, where the wrapper may be inlined, by that call's Site.
	InWrapper bool
	// Wraps names, for a call of a constructor wrapper, the constructor
	// whose hasher the wrapper returns, as the compiler spells it
	// ("blake2b.New256"); "" for a constructor call.
	Wraps string

	cur  inspector.Cursor
	ctor constructor
	esc  escape
}

// pass is one run over one package: its inputs, the models that several
// checks ask, and what the run holds back until it reports. The state that
// one check needs lives with that check (siteChecks, hotBufferCheck, ...).
type pass struct {
	*analysis.Pass
	cfg      *config
	root     inspector.Cursor // the files analyzed: test files only with -tests
	prod     inspector.Cursor // the files that are not tests: the evidence for a verdict
	model    *flowModel       // where hashers, hash functions and byte slices come from and go
	freq     *frequency.Model // how often code runs
	suppress *suppressor      // the directives, and what is not analyzed
	calls    *callindex.Index // the calls of root and prod, see callsIn
	vals     *values.Index    // the uses of the objects of root and prod

	files fixFiles // the files that fixes edit
	sites []*Site  // every hash constructor call of the package
	out   output   // findings held back until flush
}

func (c *config) run(ap *analysis.Pass) (any, error) {
	p := &pass{
		Pass:  ap,
		cfg:   c,
		root:  analyzedRoot(ap, c.tests),
		calls: callindex.New(ap.TypesInfo),
		vals:  values.New(ap.TypesInfo),
	}
	p.model = &flowModel{info: ap.TypesInfo, vals: p.vals, targets: map[types.Object][]*types.Func{},
		wrappers: map[*types.Func]*constructor{}, literalFacts: map[*types.Var]*hashesArg{}, noInl: map[*types.Func]bool{}}
	p.prod = p.root
	if c.tests {
		p.prod = analyzedRoot(ap, false)
	}
	p.suppress = newSuppressor(p)

	p.summarizeParams()
	// Whether each function is a constructor wrapper, with the facts of the
	// exported ones: before the sites, since a call of a wrapper is one.
	for fn := range p.vals.Funcs(p.root.Inspector()) {
		p.wrapperCtor(fn)
	}
	sites := p.findSites()
	p.sites = sites
	p.model.hashers = p.localHashers(sites)
	p.freq = p.newModel()
	checks := &siteChecks{pass: p, pooled: map[*Site]bool{}, macEqual: map[*ast.CallExpr]bool{}, rekeyed: map[ast.Node]bool{}}
	for _, s := range sites {
		if !p.suppress.analyzed(s.cur) {
			category := hasherAlloc
			if s.ctor.hmac {
				category = hmacRekey
			}
			p.suppress.notAnalyzed(s.cur, s.Call, category)
		} else if s.ctor.hmac {
			checks.checkHMACRekey(s)
		} else {
			checks.checkHasherAlloc(s)
		}
	}
	p.checkConcatHash()
	checks.checkSumAlloc()
	(&hotBufferCheck{pass: p, hashing: map[ast.Node]bool{}, bufParams: map[*types.Func][]bufferParamFlow{}}).check()
	p.checkHashedConversions()
	known := map[*ast.CallExpr]bool{} // the constructor calls of sites, judged already
	for _, s := range sites {
		known[s.Call] = true
	}
	p.checkCatalogued(known)
	p.checkCallFacts()
	p.checkDerivedKeys()
	if c.audit {
		p.auditOtherHashers(known)
	}
	p.flush()
	// Last: no finding depends on the costs exported, and a language
	// server shows the findings (Options.Unproved) before.
	p.exportCosts()
	return &Result{Sites: sites}, nil
}

// siteChecks is the state of the checks of constructor calls (hmac-rekey,
// hasher-alloc) over one package, and what they decided that sum-alloc,
// which runs after them, defers to.
type siteChecks struct {
	*pass
	keyHashes map[types.Object]int   // the hash functions per HMAC key, see hashesPerKey
	pooled    map[*Site]bool         // the hashers that a reported hasher-alloc fix takes from a pool
	macEqual  map[*ast.CallExpr]bool // the Sum(nil) calls that reported hmac-rekey fixes compare without allocating
	rekeyed   map[ast.Node]bool      // the hmac.New calls keyed anew each time that hmac-rekey reports with a fix that covers their Sum, shown or not
}

// analyzedRoot returns the root of the package's syntax, less its _test.go
// files unless tests is set. A package and its test variant then give the
// same verdict at every position of a non-test file: nothing a test file does
// can change what a fix of production code is allowed to assume.
func analyzedRoot(ap *analysis.Pass, tests bool) inspector.Cursor {
	all := ap.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	if tests {
		return all.Root()
	}
	files := make([]*ast.File, 0, len(ap.Files))
	for _, f := range ap.Files {
		if !strings.HasSuffix(ap.Fset.File(f.FileStart).Name(), "_test.go") {
			files = append(files, f)
		}
	}
	if len(files) == len(ap.Files) {
		return all.Root()
	}
	return inspector.New(files).Root()
}

// findSites collects every call of a known hash constructor, of a wrapper of
// one, or of a function value that returns a hasher, with the model's verdict
// on the hasher it makes.
func (p *pass) findSites() []*Site {
	var sites []*Site
	for ic := range p.calls.Within(p.root) {
		cur, call := ic.Cursor, ic.Node
		var ctor constructor
		var ok bool
		if ic.Callee != nil {
			ctor, ok = p.lookupCtor(ic.Callee)
		} else {
			ctor, ok = p.funcValueCtor(call)
		}
		if !ok {
			continue
		}
		esc := p.model.classify(cur, 0)
		wrapper, _, _ := p.funcOf(cur)
		sites = append(sites, &Site{
			InWrapper:   wrapper != nil && p.model.wrappers[wrapper] != nil,
			Wraps:       ctor.wrapped,
			Call:        call,
			Constructor: ctor.name,
			Decided:     esc.kind != unknown && esc.kind != devirt,
			Heap:        ctor.alloc == always || esc.kind == transient || esc.kind == outlives,
			Why:         esc.reason,
			cur:         cur,
			ctor:        ctor,
			esc:         esc,
		})
	}
	return sites
}

// callsIn yields the calls in the subtree at region, in the order of
// region.Preorder((*ast.CallExpr)(nil)), from the package's call index.
func (p *pass) callsIn(region inspector.Cursor) iter.Seq[inspector.Cursor] {
	return func(yield func(inspector.Cursor) bool) {
		for c := range p.calls.Within(region) {
			if !yield(c.Cursor) {
				return
			}
		}
	}
}

// position spells pos as file:line for messages.
func (p *pass) position(pos token.Pos) string {
	posn := p.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(posn.Filename), posn.Line)
}

// funcOf returns the declared function or method whose body holds cur, and
// false when cur is inside a function literal or outside any function.
func (p *pass) funcOf(cur inspector.Cursor) (*types.Func, *ast.FuncDecl, bool) {
	fn, ok := values.EnclosingFunc(cur)
	if !ok {
		return nil, nil, false
	}
	decl, ok := fn.Node().(*ast.FuncDecl)
	if !ok {
		return nil, nil, false
	}
	obj, ok := p.TypesInfo.Defs[decl.Name].(*types.Func)
	return obj, decl, ok
}

var _ flag.Value = (*poolMode)(nil)
