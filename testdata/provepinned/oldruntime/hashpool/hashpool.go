// Package hashpool stands for an old release of hashalloc's runtime
// module, from before package hashsum: a module that pins it builds, but
// not with a fix that imports hashsum.
package hashpool
