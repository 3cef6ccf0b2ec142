// Package hashsum computes digests of the concatenation of several byte
// slices without building the concatenation and without allocating:
//
//	sum := hashsum.SHA256(header, body) // == sha256.Sum256(append(header, body...))
//
// Each function writes the parts into a hasher local to the call, which the
// compiler inlines, devirtualizes and keeps on the stack. The parts are
// therefore not retained and do not escape: buffers on the caller's stack
// stay there. (A pooled hasher, as in package hashpool, is called through
// the hash.Hash interface, which would make every part escape to the heap.)
package hashsum
