module example.com/autopoolrequired

go 1.26.0

require github.com/hashalloc/hashalloc/runtime v0.1.0

replace github.com/hashalloc/hashalloc/runtime => ../../../runtime
