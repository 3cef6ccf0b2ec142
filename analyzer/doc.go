// Package analyzer is hashalloc's go/analysis Analyzer: it finds hash
// constructors whose hashers reach the heap once per item, decides whether a
// hasher really escapes with a small allocation model measured against the
// toolchain, and offers the cheapest rewrite that keeps what the code computes.
//
// # Checks
//
// Every finding belongs to one check, whose name is the finding's stable
// category: hasher-alloc, hmac-rekey, concat-hash, sum-alloc and hot-buffer.
// [Checks] documents them (what each reports, an example, the fix and why it
// pays); the documentation lives in checks/*.md, and `hashalloc help`,
// `hashalloc -explain CHECK` and docs/checks.md give the same text. The
// -checks flag ([Options.Checks]) chooses the checks that report.
//
// Every check asks the frequency model (package frequency) how often a site
// runs: per item when a loop over a collection or a stream repeats it, or
// its function is called by such a loop or by a function that runs per item,
// recurses, returns a hash of what it is given, or what such a hash
// selects (a ring's node), to callers outside (unless
// it derives a key in counter mode, once per session), has a
// role the standard library calls in a loop (Read and Write of readers and
// writers, ServeHTTP and handler functions, RoundTrip, Less and Swap of a
// sort.Interface), carries //hashalloc:hot, or is measured above
// -profile-threshold by a pprof profile (-profile, or a main package's
// default.pgo); and not when a rare branch guards it or each repetition does
// far more work beside it. Messages say how often, and the diagnostics'
// related information lists the evidence; -audit tells why a site is silent.
//
// Across packages: a function that allocates a hasher, an HMAC or a
// concatenation on every call exports a fact, and a call of it that runs per
// item in another package of its module, where the allocation is a visible
// share of each repetition, is reported at that call, without a fix.
//
// A key derivation of the package (a function whose result is an HMAC of
// its parameters and constants, such as AWS's getSigningKey) called again and
// again with values that do not change — fields that only composite literals
// set, constants, parameters whose callers pass those — is reported at its
// call as hmac-rekey, without a fix: the derived key does not change, and
// keeping it is the author's choice of a field or a cache.
//
// Never reported: hashers that stay on the stack, hashers meant to outlive the
// call (stored, returned, sent, appended), init functions and package-level
// initializers, _test.go files unless -tests, generated files, and lines marked
// //hashalloc:ignore [category ...] or //nolint:hashalloc. A
// //hashalloc:ignore comment that names something other than a check is
// reported (category "directive").
package analyzer

var doc = `find allocation-heavy hashing and rewrite it

hashalloc reports hash constructors, HMACs, concatenations, sums and byte
buffers that allocate once per item of the work that repeats them, and
rewrites them through suggested fixes: a hasher hoisted and
Reset, a constructor the compiler keeps on the stack, the parts of a
concatenation written one after another, a sum into the destination or a
stack array, or a hasher or buffer taken from a pool.

` + checksDoc()
