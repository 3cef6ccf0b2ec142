// Package naive is the code before each rewrite that hashalloc suggests,
// one function per rewrite kind, written the way hashalloc finds it in real
// code. Package fixed is naive.go after hashalloc -fix, and package bench
// measures both against the floor.
//
// The code is naive on purpose: hashalloc reports every function in it, so
// it is left out when hashalloc checks its own code (.ci/run).
package naive
