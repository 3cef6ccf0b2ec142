// Package bench holds the benchmarks that justify hashalloc's rewrites: for
// every kind of rewrite, the code before it (package naive), the code after
// it (package fixed, which is naive after hashalloc -fix, or fixedinline,
// naive after hashalloc -pool=inline -fix) and the floor, the cheapest code
// that does the same work, at a few message sizes.
//
// They run under go test -bench (BenchmarkRewrites) and in process through
// testing.Benchmark (Run), which is what hashalloc bench does:
//
//	go test -run '^$' -bench Rewrites -benchmem ./bench
//	hashalloc bench -run hmac
package bench
