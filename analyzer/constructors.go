package analyzer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"hash/crc32"
	"hash/crc64"
	"maps"
	"slices"
	"strings"

	"github.com/hashalloc/hashalloc/analyzer/frequency"
	"github.com/hashalloc/hashalloc/fixes"
	"github.com/hashalloc/hashalloc/internal/values"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// allocation says when a constructor's hasher reaches the heap.
type allocation int

const (
	// onEscape: the constructor is inlined and its methods devirtualized, so the
	// hasher lives on the stack unless it escapes (Go 1.26, measured).
	onEscape allocation = iota
	// always: the hasher is heap allocated whatever the caller does.
	always
)

// constructor describes one hash constructor that hashalloc knows.
type constructor struct {
	name  string     // how messages spell it, e.g. "sha256.New"
	alloc allocation // when it allocates
	pool  string     // the hashpool variable that pools it, "" when none
	hmac  bool       // crypto/hmac.New
	// allocs is the number of allocations one call makes when the hasher is
	// heap allocated, as measured with testing.AllocsPerRun (0: unmeasured).
	allocs int
	// size is the digest size in bytes of a constructor that the compiler
	// inlines and devirtualizes (0: not recorded), see digestSizes.
	size int64

	// A constructor wrapper (see wrappers.go): wraps is the known
	// constructor whose hasher it returns ("importpath.Func", "" for
	// crypto.Hash.New) and wrapped its name for messages; panics is set when
	// it may panic on the constructor's error, plain when the constructor is
	// a standard one called without arguments (its pool serves the wrapper).
	wraps, wrapped string
	panics, plain  bool
	// resets: the wrapper's hasher's Reset restores the state the wrapper
	// returns it in (its constructor's does, see reuse), so that a pool of
	// the file serves the wrapper's calls without arguments.
	resets bool
	// pointee: the wrapper's hasher is made from the bytes an argument
	// points to, which may change while the pointer does not (no hoist).
	pointee bool
	// hmacNew is the call of a wrapper of this package whose body is
	// "return hmac.New(hash, key)", and keyParam the index of the
	// parameter that is the key or its whole slice (-1: none): see
	// wrappedHMAC.
	hmacNew  *ast.CallExpr
	keyParam int
	// choice lists, for a wrapper that chooses its constructor at run time
	// (see wrapperChoice), the constructor calls it chooses among.
	choice string

	// funcValue is set for a call of a function value (see funcValueCtor).
	funcValue bool
	// writeEscapes: the hasher's Write lets what it is given escape (crc32's
	// calls its table's update through a function value), measured.
	writeEscapes bool

	// reuse says when a pool of the fixed file serves a constructor that no
	// runtime pool does (see reusedArgs).
	reuse reuse
}

// reuse is set for a constructor whose hasher's Reset restores the state the
// constructor made it in, keyed or seeded, so that a pool serves the calls
// with the same constant arguments. A constructor that returns an error too
// (blake2b's, blake2s's) returns none for a digest size (its first argument,
// when sized) from 1 to maxSize and a key (its last argument, when keyed) of
// minKey to maxKey bytes.
type reuse struct {
	ok             bool
	sized, keyed   bool
	maxSize        int64
	minKey, maxKey int64
}

// Reset restores every state the constructor makes (checked in their
// sources): no error, or a digest size and key within the bounds.
var (
	resets       = reuse{ok: true}
	blake2bKeyed = reuse{ok: true, keyed: true, maxKey: 64}
)

