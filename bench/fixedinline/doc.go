// Package fixedinline is package naive after hashalloc -pool=inline -fix:
// fixedinline.go is naive.go with its package clause renamed, then fixed,
// and nothing else. The pools, and the one-shot HMACs and multi-part sums,
// are declared in the fixed file instead of taken from the runtime module.
// go generate regenerates it, and a test in cmd/hashalloc checks that it is
// up to date.
package fixedinline

//go:generate sh -c "sed 's/^package naive$/package fixedinline/' ../naive/double.go >double.go && sed 's/^package naive$/package fixedinline/' ../naive/naive.go >fixedinline.go && go run ../../cmd/hashalloc -pool=inline -fix ."
