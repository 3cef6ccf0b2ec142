// Package analyzer is hashalloc's go/analysis Analyzer: it finds hash
// constructors whose hashers reach the heap in hot code, decides whether a
// hasher really escapes with a small allocation model measured against the
// toolchain, and offers the cheapest rewrite that keeps what the code computes.
//
// # Checks
//
// hasher-alloc: a hash constructor (sha256.New, crypto.SHA256.New, a
// third-party hasher, ...) whose hasher is heap allocated, evaluated on every
// iteration of a loop or every call of a hot function. A standard hasher that
// only sees Write, Sum and Reset stays on the stack and is never reported; one
// that is passed to io.Copy or fmt.Fprintf escapes. Fixes: hoist it out of the
// loop and Reset it; call the standard constructor instead of crypto.Hash.New;
// or take it from a pool (-pool=runtime or -pool=inline).
//
// hmac-rekey: hmac.New(h, key) evaluated again and again with a key that does
// not change: a loop-invariant key, a struct field that only the struct's
// constructor sets, a package variable, a captured variable. Fixes: hoist and
// Reset in a loop; give the struct a pool of HMACs keyed once.
//
// A function is hot when it is in a static call cycle of its package, when it
// is called from a loop or from a hot function of the package, or when its
// doc comment carries //hashalloc:hot. Messages say why.
//
// Never reported: hashers that stay on the stack, hashers meant to outlive the
// call (stored, returned, sent, appended), init functions and package-level
// initializers, _test.go files unless -tests, generated files, and lines marked
// //hashalloc:ignore [category ...] or //nolint:hashalloc.
package analyzer

const doc = `find allocation-heavy hashing and rewrite it

hashalloc reports hash constructors whose hashers are heap allocated on every
iteration of a loop or every call of a hot function (hasher-alloc), and
hmac.New called again and again with a key that does not change (hmac-rekey).
Its suggested fixes hoist the hasher and Reset it, call a constructor the
compiler keeps on the stack, or take the hasher from a pool.`