// stdConstructors are the constructors of the standard library and of the common
// third-party hash modules, keyed by "importpath.Func".
var stdConstructors = map[string]constructor{
	"crypto/sha256.New":        {name: "sha256.New", pool: "SHA256", allocs: 1, size: 32},
	"crypto/sha256.New224":     {name: "sha256.New224", pool: "SHA224", allocs: 1, size: 28},
	"crypto/sha512.New":        {name: "sha512.New", pool: "SHA512", allocs: 1, size: 64},
	"crypto/sha512.New384":     {name: "sha512.New384", pool: "SHA384", allocs: 1, size: 48},
	"crypto/sha512.New512_224": {name: "sha512.New512_224", pool: "SHA512_224", allocs: 1, size: 28},
	"crypto/sha512.New512_256": {name: "sha512.New512_256", pool: "SHA512_256", allocs: 1, size: 32},
	"crypto/sha1.New":          {name: "sha1.New", pool: "SHA1", allocs: 1, size: 20},
	"crypto/md5.New":           {name: "md5.New", pool: "MD5", allocs: 1, size: 16},
	"crypto/sha3.New224":       {name: "sha3.New224", pool: "SHA3_224", allocs: 1, size: 28},
	"crypto/sha3.New256":       {name: "sha3.New256", pool: "SHA3_256", allocs: 1, size: 32},
	"crypto/sha3.New384":       {name: "sha3.New384", pool: "SHA3_384", allocs: 1, size: 48},
	"crypto/sha3.New512":       {name: "sha3.New512", pool: "SHA3_512", allocs: 1, size: 64},
	"hash/fnv.New32":           {name: "fnv.New32", pool: "FNV32", allocs: 1, size: 4},
	"hash/fnv.New32a":          {name: "fnv.New32a", pool: "FNV32a", allocs: 1, size: 4},
	"hash/fnv.New64":           {name: "fnv.New64", pool: "FNV64", allocs: 1, size: 8},
	"hash/fnv.New64a":          {name: "fnv.New64a", pool: "FNV64a", allocs: 1, size: 8},
	"hash/fnv.New128":          {name: "fnv.New128", pool: "FNV128", allocs: 1, size: 16},
	"hash/fnv.New128a":         {name: "fnv.New128a", pool: "FNV128a", allocs: 1, size: 16},
	"hash/crc32.NewIEEE":       {name: "crc32.NewIEEE", pool: "CRC32", allocs: 1, size: 4, writeEscapes: true},
	"hash/crc32.New":           {name: "crc32.New", allocs: 1, size: 4, writeEscapes: true},
	"hash/crc64.New":           {name: "crc64.New", allocs: 1, size: 8},
	"hash/adler32.New":         {name: "adler32.New", pool: "Adler32", allocs: 1, size: 4},

	"crypto/hmac.New": {name: "hmac.New", alloc: always, hmac: true, allocs: 5},

	// Third-party constructors, measured with testing.AllocsPerRun on Go 1.26
	// (golang.org/x/crypto v0.59.0, zeebo/blake3 v0.2.4, lukechampine.com/blake3
	// v1.4.1, minio/sha256-simd v1.0.1).
	"golang.org/x/crypto/blake2b.New":             {name: "blake2b.New", alloc: always, allocs: 1, reuse: reuse{ok: true, sized: true, maxSize: 64, keyed: true, maxKey: 64}},
	"golang.org/x/crypto/blake2b.New256":          {name: "blake2b.New256", alloc: always, allocs: 1, reuse: blake2bKeyed},
	"golang.org/x/crypto/blake2b.New384":          {name: "blake2b.New384", alloc: always, allocs: 1, reuse: blake2bKeyed},
	"golang.org/x/crypto/blake2b.New512":          {name: "blake2b.New512", alloc: always, allocs: 1, reuse: blake2bKeyed},
	"golang.org/x/crypto/blake2s.New128":          {name: "blake2s.New128", alloc: always, allocs: 1, reuse: reuse{ok: true, keyed: true, minKey: 1, maxKey: 32}},
	"golang.org/x/crypto/blake2s.New256":          {name: "blake2s.New256", alloc: always, allocs: 1, reuse: reuse{ok: true, keyed: true, maxKey: 32}},
	"lukechampine.com/blake3.New":                 {name: "blake3.New", alloc: always, allocs: 1},
	"github.com/minio/sha256-simd.New":            {name: "sha256.New", alloc: always, allocs: 1, reuse: resets},
	"golang.org/x/crypto/ripemd160.New":           {name: "ripemd160.New", allocs: 1, size: 20},
	"golang.org/x/crypto/sha3.New224":             {name: "sha3.New224", allocs: 1, size: 28},
	"golang.org/x/crypto/sha3.New256":             {name: "sha3.New256", allocs: 1, size: 32},
	"golang.org/x/crypto/sha3.New384":             {name: "sha3.New384", allocs: 1, size: 48},
	"golang.org/x/crypto/sha3.New512":             {name: "sha3.New512", allocs: 1, size: 64},
	"golang.org/x/crypto/sha3.NewLegacyKeccak256": {name: "sha3.NewLegacyKeccak256", allocs: 1, size: 32},
	"golang.org/x/crypto/sha3.NewLegacyKeccak512": {name: "sha3.NewLegacyKeccak512", allocs: 1, size: 64},
	"github.com/zeebo/blake3.New":                 {name: "blake3.New", allocs: 1, size: 32},

	// Measured with testing.AllocsPerRun on Go 1.26 (64-byte input, New +
	// Write + Sum into the caller's array, then the hasher stored in a
	// hash.Hash variable): go-ethereum v1.17.10, spaolacci/murmur3 v1.1.0,
	// cespare/xxhash/v2 v2.3.0, zeebo/xxh3 v1.1.0.
	//
	// geth's Keccak state: 0 on the stack, 1 when it escapes.
	"github.com/ethereum/go-ethereum/crypto.NewKeccakState":            {name: "crypto.NewKeccakState", allocs: 1, size: 32},
	"github.com/ethereum/go-ethereum/crypto/keccak.NewLegacyKeccak256": {name: "keccak.NewLegacyKeccak256", allocs: 1, size: 32},
	"github.com/ethereum/go-ethereum/crypto/keccak.NewLegacyKeccak512": {name: "keccak.NewLegacyKeccak512", allocs: 1, size: 64},
	// murmur3's digests point to themselves (bmixer): 1 whatever happens.
	"github.com/spaolacci/murmur3.New32":          {name: "murmur3.New32", alloc: always, allocs: 1, reuse: resets},
	"github.com/spaolacci/murmur3.New32WithSeed":  {name: "murmur3.New32WithSeed", alloc: always, allocs: 1, reuse: resets},
	"github.com/spaolacci/murmur3.New64":          {name: "murmur3.New64", alloc: always, allocs: 1, reuse: resets},
	"github.com/spaolacci/murmur3.New64WithSeed":  {name: "murmur3.New64WithSeed", alloc: always, allocs: 1, reuse: resets},
	"github.com/spaolacci/murmur3.New128":         {name: "murmur3.New128", alloc: always, allocs: 1, reuse: resets},
	"github.com/spaolacci/murmur3.New128WithSeed": {name: "murmur3.New128WithSeed", alloc: always, allocs: 1, reuse: resets},
	// xxhash and xxh3: 0 on the stack, 1 when they escape.
	"github.com/cespare/xxhash/v2.New":         {name: "xxhash.New", allocs: 1, size: 8, reuse: resets},
	"github.com/cespare/xxhash/v2.NewWithSeed": {name: "xxhash.NewWithSeed", allocs: 1, size: 8},
	"github.com/zeebo/xxh3.New":                {name: "xxh3.New", allocs: 1, size: 8},
}

