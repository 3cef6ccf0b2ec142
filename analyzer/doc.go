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
// concat-hash: a byte concatenation built only to be hashed — append(a, b...)
// (nested too), bytes.Join with an empty separator, or a variable filled by
// make and copy — passed to a sum function (sha256.Sum256, ...), to a hasher's
// Write, or to a function whose parameter only flows into a hash (known
// across packages through a fact). Everywhere, when it really allocates:
// append(buf[:0], ...), a constant-size make and buffers of unknown capacity
// are left alone. When the first operand of append is a parameter or a field,
// the message says that append may also write into its spare capacity.
// Fixes: a multi-part sum (hashsum.SHA256(a, b), or with -pool=inline a
// variadic sum declared in the file), one Write per part, or a variadic form
// of the package's own helper declared next to it.
//
// sum-alloc: h.Sum(nil) on a known hasher whose result is only compared
// (bytes.Equal, hmac.Equal, subtle.ConstantTimeCompare), copied, encoded (hex,
// base64) or appended, on every iteration of a loop or every call of a hot
// function: Sum appends to nil, which allocates. Fixes: append(dst,
// h.Sum(nil)...) becomes h.Sum(dst); otherwise, for a standard hasher whose
// Sum is devirtualized, the sum goes into an array on the stack
// (var sum [32]byte; h.Sum(sum[:0])).
//
// hot-buffer: a byte buffer that a hot hashing function builds on every call
// and that really reaches the heap: a make passed to Write through an
// interface the compiler cannot devirtualize (or to io.CopyBuffer), a make of
// a constant size above 64 KiB, a key built by append from nothing. A buffer
// that stays on the stack (constant size up to 64 KiB, or a size known only
// at run time, that does not escape) is never reported, nor one that is
// returned or stored. Fix: take it from a pool for the duration of the call
// (hashpool.Buffers, or with -pool=inline a sync.Pool of arrays in the file).
//
// A function is hot when it is in a static call cycle of its package, when it
// is called from a loop or from a hot function of the package, when its doc
// comment carries //hashalloc:hot, when the standard library calls it in a
// loop (its role: Read and Write of readers and writers, ServeHTTP and
// handler functions, RoundTrip, Less and Swap of a sort.Interface), or when a
// pprof profile (-profile) measures at least -profile-threshold of its
// samples in it; in a package the profile covers, a function below the
// threshold is cold. Messages say why, and the diagnostics' related
// information lists the evidence ("evidence: KIND: ...", "share: F ...").
//
// Across packages: a function that allocates a hasher, an HMAC or a
// concatenation on every call exports a fact, and a call of it in a loop of
// another package of its module, or in a function hot by strong evidence, is
// reported at that call, without a fix.
//
// Never reported: hashers that stay on the stack, hashers meant to outlive the
// call (stored, returned, sent, appended), init functions and package-level
// initializers, _test.go files unless -tests, generated files, and lines marked
// //hashalloc:ignore [category ...] or //nolint:hashalloc.
package analyzer

const doc = `find allocation-heavy hashing and rewrite it

hashalloc reports hash constructors whose hashers are heap allocated on every
iteration of a loop or every call of a hot function (hasher-alloc),
hmac.New called again and again with a key that does not change (hmac-rekey),
h.Sum(nil) whose result is only compared, copied or encoded (sum-alloc), and
byte buffers that hot hashing functions put on the heap per call (hot-buffer).
Its suggested fixes hoist the hasher and Reset it, call a constructor the
compiler keeps on the stack, take the hasher or the buffer from a pool, or
sum into the destination or a stack array.`
