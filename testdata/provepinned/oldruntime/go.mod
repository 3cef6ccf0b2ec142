module github.com/hashalloc/hashalloc/runtime

go 1.21