// catalogued are the calls that allocate by themselves, by package path and
// name (measured with testing.AllocsPerRun on Go 1.26; golang.org/x/crypto
// v0.59.0, its Expand and New with their reader read): a CRC table of table
// bytes per call, but for the polynomials whose table the package builds
// once (sync.Once); a KDF's allocs per call given sha256.New, a 32-byte
// secret and output, the HMACs it makes, keyed with what it is given, and
// run as many times as it is told when it stretches a key.
var catalogued = map[[2]string]struct {
	table     int64
	cached    []uint64
	allocs    int
	stretches bool
}{
	{"hash/crc32", "MakeTable"}: {table: 1024, cached: []uint64{crc32.IEEE, crc32.Castagnoli}},
	{"hash/crc64", "MakeTable"}: {table: 2048, cached: []uint64{crc64.ISO, crc64.ECMA}},
	{"crypto/hkdf", "Extract"}:  {allocs: 7}, {"crypto/hkdf", "Expand"}: {allocs: 11}, {"crypto/hkdf", "Key"}: {allocs: 17},
	{"golang.org/x/crypto/hkdf", "Extract"}: {allocs: 7}, {"golang.org/x/crypto/hkdf", "Expand"}: {allocs: 9}, {"golang.org/x/crypto/hkdf", "New"}: {allocs: 15},
	{"crypto/pbkdf2", "Key"}: {allocs: 12, stretches: true}, {"golang.org/x/crypto/pbkdf2", "Key"}: {allocs: 12, stretches: true},
}

