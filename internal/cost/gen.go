package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// shape writes a generated package of n functions into dir.
type shape struct {
	name string // as printed
	doc  string
	gen  func(n int) string
}

// shapes are the generated packages: the shapes whose cost grew faster than
// the package when the checks walked the whole package per site.
var shapes = []shape{
	{"callers", "n callers of a local hashing helper, each concatenating its arguments", genCallers},
	{"cycle", "a ring of n mutually recursive functions, each with a hasher that escapes", genCycle},
	{"plain", "n plain functions, nothing to find", genPlain},
}

func genCallers(n int) string {
	var b strings.Builder
	b.WriteString("package gen\n\nimport \"crypto/sha256\"\n\nfunc helper(b []byte) [32]byte { return sha256.Sum256(b) }\n\n")
	for i := range n {
		fmt.Fprintf(&b, "func F%d(a, b []byte) [32]byte { return helper(append(a, b...)) }\n\n", i)
	}
	return b.String()
}

func genCycle(n int) string {
	var b strings.Builder
	b.WriteString("package gen\n\nimport (\n\t\"bytes\"\n\t\"crypto/sha256\"\n\t\"io\"\n)\n\nvar out [32]byte\n\n")
	for i := range n {
		fmt.Fprintf(&b, "func F%d(d []byte, depth int) {\n\tif depth == 0 {\n\t\treturn\n\t}\n\th := sha256.New()\n\tio.Copy(h, bytes.NewReader(d))\n\th.Sum(out[:0])\n\tF%d(d, depth-1)\n}\n\n", i, (i+1)%n)
	}
	return b.String()
}

func genPlain(n int) string {
	var b strings.Builder
	b.WriteString("package gen\n\n")
	for i := range n {
		fmt.Fprintf(&b, "func F%d(a, b int) int {\n\tif a > b {\n\t\treturn a - b\n\t}\n\treturn b - a + %d\n}\n\n", i, i)
	}
	return b.String()
}

// writeModule writes a module holding one generated package and returns its
// directory.
func writeModule(root string, s shape, n int) (string, error) {
	dir := filepath.Join(root, fmt.Sprintf("%s%d", s.name, n))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/gen\n\ngo 1.26\n"), 0o644); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "gen.go"), []byte(s.gen(n)), 0o644)
}
