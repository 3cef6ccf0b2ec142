package analyzer

import (
	"fmt"
	"go/types"
	"strings"
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
}

// stdConstructors are the constructors of the standard library and of the common
// third-party hash modules, keyed by "importpath.Func".
var stdConstructors = map[string]constructor{
	"crypto/sha256.New":        {name: "sha256.New", pool: "SHA256", allocs: 1},
	"crypto/sha256.New224":     {name: "sha256.New224", pool: "SHA224", allocs: 1},
	"crypto/sha512.New":        {name: "sha512.New", pool: "SHA512", allocs: 1},
	"crypto/sha512.New384":     {name: "sha512.New384", pool: "SHA384", allocs: 1},
	"crypto/sha512.New512_224": {name: "sha512.New512_224", pool: "SHA512_224", allocs: 1},
	"crypto/sha512.New512_256": {name: "sha512.New512_256", pool: "SHA512_256", allocs: 1},
	"crypto/sha1.New":          {name: "sha1.New", pool: "SHA1", allocs: 1},
	"crypto/md5.New":           {name: "md5.New", pool: "MD5", allocs: 1},
	"crypto/sha3.New224":       {name: "sha3.New224", pool: "SHA3_224", allocs: 1},
	"crypto/sha3.New256":       {name: "sha3.New256", pool: "SHA3_256", allocs: 1},
	"crypto/sha3.New384":       {name: "sha3.New384", pool: "SHA3_384", allocs: 1},
	"crypto/sha3.New512":       {name: "sha3.New512", pool: "SHA3_512", allocs: 1},
	"hash/fnv.New32":           {name: "fnv.New32", pool: "FNV32", allocs: 1},
	"hash/fnv.New32a":          {name: "fnv.New32a", pool: "FNV32a", allocs: 1},
	"hash/fnv.New64":           {name: "fnv.New64", pool: "FNV64", allocs: 1},
	"hash/fnv.New64a":          {name: "fnv.New64a", pool: "FNV64a", allocs: 1},
	"hash/fnv.New128":          {name: "fnv.New128", pool: "FNV128", allocs: 1},
	"hash/fnv.New128a":         {name: "fnv.New128a", pool: "FNV128a", allocs: 1},
	"hash/crc32.NewIEEE":       {name: "crc32.NewIEEE", pool: "CRC32", allocs: 1},
	"hash/crc32.New":           {name: "crc32.New", allocs: 1},
	"hash/crc64.New":           {name: "crc64.New", allocs: 1},
	"hash/adler32.New":         {name: "adler32.New", pool: "Adler32", allocs: 1},

	"crypto/hmac.New": {name: "hmac.New", alloc: always, hmac: true, allocs: 5},

	// Third-party constructors, measured with testing.AllocsPerRun on Go 1.26
	// (golang.org/x/crypto v0.59.0, zeebo/blake3 v0.2.4, lukechampine.com/blake3
	// v1.4.1, minio/sha256-simd v1.0.1).
	"golang.org/x/crypto/blake2b.New":             {name: "blake2b.New", alloc: always, allocs: 1},
	"golang.org/x/crypto/blake2b.New256":          {name: "blake2b.New256", alloc: always, allocs: 1},
	"golang.org/x/crypto/blake2b.New384":          {name: "blake2b.New384", alloc: always, allocs: 1},
	"golang.org/x/crypto/blake2b.New512":          {name: "blake2b.New512", alloc: always, allocs: 1},
	"golang.org/x/crypto/blake2s.New128":          {name: "blake2s.New128", alloc: always, allocs: 1},
	"golang.org/x/crypto/blake2s.New256":          {name: "blake2s.New256", alloc: always, allocs: 1},
	"lukechampine.com/blake3.New":                 {name: "blake3.New", alloc: always, allocs: 1},
	"github.com/minio/sha256-simd.New":            {name: "sha256.New", alloc: always, allocs: 1},
	"golang.org/x/crypto/ripemd160.New":           {name: "ripemd160.New", allocs: 1},
	"golang.org/x/crypto/sha3.New224":             {name: "sha3.New224", allocs: 1},
	"golang.org/x/crypto/sha3.New256":             {name: "sha3.New256", allocs: 1},
	"golang.org/x/crypto/sha3.New384":             {name: "sha3.New384", allocs: 1},
	"golang.org/x/crypto/sha3.New512":             {name: "sha3.New512", allocs: 1},
	"golang.org/x/crypto/sha3.NewLegacyKeccak256": {name: "sha3.NewLegacyKeccak256", allocs: 1},
	"golang.org/x/crypto/sha3.NewLegacyKeccak512": {name: "sha3.NewLegacyKeccak512", allocs: 1},
	"github.com/zeebo/blake3.New":                 {name: "blake3.New", allocs: 1},
}