// checkCatalogued judges the calls of the catalogue per item; with -audit,
// any other call given a constructor as a value gets a line too.
func (p *pass) checkCatalogued(known map[*ast.CallExpr]bool) {
	for ic := range p.calls.Within(p.root) {
		call, fn, key := ic.Node, ic.Callee, [2]string{}
		if fn != nil && fn.Pkg() != nil {
			key = [2]string{fn.Pkg().Path(), fn.Name()}
		}
		c, ok := catalogued[key]
		if !ok && (!p.cfg.audit || known[call] || key == [2]string{"crypto/hmac", "New"} ||
			!slices.ContainsFunc(call.Args, func(e ast.Expr) bool { return values.MakesHasher(p.TypesInfo.TypeOf(e)) })) {
			continue
		}
		switch {
		case !p.suppress.analyzed(ic.Cursor):
			p.suppress.notAnalyzed(ic.Cursor, call, hasherAlloc)
		case !ok:
			p.silent(call, hasherAlloc, "it is given a hash constructor as a value: the hashers it makes with it are judged where it calls it, in its own package")
		case c.table > 0 && len(call.Args) == 1:
			p.checkTable(ic.Cursor, call, key[0][strings.LastIndex(key[0], "/")+1:], c.table, c.cached)
		case c.stretches:
			p.silent(call, hasherAlloc, fmt.Sprintf("%s stretches a key, running its HMAC as many times as it is told: its %d allocations are a small part of that", fn.Name(), c.allocs))
		case c.allocs > 0:
			// Only where the package shows the repetition: a KDF mostly
			// runs beside the key exchange or encryption it serves.
			if often, _, ok := p.often(ic.Cursor, hasherAlloc, c.allocs); ok && p.out.estimates[call].Presumed {
				p.silent(call, hasherAlloc, "only a presumption about callers outside the package repeats it ("+often+"), and a key derivation mostly runs beside the key exchange or the encryption it serves")
			} else if ok {
				p.report(call, hasherAlloc, fmt.Sprintf("%s makes its HMACs anew on each call (%d allocations) %s", shorten(types.ExprString(call)), c.allocs, often), nil,
					"derive once and keep what it derives while its inputs stay the same", "each HMAC is keyed with what the call is given, and "+fn.Name()+" keeps none")
			}
		}
	}
}

// checkTable judges call, the CRC table of its argument's polynomial made
// by the package pkg: per item, a fix makes it once in a variable when the
// polynomial is a constant; none is made for one the package keeps.
func (p *pass) checkTable(cur inspector.Cursor, call *ast.CallExpr, pkg string, size int64, cached []uint64) {
	value, poly, isConst := p.constArg(call.Args[0])
	n, exact := constant.Uint64Val(constant.ToInt(value))
	if isConst && exact && slices.Contains(cached, n) {
		p.silent(call, hasherAlloc, "the package builds the table of this polynomial once and returns it on every call: no allocation")
		return
	}
	often, _, ok := p.oftenCost(cur, hasherAlloc, frequency.Cost{Allocs: 1, Bytes: size})
	if !ok {
		return
	}
	what := fmt.Sprintf("%s builds a new %d-byte table %s", shorten(types.ExprString(call)), size, often)
	if !isConst || !exact {
		p.report(call, hasherAlloc, what, nil, "make the table once per polynomial and keep it", "the polynomial is not a constant")
		return
	}
	want := pkg + "Table"
	if poly != types.ExprString(call.Args[0]) {
		poly = fmt.Sprintf("0x%X", n) // a local constant's value
	} else if id, ok := ast.Unparen(call.Args[0]).(*ast.SelectorExpr); ok {
		want = pkg + id.Sel.Name + "Table" // crc32KoopmanTable
	}
	fix, why := fixes.PackageTable(p.file(call.Pos()), call, poly, want)
	p.report(call, hasherAlloc, what, fix, "make the table once, in a package-level variable", why)
}

// cryptoHashConstructors maps the crypto.Hash constants whose New method hashalloc can
// rewrite to the standard constructor ("importpath.Func") that builds the same hasher:
// the standard library's crypto constructors that a runtime pool serves, whose pool
// has the constant's name (SHA256, SHA3_256).
var cryptoHashConstructors = func() map[string]string {
	m := map[string]string{}
	for key, ctor := range stdConstructors {
		if ctor.pool != "" && strings.HasPrefix(key, "crypto/") {
			m[ctor.pool] = key
		}
	}
	return m
}()

