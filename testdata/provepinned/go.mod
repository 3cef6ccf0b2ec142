module example.com/provepinned

go 1.26.0

require github.com/hashalloc/hashalloc/runtime v0.0.1

replace github.com/hashalloc/hashalloc/runtime => ./oldruntime