// cryptoHashConstructors maps the crypto.Hash constants whose New method hashalloc can
// rewrite to the standard constructor ("importpath.Func") that builds the same hasher.
var cryptoHashConstructors = map[string]string{
	"MD5":        "crypto/md5.New",
	"SHA1":       "crypto/sha1.New",
	"SHA224":     "crypto/sha256.New224",
	"SHA256":     "crypto/sha256.New",
	"SHA384":     "crypto/sha512.New384",
	"SHA512":     "crypto/sha512.New",
	"SHA512_224": "crypto/sha512.New512_224",
	"SHA512_256": "crypto/sha512.New512_256",
	"SHA3_224":   "crypto/sha3.New224",
	"SHA3_256":   "crypto/sha3.New256",
	"SHA3_384":   "crypto/sha3.New384",
	"SHA3_512":   "crypto/sha3.New512",
}

// cryptoHashNew is the crypto.Hash.New method: a hasher built through a
// crypto.Hash value is not devirtualized and always reaches the heap.
var cryptoHashNew = constructor{name: "crypto.Hash.New", alloc: always, allocs: 1}

// constructorList is the value of the -constructors flag: extra constructors,
// given as importpath.Func, whose hashers are heap allocated whatever happens.
type constructorList map[string]constructor

func (l constructorList) String() string {
	names := make([]string, 0, len(l))
	for k := range l {
		names = append(names, k)
	}
	return strings.Join(names, ",")
}

func (l constructorList) Set(s string) error {
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		slash := strings.LastIndex(item, "/")
		dot := strings.LastIndex(item, ".")
		if dot <= slash || dot == len(item)-1 || dot == 0 {
			return fmt.Errorf("-constructors: %q is not of the form importpath.Func", item)
		}
		pkg := item[strings.LastIndex(item[:dot], "/")+1:]
		l[item] = constructor{name: pkg, alloc: always}
	}
	return nil
}

// lookupConstructor returns the constructor that fn is, if hashalloc knows it.
func (c *config) lookupConstructor(fn *types.Func) (constructor, bool) {
	if fn.Pkg() == nil {
		return constructor{}, false
	}
	if fn.FullName() == "(crypto.Hash).New" {
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
}

// sumConstructors gives the constructor of the hash of each standard sum
// function, for the file-local variadic sum of -pool=inline.
var sumConstructors = map[string]string{
	"crypto/sha256.Sum256":     "crypto/sha256.New",
	"crypto/sha256.Sum224":     "crypto/sha256.New224",
	"crypto/sha512.Sum512":     "crypto/sha512.New",
	"crypto/sha512.Sum384":     "crypto/sha512.New384",
	"crypto/sha512.Sum512_224": "crypto/sha512.New512_224",
	"crypto/sha512.Sum512_256": "crypto/sha512.New512_256",
	"crypto/sha1.Sum":          "crypto/sha1.New",
	"crypto/md5.Sum":           "crypto/md5.New",
	"crypto/sha3.Sum224":       "crypto/sha3.New224",
	"crypto/sha3.Sum256":       "crypto/sha3.New256",
	"crypto/sha3.Sum384":       "crypto/sha3.New384",
	"crypto/sha3.Sum512":       "crypto/sha3.New512",
	// A fork computes what the standard hasher computes.
	"github.com/minio/sha256-simd.Sum256": "crypto/sha256.New",
	"golang.org/x/crypto/sha3.Sum224":     "crypto/sha3.New224",
	"golang.org/x/crypto/sha3.Sum256":     "crypto/sha3.New256",
	"golang.org/x/crypto/sha3.Sum384":     "crypto/sha3.New384",
	"golang.org/x/crypto/sha3.Sum512":     "crypto/sha3.New512",
}