// cryptoHashNew is the crypto.Hash.New method: a hasher built through a
// crypto.Hash value is not devirtualized and always reaches the heap.
var cryptoHashNew = constructor{name: "crypto.Hash.New", alloc: always, allocs: 1}

// A hasher from a function value: a call, without arguments, of a function
// value or an interface method that returns a hash.Hash (hash.Hash32,
// hash.Hash64), held in a variable, a parameter, a field, a map or a slice
// (a registry of hash functions):
//
//	h := algos[crypto.SHA1]()   // var algos = map[crypto.Hash]func() hash.Hash{...}
//	h := t.newHash()            // type tree struct{ newHash func() hash.Hash }
//
// The compiler does not inline a call whose callee it does not know, so the
// hasher is made in the callee's frame and returned through an interface: it
// is on the heap whatever the caller does with it (one allocation at least:
// a standard constructor's digest; an HMAC makes 5). Calling it once per
// item allocates once per item; hoisted out of a loop whose iterations do
// not change the function value, one hasher Reset per iteration serves them
// all. No pool serves it: which constructor it calls is not known.

// funcValueCtor returns the constructor that call is when it calls a
// function value or an interface method that returns a hasher.
func (p *pass) funcValueCtor(call *ast.CallExpr) (constructor, bool) {
	if len(call.Args) != 0 || isBuiltin(p.TypesInfo, call.Fun) {
		return constructor{}, false
	}
	tv, ok := p.TypesInfo.Types[call.Fun]
	if !ok || tv.IsType() {
		return constructor{}, false // a conversion
	}
	sig, ok := tv.Type.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isHashInterface(sig.Results().At(0).Type()) {
		return constructor{}, false
	}
	// Reject a method of an interface that no type of the package
	// implements by making a hasher: an accessor (a digester's Hash()
	// returns the hasher it holds) makes none per call.
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := p.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodVal && types.IsInterface(s.Recv()) && !p.implementsByCtor(s.Recv(), s.Obj().Name(), 2) {
			return constructor{}, false
		}
	}
	return constructor{name: shorten(types.ExprString(call.Fun)), alloc: always, allocs: 1, funcValue: true}, true
}

// implementsByCtor reports whether a type declared in the package
// implements the interface recv with a method of that name that is a
// constructor or a wrapper of one (func (sha1Factory) New() hash.Hash {
// return sha1.New() }), itself or through an interface it embeds whose
// implementations do (a cipher suite's Hash, promoted from its HashFunc),
// up to depth interfaces deep.
func (p *pass) implementsByCtor(recv types.Type, method string, depth int) bool {
	iface, ok := recv.Underlying().(*types.Interface)
	if !ok || depth < 0 {
		return false
	}
	for _, impl := range frequency.Implementations(p.Pkg, iface, method) {
		fn := impl.Method
		if fn == nil {
			continue
		}
		if _, ok := p.lookupCtor(fn); ok || p.returnsFuncValueHasher(fn) {
			return true
		}
		// A method promoted from an embedded interface: that interface's
		// implementations make the hasher, or not.
		if r := fn.Signature().Recv(); r != nil && types.IsInterface(r.Type()) && p.implementsByCtor(r.Type(), method, depth-1) {
			return true
		}
	}
	return false
}

// constructorsOnly reports whether every function that the function value e
// may be is a known constructor: a call of it does nothing but make a
// hasher. With noArgs, each takes no arguments too, so that its hasher's
// Reset restores the state that the constructor made it in. A function
// that the package does not show (a caller's) may write a prefix, which
// Reset loses.
func (p *pass) constructorsOnly(e ast.Expr, noArgs bool) bool {
	targets, ok := p.funcValueTargets(e)
	return ok && len(targets) > 0 && !slices.ContainsFunc(targets, func(fn *types.Func) bool {
		_, ok := p.cfg.lookupConstructor(fn)
		return !ok || noArgs && fn.Signature().Params().Len() != 0
	})
}

