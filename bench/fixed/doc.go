// Package fixed is package naive after hashalloc -fix: fixed.go is naive.go
// with its package clause renamed, then fixed, and nothing else. go generate
// regenerates it, and a test in cmd/hashalloc checks that it is up to date.
//
// A function that hashalloc leaves unchanged has no fix yet; package bench
// measures a rewrite by hand for it.
package fixed

//go:generate sh -c "sed 's/^package naive$/package fixed/' ../naive/double.go >double.go && sed 's/^package naive$/package fixed/' ../naive/naive.go >fixed.go && go run ../../cmd/hashalloc -fix ."
