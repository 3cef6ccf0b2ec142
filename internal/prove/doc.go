// Package prove is hashalloc prove: it runs a module's own benchmarks on a
// copy of the module with an allocation profile, analyzes the packages with
// that profile as the evidence of what is hot, applies the fixes to the copy,
// runs the tests there and the same benchmarks again, and prints benchstat's
// before/after tables with the findings and the share of the profile that
// made each one hot.
//
// The analysis and the fixes are hashalloc's own, run as a command (the
// hashalloc binary, with -json, -fix and -profile) in the copy; the user's
// tree is changed only with -fix, and only once everything has passed on the
// copy.
package prove