// returnsFuncValueHasher reports whether the body of fn is only "return
// f()" of a function value that makes a hasher (func (h hashFn) Hash()
// hash.Hash { return h.fn() }): each call makes one.
func (p *pass) returnsFuncValueHasher(fn *types.Func) bool {
	cur, ok := p.decl(fn)
	if !ok {
		return false
	}
	call := returnedCall(cur.Node().(*ast.FuncDecl).Body)
	if call == nil || typeutil.StaticCallee(p.TypesInfo, call) != nil {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if ok && p.TypesInfo.Selections[sel] != nil && p.TypesInfo.Selections[sel].Kind() == types.MethodVal {
		return false // an interface method: judged by its own implementations
	}
	_, ok = p.funcValueCtor(call)
	return ok
}

// isHashInterface reports whether t is hash.Hash, hash.Hash32 or hash.Hash64.
func isHashInterface(t types.Type) bool {
	return values.IsNamed(t, "hash", "Hash", false) || values.IsNamed(t, "hash", "Hash32", false) || values.IsNamed(t, "hash", "Hash64", false)
}

// constructorList is the value of the -constructors flag: extra constructors,
// given as importpath.Func, whose hashers are heap allocated whatever happens.
type constructorList map[string]constructor

func (l constructorList) String() string {
	return strings.Join(slices.Collect(maps.Keys(l)), ",")
}

func (l constructorList) Set(s string) error {
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		dot, ok := funcPath(item)
		if !ok {
			return fmt.Errorf("-constructors: %q is not of the form importpath.Func", item)
		}
		pkg := item[strings.LastIndex(item[:dot], "/")+1:]
		l[item] = constructor{name: pkg, alloc: always}
	}
	return nil
}

// funcPath returns the index of the dot of s, importpath.Func, and false
// when s is not of that form.
func funcPath(s string) (int, bool) {
	slash, dot := strings.LastIndex(s, "/"), strings.LastIndex(s, ".")
	return dot, dot > slash && dot != len(s)-1 && dot != 0
}

// algorithms are the values of -sums entries: the standard sum that computes
// the same hash as the entry's function or constructor, by the name of its
// hashsum function in lower case (sha256, sha512_256, sha3_256, md5).
var algorithms = func() map[string]string {
	m := map[string]string{}
	for sum, name := range sumFuncs {
		if name != "" && strings.HasPrefix(sum, "crypto/") {
			m[strings.ToLower(name)] = sum
		}
	}
	return m
}()

// ctorSums maps each standard constructor to the standard sum of the same
// hash: a helper that writes its argument into that constructor's hasher and
// returns its Sum(nil) computes that sum (see writeSum).
var ctorSums = func() map[string]string {
	m := map[string]string{}
	for _, sum := range algorithms {
		m[sumConstructors[sum]] = sum
	}
	return m
}()

// sumList is the value of the -sums flag: more sum functions and constructors,
// as importpath.Func=ALGORITHM (the function computes the same hash as the
// standard one: sha256, sha512, sha1, md5, sha3_256, ...; see algorithms), or
// importpath.Func alone for a sum function whose algorithm is not given (its
// concatenations are reported, without a fix). It maps each to the standard
// sum ("" when not given).
//
// A function of the form func([]byte) [N]byte (or []byte) is a sum function;
// one that returns a hasher is a constructor, and a helper that writes its
// argument into that hasher and returns its Sum(nil) computes the algorithm.
// Whether the constructor allocates is -constructors' business.
type sumList map[string]string

