// Package frequency estimates how often a site of a package runs, per item
// of the work that repeats it, and whether an allocation there is a visible
// share of that work. It is the one model that hashalloc's checks ask
// before they report an allocation that happens per call or per iteration.
//
// The model, in terms of what code does:
//
//   - Per item. A site runs per item when a loop over a collection or a
//     stream repeats it: a range over a slice, a map, a channel, a string or
//     a count known only at run time, a for loop bounded by a length or a
//     variable, a read or scan loop. A loop bounded by a small constant (an
//     array, a literal list, a constant count of up to 8, a field that the
//     package sets only to literal lists of that many: a protocol's table,
//     as a handshake pattern's tokens), one over the
//     parts of one string split by a separator that is no line break (a
//     path's steps: parts of one item, where lines are records), one that
//     counts the digest-sized blocks of an output (a bound divided by a
//     hash's Size: a key derived in counter mode), a search that
//     tries until it finds, up to a constant number of tries (rejection
//     sampling: its first try is the usual one), one over hash algorithms
//     (values that each make a hasher: a crypto.Hash, a func() hash.Hash),
//     one over the streams of a merge (a collection whose elements the
//     function, beside it, visits again in each turn of a loop with no
//     condition, up to two calls deep: a header read per input, then its
//     pages until every input ends), or that the site
//     leaves right after it runs (it returns, or breaks out), does not
//     repeat it. A function runs per item when such a loop calls it, or a
//     function that runs per item calls it (a function literal among them:
//     one presumed below to run per item, as a hashing function whose
//     holder calls it, makes the functions it calls run per item as its own
//     sites do); when it recurses (a call cycle
//     that is not a tail call: once per node of what it walks); when it is a
//     hashing function that other code calls once per item it hashes (given
//     data, not only numbers; its results a digest, a MAC or a verdict on
//     one, not a count with an error as io's Read and Write return; or, with
//     a verdict, what it checked, when it compares the hash it computes:
//     a verifier; or, whatever their types, what a hash of what it is given
//     selects: an element of a map or a slice the function holds, read at
//     an index that a hash computes, as a ring's lookup of a key's node; no
//     loop of its own that hashes a collection; no key derivation in
//     counter mode, itself or through the functions it calls (HKDF, or a
//     function of another package whose fact says it derives a key), nor
//     returns the end
//     of a chain of three hashes or more, each given what the one before
//     returned, the last nothing else but constants (a signing key from a
//     secret, a date, a region and a service: a key, where a signer that
//     goes on to hash what it is given with it returns an item's hash),
//     which
//     runs once per session, handshake or login that needs the key; exported, a method an
//     interface may reach, or a function value, a function literal among
//     them; and the package's own calls of it, when it makes any, do not
//     all show it to run once per collection: when every one of them is
//     made, outside any loop, by a function that hashes a whole collection
//     or derives a key beside it (an epoch's seed drawn before every
//     validator is shuffled with it, a signature made with the key just
//     derived), the presumption yields to what the package shows; a caller
//     that makes a value, a token built, shows nothing of how often; and
//     when every call the package makes of it, through its own interfaces
//     too, is made beside work that the site is noise beside, done by the
//     caller itself on the call's path (not in another arm of a branch, nor
//     what the package's functions it calls may do on some path) or, up to
//     three calls up, by every caller of the caller (an HTTP body read to
//     its end, a request sent, the round trip of an HTTP request the caller
//     is given as an *http.Request or builds: a webhook's delivery, a
//     signed request), or when it is given or builds an HTTP request
//     itself, it yields to that too: the unit of work that repeats is the
//     request, not the hash); when
//     it is a method that derives a child of its receiver by index and
//     hashes to do so (one integer parameter, a result of the receiver's
//     type alone or with an error: an HD key's Derive(i), which callers
//     call once per child they enumerate); when
//     the standard library calls it in a loop (a role: Read and Write of
//     streams, sort's Less and Swap; ServeHTTP and RoundTrip, once per
//     request, around far more work); when a //hashalloc:hot directive
//     marks it. Calls go through function literals called in place (or
//     through a local variable that is only called: get := func...;
//     get(a)), interfaces the package declares and function values whose
//     targets it holds, and, across packages, facts. What test code calls is no
//     evidence (a benchmark calls what it measures b.N times); its own loops
//     repeat what is in them.
//   - Rare branches. A site, or a call, under a condition that is rarely
//     true runs rarely, whatever repeats the code around it: a nil test that
//     initializes or refreshes a value, an error path, an expiry test on the
//     clock, a cache miss (after a return on a hit, or in the branch that
//     fills the cache), an early return for an empty input (if len(x) == 0
//     { return ... }: the edge case, which a recursion that splits its input
//     never makes), the end of a stream (err == io.EOF), a branch taken at
//     most once per run of its loop or per value (a state machine's case
//     that moves the state on where nothing moves it back; a block that
//     sets the flag its guard tests: done once), the function sync.Once runs
//     (the heuristics of Ball and Larus, PLDI 1993, for pointers, errors,
//     loops and, for emptiness only, opcodes).
//   - Share of the work. An allocation that is a small part of what each
//     repetition does is not worth a finding, however often it runs: a
//     repetition that stretches a key (PBKDF2, scrypt, Argon2, bcrypt), makes
//     or checks a public-key signature, does big-number modular arithmetic,
//     or I/O (files, the network, processes; an HTTP request's or
//     response's body read to its end), costs far more than it; one
//     that encodes or decodes (JSON, XML, gob, ASN.1, X.509, or a value of any
//     type: a function given an empty interface that returns bytes, by
//     reflection), derives key material in counter mode (a function of
//     the package that hashes in a loop over the digest-sized blocks of
//     its output), or formats a string itself (fmt.Sprintf), costs more
//     than a single allocation, and one that decodes a value of any type
//     (given bytes or a reader and nothing else, or holding one, it fills
//     what an empty interface points to, allocating each field, in no arm
//     of a branch: a JSON document decoded
//     into a webhook's event or a cookie's session) costs more than a few
//     small ones, up to five (a MAC keyed anew); so do six or more calls that allocate what
//     they return (strings formatted, encoded, joined or split; a URL's
//     query parsed or encoded; a sort by a function, sort.Slice; a hasher's
//     Sum(nil); each value fmt.Fprint boxes; what a dynamic call allocates
//     by its signature: each value it boxes into an interface parameter,
//     each local variable whose address it is given, the string it builds
//     from bytes), counted along the chain of calls that repeats the site
//     (up to a loop whose iterations go on from each other, one that hashes
//     what the previous produced, as PBKDF2 does, or one with no condition,
//     a log read until it ends: what runs around it runs once for all its
//     iterations; the cheapest of the calls that repeat a function decides,
//     as one caller's work beside its call is not another's),
//     with the arguments of each call of the chain, and across the
//     packages of a module through a fact (a function that returns only
//     an error exports none: what it allocates is mostly its error). A call that hashes in a loop of its own
//     hashes a collection: one allocation it makes once beside the loop is
//     shared by every item (more than one, or a buffer of 4 KiB or more,
//     which costs its zeroing, is not; any is, when each iteration calls a
//     function of the package that builds a hasher of its own); so is, for a
//     site that runs once per call of a caller, the caller's hashing of a
//     whole collection beside that call. What a function of another package costs comes from
//     a fact, when that package's analysis knew it; what the standard
//     library does around a role (serving a request) comes with the role.
//   - Measured beats estimated. A profile decides in the packages it covers:
//     a function with at least the threshold of its samples runs per item,
//     one below it does not, whatever the call graph says; only the
//     directive, the user's own word, stands against it (and test code,
//     which no profile of the program measures).
//
// Each estimate says what repeats the site in plain words ("once per call of
// leafHash, which Root calls once per leaf of leaves (the loop at
// merkle.go:30)"), with the chain of calls that carries it, or, for a site that does not run per item or is not worth
// a finding, why not: the audit of hashalloc lists those reasons.
package frequency
