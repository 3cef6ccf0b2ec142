// Package driver is the hashalloc command: it lists packages with
// go/packages, analyzes them package by package, each after the packages it
// imports (whose facts it needs), keeping of a dependency only its types and
// facts, as go vet and staticcheck do, prints the findings as text or JSON,
// and applies or previews their fixes.
//
// It behaves like go vet and staticcheck: test files are loaded only with
// -tests, -tags selects build tags, paths are printed relative to the working
// directory, each finding is printed once, and the exit code says what
// happened (see [Main]).
//
// The go vet and go fix protocol (-V=full, -flags, and a single *.cfg file,
// as go vet -vettool and go fix -fixtool run the command) is served by
// golang.org/x/tools/go/analysis/singlechecker, as before; only a bad flag
// value is caught first, so that it is printed once rather than once per
// package.
package driver