func (l sumList) String() string {
	names := make([]string, 0, len(l))
	for k, v := range l {
		if v != "" {
			k += "=" + v[strings.LastIndex(v, "/")+1:]
		}
		names = append(names, k)
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

func (l sumList) Set(s string) error {
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		fn, alg, hasAlg := strings.Cut(item, "=")
		if _, ok := funcPath(fn); !ok {
			return fmt.Errorf("-sums: %q is not of the form importpath.Func or importpath.Func=ALGORITHM", item)
		}
		sum := ""
		if hasAlg {
			var ok bool
			if sum, ok = algorithms[strings.ToLower(alg)]; !ok {
				known := slices.Sorted(maps.Keys(algorithms))
				return fmt.Errorf("-sums: %q: unknown algorithm %q (want one of %s)", item, alg, strings.Join(known, ", "))
			}
		}
		l[fn] = sum
	}
	return nil
}

// lookupSum says whether fn is a one-shot sum function, and the sum that
// computes the same hash: fn's key for a function of the catalog, the
// standard sum named by -sums (when fn returns the same array), or fn's key
// when -sums names it without an algorithm.
func (c *config) lookupSum(fn *types.Func, key string) (string, bool) {
	if _, ok := sumFuncs[key]; ok {
		return key, true
	}
	std, ok := c.sums[key]
	if !ok {
		return "", false
	}
	sig := fn.Signature()
	if sig.Params().Len() != 1 || !types.Identical(sig.Params().At(0).Type(), byteSlice) || sig.Results().Len() != 1 {
		return "", false // a constructor, or not a sum of its argument
	}
	if std == "" || !types.Identical(sig.Results().At(0).Type(), types.NewArray(types.Typ[types.Byte], digestSizes[sumConstructors[std]])) {
		return key, true // an algorithm is not given, or the result differs
	}
	return std, true
}

// ctorSum returns the standard sum of the hash that the constructor ctor
// ("importpath.Func") builds: a standard constructor's, or one that -sums
// names with an algorithm; "" otherwise.
func (c *config) ctorSum(ctor string) string {
	if sum, ok := ctorSums[ctor]; ok {
		return sum
	}
	return c.sums[ctor]
}

// lookupConstructor returns the constructor that fn is, if hashalloc knows it.
func (c *config) lookupConstructor(fn *types.Func) (constructor, bool) {
	if fn.Pkg() == nil {
		return constructor{}, false
	}
	if fn.Name() == "New" && fn.FullName() == "(crypto.Hash).New" { // FullName builds a string: only for the name that may match
		return cryptoHashNew, true
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return constructor{}, false
	}
	key := fn.Pkg().Path() + "." + fn.Name()
	if ctor, ok := stdConstructors[key]; ok {
		return ctor, true
	}
	ctor, ok := c.constructors[key]
	return ctor, ok
}

// sumFuncs are the one-shot sum functions, by "importpath.Func", with the
// hashsum function that computes the same sum of several parts ("" when the
// runtime module has none).
var sumFuncs = map[string]string{
	"crypto/sha256.Sum256":                 "SHA256",
	"crypto/sha256.Sum224":                 "SHA224",
	"crypto/sha512.Sum512":                 "SHA512",
	"crypto/sha512.Sum384":                 "SHA384",
	"crypto/sha512.Sum512_224":             "SHA512_224",
	"crypto/sha512.Sum512_256":             "SHA512_256",
	"crypto/sha1.Sum":                      "SHA1",
	"crypto/md5.Sum":                       "MD5",
	"crypto/sha3.Sum224":                   "SHA3_224",
	"crypto/sha3.Sum256":                   "SHA3_256",
	"crypto/sha3.Sum384":                   "SHA3_384",
	"crypto/sha3.Sum512":                   "SHA3_512",
	"github.com/minio/sha256-simd.Sum256":  "SHA256",
	"golang.org/x/crypto/sha3.Sum224":      "SHA3_224",
	"golang.org/x/crypto/sha3.Sum256":      "SHA3_256",
	"golang.org/x/crypto/sha3.Sum384":      "SHA3_384",
	"golang.org/x/crypto/sha3.Sum512":      "SHA3_512",
	"golang.org/x/crypto/blake2b.Sum256":   "",
	"golang.org/x/crypto/blake2b.Sum512":   "",
	"golang.org/x/crypto/blake2s.Sum256":   "",
	"github.com/zeebo/blake3.Sum256":       "",
	"lukechampine.com/blake3.Sum256":       "",
	"golang.org/x/crypto/ripemd160.Sum160": "",
	// 0 allocations each (measured as the constructors above): they return
	// integers, and no multi-part form of them allocates less than the
	// concatenation (murmur3's hasher allocates 1).
	"github.com/spaolacci/murmur3.Sum32":  "",
	"github.com/spaolacci/murmur3.Sum64":  "",
	"github.com/spaolacci/murmur3.Sum128": "",
	"github.com/cespare/xxhash/v2.Sum64":  "",
	"github.com/zeebo/xxh3.Hash":          "",
	"github.com/zeebo/xxh3.Hash128":       "",
}

// partsFuncs are the variadic sums of the catalog, by "importpath.Func": they
// hash each of their ...[]byte arguments in order, so that a concatenation
// passed as their one argument is passed as its parts instead. Measured as
// the constructors above, with two 32-byte parts:
// crypto.Keccak256(append(a, b...)) 2 allocations, crypto.Keccak256(a, b) 1
// (the result); the same for Keccak256Hash (its one allocation is the
// variadic slice, which escapes through the pooled state's Write).
var partsFuncs = map[string]bool{
	"github.com/ethereum/go-ethereum/crypto.Keccak256":     true,
	"github.com/ethereum/go-ethereum/crypto.Keccak256Hash": true,
}

// sumConstructors gives the constructor of the hash of each standard sum
// function (and of each fork's, which computes what the standard hasher
// computes), for the file-local variadic sum of -pool=inline: the standard
// constructor of the crypto.Hash that names the sum's hashsum function.
var sumConstructors = func() map[string]string {
	m := map[string]string{}
	for sum, name := range sumFuncs {
		if ctor, ok := cryptoHashConstructors[name]; ok {
			m[sum] = ctor
		}
	}
	return m
}()

// reusedArgs returns the texts, valid at package level, of the arguments of
// call, a constructor that ctor.reuse lets a pool of the fixed file serve,
// and whether it returns an error too, which the arguments make nil; or why
// no pool serves it. Each argument must be a constant (nil, or a []byte
// conversion of a constant string, for a key): a pool serves the hashers of
// one set of arguments.
func (p *pass) reusedArgs(call *ast.CallExpr, ctor constructor) (args []string, fails bool, why string) {
	sig, ok := p.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	if !ctor.reuse.ok || !ok || call.Ellipsis.IsValid() {
		return nil, false, "no pool serves " + ctor.name
	}
	fails = sig.Results().Len() == 2
	if fails && !ctor.reuse.sized && !ctor.reuse.keyed {
		return nil, false, "no pool serves " + ctor.name + ": its error is not known to be nil"
	}
	for i, arg := range call.Args {
		value, text, ok := p.constArg(arg)
		if !ok {
			return nil, false, "no pool serves " + ctor.name + " with " + types.ExprString(arg) + ", which is not a constant: a pool holds the hashers of one set of arguments"
		}
		args = append(args, text)
		// Reject a size or a key with which the constructor returns an
		// error: its pool would hold nil hashers.
		switch {
		case i == 0 && ctor.reuse.sized:
			if n, exact := constant.Int64Val(value); value.Kind() != constant.Int || !exact || n < 1 || n > ctor.reuse.maxSize {
				return nil, false, types.ExprString(arg) + " is not a size that " + ctor.name + " accepts"
			}
		case i == len(call.Args)-1 && ctor.reuse.keyed:
			n := int64(0)
			if value != nil {
				n = int64(len(constant.StringVal(value)))
			}
			if n < ctor.reuse.minKey || n > ctor.reuse.maxKey {
				return nil, false, types.ExprString(arg) + " is not a key that " + ctor.name + " accepts"
			}
		}
	}
	return args, fails, ""
}

// constArg returns the value of a constant argument (nil for nil, the
// string of a []byte conversion of a constant string) and its text at
// package level: its own, unless it names a local constant.
func (p *pass) constArg(arg ast.Expr) (constant.Value, string, bool) {
	tv, ok := p.TypesInfo.Types[arg]
	if !ok {
		return nil, "", false
	}
	value, literal := tv.Value, ""
	switch {
	case tv.IsNil():
		return nil, "nil", true
	case value != nil:
		literal = value.ExactString()
	default:
		x, ok := values.ConversionOf(p.TypesInfo, arg)
		if !ok || !types.Identical(tv.Type, byteSlice) {
			return nil, "", false
		}
		value = p.TypesInfo.Types[x].Value
		if value == nil || value.Kind() != constant.String {
			return nil, "", false
		}
		literal = "[]byte(" + value.ExactString() + ")"
	}
	text := types.ExprString(arg)
	ast.Inspect(arg, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			_, isPkg := p.TypesInfo.Uses[id].(*types.PkgName)
			if obj := p.TypesInfo.Uses[id]; obj != nil && obj.Pkg() == p.Pkg && obj.Parent() != p.Pkg.Scope() && !isPkg {
				text = literal // a local constant
			}
		}
		return true
	})
	return value, text, true
}
